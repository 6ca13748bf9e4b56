//! What the tests that drive a server process share: the client interpreter, processes
//! bounded in time, an HTTP server on an ephemeral loopback port, the checks of what a
//! client saw against a catalog's tables ([`report`]), and the official conformance
//! suite ([`conformance`]), and raw requests of a 2026-07-28 client ([`stateless`]).
//!
//! Written for any catalog: catalog-mcp's tests run it against the tracker example, and
//! the example app's server (`example/mcp`) includes this module for its own.

#![allow(dead_code)] // Each test file uses its own part of this module.

pub mod conformance;
pub mod report;
pub mod stateless;

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The binary of this package's example `name`, which `cargo test` builds beside the
/// test binaries (cargo names no environment variable for examples, as it does for bins).
///
/// # Panics
/// When it was not built: a test run that selected only some targets.
#[must_use]
pub fn example_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    // target/<profile>/deps/<test> -> target/<profile>/examples/<name>
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("test binaries live in target/<profile>/deps");
    let binary = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is not built: `cargo test -p {}` builds the examples first, or run \
         `cargo build -p {} --example {name}`",
        binary.display(),
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_NAME"),
    );
    binary
}

/// The workspace's root: the first folder above the testing crate's with
/// `tests/peers/package.json`.
#[must_use]
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("tests/peers/package.json").is_file())
        .expect("the crate is inside the workspace")
        .to_path_buf()
}

/// How long one client script may run.
pub const LIMIT: Duration = Duration::from_secs(120);

/// What the SDK's `initialize` asks for: the newest revision with a handshake.
pub const NOW: &str = "2025-11-25";

/// The protocol revisions a client opens with: `initialize` at the last revision before
/// SEP-1303 made invalid arguments tool results, `initialize` at [`NOW`] (with sessions,
/// the SDK's default), or `server/discover` (2026-07-28, stateless).
pub const REVISIONS: [&str; 3] = ["2025-06-18", NOW, "2026-07-28"];

/// A client script's arguments that open a session on `revision`.
#[must_use]
pub fn opening(revision: &str) -> Vec<String> {
    if revision == "2026-07-28" {
        vec!["--modern".into()]
    } else {
        vec!["--revision".into(), revision.into()]
    }
}

/// The official `mcp` Python SDK, as a client: an interpreter that has it, and the client
/// scripts (`catalog-mcp/tests/clients`).
pub struct Peer {
    python: PathBuf,
    clients: PathBuf,
}

impl Peer {
    /// The interpreter from `CATALOG_PEER_PYTHON`, with the scripts of
    /// `catalog-mcp/tests/clients`. Unset, a test using it fails under CI and is skipped
    /// with instructions elsewhere.
    #[must_use]
    pub fn find(test: &str) -> Option<Peer> {
        Some(Peer {
            python: catalog_testkit::peer(test, "CATALOG_PEER_PYTHON")?,
            clients: workspace().join("crates/catalog-mcp/tests/clients"),
        })
    }

    /// Runs a client script and reads the JSON report it prints.
    ///
    /// # Panics
    /// When the script fails or prints no JSON.
    #[must_use]
    pub fn run(&self, script: &str, args: &[String], limit: Duration) -> serde_json::Value {
        let done = run(self.command(script).args(args), limit);
        assert!(
            done.status.success(),
            "{script} {args:?} failed ({}):\n{}\n{}",
            done.status,
            done.stdout,
            done.stderr
        );
        let line = done.stdout.lines().last().unwrap_or_default();
        serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{script} printed no JSON report ({e}):\n{}", done.stdout))
    }

    /// `conformance.py`: what one client on `revision` sees over `connection` (a server's
    /// [`HttpServer::connection`], or `--stdio` and the command line of a server, which
    /// takes the rest of the arguments): the handshake, the listing, each tool of `probe`
    /// (a JSON list of names, as [`report::every_name`] writes it) called with arguments
    /// no tool takes, then `calls` (as [`report::steps`] writes them).
    ///
    /// # Panics
    /// As [`Peer::run`].
    #[must_use]
    pub fn conformance(
        &self,
        probe: &str,
        calls: &str,
        revision: &str,
        connection: &[String],
    ) -> serde_json::Value {
        let mut args = vec![
            "--probe".into(),
            probe.into(),
            "--calls".into(),
            calls.into(),
        ];
        args.extend(opening(revision));
        args.extend(connection.iter().cloned());
        self.run("conformance.py", &args, LIMIT)
    }

    /// The command that runs `script`, for a test that reads its output as it comes.
    #[must_use]
    pub fn command(&self, script: &str) -> Command {
        let mut command = Command::new(&self.python);
        command
            .arg(self.clients.join(script))
            .env("PYTHONDONTWRITEBYTECODE", "1");
        command
    }
}

/// What a finished process printed.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

fn drain(mut from: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut text = String::new();
        let _ = from.read_to_string(&mut text);
        text
    })
}

/// Runs a command to its end, killing it after `limit`.
///
/// # Panics
/// When it cannot start or outlives `limit`.
#[must_use]
pub fn run(command: &mut Command, limit: Duration) -> Finished {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = stderr.join().unwrap_or_default();
            panic!("{command:?} ran over {limit:?}; stderr:\n{stderr}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// Runs a future to its end on this thread: the in-process call path needs no runtime,
/// and every crate that includes this module can use it without a dependency.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    struct Unpark(thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::task::Waker::from(Arc::new(Unpark(thread::current())));
    let mut context = std::task::Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        thread::park();
    }
}

