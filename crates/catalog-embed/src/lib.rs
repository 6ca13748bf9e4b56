//! An optional embedding ranker for a tool catalog's search: a sentence-embedding model
//! (a BERT encoder in the sentence-transformers layout, such as all-MiniLM-L6-v2) run on the
//! CPU in pure Rust by candle, nothing downloaded, fused with the catalog's own BM25F
//! ranking by weighted reciprocal rank fusion.
//!
//! The tools' vectors are computed once, by `cargo catalog embed`, into a file pinned to the
//! catalog's index and the model; [`Hybrid::load`] refuses a stale one. A discovery loop
//! ranks by it once given it:
//!
//! ```no_run
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! catalog_macros::catalog!("examples/terse.toml");
//!
//! fn main() -> Result<(), catalog_embed::Error> {
//!     let hybrid = catalog_embed::Hybrid::load(
//!         Path::new("models/all-MiniLM-L6-v2"),
//!         Path::new("catalog.vectors.safetensors"),
//!         &Catalog::INFO.index,
//!     )?;
//!     let mut discovery = Catalog::discovery().ranked_by(Arc::new(hybrid));
//!     let found = discovery.search("show the shares as slices of a circle");
//!     Ok(())
//! }
//! ```

mod error;
mod fusion;
mod model;
mod vectors;

pub use error::Error;
pub use fusion::{Compared, Fusion, Hybrid};
pub use model::Model;
pub use vectors::{Vectors, index_digest, text};
