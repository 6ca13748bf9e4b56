//! Replicas: three `catalog-gateway` processes in search mode, sharing sessions and search
//! finds through `redis-server`, behind `haproxy` balancing round robin without sticky
//! sessions, in front of `mcp-server-time`; the official Python SDK holds one session
//! through the balancer while the replica the session began on is killed.
//!
//! The Python peers come from `cargo xtask test` (`CATALOG_PEER_PYTHON`), `redis-server`
//! and `haproxy` from the system (`cargo xtask test` installs the Debian packages when
//! run as root); without them these tests fail under CI and are skipped, with
//! instructions, elsewhere.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TOKEN: &str = "replica-client-0123456789";

/// What these tests run: the Python environment, `redis-server` and `haproxy`.
struct Peers {
    python: PathBuf,
}

impl Peers {
    fn find(test: &str) -> Option<Peers> {
        let how = "`apt-get install redis-server haproxy`, or run `cargo xtask test` as root, which installs them";
        let python = catalog_testkit::peer(test, "CATALOG_PEER_PYTHON")?;
        catalog_testkit::program(test, "redis-server", how)?;
        catalog_testkit::program(test, "haproxy", how)?;
        Some(Peers { python })
    }

    fn python_program(&self, name: &str) -> PathBuf {
        self.python.with_file_name(name)
    }
}

/// A loopback port nothing listens on now (`redis-server` and `haproxy` take no port 0).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("catalog-replicas-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits until something accepts connections on `port`.
fn wait_for_port(port: u16, what: &str, log: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{what} does not listen on {port}: {}",
            log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A process of the test, killed when dropped, its standard error collected.
struct Process {
    child: Child,
    log: Arc<Mutex<String>>,
}

impl Process {
    /// Starts `command`, collecting its standard error (and output, with `stdout`); the
    /// first line containing `marker`, when given, is returned once it is printed.
    fn start(command: &mut Command, marker: Option<&str>) -> (Process, Option<String>) {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        for pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let kept = Arc::clone(&log);
            let tx = tx.clone();
            let marker = marker.map(str::to_owned);
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if marker.as_deref().is_some_and(|m| line.contains(m)) {
                        let _ = tx.send(line.clone());
                    }
                    let mut log = kept.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
            });
        }
        let process = Process { child, log };
        let line = marker.map(|m| {
            rx.recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no line with {m:?}: {}", process.log()))
        });
        (process, line)
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `redis-server` on a loopback port, keeping nothing on disk.
fn redis(dir: &Path) -> (Process, u16) {
    let port = free_port();
    let (process, _) = Process::start(
        Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir),
        Some("Ready to accept connections"),
    );
    (process, port)
}

/// The keys in the Redis database at `port` (RESP's inline `DBSIZE`).
fn keys_in(port: u16) -> u64 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(b"DBSIZE\r\n").unwrap();
    let mut reply = String::new();
    BufReader::new(stream).read_line(&mut reply).unwrap();
    reply
        .trim()
        .strip_prefix(':')
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a DBSIZE reply: {reply:?}"))
}

