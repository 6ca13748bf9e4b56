//! `cargo-catalog`: run as `cargo catalog <command>` once installed
//! (`cargo install --path cargo-catalog`), or directly as `cargo-catalog <command>`.

use std::process::ExitCode;

fn main() -> ExitCode {
    cargo_catalog::main(std::env::args_os().skip(1))
}
