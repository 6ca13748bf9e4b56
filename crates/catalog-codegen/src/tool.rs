//! `Tool`: the enum, its tables (names, wire names, specs) and the constants `tool!` reads.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use catalog_check::names;

use super::{Gen, doc, ident};

impl Gen<'_> {
    pub(super) fn tool_enum(&self) -> TokenStream {
        let rows: Vec<Row> = self
            .c
            .tools
            .iter()
            .zip(self.c.wire_names())
            .zip(self.variants())
            .map(|((tool, wire_name), variant)| Row {
                name: tool.name.clone(),
                variant,
                doc: format!("`{}`: {}", tool.name, tool.description),
                wire_name,
            })
            .collect();
        let spec_body = super::specs::spec_fn_body(self.core, self.c);
        tool_enum(self.core, &rows, &spec_body)
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
fn tool_enum(core: &syn::Path, rows: &[Row], spec_body: &TokenStream) -> TokenStream {
    let n = Literal::usize_unsuffixed(rows.len());
    let variants: Vec<&syn::Ident> = rows.iter().map(|r| &r.variant).collect();
    let docs = rows.iter().map(|r| doc(&r.doc));
    let names = str_table(core, rows.iter().map(|r| r.name.as_str()));
    let by_name = order(rows.iter().map(|r| r.name.as_str()));
    // Most names fit every provider as they are: then the wire names are the same table.
    let (wire_names, by_wire_name) = if rows.iter().all(|r| r.wire_name == r.name) {
        (quote!(Tool::NAMES), quote!(Tool::BY_NAME))
    } else {
        let by_wire_name = order(rows.iter().map(|r| r.wire_name.as_str()));
        (
            str_table(core, rows.iter().map(|r| r.wire_name.as_str())),
            quote!(#by_wire_name),
        )
    };
    let variant_names: Vec<String> = rows.iter().map(|r| r.variant.to_string()).collect();
    let variant_names = str_table(core, variant_names.iter().map(String::as_str));
    let constants = tool_constants(rows);
    quote! {


        /// A tool of the catalog, in `catalog.toml` order.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Tool {
            #( #docs #variants, )*
        }

        impl Tool {
            /// Every tool, in catalog order.
            pub const ALL: [Tool; #n] = [ #( Tool::#variants ),* ];
            /// Number of tools.
            pub const COUNT: usize = #n;
            // Names as one literal each rather than a `match` or an array: an arm or an
            // element a tool is work in rustc that grew faster than the catalog.
            const NAMES: #core::__private::StrTable = #names;
            /// Indices in byte-wise order of the names, for `from_name`.
            const BY_NAME: &'static [u8] = #by_name;
            const WIRE_NAMES: #core::__private::StrTable = #wire_names;
            const BY_WIRE_NAME: &'static [u8] = #by_wire_name;
            const VARIANTS: #core::__private::StrTable = #variant_names;

            /// The name the model sees.
            #[must_use]
            pub const fn name(self) -> &'static str {
                Tool::NAMES.get(self as usize)
            }

            /// Position in catalog order, `0..COUNT`.
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// Everything the row declares.
            #[must_use]
            pub fn spec(self) -> &'static #core::ToolSpec<'static> {
                #spec_body
            }

            /// The tool with this name (binary search over the sorted names).
            #[must_use]
            pub const fn from_name(name: &str) -> ::core::option::Option<Tool> {
                match Tool::NAMES.find(Tool::BY_NAME, name) {
                    ::core::option::Option::Some(i) => ::core::option::Option::Some(Tool::ALL[i]),
                    ::core::option::Option::None => ::core::option::Option::None,
                }
            }

            /// The tool with this name on the wire (`spec().wire_name`), as providers that
            /// restrict names send it back (binary search over the sorted wire names).
            #[must_use]
            pub const fn from_wire_name(name: &str) -> ::core::option::Option<Tool> {
                match Tool::WIRE_NAMES.find(Tool::BY_WIRE_NAME, name) {
                    ::core::option::Option::Some(i) => ::core::option::Option::Some(Tool::ALL[i]),
                    ::core::option::Option::None => ::core::option::Option::None,
                }
            }

            #[doc(hidden)]
            #[must_use]
            pub const fn __from_token(token: &str) -> Tool {
                match Tool::from_name(#core::__private::unquote(token)) {
                    ::core::option::Option::Some(tool) => tool,
                    ::core::option::Option::None => {
                        ::core::panic!("{}", Tool::NAMES.unknown(#core::__private::unquote(token)).as_str())
                    }
                }
            }
        }

        impl #core::ToolId for Tool {
            fn index(self) -> usize {
                self as usize
            }
            fn from_index(index: usize) -> ::core::option::Option<Tool> {
                if index < Tool::COUNT { ::core::option::Option::Some(Tool::ALL[index]) } else { ::core::option::Option::None }
            }
        }

        // Written out, not derived: a derived `Debug` is a `match` with an arm a tool, whose
        // borrow check took memory growing with the square of the catalog.
        impl ::core::fmt::Debug for Tool {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(Tool::VARIANTS.get(*self as usize))
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

/// Strings as a `StrTable`: the text, and where each string ends as little-endian `u32`s.
fn str_table<'s>(core: &syn::Path, strings: impl Iterator<Item = &'s str>) -> TokenStream {
    let mut text = String::new();
    let mut ends = Vec::new();
    for s in strings {
        text.push_str(s);
        ends.extend_from_slice(&offset(text.len()).to_le_bytes());
    }
    let ends = Literal::byte_string(&ends);
    quote!(#core::__private::StrTable { text: #text, ends: #ends })
}

/// The indices of `strings` in their byte-wise order, as little-endian `u32`s.
fn order<'s>(strings: impl Iterator<Item = &'s str>) -> Literal {
    let mut sorted: Vec<(usize, &str)> = strings.enumerate().collect();
    sorted.sort_by(|a, b| a.1.cmp(b.1));
    let bytes: Vec<u8> = sorted
        .iter()
        .flat_map(|&(i, _)| offset(i).to_le_bytes())
        .collect();
    Literal::byte_string(&bytes)
}

/// An offset or index as the tables store it; a catalog's text is far below 4 GiB.
fn offset(n: usize) -> u32 {
    u32::try_from(n).expect("catalog text under 4 GiB")
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
