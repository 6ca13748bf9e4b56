//! The example table-database app's tools, generated from the workspace's `catalog.toml`.
//!
//! Everything here comes from the catalog: edit `catalog.toml`, not this crate. Run
//! `cargo xtask expand` to read the generated code.
#![no_std]

catalog_macros::catalog!("../catalog.toml");
