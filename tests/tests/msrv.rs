//! The declared `rust-version` (`[workspace.package]`) holds for everything a build
//! compiles. Clippy's `incompatible_msrv` reads it from each manifest and checks our own
//! code against it; these tests check the rest: every member inherits it, and every
//! dependency in `Cargo.lock` that declares a `rust-version` declares one no newer.
//! Cargo's resolver picks such versions when it adds a dependency, but a version pinned by
//! hand, or a lock updated without the rust-version in view, can still lift one past it;
//! the failure names each such crate.

use std::process::Command;

use serde_json::Value;

/// `cargo metadata` of the workspace: every package in `Cargo.lock`, for every platform.
fn metadata() -> Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    let run = |offline: bool| {
        let mut command = Command::new(&cargo);
        command.args([
            "metadata",
            "--format-version",
            "1",
            "--manifest-path",
            manifest,
        ]);
        if offline {
            command.arg("--offline");
        }
        command.output().expect("cargo runs")
    };
    // Offline first. A package's `rust-version` is read from its manifest, so cargo needs
    // the source of every locked crate, also those only other platforms build, which no
    // build here has downloaded: then cargo fetches them.
    let mut out = run(true);
    if !out.status.success() {
        out = run(false);
    }
    assert!(
        out.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// `1.88` or `1.88.0`, comparable: a missing part is 0, as cargo reads it.
fn version(text: &str) -> [u64; 3] {
    let mut parts = [0; 3];
    for (part, number) in parts.iter_mut().zip(text.split('.')) {
        *part = number
            .parse()
            .unwrap_or_else(|_| panic!("`{text}` is not a rust-version"));
    }
    parts
}

/// The workspace's members, and every other package.
fn packages(metadata: &Value) -> (Vec<&Value>, Vec<&Value>) {
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .partition(|package| members.contains(&package["id"].as_str().unwrap()))
}

/// The workspace's `rust-version`, as its root manifest declares it.
fn declared() -> String {
    let manifest = include_str!("../../Cargo.toml");
    let mut section = "";
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
        } else if section == "[workspace.package]"
            && let Some(value) = line.strip_prefix("rust-version")
        {
            return value
                .trim_start_matches([' ', '='])
                .trim_matches('"')
                .to_string();
        }
    }
    panic!("Cargo.toml: `[workspace.package]` declares no rust-version");
}

#[test]
fn every_member_declares_the_workspace_rust_version() {
    let metadata = metadata();
    let ours = declared();
    let (members, _) = packages(&metadata);
    let differ: Vec<String> = members
        .iter()
        .filter(|package| package["rust_version"].as_str() != Some(&ours))
        .map(|package| format!("{} ({})", package["name"], package["rust_version"]))
        .collect();
    assert!(
        differ.is_empty(),
        "members that do not declare rust-version {ours} \
         (`rust-version.workspace = true`): {}",
        differ.join(", ")
    );
}

#[test]
fn no_locked_dependency_needs_a_newer_rust() {
    let metadata = metadata();
    let ours = declared();
    let (_, dependencies) = packages(&metadata);
    assert!(
        dependencies.len() > 100,
        "cargo metadata lists no dependencies"
    );
    let mut newer: Vec<String> = dependencies
        .iter()
        .filter_map(|package| {
            let needs = package["rust_version"].as_str()?;
            (version(needs) > version(&ours)).then(|| {
                format!(
                    "{} {} (rust-version {needs})",
                    package["name"].as_str().unwrap(),
                    package["version"].as_str().unwrap()
                )
            })
        })
        .collect();
    newer.sort();
    assert!(
        newer.is_empty(),
        "Cargo.lock holds crates that need a newer Rust than the declared {ours}: {}. \
         Pin an older version (`cargo update -p NAME --precise VERSION`) or raise \
         `rust-version` in Cargo.toml's [workspace.package].",
        newer.join(", ")
    );
}

#[test]
fn versions_compare_by_number() {
    assert!(version("1.88") == version("1.88.0"));
    assert!(version("1.100") > version("1.88.1"));
    assert!(version("1.88.1") > version("1.88"));
    assert!(version("2.0") > version("1.99.9"));
}