/// A scratch directory of this test process.
#[must_use]
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "{}-{}-{}-{name}",
        env!("CARGO_PKG_NAME"),
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A token no other run shares.
#[must_use]
pub fn token(label: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{label}-{nanos:x}-{:x}", std::process::id())
}

/// A server over streamable HTTP on an ephemeral loopback port; killed when dropped.
pub struct HttpServer {
    child: Child,
    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub address: String,
    log: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Starts `SERVER --http 127.0.0.1:0 --tokens FILE` with `extra` arguments (a server
    /// built on `catalog_mcp::main`) and reads the address it bound from its first line on
    /// stderr.
    ///
    /// # Panics
    /// When the server does not come up within a minute (a gateway starts its upstreams first).
    #[must_use]
    pub fn start(server: &Path, tokens: &[(String, &str)], extra: &[&str]) -> HttpServer {
        let dir = scratch("http");
        let file = dir.join("tokens.toml");
        let mut text = String::new();
        for (value, access) in tokens {
            let _ = write!(
                text,
                "[[token]]\nvalue = \"{value}\"\naccess = \"{access}\"\n\n"
            );
        }
        std::fs::write(&file, text).unwrap();
        let mut args = vec!["--tokens", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        HttpServer::spawn(server, &args)
    }

    /// Starts `SERVER --http 127.0.0.1:0 ARGS...`, which says where its credentials are,
    /// and reads the address it bound from its stderr, as [`HttpServer::start`] does.
    ///
    /// # Panics
    /// When the server does not come up within a minute (a gateway starts its upstreams first).
    #[must_use]
    pub fn spawn(server: &Path, args: &[&str]) -> HttpServer {
        let mut child = Command::new(server)
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let (tx, rx) = std::sync::mpsc::channel();
        let log = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&log);
        thread::spawn(move || {
            let mut sent = false;
            for line in lines.by_ref().map_while(Result::ok) {
                if !sent && let Some(rest) = line.split(" at http://").nth(1) {
                    let _ = tx.send(
                        rest.split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_owned(),
                    );
                    sent = true;
                }
                let mut log = keep.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let Ok(rest) = rx.recv_timeout(Duration::from_secs(60)) else {
            let _ = child.kill();
            panic!("the HTTP server did not come up:\n{}", log.lock().unwrap());
        };
        let address = rest.split('/').next().unwrap().to_owned();
        HttpServer {
            child,
            url: format!("http://{rest}"),
            address,
            log,
        }
    }

    /// A client script's arguments that reach this server with bearer `token`.
    #[must_use]
    pub fn connection(&self, token: &str) -> Vec<String> {
        ["--http", &self.url, "--token", token]
            .map(String::from)
            .to_vec()
    }

    /// The CPU time the server process has used, where `/proc` tells it (Linux).
    #[must_use]
    pub fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // Fields after the parenthesised command name; utime and stime are 14 and 15.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: f64 =
            fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        let hz = Command::new("getconf").arg("CLK_TCK").output().ok()?;
        let hz: f64 = String::from_utf8_lossy(&hz.stdout).trim().parse().ok()?;
        Some(ticks / hz)
    }

    /// Kills the server at once (`SIGKILL` on Unix): no shutdown, no flush.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// What the server logged so far.
    #[must_use]
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a server answered one raw HTTP request: its status and the JSON-RPC message,
/// from a JSON body or the first message of an event stream.
pub struct Answered {
    pub status: u16,
    pub message: serde_json::Value,
}

/// One stateless 2026-07-28 request over raw HTTP to `address` with bearer `token`:
/// `method` with `params` and the request's `_meta`, the standard `Mcp-Method` and
/// `Mcp-Name` headers, and `extra` ones (the `Mcp-Param-*` a test sends, or not).
///
/// # Panics
/// When the server cannot be reached or answers no JSON-RPC message in 10 s.
#[must_use]
pub fn modern_request(
    address: &str,
    token: &str,
    method: &str,
    mut params: serde_json::Value,
    extra: &[&str],
) -> Answered {
    params["_meta"] = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
        .to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Authorization: Bearer {token}\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n",
        body.len()
    );
    if let Some(name) = params["name"].as_str() {
        let _ = write!(head, "Mcp-Name: {name}\r\n");
    }
    for header in extra {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    let mut stream = std::net::TcpStream::connect(address).expect("the server listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    std::io::Write::write_all(&mut stream, head.as_bytes()).unwrap();
    std::io::Write::write_all(&mut stream, body.as_bytes()).unwrap();
    let mut response = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        if let Some(answered) = answered(&String::from_utf8_lossy(&response)) {
            return answered;
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buffer[..n]),
        }
    }
    panic!(
        "no JSON-RPC message in the response to {method}:\n{}",
        String::from_utf8_lossy(&response)
    )
}

/// The status and first whole JSON-RPC message of a response read so far, if it holds
/// one: a JSON body, or an event stream's `data:` line that is whole.
fn answered(response: &str) -> Option<Answered> {
    let (head, body) = response.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    // The answer, not a notification before it.
    let whole = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .filter(|m| m.get("id").is_some())
    };
    let message = body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .find_map(whole)
        .or_else(|| whole(body.trim()))?;
    Some(Answered { status, message })
}
