//! The expansion as rustc runs it, not as this process does: inside rustc the macro is
//! built the way cargo builds it for the user (the dev profile builds proc macros without
//! optimisation) and every token it returns crosses the compiler's bridge.
//!
//! Nightly's `-Z time-passes` times rustc's passes and `-Z no-analysis` stops after
//! expansion, so a size costs seconds, not a whole build. Three crates are read: the one
//! calling `catalog!` with the macro as cargo builds it by default; the same with the macro
//! built at `opt-level = 3` (`[profile.dev.build-override]`, a setting of the user's);
//! and the pasted expansion, whose parsing is what rustc needs to read the code at all:
//! the floor under any macro that generates it.

use std::path::Path;
use std::process::Command;

/// Parsing and expansion of one crate: seconds, and rustc's resident memory after it.
#[derive(Clone, Copy)]
pub struct Read {
    pub secs: f64,
    pub rss_mib: f64,
}

/// The three readings of one size; `None` where nightly or a build was missing.
#[derive(Default)]
pub struct Readings {
    pub macro_default: Option<Read>,
    pub macro_optimised: Option<Read>,
    pub pasted: Option<Read>,
}

/// Reads the crate calling `catalog!` and the one holding the pasted expansion with
/// nightly, sharing `target`.
pub fn measure(target: &Path, with_macro: &Path, pasted: &Path) -> Readings {
    if !nightly_available() {
        println!("in rustc: skipped, no nightly toolchain (`rustup toolchain install nightly`)");
        return Readings::default();
    }
    Readings {
        macro_default: read(target, with_macro, false),
        macro_optimised: read(target, with_macro, true),
        pasted: read(target, pasted, false),
    }
}

fn nightly_available() -> bool {
    Command::new("cargo")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `cargo +nightly rustc -- -Z no-analysis -Z time-passes` on a crate; its dependencies
/// are built first, untimed (the flags apply to the crate alone).
fn read(target: &Path, krate: &Path, optimised: bool) -> Option<Read> {
    // The crate is read again only when cargo thinks it changed.
    let lib = krate.join("src").join("lib.rs");
    let text = std::fs::read_to_string(&lib).ok()?;
    std::fs::write(&lib, text).ok()?;
    let mut cmd = Command::new("cargo");
    cmd.args(["+nightly", "rustc", "--quiet", "--lib", "--"])
        .args(["-Z", "no-analysis", "-Z", "time-passes"])
        .current_dir(krate)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTUP_TOOLCHAIN");
    if optimised {
        cmd.env("CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL", "3");
    }
    let out = match cmd.output() {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let tail: Vec<&str> = err.lines().rev().take(10).collect();
            println!(
                "in rustc: reading {} failed:\n{}",
                krate.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
            return None;
        }
        Err(e) => {
            println!("in rustc: cannot run cargo: {e}");
            return None;
        }
    };
    parse(&String::from_utf8_lossy(&out.stderr))
}

/// `parse_crate` plus `macro_expand_crate` from `-Z time-passes`, with the memory after
/// expansion.
fn parse(report: &str) -> Option<Read> {
    let pass = |name: &str| {
        report.lines().find_map(|l| {
            let rest = l.strip_prefix("time:")?;
            if l.split_whitespace().last() != Some(name) {
                return None;
            }
            let secs: f64 = rest.split(';').next()?.trim().parse().ok()?;
            let rss = l
                .split("->")
                .nth(1)?
                .split("MB")
                .next()?
                .trim()
                .parse()
                .ok()?;
            Some(Read { secs, rss_mib: rss })
        })
    };
    let (parsed, expanded) = (pass("parse_crate")?, pass("macro_expand_crate")?);
    Some(Read {
        secs: parsed.secs + expanded.secs,
        rss_mib: expanded.rss_mib,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_time_passes() {
        let report = "\
time:   0.031; rss:   37MB ->   49MB (  +12MB)\tparse_crate
time:  29.788; rss:   44MB -> 1769MB (+1725MB)\texpand_crate
time:  29.788; rss:   44MB -> 1769MB (+1725MB)\tmacro_expand_crate
time:  44.011; rss:   27MB ->   77MB (  +49MB)\ttotal";
        let r = parse(report).unwrap();
        assert!((r.secs - 29.819).abs() < 1e-9, "{}", r.secs);
        assert!((r.rss_mib - 1769.0).abs() < 1e-9);
        assert!(parse("warning: unused").is_none());
    }
}
