//! Search at scale: this crate's bench, `benches/scale.rs`, times the catalog's own index
//! against tantivy on the same tools and requests. `cargo xtask bench-scale` runs it once
//! per catalog size and engine, each in its own process so its peak memory is its own.
