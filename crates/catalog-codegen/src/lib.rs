//! The `catalog!` macro's code generation: a checked catalog (`catalog_check`'s model)
//! → Rust tokens. Every list the program needs is computed here from the rows.
//!
//! This crate is the macro's engine, not an API of its own: it is exempt from semver, and
//! `catalog-macros` and `cargo-catalog` pin it with `=`, as serde_derive's internals and
//! sqlx-macros-core are. Depend on `catalog-macros` (or `cargo-catalog`) instead.
//!
//! Generated code relies on nothing from the caller's prelude (it must compile under
//! `#![no_implicit_prelude]`): its paths are absolute, or imported by the block or module
//! that uses them. It reaches `serde_json` through the runtime crate, so the user's crate
//! needs no dependency of its own on it.

#![doc(hidden)]

use catalog_check::model::{Arguments, CatalogModel, Tool};
use catalog_core::search::Language;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

mod arguments;
mod call;
mod macros;
mod search_index;
mod sets;
mod skeleton;
mod specs;
mod tool;

pub use skeleton::skeleton;

/// How the expansion refers to the world outside the catalog.
#[derive(Clone)]
pub struct Options {
    /// Path of the runtime crate (`::catalog_core` unless renamed).
    pub core: syn::Path,
    /// The catalog's path relative to the calling crate's manifest, for rebuild tracking;
    /// `None` leaves tracking out (as `cargo xtask expand` does).
    pub track: Option<String>,
    /// The module the expansion lands in, from the crate root (`crate::billing`): the
    /// `tools!` and `tool!` macros name the catalog's items through it, and become the
    /// module's (`billing::tools!`) instead of the crate root's, so one crate holds a
    /// catalog per module. The expansion fails to compile where the path names another
    /// module. `None`: the crate root, unchecked.
    pub module: Option<syn::Path>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            core: syn::parse_quote!(::catalog_core),
            track: None,
            module: None,
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
pub fn expand(catalog: &CatalogModel, opts: &Options) -> TokenStream {
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
    let macros = macros::list_macros(opts.module.as_ref());
    quote! {
        #track #tool #sets #call

        /// The argument types and `Handler`, written where their names are short: full
        /// paths were most of a large catalog's tokens. Re-exported beside `Tool`.
        #[doc(hidden)]
        pub mod __arguments {
            #![allow(unused_imports)]
            use #core::__private::{Fields, Map, String, Value, Vec, serde_json, variant};
            use #core::{ArgError, Context, FromJson, Output};
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

fn tracking(opts: &Options) -> TokenStream {
    // Rebuild when the file changes: the askama way, since `proc_macro::tracked_path` is
    // unstable. The path is joined by rustc, so no absolute path enters the expansion.
    opts.track.as_ref().map_or_else(TokenStream::new, |path| {
        let rel = format!("/{path}");
        quote! { const _: &[u8] = ::core::include_bytes!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), #rel)); }
    })
}

struct Gen<'a> {
    c: &'a CatalogModel,
    core: &'a syn::Path,
}

impl Gen<'_> {
    fn variants(&self) -> Vec<syn::Ident> {
        self.c.tools.iter().map(|t| ident(&t.variant())).collect()
    }

    fn words(&self) -> usize {
        self.c.tools.len().div_ceil(64)
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
}

/// `catalog_core::search::Language::German`, from the variant's name.
fn language(core: &syn::Path, l: Language) -> TokenStream {
    let variant = format_ident!("{}", format!("{l:?}"));
    quote!(#core::search::Language::#variant)
}
/// Formats generated tokens as Rust source, as `cargo catalog expand` prints them (the
/// `format` feature).
///
/// # Errors
/// When the tokens are not a valid Rust file (a bug in the generator).
#[cfg(feature = "format")]
pub fn format(tokens: proc_macro2::TokenStream) -> Result<String, syn::Error> {
    Ok(prettyplease::unparse(&syn::parse2(tokens)?))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    use catalog_testkit::CATALOG_HEAD as HEAD;

    /// What `catalog!` makes of `source`, as the macro's calls make it: the expansion and
    /// the warnings, or the skeleton and the errors.
    fn as_the_macro(source: &str) -> String {
        let lines = catalog_check::Lines::new(source);
        let style = catalog_check::Style {
            unnamed: true,
            ..catalog_check::Style::default()
        };
        let opts = Options::default();
        let (tokens, diagnostics) = match catalog_check::compile(source) {
            Ok(catalog) => (
                expand(&catalog, &opts),
                catalog_check::build_warnings(&catalog, source),
            ),
            Err(errors) => (skeleton(&catalog_check::outline(source), &opts), errors),
        };
        let mut out = tokens.to_string();
        for d in &diagnostics {
            out += &lines.render_styled("catalog.toml", d, style);
        }
        out
    }

    /// The calls `catalog!` makes start no thread: a proc macro runs inside rustc, whose
    /// cores cargo's jobserver shares out. The catalogs are large enough for the work to
    /// split (the file read in pieces, rows in several runs, every lint denied so that
    /// `compile` runs them side by side, and fails): inside `with_threads`, the same calls
    /// start threads, and make the same output.
    #[test]
    fn the_macros_calls_start_no_thread() {
        let generated = include_str!("../../catalog-check/tests/data/generated-400.toml");
        let denied =
            catalog_check::lint::LintId::ALL.map(|lint| format!("{} = \"deny\"", lint.name()));
        let denied = denied.join("\n");
        let all_denied =
            generated.replacen("\n[[tool]]", &format!("\n[lints]\n{denied}\n[[tool]]"), 1);
        assert!(catalog_check::compile(generated).is_ok());
        assert!(catalog_check::compile(&all_denied).is_err());
        let run = || {
            let before = catalog_check::threads_started();
            let out = [as_the_macro(generated), as_the_macro(&all_denied)];
            (catalog_check::threads_started() - before, out)
        };
        let (started, alone) = run();
        assert_eq!(started, 0, "the macro's calls started threads");
        let four = std::num::NonZeroUsize::new(4).unwrap();
        let (started, split) = catalog_check::with_threads(four, run);
        assert!(started > 0, "the catalogs are too small to split");
        assert!(alone == split, "the output depends on the threads");
    }

    /// The types the expansion defines are exactly the ones the collision check names.
    #[test]
    fn generated_types_are_the_types_the_expansion_defines() {
        let nested = format!(
            "{HEAD}{}",
            r#"
[[tool]]
name = "listRows"
description = "Lists rows."
visibility = "inline"
effect = "reads"
tier = "silent"
[tool.params]
order = { type = "string", enum = ["asc", "desc"], required = false }
tags = { type = "array", items = { type = "array", items = { type = "string", enum = ["a", "b"] } } }
rows = { type = "array", items = { type = "object", properties.kind = { type = "string", enum = ["x"] } } }
[tool.params.opts]
type = "object"
properties.args = { type = "object", properties.deep = { type = "string", enum = ["y"] } }
properties.mode = { type = "string", enum = ["on"], rust-name = "switch" }
"#
        );
        for source in [include_str!("../../../tests/data/tables.toml"), &nested] {
            let catalog = catalog_check::compile(source).unwrap();
            let file: syn::File = syn::parse2(expand(&catalog, &Options::default())).unwrap();
            // Top-level items and those of the module holding the argument types.
            let defined: BTreeSet<String> = file
                .items
                .iter()
                .flat_map(|item| match item {
                    syn::Item::Mod(m) => m.content.as_ref().map_or(&[][..], |(_, items)| items),
                    other => std::slice::from_ref(other),
                })
                .filter_map(|item| match item {
                    syn::Item::Struct(s) => Some(s.ident.to_string()),
                    syn::Item::Enum(e) => Some(e.ident.to_string()),
                    _ => None,
                })
                .filter(|n| !catalog_check::names::RESERVED_TYPES.contains(&n.as_str()))
                .collect();
            let named: Vec<String> = catalog
                .tools
                .iter()
                .flat_map(Tool::generated_types)
                .map(|g| g.name)
                .collect();
            assert_eq!(named.len(), defined.len(), "{named:?}");
            if source == nested {
                for name in [
                    "ListRowsOptsArgsDeep",
                    "ListRowsOptsSwitch",
                    "ListRowsTagsItemItem",
                ] {
                    assert!(defined.contains(name), "{name} in {defined:?}");
                }
            }
            assert_eq!(named.into_iter().collect::<BTreeSet<_>>(), defined);
        }
    }
}
