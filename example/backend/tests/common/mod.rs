//! Helpers every test file shares: a backend on a database file in a temporary folder,
//! and calls driven the way the agent loop drives them, verified into a generated
//! `ToolCall` and run on the backend as `Handler`.

#![allow(dead_code, reason = "each test file uses some of the helpers")]

use std::path::{Path, PathBuf};

use app_backend::{Backend, Error, FixedClock};
use app_catalog::{Catalog, ToolCall};
use catalog_core::{AllowAll, Caller, Discovery, Dispatch, Info, Verified, VerifiedCall, Via};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The clock every test backend runs on.
pub fn clock() -> FixedClock {
    FixedClock::at("2025-03-14T09:30:00+01:00", "Europe/Berlin").unwrap()
}

/// A database file in a temporary folder that lives as long as this value.
pub struct Db {
    pub dir: TempDir,
    pub backend: Backend,
}

impl Db {
    /// The example database in a new file.
    pub fn new() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let backend = open(&dir.path().join("tables.db"));
        Db { dir, backend }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("tables.db")
    }

    /// Closes the database and opens the same file again, as a restart does.
    pub fn restart(self) -> Db {
        let Db { dir, backend } = self;
        drop(backend);
        let backend = open(&dir.path().join("tables.db"));
        Db { dir, backend }
    }
}

impl core::ops::Deref for Db {
    type Target = Backend;
    fn deref(&self) -> &Backend {
        &self.backend
    }
}

pub fn open(path: &Path) -> Backend {
    Backend::open(path)
        .unwrap_or_else(|e| panic!("{e}"))
        .clock(clock())
}

/// Verifies one call as `caller` would make it, gated tools allowed, every tool active
/// in the chat agent's discovery state.
pub fn verify_as(caller: Caller, name: &str, args: Value) -> VerifiedCall<'static, ToolCall> {
    let chat = Discovery::new(Info {
        inline: Catalog::ALL,
        ..Catalog::INFO
    });
    let via = match caller {
        Caller::Chat => Via::Chat(&chat),
        Caller::Mcp(level) => Via::Mcp(level, &Catalog),
    };
    match Catalog::verify(via, name, args, &mut AllowAll) {
        Ok(Verified::Run(call)) => call,
        Ok(Verified::Ask(_)) => panic!("{name}: the policy allows every call"),
        Err(rejection) => panic!("{name}: {rejection}"),
    }
}

/// Verifies and runs one call as `caller`; the search tool is not expected here.
pub fn call_as(backend: &Backend, caller: Caller, name: &str, args: Value) -> Result<Value, Error> {
    let call = verify_as(caller, name, args);
    match pollster::block_on(call.dispatch(backend)) {
        // Every tool of the backend answers with a JSON value.
        Dispatch::Ran(result) => result.map(|output| match output {
            catalog_core::Output::Value(value) => value,
            other => panic!("{name} answered with {other:?}, not a value"),
        }),
        Dispatch::Search(args) => panic!("{name} dispatched as a search for {:?}", args.query),
    }
}

pub fn call(backend: &Backend, name: &str, args: Value) -> Result<Value, Error> {
    call_as(backend, Caller::Chat, name, args)
}

pub fn ok(backend: &Backend, name: &str, args: Value) -> Value {
    call(backend, name, args).unwrap_or_else(|e| panic!("{name} failed: {e}"))
}

pub fn staged_ids(backend: &Backend) -> Vec<String> {
    let staged = ok(backend, "showStaging", json!({"openPanel": false}));
    staged
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["changeId"].as_str().unwrap().to_owned())
        .collect()
}

pub fn customer_names(backend: &Backend) -> Vec<String> {
    let out = ok(
        backend,
        "queryRows",
        json!({"table": "customers", "columns": ["name"]}),
    );
    out["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect()
}
