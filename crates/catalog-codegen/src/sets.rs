//! `ToolSet`, `Catalog`: the settings, the derived sets and the access tables.

use catalog_core::{Retention, ScanResults};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Gen, ident, language};
use catalog_check::model::{DERIVED_SETS, Tool};

impl Gen<'_> {
    fn set(&self, member: fn(&Tool) -> bool) -> TokenStream {
        let mut words = vec![0u64; self.words()];
        for (i, t) in self.c.tools.iter().enumerate() {
            if member(t) {
                words[i / 64] |= 1 << (i % 64);
            }
        }
        let words = words.into_iter().map(Literal::u64_unsuffixed);
        quote!(ToolSet::from_words([ #( #words ),* ]))
    }

    pub(super) fn catalog_struct(&self) -> TokenStream {
        let core = self.core;
        let lookup = self.lookup();
        let w = Literal::usize_unsuffixed(self.words());
        let s = &self.c.settings;
        let (search_results, searches_per_turn) = (
            Literal::usize_unsuffixed(s.search_results),
            Literal::usize_unsuffixed(s.searches_per_turn),
        );
        let search = ident(&self.c.search_tool().variant());
        let ask = ident(&self.c.ask_tool().variant());
        let (search_name, ask_name) = (
            &self.c.tools[s.search_tool].name,
            &self.c.tools[s.ask_tool].name,
        );
        let search_description = self.c.search_description();
        let language = language(core, s.language);
        let scan = ident(match s.scan_results {
            ScanResults::Off => "Off",
            ScanResults::Warn => "Warn",
            ScanResults::Strip => "Strip",
            ScanResults::Withhold => "Withhold",
        });
        let scan_threshold = s.scan_threshold.map_or_else(
            || quote!(::core::option::Option::None),
            |t| {
                let t = Literal::u16_unsuffixed(t);
                quote!(::core::option::Option::Some(#t))
            },
        );
        let keep = match s.keep_discovered {
            Retention::Turn => quote!(#core::Retention::Turn),
            Retention::Conversation => quote!(#core::Retention::Conversation),
        };
        let (index_tables, index) = self.index();
        let sets = DERIVED_SETS.iter().map(|d| {
            let name = ident(d.name);
            let doc = d.doc;
            let value = self.set(d.contains);
            quote! { #[doc = #doc] pub const #name: ToolSet = #value; }
        });
        let set_names: Vec<syn::Ident> = DERIVED_SETS.iter().map(|d| ident(d.name)).collect();
        let fields: Vec<syn::Ident> = DERIVED_SETS.iter().map(|d| ident(d.field)).collect();
        quote! {
            #index_tables

            /// A set of this catalog's tools: a const, allocation-free bitset.
            pub type ToolSet = #core::ToolSet<Tool, #w>;

            /// A conversation's discovery state in this catalog (`Catalog::discovery()`).
            pub type Discovery = #core::Discovery<'static, Tool, #w>;

            /// The catalog as a whole: its settings and the tool sets derived from its rows.
            ///
            /// The sets partition and nest as follows: `INLINE` and `DISCOVERABLE` split
            /// `ALL`; `SILENT` and `GATED` split every tool but the search tool; the MCP sets
            /// nest (`MCP_READ_ONLY` ⊆ `MCP_READ_AND_STAGE` ⊆ `MCP_FULL_ACCESS`) and never hold
            /// the search tool or a row with `mcp = false`; `WRITES` is every tool whose
            /// access is above read-only (staging counts as a write).
            pub struct Catalog;

            impl Catalog {
                /// The `[settings]` table.
                pub const SETTINGS: #core::Settings<'static> = #core::Settings {
                    search_results: #search_results,
                    searches_per_turn: #searches_per_turn,
                    search_tool: #search_name,
                    ask_tool: #ask_name,
                    keep_discovered: #keep,
                    language: #language,
                    scan_results: #core::ScanResults::#scan,
                    scan_threshold: #scan_threshold,
                };
                /// What the discovery loop needs: the sets, the roles, the settings and the
                /// search index, built at compile time.
                pub const INFO: #core::Info<'static, Tool, #w> = #core::Info {
                    tools: &Catalog,
                    inline: Catalog::INLINE,
                    discoverable: Catalog::DISCOVERABLE,
                    search_tool: Tool::#search,
                    ask_tool: Tool::#ask,
                    settings: Catalog::SETTINGS,
                    index: #index,
                };

                /// A new conversation's discovery state: the inline tools are active.
                #[must_use]
                pub fn discovery() -> #core::Discovery<'static, Tool, #w> {
                    <Catalog as #core::CompiledCatalog<#w>>::discovery()
                }
                /// The search tool, answered by the agent loop.
                pub const SEARCH_TOOL: Tool = Tool::#search;
                /// The tool that asks the user a question.
                pub const ASK_TOOL: Tool = Tool::#ask;
                /// The search tool's description: the row's text and every discoverable tool's name.
                pub const SEARCH_DESCRIPTION: &'static str = #search_description;
                /// Words of 64 bits in a `ToolSet` of this catalog: the `W` of
                /// `catalog_core::CompiledCatalog<W>`, which this `Catalog` implements.
                pub const WORDS: usize = #w;
                #( #sets )*

                /// What an MCP client at `level` may list and call.
                #[must_use]
                pub const fn mcp_allowed(level: #core::Access) -> ToolSet {
                    <Catalog as #core::CompiledCatalog<#w>>::SETS.mcp(level)
                }

                /// Checks a model's call before anything runs (see `catalog_core::verify`):
                /// the tool is in reach of `via`, the arguments fit its schema, and a gated
                /// tool passed `permission`. What it hands back is the only value that runs
                /// a handler.
                ///
                /// # Errors
                /// The rejection to show the model, which names the way to recover.
                pub fn verify<'d>(
                    via: #core::Via<'_, 'd, Tool, #w>,
                    name: &str,
                    arguments: #core::__private::Value,
                    permission: &mut impl #core::Permission<Tool>,
                ) -> ::core::result::Result<#core::Verified<'d, ToolCall>, #core::Rejection> {
                    <Catalog as #core::CompiledCatalog<#w>>::verify(via, name, arguments, permission)
                }
            }

            impl #core::CompiledCatalog<#w> for Catalog {
                type Tool = Tool;
                type Call = ToolCall;
                const SETS: #core::Sets<Tool, #w> = #core::Sets { #( #fields: Catalog::#set_names, )* };
                const INFO: #core::Info<'static, Tool, #w> = Catalog::INFO;
            }

            #lookup
        }
    }

    /// The generated `Catalog` as the catalog value the run time asks (`Lookup`), over
    /// `Tool`'s static tables.
    fn lookup(&self) -> TokenStream {
        let core = self.core;
        quote! {
            /// The catalog's tools by name and index, over `Tool`'s static tables.
            impl #core::Lookup<Tool> for Catalog {
                fn len(&self) -> usize {
                    Tool::COUNT
                }
                fn spec(&self, tool: Tool) -> &#core::ToolSpec<'_> {
                    tool.spec()
                }
                fn find(&self, name: &str) -> ::core::option::Option<Tool> {
                    Tool::from_name(name)
                }
                fn find_wire(&self, name: &str) -> ::core::option::Option<Tool> {
                    Tool::from_wire_name(name)
                }
                fn name(&self, tool: Tool) -> &'static str {
                    tool.name()
                }
            }
        }
    }
}
