//! `Tool`: the enum, its tables (names, wire names, specs) and the constants `tool!` reads.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Gen, doc, ident};
use crate::names;
use crate::spec;

impl Gen<'_> {
    pub(super) fn tool_enum(&self) -> TokenStream {
        let specs = spec::rows(self.c);
        let rows: Vec<Row> = specs
            .iter()
            .zip(self.variants())
            .map(|(s, variant)| Row {
                name: s.tool.name.clone(),
                variant,
                doc: format!("`{}`: {}", s.tool.name, s.tool.description),
                wire_name: s.wire_name.clone(),
            })
            .collect();
        let specs: Vec<TokenStream> = specs.iter().map(Gen::spec).collect();
        tool_enum(self.core, &rows, &specs)
    }
}

/// A variant of `Tool`: the name the model sees, the variant, its doc, its wire name.
struct Row {
    name: String,
    variant: syn::Ident,
    doc: String,
    wire_name: String,
}

/// `Tool` and its `impl`s, for the full expansion and for the skeleton alike.
fn tool_enum(core: &syn::Path, rows: &[Row], specs: &[TokenStream]) -> TokenStream {
    let n = Literal::usize_unsuffixed(rows.len());
    let variants: Vec<&syn::Ident> = rows.iter().map(|r| &r.variant).collect();
    let docs = rows.iter().map(|r| doc(&r.doc));
    let names = rows.iter().map(|r| &r.name);
    let mut sorted: Vec<(&str, &syn::Ident)> =
        rows.iter().map(|r| (r.name.as_str(), &r.variant)).collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let (sorted_names, sorted_variants): (Vec<_>, Vec<_>) = sorted.into_iter().unzip();
    let mut by_wire: Vec<(&str, &syn::Ident)> = rows
        .iter()
        .map(|r| (r.wire_name.as_str(), &r.variant))
        .collect();
    by_wire.sort_by(|a, b| a.0.cmp(b.0));
    let (wire_names, wire_variants): (Vec<_>, Vec<_>) = by_wire.into_iter().unzip();
    let constants = tool_constants(rows);
    quote! {


        /// A tool of the catalog, in `catalog.toml` order.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub enum Tool {
            #( #docs #variants, )*
        }

        impl Tool {
            /// Every tool, in catalog order.
            pub const ALL: [Tool; #n] = [ #( Tool::#variants ),* ];
            /// Number of tools.
            pub const COUNT: usize = #n;
            const SPECS: &'static [#core::ToolSpec] = {
                #[allow(unused_imports)]
                use #core::{Access, Shape, Tier, ToolSpec, Visibility, shape::{Bounds, Defs, Object, Property, Rules}};
                #[allow(unused_imports)]
                use ::core::option::Option::{None, Some};
                &[ #( #specs ),* ]
            };
            // Tables of plain constants rather than a `match` or pairs: one arm or pair a
            // tool is work in rustc that grew faster than the catalog.
            const NAMES: [&'static str; #n] = [ #( #names ),* ];
            const SORTED_NAMES: [&'static str; #n] = [ #( #sorted_names ),* ];
            const BY_NAME: [Tool; #n] = [ #( Tool::#sorted_variants ),* ];
            const SORTED_WIRE_NAMES: [&'static str; #n] = [ #( #wire_names ),* ];
            const BY_WIRE_NAME: [Tool; #n] = [ #( Tool::#wire_variants ),* ];

            /// The name the model sees.
            #[must_use]
            pub const fn name(self) -> &'static str {
                Tool::NAMES[self as usize]
            }

            /// Position in catalog order, `0..COUNT`.
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// Everything the row declares.
            #[must_use]
            pub const fn spec(self) -> &'static #core::ToolSpec {
                &Tool::SPECS[self as usize]
            }

            /// The tool with this name (binary search over the sorted names).
            #[must_use]
            pub const fn from_name(name: &str) -> ::core::option::Option<Tool> {
                #core::__private::lookup(&Tool::SORTED_NAMES, &Tool::BY_NAME, name)
            }

            /// The tool with this name on the wire (`spec().wire_name`), as providers that
            /// restrict names send it back (binary search over the sorted wire names).
            #[must_use]
            pub const fn from_wire_name(name: &str) -> ::core::option::Option<Tool> {
                #core::__private::lookup(&Tool::SORTED_WIRE_NAMES, &Tool::BY_WIRE_NAME, name)
            }

            #[doc(hidden)]
            #[must_use]
            pub const fn __from_token(token: &str) -> Tool {
                match Tool::from_name(#core::__private::unquote(token)) {
                    ::core::option::Option::Some(tool) => tool,
                    ::core::option::Option::None => ::core::panic!("tools![...] names a tool that is not in the catalog"),
                }
            }
        }

        impl #core::ToolId for Tool {
            const COUNT: usize = #n;
            fn index(self) -> usize {
                self as usize
            }
            fn from_index(index: usize) -> ::core::option::Option<Tool> {
                if index < Tool::COUNT { ::core::option::Option::Some(Tool::ALL[index]) } else { ::core::option::Option::None }
            }
            fn name(self) -> &'static str {
                Tool::name(self)
            }
            fn from_name(name: &str) -> ::core::option::Option<Tool> {
                Tool::from_name(name)
            }
            fn spec(self) -> &'static #core::ToolSpec {
                Tool::spec(self)
            }
        }

        impl ::core::fmt::Display for Tool {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        #constants
    }
}

/// One constant per tool whose name is a Rust identifier, named exactly as the model sees
/// it: what `tool!(openTable)` and `tools![openTable]` resolve to, so a name the catalog
/// lacks is rustc's own "cannot find value" error, on the user's token, with its
/// similar-name suggestions.
fn tool_constants(rows: &[Row]) -> TokenStream {
    let constants = rows.iter().filter_map(|r| {
        let name = ident(&names::value_ident(&r.name)?);
        let variant = &r.variant;
        Some(quote! { pub const #name: super::Tool = super::Tool::#variant; })
    });
    quote! {
        /// The tools by the names the model sees, for `tool!` and `tools!`.
        #[doc(hidden)]
        #[allow(non_upper_case_globals, missing_docs)]
        pub mod __tools {
            #( #constants )*
        }
    }
}