/// A catalog of `mcp-server-time`'s tools, imported as a user would, and the operator's
/// file: one read-only token, and the shared store at `redis_port`.
fn catalog(peers: &Peers, dir: &Path, redis_port: u16) -> (PathBuf, PathBuf) {
    let gateway = PathBuf::from(env!("CARGO_BIN_EXE_catalog-gateway"));
    let cargo_catalog =
        gateway.with_file_name(format!("cargo-catalog{}", std::env::consts::EXE_SUFFIX));
    assert!(
        cargo_catalog.is_file(),
        "{} is not built: run `cargo build -p cargo-catalog --features upstreams` (or `cargo xtask test`)",
        cargo_catalog.display()
    );
    let catalog = dir.join("catalog.toml");
    let out = Command::new(cargo_catalog)
        .args(["import", "--from-server", "--name", "time", "--out"])
        .arg(&catalog)
        .arg("--")
        .arg(peers.python_program("mcp-server-time"))
        .args(["--local-timezone", "UTC"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = dir.join("gateway-config.toml");
    std::fs::write(
        &config,
        format!(
            "[[token]]\nname = \"client\"\nvalue = \"{TOKEN}\"\naccess = \"read-only\"\n\n\
             [sessions]\nredis = \"redis://127.0.0.1:{redis_port}/0\"\n"
        ),
    )
    .unwrap();
    (catalog, config)
}

/// One replica: `catalog-gateway --http 127.0.0.1:0` in search mode; its port.
fn replica(catalog: &Path, config: &Path) -> (Process, u16) {
    let (process, line) = Process::start(
        Command::new(env!("CARGO_BIN_EXE_catalog-gateway"))
            // A forwarded call is logged at debug.
            .env(
                "RUST_LOG",
                "catalog_gateway=debug,catalog_mcp=info,rmcp=error",
            )
            .arg("--catalog")
            .arg(catalog)
            .arg("--config")
            .arg(config)
            .args(["--discoverable", "search", "--http", "127.0.0.1:0"]),
        Some("over streamable HTTP at "),
    );
    let line = line.unwrap();
    let port = line
        .split_once("http://127.0.0.1:")
        .and_then(|(_, rest)| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (process, port)
}

/// `haproxy` on a loopback port, round robin over `replicas` without stickiness: the
/// connection to a replica closes after each answer, so every request is balanced anew.
/// A replica that stops is retried elsewhere and marked down by the health check.
fn haproxy(dir: &Path, replicas: &[u16]) -> (Process, u16) {
    let port = free_port();
    let mut servers = String::new();
    for (i, p) in replicas.iter().enumerate() {
        writeln!(
            servers,
            "    server replica{i} 127.0.0.1:{p} check inter 300ms fall 1 rise 1"
        )
        .unwrap();
    }
    let config = dir.join(format!("haproxy-{port}.cfg"));
    std::fs::write(
        &config,
        format!(
            "defaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n\
             \x20   option http-server-close\n    retries 3\n    option redispatch 1\n\
             \x20   retry-on conn-failure empty-response\n\n\
             frontend mcp\n    bind 127.0.0.1:{port}\n    default_backend replicas\n\n\
             backend replicas\n    balance roundrobin\n{servers}"
        ),
    )
    .unwrap();
    let (process, _) = Process::start(
        Command::new("haproxy").arg("-db").arg("-f").arg(&config),
        None,
    );
    let log = Arc::clone(&process.log);
    wait_for_port(port, "haproxy", move || log.lock().unwrap().clone());
    (process, port)
}

/// The Python SDK holding one session through `url`, answering one step at a time.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Client {
    fn open(peers: &Peers, url: &str) -> Client {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/replica_client.py");
        let mut child = Command::new(&peers.python)
            .arg(script)
            .args(["session", url, TOKEN])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            stdin,
            stdout,
        }
    }

    fn step(&mut self, step: &Value) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{step}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the client's answer to {step} is not JSON ({e}): {line:?}"))
    }

    /// Ends the session (the SDK sends DELETE) and waits for the client to exit.
    fn close(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the client failed: {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the client did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn names(listed: &Value) -> Vec<&str> {
    listed["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("not a listing: {listed}"))
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// What each replica's log says it did: sessions begun, sessions taken over, calls
/// forwarded.
fn did(log: &str) -> [usize; 3] {
    [
        log.matches("a client session began").count(),
        log.matches("a client session of another replica continues here")
            .count(),
        log.matches("forwarding a verified call").count(),
    ]
}

#[test]
fn a_session_outlives_the_replica_it_began_on() {
    let Some(peers) = Peers::find("a_session_outlives_the_replica_it_began_on") else {
        return;
    };
    let dir = scratch("outlives");
    let (_redis, redis_port) = redis(&dir);
    let (catalog, config) = catalog(&peers, &dir, redis_port);
    let mut replicas: Vec<(Process, u16)> = (0..3).map(|_| replica(&catalog, &config)).collect();
    let ports: Vec<u16> = replicas.iter().map(|r| r.1).collect();
    let (_haproxy, port) = haproxy(&dir, &ports);
    let url = format!("http://127.0.0.1:{port}/mcp");

    let mut client = Client::open(&peers, &url);
    let listed = client.step(&json!({"list": true}));
    assert_eq!(names(&listed), ["searchTools"], "{listed}");
    let found = client.step(
        &json!({"call": "searchTools", "arguments": {"query": "current time in a timezone"}}),
    );
    assert!(
        found["text"]
            .as_str()
            .unwrap_or_default()
            .contains("\"name\":\"get_current_time\""),
        "{found}"
    );
    // The search's finds are in Redis once its answer is out: the session and its finds,
    // beside the key the replicas seal the state of 2026-07-28 calls with.
    assert_eq!(keys_in(redis_port), 3);
    for _ in 0..3 {
        let listed = client.step(&json!({"list": true}));
        assert!(names(&listed).contains(&"get_current_time"), "{listed}");
        let called =
            client.step(&json!({"call": "get_current_time", "arguments": {"timezone": "UTC"}}));
        assert_eq!(called["structured"]["timezone"], "UTC", "{called}");
    }

    // Round robin without stickiness: more than one replica answered the session.
    let logs: Vec<String> = replicas.iter().map(|r| r.0.log()).collect();
    let done: Vec<[usize; 3]> = logs.iter().map(|l| did(l)).collect();
    let began: Vec<usize> = (0..3).filter(|&i| done[i][0] > 0).collect();
    assert_eq!(began.len(), 1, "one replica began the session: {done:?}");
    let answered = done.iter().filter(|d| d.iter().sum::<usize>() > 0).count();
    assert!(
        answered >= 2,
        "the balancer spread the session: {done:?}\n{logs:#?}"
    );

    // The replica the session began on stops; the client goes on through the balancer.
    let first = began[0];
    replicas[first].0.kill();
    let before: Vec<[usize; 3]> = replicas.iter().map(|r| did(&r.0.log())).collect();
    for _ in 0..4 {
        let listed = client.step(&json!({"list": true}));
        assert!(names(&listed).contains(&"get_current_time"), "{listed}");
        let called =
            client.step(&json!({"call": "get_current_time", "arguments": {"timezone": "UTC"}}));
        assert_eq!(called["structured"]["timezone"], "UTC", "{called}");
    }
    let after: Vec<[usize; 3]> = replicas.iter().map(|r| did(&r.0.log())).collect();
    let forwarded_after: usize = (0..3).map(|i| after[i][2] - before[i][2]).sum();
    assert_eq!(forwarded_after, 4, "{after:?}");
    assert_eq!(after[first], before[first], "the stopped replica answered");
    let http = client.step(&json!({"http": true}));
    assert_eq!(
        http["initialize"], 1,
        "the client never initialized again: {http}"
    );
    assert_eq!(
        http["session_ids"].as_array().map(Vec::len),
        Some(1),
        "one session throughout: {http}"
    );
    assert!(
        http["statuses"]
            .as_object()
            .unwrap()
            .keys()
            .all(|k| !k.ends_with(" 404")),
        "no request was refused for an unknown session: {http}"
    );

    // Ending the session (DELETE, on whichever replica) removes what Redis kept of it.
    client.close();
    assert_eq!(keys_in(redis_port), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client without a session (2026-07-28) through the balancer: its search is kept by
/// its credential where every replica reads it, and a gated call one replica asks about
/// is answered on another, whose seal is the replicas' own; the state is good once on
/// any of them.
#[test]
fn a_question_one_replica_asks_is_answered_on_another() {
    let Some(peers) = Peers::find("a_question_one_replica_asks_is_answered_on_another") else {
        return;
    };
    let dir = scratch("asked");
    let (_redis, redis_port) = redis(&dir);
    let (catalog, config) = catalog(&peers, &dir, redis_port);
    // The time tool asks before it runs.
    let text = std::fs::read_to_string(&catalog).unwrap();
    let row = text
        .find("name = \"get_current_time\"")
        .expect("the time tool's row");
    let (before, after) = text.split_at(row);
    let gated = format!(
        "{before}{}",
        after.replacen("tier = \"silent\"", "tier = \"gated\"", 1)
    );
    assert_ne!(gated, text, "the time tool's row is silent");
    std::fs::write(&catalog, gated).unwrap();
    let replicas: Vec<(Process, u16)> = (0..3).map(|_| replica(&catalog, &config)).collect();
    let ports: Vec<u16> = replicas.iter().map(|r| r.1).collect();
    let (_haproxy, port) = haproxy(&dir, &ports);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog-mcp/tests/clients/elicit.py");
    let calls = json!([
        ["search", "searchTools", {"query": "current time in a timezone"}],
        ["time", "get_current_time", {"timezone": "UTC"}],
    ]);
    let out = Command::new(&peers.python)
        .arg(script)
        .args([
            "--answer",
            "accept",
            "--calls",
            &calls.to_string(),
            "--modern",
        ])
        .args(["--http", &url, "--token", TOKEN])
        .output()
        .unwrap();
    let logs: Vec<String> = replicas.iter().map(|r| r.0.log()).collect();
    assert!(
        out.status.success(),
        "{}\n{logs:#?}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    let time = &report["calls"]["time"];
    assert_eq!(
        time["structuredContent"]["timezone"], "UTC",
        "{report}\n{logs:#?}"
    );
    assert_eq!(time["inputRounds"], 1, "{report}");
    assert_eq!(
        report["questions"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    // One replica asked, another ran the call with the answer.
    let asked: Vec<usize> = (0..3)
        .filter(|&i| logs[i].contains("tools/call waits for the user's answer"))
        .collect();
    let ran: Vec<usize> = (0..3)
        .filter(|&i| logs[i].contains("forwarding a verified call"))
        .collect();
    assert!(
        asked.len() == 1 && ran.len() == 1 && asked != ran,
        "asked on {asked:?}, ran on {ran:?}: {logs:#?}"
    );
    drop(replicas);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calls per second through the balancer, one and three replicas: a bounded load on
/// loopback whose figures are printed (`cargo xtask test -p catalog-gateway --test
/// replicas -- --nocapture`), never asserted; every call must succeed.
#[test]
fn calls_per_second_through_the_balancer() {
    let Some(peers) = Peers::find("calls_per_second_through_the_balancer") else {
        return;
    };
    let dir = scratch("load");
    let (_redis, redis_port) = redis(&dir);
    let (catalog, config) = catalog(&peers, &dir, redis_port);
    let replicas: Vec<(Process, u16)> = (0..3).map(|_| replica(&catalog, &config)).collect();
    let ports: Vec<u16> = replicas.iter().map(|r| r.1).collect();
    let (sessions, calls) = (8, 50);
    for count in [1, 3] {
        let (_haproxy, port) = haproxy(&dir, &ports[..count]);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/peers/replica_client.py");
        let out = Command::new(&peers.python)
            .arg(script)
            .args(["load", &format!("http://127.0.0.1:{port}/mcp"), TOKEN])
            .args([sessions.to_string(), calls.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["calls"], sessions * calls, "{report}");
        assert_eq!(report["failed"], 0, "{report}");
        println!(
            "{count} replica(s) behind haproxy: {} calls/s ({} calls of get_current_time, {sessions} sessions at once, in {} s)",
            report["calls_per_second"], report["calls"], report["seconds"]
        );
    }
    drop(replicas);
    let _ = std::fs::remove_dir_all(&dir);
}
