//! Model → Rust tokens. Every list the program needs is computed here from the rows.
//!
//! Generated code relies on nothing from the caller's prelude (it must compile under
//! `#![no_implicit_prelude]`): its paths are absolute, or imported by the block or module
//! that uses them. It reaches `serde_json` through the runtime crate, so the user's crate
//! needs no dependency of its own on it.

use catalog_core::search::{Language, Weights};
use catalog_core::{Access, Retention, Tier, Visibility};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use crate::model::{Arguments, Catalog, DERIVED_SETS, Field, Kind, Outline, Tool, TypeSpec};
use crate::names::{self, TypeStep};
use crate::spec::{self, Spec};

/// How the expansion refers to the world outside the catalog.
#[derive(Clone)]
pub struct Options {
    /// Path of the runtime crate (`::catalog_core` unless renamed).
    pub core: syn::Path,
    /// The catalog's path relative to the calling crate's manifest, for rebuild tracking;
    /// `None` leaves tracking out (as `cargo xtask expand` does).
    pub track: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            core: syn::parse_quote!(::catalog_core),
            track: None,
        }
    }
}

fn ident(s: &str) -> syn::Ident {
    syn::parse_str(s).unwrap_or_else(|_| format_ident!("__invalid"))
}

fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| format!(" {l}"));
    quote! { #( #[doc = #lines] )* }
}

/// The whole API for a valid catalog.
#[must_use]
pub fn expand(catalog: &Catalog, opts: &Options) -> TokenStream {
    let g = Gen {
        c: catalog,
        core: &opts.core,
    };
    let track = tracking(opts);
    let tool = g.tool_enum();
    let sets = g.catalog_struct();
    let types = g.argument_types();
    let call = g.tool_call();
    let handler = g.handler();
    let core = &opts.core;
    let macros = list_macros();
    quote! {
        #track #tool #sets #call

        /// The argument types and `Handler`, written where their names are short: full
        /// paths were most of a large catalog's tokens. Re-exported beside `Tool`.
        #[doc(hidden)]
        pub mod __arguments {
            #![allow(unused_imports)]
            use #core::__private::{Fields, Map, String, Value, Vec, serde_json, variant};
            use #core::{ArgError, Caller, FromJson};
            use ::core::convert::From;
            use ::core::future::Future;
            use ::core::marker::{Send, Sync};
            use ::core::option::Option::{self, None, Some};
            use ::core::result::Result::{self, Err, Ok};

            #types
            #handler
        }
        #[doc(inline)]
        pub use __arguments::*;

        #macros
    }
}

/// The same API for a catalog with errors, so the user's crate reports the catalog's
/// errors and not a cascade of missing items: [`expand`] of [`Outline::skeleton`] (every
/// well-named row, with no parameters). Every item a dependent crate uses is there.
#[must_use]
pub fn skeleton(outline: &Outline, opts: &Options) -> TokenStream {
    expand(&outline.skeleton(), opts)
}

fn tracking(opts: &Options) -> TokenStream {
    // Rebuild when the file changes: the askama way, since `proc_macro::tracked_path` is
    // unstable. The path is joined by rustc, so no absolute path enters the expansion.
    opts.track.as_ref().map_or_else(TokenStream::new, |path| {
        let rel = format!("/{path}");
        quote! { const _: &[u8] = ::core::include_bytes!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), #rel)); }
    })
}

struct Gen<'a> {
    c: &'a Catalog,
    core: &'a syn::Path,
}

