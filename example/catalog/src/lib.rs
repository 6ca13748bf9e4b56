//! The example table-database app's tools, generated from the workspace's `catalog.toml`.
//!
//! Everything here comes from the catalog: edit `catalog.toml`, not this crate. Run
//! `cargo xtask expand` to read the generated code.
//!
//! The crate is built the strictest way a user might build theirs (no std, no implicit
//! prelude, missing docs denied, clippy pedantic in CI), so the expansion is checked
//! against all of them on every build.
#![no_std]
#![no_implicit_prelude]
#![deny(missing_docs)]

::catalog_macros::catalog!("../catalog.toml");
