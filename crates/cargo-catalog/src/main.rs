//! `cargo-catalog`: run as `cargo catalog <command>` once installed
//! (`cargo install --path crates/cargo-catalog`), or directly as `cargo-catalog <command>`.

use std::process::ExitCode;

// A large catalog's check allocates millions of small values on two threads, a fifth of
// its time with the system allocator (BENCHMARKS.md, "`check-catalog` at scale").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cargo_catalog::main(std::env::args_os().skip(1))
}