impl Gen<'_> {
    fn variants(&self) -> Vec<syn::Ident> {
        self.c.tools.iter().map(|t| ident(&t.variant())).collect()
    }

    fn words(&self) -> usize {
        self.c.tools.len().div_ceil(64)
    }

    fn tool_enum(&self) -> TokenStream {
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

    /// A row's `ToolSpec`, in the short names the block holding every spec imports.
    fn spec(s: &Spec<'_>) -> TokenStream {
        let t = s.tool;
        let name = &t.name;
        let description = &s.description;
        let keywords = &t.keywords;
        let examples = &t.examples;
        let visibility = match t.visibility {
            Visibility::Inline => quote!(Visibility::Inline),
            Visibility::Discoverable => quote!(Visibility::Discoverable),
        };
        let tier = option(t.tier.map(|tier| match tier {
            Tier::Silent => quote!(Tier::Silent),
            Tier::Gated => quote!(Tier::Gated),
        }));
        let access = option(t.access.map(|a| {
            let variant = access_variant(a);
            quote!(Access::#variant)
        }));
        let mcp = t.mcp;
        let wire_name = &s.wire_name;
        let input_schema = &s.input_schema;
        let gemini_parameters = option(s.gemini_parameters.as_ref().map(|p| quote!(#p)));
        let input = s.input.tokens();
        let strict = s.strict;
        let output_schema = option(s.output_schema.as_ref().map(|s| quote!(#s)));
        let output = option(s.output.as_ref().map(crate::shape::Node::tokens));
        quote! {
            ToolSpec {
                name: #name,
                description: #description,
                keywords: &[ #( #keywords ),* ],
                examples: &[ #( #examples ),* ],
                visibility: #visibility,
                tier: #tier,
                access: #access,
                mcp: #mcp,
                wire_name: #wire_name,
                input_schema: #input_schema,
                gemini_parameters: #gemini_parameters,
                input: #input,
                strict: #strict,
                output_schema: #output_schema,
                output: #output,
            }
        }
    }

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

    /// The search index as static tables: a program pays nothing to build it. Statics in
    /// a hidden module, since a `const` holding arrays this large is copied where used.
    fn index(&self) -> (TokenStream, TokenStream) {
        let core = self.core;
        let idx = crate::search::index(self.c, Weights::DEFAULT);
        // One byte string a table: a single token however large the catalog.
        let slots = Literal::byte_string(&idx.slots);
        let postings = Literal::byte_string(&idx.postings);
        let name_rank = idx.name_rank.iter().map(|&n| Literal::u32_unsuffixed(n));
        let nr = Literal::usize_unsuffixed(idx.name_rank.len());
        let language = language(core, idx.language);
        let tables = quote! {
            #[doc(hidden)]
            pub mod __search_index {
                pub static SLOTS: &[u8] = #slots;
                pub static POSTINGS: &[u8] = #postings;
                pub static NAME_RANK: [u32; #nr] = [ #( #name_rank ),* ];
            }
        };
        let value = quote! {
            #core::search::Index {
                slots: __search_index::SLOTS,
                postings: __search_index::POSTINGS,
                name_rank: &__search_index::NAME_RANK,
                language: #language,
            }
        };
        (tables, value)
    }

    fn catalog_struct(&self) -> TokenStream {
        let core = self.core;
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
        let fields: Vec<syn::Ident> = DERIVED_SETS
            .iter()
            .map(|d| ident(&d.name.to_ascii_lowercase()))
            .collect();
        quote! {
            #index_tables

            /// A set of this catalog's tools: a const, allocation-free bitset.
            pub type ToolSet = #core::ToolSet<Tool, #w>;

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
                pub const SETTINGS: #core::Settings = #core::Settings {
                    search_results: #search_results,
                    searches_per_turn: #searches_per_turn,
                    search_tool: #search_name,
                    ask_tool: #ask_name,
                    keep_discovered: #keep,
                    language: #language,
                };
                /// What the discovery loop needs: the sets, the roles, the settings and the
                /// search index, built at compile time.
                pub const INFO: #core::Info<'static, Tool, #w> = #core::Info {
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
                    <Catalog as #core::Catalog<#w>>::discovery()
                }
                /// The search tool, answered by the agent loop.
                pub const SEARCH_TOOL: Tool = Tool::#search;
                /// The tool that asks the user a question.
                pub const ASK_TOOL: Tool = Tool::#ask;
                /// The search tool's description: the row's text and every discoverable tool's name.
                pub const SEARCH_DESCRIPTION: &'static str = #search_description;
                /// Words of 64 bits in a `ToolSet` of this catalog: the `W` of
                /// `catalog_core::Catalog<W>`, which this `Catalog` implements.
                pub const WORDS: usize = #w;
                #( #sets )*

                /// What an MCP client at `level` may list and call.
                #[must_use]
                pub const fn mcp_allowed(level: #core::Access) -> ToolSet {
                    <Catalog as #core::Catalog<#w>>::SETS.mcp(level)
                }

                /// Checks a model's call before anything runs (see `catalog_core::verify`):
                /// the tool is in reach of `gate`, the arguments fit its schema, and a gated
                /// tool passed `permission`. What it hands back is the only value that runs
                /// a handler.
                ///
                /// # Errors
                /// The rejection to show the model, which names the way to recover.
                pub fn verify(
                    gate: #core::Gate<'_, '_, Tool, #w>,
                    name: &str,
                    arguments: #core::__private::Value,
                    permission: &mut impl #core::Permission<Tool>,
                ) -> ::core::result::Result<#core::Verified<ToolCall>, #core::Rejection> {
                    <Catalog as #core::Catalog<#w>>::verify(gate, name, arguments, permission)
                }
            }

            impl #core::Catalog<#w> for Catalog {
                type Tool = Tool;
                type Call = ToolCall;
                const SETS: #core::Sets<Tool, #w> = #core::Sets { #( #fields: Catalog::#set_names, )* };
                const INFO: #core::Info<'static, Tool, #w> = Catalog::INFO;
            }
        }
    }

    fn argument_types(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for t in self
            .c
            .tools
            .iter()
            .filter(|t| t.arguments == Arguments::Typed)
        {
            let name = t.args_type();
            let doc = format!("Arguments of `{}`.", t.name);
            if t.input_schema.is_some() {
                out.extend(Gen::raw_arguments(&name, &doc));
            } else {
                out.extend(self.object(&name, &t.variant(), &doc, &t.params));
            }
        }
        out
    }

    /// Arguments declared by `input-schema`: the JSON object itself, checked against the
    /// schema at run time rather than by a Rust type.
    fn raw_arguments(name: &str, doc_text: &str) -> TokenStream {
        let ty = ident(name);
        let d = doc(doc_text);
        quote! {
            #d
            #[derive(Clone, Debug, PartialEq)]
            pub struct #ty(
                /// The arguments as the model sent them.
                pub Map<String, Value>,
            );

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    FromJson::from_json(value).map(#ty)
                }
            }
        }
    }

    /// A struct for an object's fields, and the types its fields need, named after `stem`
    /// (the tool's variant for its arguments, else the object's own name).
    fn object(&self, name: &str, stem: &str, doc_text: &str, fields: &[Field]) -> TokenStream {
        let ty = ident(name);
        let mut nested = TokenStream::new();
        let mut defaults = Vec::new();
        let mut members = Vec::new();
        let mut reads = Vec::new();
        for f in fields {
            let field = ident(&f.ident());
            let key = &f.name;
            let ty_name = names::generated_type(stem, TypeStep::Field(f.type_word()));
            let inner = self.rust_type(&f.ty, &ty_name, &mut nested);
            let d = doc(f
                .ty
                .description
                .as_deref()
                .unwrap_or(&format!("`{}`.", f.name)));
            if let Some(default) = &f.default {
                let fn_name = format_ident!("__default_{}", f.ident_bare());
                let value = Gen::default_value(&f.ty, default, &inner);
                defaults.push(quote! {
                    fn #fn_name() -> #inner { #value }
                });
                members.push(quote! { #d pub #field: #inner });
                reads.push(quote! { #field: fields.or_default(#key, #ty::#fn_name)? });
            } else if f.required {
                members.push(quote! { #d pub #field: #inner });
                reads.push(quote! { #field: fields.required(#key)? });
            } else {
                members.push(quote! { #d pub #field: Option<#inner> });
                reads.push(quote! { #field: fields.optional(#key)? });
            }
        }
        let keys = fields.iter().map(|f| &f.name);
        let mutable = (!fields.is_empty()).then(|| quote!(mut));
        let d = doc(doc_text);
        let defaults = (!defaults.is_empty()).then(|| quote! { impl #ty { #( #defaults )* } });
        quote! {
            #d
            #[derive(Clone, Debug, PartialEq)]
            pub struct #ty { #( #members, )* }

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    let #mutable fields = Fields::new(value, &[ #( #keys ),* ])?;
                    Ok(#ty { #( #reads, )* })
                }
            }
            #defaults
            #nested
        }
    }

    /// The Rust type of a catalog type, generating named types into `nested`.
    fn rust_type(&self, t: &TypeSpec, name: &str, nested: &mut TokenStream) -> TokenStream {
        match &t.kind {
            Kind::String { values: None } => quote!(String),
            Kind::String {
                values: Some(values),
            } => {
                nested.extend(Gen::string_enum(name, t.description.as_deref(), values));
                let ty = ident(name);
                quote!(#ty)
            }
            Kind::Integer { .. } => quote!(i64),
            Kind::Number { .. } => quote!(f64),
            Kind::Boolean => quote!(bool),
            Kind::Array(item) => {
                let inner =
                    self.rust_type(item, &names::generated_type(name, TypeStep::Item), nested);
                quote!(Vec<#inner>)
            }
            Kind::Object(None) => {
                quote!(Map<String, Value>)
            }
            Kind::Object(Some(fields)) => {
                let doc_text = t
                    .description
                    .clone()
                    .unwrap_or_else(|| format!("`{name}`."));
                nested.extend(self.object(name, name, &doc_text, fields));
                let ty = ident(name);
                quote!(#ty)
            }
            Kind::Raw(_) => quote!(Value),
        }
    }

    fn string_enum(name: &str, description: Option<&str>, values: &[String]) -> TokenStream {
        let ty = ident(name);
        let variants = enum_variants(values);
        let idents: Vec<_> = variants.iter().map(|v| ident(v)).collect();
        let d = doc(description.unwrap_or("One of the allowed values."));
        let docs = values.iter().map(|v| doc(&format!("`{v}`")));
        quote! {
            #d
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
            pub enum #ty { #( #docs #idents, )* }

            impl #ty {
                /// Every value, in the catalog's order.
                pub const ALL: &'static [#ty] = &[ #( #ty::#idents ),* ];

                /// The value as JSON spells it.
                #[must_use]
                pub const fn as_str(self) -> &'static str {
                    match self { #( #ty::#idents => #values, )* }
                }
            }

            impl FromJson for #ty {
                fn from_json(value: Value) -> Result<Self, ArgError> {
                    variant(value, &[ #( #values ),* ]).map(|i| #ty::ALL[i])
                }
            }
        }
    }

    fn default_value(t: &TypeSpec, v: &Value, ty: &TokenStream) -> TokenStream {
        match (&t.kind, v) {
            (Kind::String { values: None }, Value::String(s)) => {
                quote!(<String as From<&str>>::from(#s))
            }
            (
                Kind::String {
                    values: Some(values),
                },
                Value::String(s),
            ) => {
                let variants = enum_variants(values);
                let i = values.iter().position(|x| x == s).unwrap_or(0);
                let variant = ident(&variants[i]);
                quote!(#ty::#variant)
            }
            (Kind::Integer { .. }, Value::Number(n)) => {
                let n = Literal::i64_suffixed(n.as_i64().unwrap_or(0));
                quote!(#n)
            }
            (Kind::Number { .. }, Value::Number(n)) => {
                let n = Literal::f64_suffixed(n.as_f64().unwrap_or(0.0));
                quote!(#n)
            }
            (Kind::Boolean, Value::Bool(b)) => quote!(#b),
            // Anything else is rebuilt from the JSON the compiler checked against the type.
            _ => {
                let json = v.to_string();
                quote! {
                    match serde_json::from_str(#json).map(FromJson::from_json) {
                        Ok(Ok(value)) => value,
                        _ => ::core::unreachable!("the catalog compiler checked this default"),
                    }
                }
            }
        }
    }

    fn tool_call(&self) -> TokenStream {
        let core = self.core;
        let typed: Vec<&Tool> = self.typed().collect();
        let variants: Vec<_> = typed.iter().map(|t| ident(&t.variant())).collect();
        let args: Vec<_> = typed.iter().map(|t| ident(&t.args_type())).collect();
        let search = ident(&self.c.search_tool().variant());
        let search_args = ident(&self.c.search_tool().args_type());
        let handled: Vec<_> = self.handled().collect();
        let h_variants = handled.iter().map(|(_, v, _)| v);
        let call_docs = typed.iter().map(|t| format!(" A call of `{}`.", t.name));
        let h_methods = handled.iter().map(|(_, _, m)| m);
        // JSON-argument rows share one variant and one handler method.
        let json = self.has_json().then(|| {
            (
                quote! {
                    /// A call of a tool whose row says `arguments = "json"`: the tool, and
                    /// its arguments as the verifier checked them.
                    Json {
                        /// The tool called.
                        tool: Tool,
                        /// Its arguments, checked against its input schema.
                        arguments: #core::__private::Map<#core::__private::String, #core::__private::Value>,
                    },
                },
                quote! { ToolCall::Json { tool, .. } => *tool, },
                quote! {
                    ToolCall::Json { tool, arguments } => #core::__private::Box::pin(H::call_json(handler, caller, tool, arguments)),
                },
                quote! {
                    _ => #core::__private::arguments(arguments).map(|arguments| ToolCall::Json { tool, arguments }),
                },
            )
        });
        let (json_variant, json_tool, json_dispatch, json_parse) = match json {
            Some((a, b, c, d)) => (a, b, c, d),
            None => Default::default(),
        };
        quote! {
            /// A model's call, parsed into the tool's typed arguments.
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)] // one variant per tool; boxing would cost every call
            pub enum ToolCall {
                #( #[doc = #call_docs] #variants(#args), )*
                #json_variant
            }

            impl ToolCall {
                /// Which tool is called.
                #[must_use]
                pub const fn tool(&self) -> Tool {
                    match self {
                        #( ToolCall::#variants(_) => Tool::#variants, )*
                        #json_tool
                    }
                }

                /// Parses a call from the tool's name and its JSON arguments (`null` counts
                /// as no arguments).
                ///
                /// # Errors
                /// `CallError::UnknownTool` when no row has this name; `CallError::BadArguments`
                /// when the arguments do not fit the tool's input.
                pub fn parse(name: &str, arguments: #core::__private::Value) -> ::core::result::Result<ToolCall, #core::CallError> {
                    let ::core::option::Option::Some(tool) = Tool::from_name(name) else {
                        return ::core::result::Result::Err(#core::CallError::UnknownTool(
                            <#core::__private::String as ::core::convert::From<&str>>::from(name),
                        ));
                    };
                    <ToolCall as #core::Call>::parse(tool, arguments).map_err(|message| {
                        #core::CallError::BadArguments { tool: tool.name(), message }
                    })
                }

            }

            /// Runs a verified call (`VerifiedCall::run`): the handler method of its tool,
            /// or the search handed back to the agent loop.
            impl<H: Handler> #core::HandledBy<H> for ToolCall {
                type Error = H::Error;
                type Search = #search_args;

                fn dispatch<'h>(
                    self,
                    handler: &'h H,
                    caller: #core::Caller,
                    _proof: #core::Proof<'_>,
                ) -> #core::Dispatch<#core::BoxFuture<'h, ::core::result::Result<#core::__private::Value, H::Error>>, #search_args> {
                    // One boxed future, not one await per tool: rustc lays out a future over
                    // all its awaits, and with one per arm that grew with the square of the catalog.
                    #core::Dispatch::Ran(match self {
                        ToolCall::#search(args) => return #core::Dispatch::Search(args),
                        #( ToolCall::#h_variants(args) => #core::__private::Box::pin(H::#h_methods(handler, caller, args)), )*
                        #json_dispatch
                    })
                }
            }

            impl #core::Call for ToolCall {
                type Tool = Tool;

                /// Parses a call's JSON arguments into the tool's typed arguments (`null`
                /// counts as no arguments; a JSON-argument row takes any object, which the
                /// verifier checked against its schema).
                fn parse(tool: Tool, arguments: #core::__private::Value) -> ::core::result::Result<ToolCall, #core::__private::String> {
                    match tool {
                        #( Tool::#variants => #core::__private::arguments(arguments).map(ToolCall::#variants), )*
                        #json_parse
                    }
                }

                fn tool(&self) -> Tool {
                    ToolCall::tool(self)
                }
            }
        }
    }

    /// The rows with typed arguments (the search tool always).
    fn typed(&self) -> impl Iterator<Item = &Tool> {
        self.c
            .tools
            .iter()
            .filter(|t| t.arguments == Arguments::Typed)
    }

    /// Whether any row takes its arguments as JSON.
    fn has_json(&self) -> bool {
        self.c.tools.iter().any(|t| t.arguments == Arguments::Json)
    }

    /// Every typed tool but the search tool: (row, variant, handler method).
    fn handled(&self) -> impl Iterator<Item = (&Tool, syn::Ident, syn::Ident)> {
        let search = self.c.settings.search_tool;
        self.c
            .tools
            .iter()
            .enumerate()
            .filter(move |(i, t)| *i != search && t.arguments == Arguments::Typed)
            .map(|(_, t)| (t, ident(&t.variant()), ident(&t.method())))
    }

    fn handler(&self) -> TokenStream {
        let methods = self.handled().map(|(t, _, m)| {
            let args = ident(&t.args_type());
            let d = doc(&format!("`{}`: {}", t.name, t.description));
            quote! {
                #d
                fn #m(
                    &self,
                    caller: Caller,
                    args: #args,
                ) -> impl Future<Output = Result<Value, Self::Error>> + Send;
            }
        });
        let json = self.has_json().then(|| {
            quote! {
                /// Every tool whose row says `arguments = "json"`: the tool, and its
                /// arguments exactly as the verifier checked them against its schema.
                fn call_json(
                    &self,
                    caller: Caller,
                    tool: super::Tool,
                    arguments: Map<String, Value>,
                ) -> impl Future<Output = Result<Value, Self::Error>> + Send;
            }
        });
        quote! {
            /// The implementation of every tool but the search tool (the agent loop answers
            /// that one). A row without its method here does not compile.
            pub trait Handler: Sync {
                /// What a handler returns when it fails.
                type Error;
                #( #methods )*
                #json
            }
        }
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

/// `tools!` and `tool!`. Each is self-contained: a `#[macro_export]` macro that a macro
/// generated cannot be named by `$crate::` path inside its own crate, so neither calls the
/// other. A name is an identifier (`openTable`, resolved through `__tools`) or a string
/// literal (`"triangle_properties.get"`, looked up at compile time).
fn list_macros() -> TokenStream {
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

/// `catalog_core::search::Language::German`, from the variant's name.
fn language(core: &syn::Path, l: Language) -> TokenStream {
    let variant = format_ident!("{}", format!("{l:?}"));
    quote!(#core::search::Language::#variant)
}

fn access_variant(a: Access) -> syn::Ident {
    match a {
        Access::ReadOnly => format_ident!("ReadOnly"),
        Access::ReadAndStage => format_ident!("ReadAndStage"),
        Access::FullAccess => format_ident!("FullAccess"),
    }
}

/// `Some(t)` or `None`, for the spec block, which imports both.
fn option(t: Option<TokenStream>) -> TokenStream {
    t.map_or_else(|| quote!(None), |t| quote!(Some(#t)))
}

/// Variant names for string enum values; when values do not map to distinct identifiers
/// (`"asc"` and `"ASC"`, or `"°C"`), every variant falls back to its position (`V0`, `V1`, …).
fn enum_variants(values: &[String]) -> Vec<String> {
    let named: Vec<String> = values.iter().map(|v| names::type_name(v, "V")).collect();
    let mut seen = std::collections::HashSet::new();
    let distinct = named
        .iter()
        .all(|n| n != "V" && syn::parse_str::<syn::Ident>(n).is_ok() && seen.insert(n.clone()));
    if distinct {
        named
    } else {
        (0..values.len()).map(|i| format!("V{i}")).collect()
    }
}
