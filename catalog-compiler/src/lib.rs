//! The catalog compiler: `catalog.toml` text → validated model → Rust tokens.
//!
//! The `catalog!` macro is a thin shim over this crate, and `cargo xtask check-catalog`
//! calls the same [`compile`], so the compiler and the command can never disagree.
//! The pipeline is `parse` (keys and local rules) → `check` (rules across keys and rows)
//! → `expand` (tokens), each collecting every error it finds.

mod check;
pub mod diag;
mod expand;
pub mod model;
pub mod names;
mod parse;
pub mod schema;
pub mod search;

pub use diag::{Diagnostic, Located, render, render_all};
pub use expand::{Options, expand, skeleton};
pub use model::Catalog;

/// Reads and validates a catalog. Every error in the file is returned, in source order.
///
/// # Errors
/// The diagnostics, when the text is not valid TOML or breaks any catalog rule.
pub fn compile(source: &str) -> Result<Catalog, Vec<Diagnostic>> {
    let mut errors = diag::Errors::default();
    let catalog =
        parse::parse(source, &mut errors).and_then(|raw| check::lower(source, raw, &mut errors));
    match catalog {
        Some(c) if errors.is_empty() => Ok(c),
        _ => Err(errors.into_sorted()),
    }
}

/// Formats generated tokens as Rust source, as `cargo xtask expand` prints them.
///
/// # Errors
/// When the tokens are not a valid Rust file (a bug in the generator).
pub fn format(tokens: proc_macro2::TokenStream) -> Result<String, syn::Error> {
    Ok(prettyplease::unparse(&syn::parse2(tokens)?))
}
