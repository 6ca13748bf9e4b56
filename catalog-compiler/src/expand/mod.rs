//! Model → Rust tokens. Every list the program needs is computed here from the rows.
//!
//! Generated code relies on nothing from the caller's prelude (it must compile under
//! `#![no_implicit_prelude]`): its paths are absolute, or imported by the block or module
//! that uses them. It reaches `serde_json` through the runtime crate, so the user's crate
//! needs no dependency of its own on it.

use catalog_core::search::Language;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Arguments, CatalogModel, Tool};

mod arguments;
mod call;
mod macros;
mod search_index;
mod sets;
mod skeleton;
mod specs;
mod tool;

pub use skeleton::skeleton;
pub(crate) use skeleton::{outline, outline_valid};

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
