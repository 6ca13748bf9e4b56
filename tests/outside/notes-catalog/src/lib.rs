//! The notes app's tools, generated from the workspace's `catalog.toml`: `Tool`,
//! `Catalog`, the argument types, `ToolCall` and the `Handler` trait that `notes-server`
//! implements.
#![no_std]

catalog_macros::catalog!("../catalog.toml");
