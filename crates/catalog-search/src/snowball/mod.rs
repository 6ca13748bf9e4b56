//! Snowball stemmers for the Latin-script languages besides English, generated code
//! vendored as published: Snowball 3.1.1's Rust output of `german.sbl`, `french.sbl`,
//! `spanish.sbl`, `portuguese.sbl`, `italian.sbl` and `dutch.sbl` (upstream commit
//! `81dd074`, as packaged by the `frostem` crate 1.20260821.8), with Snowball's runtime
//! (`env.rs`, with `among.rs` appended to it). BSD-3-Clause: see `LICENSE` in this folder.
//!
//! Vendored rather than depended on because every published crate of these stemmers
//! needs `std`, and the search runs in browser builds. The only changes: the runtime's
//! `std` paths (`Cow`, `String`, `ToString`, `min`) are `alloc`'s and `core`'s, the files name their
//! runtime through `super::env` instead of a `snowball` crate, and the runtime's `among.rs`
//! is appended to `env.rs`: an `Among` entry holds a routine over `SnowballEnv`, which
//! searches `Among` tables, so as two modules they would name each other. Regenerate by
//! copying the same files from a newer release with those edits.
//!
//! English keeps its own hand-written stemmer (`../stem.rs`): it works in place without
//! allocating, and every query of an English catalog runs it.

// Generated code, kept as generated (`rustfmt::skip` below): its style is the Snowball
// compiler's.
#![allow(
    clippy::all,
    clippy::pedantic,
    dead_code,
    unused_assignments,
    unused_mut,
    unused_variables,
    non_snake_case,
    non_upper_case_globals,
    unused_parens,
    unused_labels
)]

#[rustfmt::skip]
mod env;

#[rustfmt::skip]
mod dutch;
#[rustfmt::skip]
mod french;
#[rustfmt::skip]
mod german;
#[rustfmt::skip]
mod italian;
#[rustfmt::skip]
mod portuguese;
#[rustfmt::skip]
mod spanish;

use alloc::string::String;

pub(super) use env::SnowballEnv;

/// A generated stemmer's entry point.
pub(super) type StemFn = fn(&mut SnowballEnv<'_>) -> bool;

pub(super) const GERMAN: StemFn = german::stem;
pub(super) const FRENCH: StemFn = french::stem;
pub(super) const SPANISH: StemFn = spanish::stem;
pub(super) const PORTUGUESE: StemFn = portuguese::stem;
pub(super) const ITALIAN: StemFn = italian::stem;
pub(super) const DUTCH: StemFn = dutch::stem;

/// Appends the stem of `word` (lowercase) by `stem` to `out`.
pub(super) fn stem_into(stem: StemFn, word: &str, out: &mut String) {
    let mut env = SnowballEnv::create(word);
    stem(&mut env);
    out.push_str(&env.get_current());
}
