//! The programs `cargo xtask bench-gateway` runs besides the gateway (see its
//! `bench_gateway` module):
//!
//! - `bench-upstream`: a minimal MCP server over stdio with one tool, `echo`, whose
//!   answer costs next to nothing, so what a proxy in front of it adds is what shows;
//! - `bench-proxy`: an MCP proxy over stdio that forwards `tools/list` and `tools/call` to
//!   the server its arguments start, checking nothing: the floor for a proxy built on the
//!   same SDK as the gateway;
//! - `bench-pipe`: copies the lines between the client and the server its arguments start,
//!   reading none, on a blocking thread each way: the floor for any proxy over stdio.
//!
//! The first two run on a current-thread runtime with the non-blocking stdio transport, as
//! the gateway does over stdio.
