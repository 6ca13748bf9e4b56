//! Runtime half of a compiled tool catalog.
//!
//! `catalog!("catalog.toml")` (from `catalog-macros`) generates a `Tool`
//! enum, typed arguments and derived tool sets in the calling crate; the types those
//! generated items are built from live here, so every crate that handles tools shares them.
//! Each chat provider's wire format and the agent step are `catalog-wire`'s.
//!
//! The crate is `no_std` (with `alloc`) so a browser build can use the generated API.
#![no_std]

extern crate alloc;

mod access;
mod args;
mod call;
mod catalog;
mod discovery;
mod lookup;
mod output;
#[doc(hidden)]
pub mod packed;
mod screen;
/// Tool search: the index, its tokenizer and stemmers (the `catalog-search` crate).
pub use catalog_search as search;
mod set;
pub mod shape;
mod spec;
mod table;
pub mod talk;
pub mod uri_template;
mod verify;

pub use access::{Access, Caller, Effect, Reach, reach};
pub use args::{ArgError, FromJson};
pub use call::{CallError, Dispatch};
pub use catalog::{CompiledCatalog, DerivedSet, Row, Sets, derived_sets};
pub use discovery::{Discovery, Found, Info, Retention, Saved, SearchOutcome, Unavailable};
pub use lookup::Lookup;
pub use output::{Content, Output, UrlElicitation};
pub use screen::{NoScreen, Screen, Screened};
/// JSON values as handlers return them and as free-form arguments arrive.
pub use serde_json::{Map, Value};
pub use set::{Iter, ToolId, ToolRow, ToolSet};
pub use shape::Shape;
pub use spec::{Policy, Role, ScanResults, Settings, TaskSupport, Tier, ToolSpec, Visibility};
pub use talk::Context;
pub use verify::{
    AllowAll, BoxFuture, Call, Decision, DenyAll, ErrorClass, HandledBy, Issue, MAX_CHECK_DEPTH,
    MAX_CHECK_ISSUES, PendingCall, Permission, Proof, Rejection, Verified, VerifiedCall, Via,
    check_output, check_value, verify,
};

/// Paths the generated code uses, so the calling crate needs no dependency of its own
/// on `serde_json`. Not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec;
    pub use alloc::vec::Vec;
    pub use serde_json;
    pub use serde_json::{Map, Value};

    pub use crate::args::{Fields, arguments, variant};
    pub use crate::packed::Specs;
    pub use crate::table::{Message, StrTable};

    /// Strips the quotes `stringify!` leaves around a string literal, so `tools!` accepts
    /// both `openTable` and `"triangle_properties.get"`.
    #[must_use]
    pub const fn unquote(token: &str) -> &str {
        let b = token.as_bytes();
        if b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"' {
            let (_, rest) = b.split_at(1);
            let (inner, _) = rest.split_at(rest.len() - 1);
            match core::str::from_utf8(inner) {
                Ok(s) => s,
                Err(_) => token,
            }
        } else {
            token
        }
    }
}
