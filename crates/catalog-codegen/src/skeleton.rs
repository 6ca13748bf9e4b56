//! The API of a catalog with errors, so the user's crate reports the catalog's errors and
//! not a cascade of missing items.
//!
//! The skeleton is [`expand`] of a stand-in catalog, and its rows are the ones `check`
//! accepts by name: the same pass that finds the errors decides which rows have a `Tool`
//! variant, which row is the search tool and how each row's arguments arrive, for a valid
//! catalog and for this one. Only the rows' data is placeholder.

use catalog_check::Outline;
use proc_macro2::TokenStream;

use super::{Options, expand};

/// The same API for a catalog with errors: [`expand`] of a stand-in catalog built from
/// the outline (every row whose name passes, with no parameters unless they were read
/// without error). Every item a dependent crate uses is there.
#[must_use]
pub fn skeleton(outline: &Outline, opts: &Options) -> TokenStream {
    expand(&outline.stand_in(), opts)
}
