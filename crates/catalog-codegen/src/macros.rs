//! The `tools!` and `tool!` macros.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;

/// `tools!` and `tool!`, for a catalog expanded in `module` (see
/// [`Options::module`](super::Options::module)).
///
/// At the crate root each is a `#[macro_export]` macro of that name. In a module each is a
/// `#[macro_export]` macro named after the module, so that the catalogs of one crate do
/// not collide, and the module re-exports it under the short name: `billing::tools!`,
/// from the crate itself and from any crate depending on it. The re-export names the
/// macro by its textual scope, the one way a crate can name a `#[macro_export]` macro
/// that a macro generated (by path, even `$crate::`, rustc refuses it), so neither macro
/// calls the other. Their bodies reach the catalog through `$crate` and the module's path.
///
/// A name is an identifier (`openTable`, resolved through `__tools`) or a string literal
/// (`"triangle_properties.get"`, looked up at compile time).
pub(super) fn list_macros(module: Option<&syn::Path>) -> TokenStream {
    let inner = module.map(inner_segments).unwrap_or_default();
    let at = quote!($crate #(::#inner)*);
    let (tools, tool, export) = if inner.is_empty() {
        (format_ident!("tools"), format_ident!("tool"), quote!())
    } else {
        let tag: Vec<String> = inner.iter().map(|i| i.unraw().to_string()).collect();
        let tag = tag.join("__");
        let tools = format_ident!("__catalog_tools_{tag}");
        let tool = format_ident!("__catalog_tool_{tag}");
        let export = quote! {
            #[doc(inline)]
            pub use #tools as tools;
            #[doc(inline)]
            pub use #tool as tool;
        };
        (tools, tool, export)
    };
    let hidden = (!inner.is_empty()).then(|| quote!(#[doc(hidden)]));
    let check = module.map(module_check);
    quote! {
        /// A tool set written by the names the model sees, checked at compile time:
        /// `tools![openTable, "triangle_properties.get"]`. A name the catalog lacks fails
        /// to compile.
        #hidden
        #[macro_export]
        macro_rules! #tools {
            ($($name:tt),* $(,)?) => {{
                #[allow(unused_macros)] // `tools![]`
                macro_rules! __catalog_tool {
                    ($tool:ident) => { #at::__tools::$tool };
                    ($tool:literal) => { #at::Tool::__from_token($tool) };
                }
                const SET: #at::ToolSet = #at::ToolSet::EMPTY
                    $( .with_index(__catalog_tool!($name).index()) )*;
                SET
            }};
        }

        /// One tool by the name the model sees, checked at compile time: `tool!(openTable)`,
        /// `tool!("triangle_properties.get")`.
        #hidden
        #[macro_export]
        macro_rules! #tool {
            ($name:ident) => { #at::__tools::$name };
            ($name:literal) => {{
                const TOOL: #at::Tool = #at::Tool::__from_token($name);
                TOOL
            }};
        }

        #export
        #check
    }
}

/// The names of a module path after its leading `crate`.
fn inner_segments(module: &syn::Path) -> Vec<&syn::Ident> {
    let all = &module.segments;
    let skip = usize::from(all.first().is_some_and(|s| s.ident == "crate"));
    all.iter().skip(skip).map(|s| &s.ident).collect()
}

/// Fails to compile, on the path the invocation wrote, unless the module it names is the
/// one the catalog is expanded in: the macros would otherwise name another module's items.
fn module_check(module: &syn::Path) -> TokenStream {
    let span = module
        .segments
        .last()
        .map_or_else(|| module.span(), |s| s.ident.span());
    quote_spanned! {span=>
        const _: fn(Tool) -> #module::Tool = |tool| tool;
    }
}
