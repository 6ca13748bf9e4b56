//! The hook for a ranking other than the index's own, such as an embedding model's fused
//! with it: a `catalog_core::Discovery` ranked by one calls it for every search.

use alloc::vec::Vec;

use super::{Hit, Index, Scratch};

/// Ranks a catalog's tools for a search query in place of [`Index::search`].
pub trait Ranker: Send + Sync {
    /// The best `k` documents for `query`, best first. `index` is the catalog's own BM25F
    /// index; no document it withholds (an inline tool, which the model already has) may be
    /// returned.
    fn search(&self, index: &Index<'_>, query: &str, k: usize, scratch: &mut Scratch) -> Vec<Hit>;
}
