//! Tool search: the tokenizer, the stemmers and the BM25F index, shared by the compiler
//! (which builds a compiled catalog's index into static tables) and the run time
//! (`catalog_core::search` is this crate). `no_std`: it ships in browser builds.

#![no_std]

extern crate alloc;

mod build;
mod index;
mod lang;
mod leave_out;
mod rank;
mod snowball;
mod stem;
mod text;

pub use build::{Builder, Terms};
pub use index::hash;
pub use index::{
    Field, Hit, Index, MAX_QUERY_TERMS, OwnedIndex, POSTING_BYTES, SLOT_BYTES, Scratch, Weights,
};
pub use lang::Language;
// For `catalog-check`'s `unnamed-need` lint alone, which must score searches exactly as
// this crate does: not part of the API, and exempt from semver.
#[doc(hidden)]
pub use leave_out::{LeaveOut, LeaveOutScratch};
pub use rank::Ranker;
pub use text::{
    PAIR_MARK, PREFIX, PREFIX_MARK, UNIGRAM_MARK, is_cjk, is_hiragana, is_word_splitter,
    script_runs, terms,
};
