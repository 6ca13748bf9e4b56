//! The `tools!` and `tool!` macros.

use proc_macro2::TokenStream;
use quote::quote;

/// `tools!` and `tool!`. Each is self-contained: a `#[macro_export]` macro that a macro
/// generated cannot be named by `$crate::` path inside its own crate, so neither calls the
/// other. A name is an identifier (`openTable`, resolved through `__tools`) or a string
/// literal (`"triangle_properties.get"`, looked up at compile time).
pub(super) fn list_macros() -> TokenStream {
    quote! {
        /// A tool set written by the names the model sees, checked at compile time:
        /// `tools![openTable, "triangle_properties.get"]`. A name the catalog lacks fails
        /// to compile.
        #[macro_export]
        macro_rules! tools {
            ($($name:tt),* $(,)?) => {{
                #[allow(unused_macros)] // `tools![]`
                macro_rules! __catalog_tool {
                    ($tool:ident) => { $crate::__tools::$tool };
                    ($tool:literal) => { $crate::Tool::__from_token($tool) };
                }
                const SET: $crate::ToolSet = $crate::ToolSet::EMPTY
                    $( .with_index(__catalog_tool!($name).index()) )*;
                SET
            }};
        }

        /// One tool by the name the model sees, checked at compile time: `tool!(openTable)`,
        /// `tool!("triangle_properties.get")`.
        #[macro_export]
        macro_rules! tool {
            ($name:ident) => { $crate::__tools::$name };
            ($name:literal) => {{
                const TOOL: $crate::Tool = $crate::Tool::__from_token($name);
                TOOL
            }};
        }
    }
}
