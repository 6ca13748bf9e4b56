//! `cargo xtask bench-gateway`: what a proxy in front of an MCP server adds to a tool call,
//! for the gateway and for other proxies, measured side by side over stdio.
//!
//! Every contender runs at once, each with its own copy of the same upstream behind it:
//! - `direct`: the client talks to the upstream itself;
//! - `catalog-gateway`: a release build, on a catalog that `cargo xtask import
//!   --from-server` wrote from the upstream (every check on: the arguments against the
//!   reviewed schema, the pins, the result scanner);
//! - `rust-proxy`: `gateway-bench`'s `bench-proxy`, a pass-through on the same SDK that
//!   checks nothing;
//! - `line-pipe`: `gateway-bench`'s `bench-pipe`, which copies lines both ways and reads
//!   none, the floor of any proxy over stdio: two more processes woken per call;
//! - `fastmcp-proxy`: `FastMCP`'s `create_proxy`;
//! - `fastmcp-gateway`: the tool called through its `execute_tool`.
//!
//! Three upstreams: `gateway-bench`'s `bench-upstream` with its `echo` tool (it costs next
//! to nothing, so the overhead shows), `mcp-server-time`, the server the guide names, and
//! `bench-upstream`'s `progress` tool, called with a progress token: it reports progress
//! once, stamped with the wall-clock time it was sent, and each contender's relayed
//! notification is timed from that stamp to the line the client reads (a contender that
//! does not pass progress on has no such time).
//!
//! The client is this process, writing JSON-RPC lines and reading the answers with
//! blocking pipes: the official Python SDK's client spends about a millisecond and
//! varies by more than the 0.1 ms difference to be seen, so it is left out. After a
//! warm-up, call `i` goes to every contender in turn, in a fresh seeded order each round,
//! so drift on the machine hits all alike and no contender always follows the same one.
//! Per contender it prints the median and p90 wall time per call, the added median
//! against `direct` and the median of the paired differences (call `i` through it minus
//! call `i` direct), and the processor time per call of the process the client talks to
//! (every thread's, from /proc; for `direct` the upstream's own). The Python contenders
//! are installed into `target/bench-gateway/venv` on the first run, from
//! `xtask/src/bench_gateway/requirements.txt`.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::test::step;

/// Calls to each contender before the timed ones: sessions, caches and the
/// interpreters' first paths warmed up.
const WARMUP: usize = 30;
/// The longest a run may take; past it every contender is stopped.
const DEADLINE: Duration = Duration::from_secs(300);

/// The command's arguments.
pub struct Options {
    /// Timed calls per contender.
    pub calls: usize,
    /// The upstreams to measure with, by name; all when empty.
    pub upstreams: Vec<String>,
    /// Another `catalog-gateway` to measure alongside, e.g. one built from an earlier
    /// commit: before and after a change, in the same alternation.
    pub baseline: Option<PathBuf>,
}

/// An upstream the contenders are put in front of.
struct Upstream {
    name: &'static str,
    command: Vec<String>,
    tool: &'static str,
    arguments: Value,
    /// Whether calls carry a progress token.
    progress: bool,
}

pub fn run(options: &Options) -> ExitCode {
    match measure(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench-gateway: {message}");
            ExitCode::FAILURE
        }
    }
}

fn measure(options: &Options) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    step(
        Command::new(&cargo).current_dir(&root).args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "catalog-gateway",
            "-p",
            "gateway-bench",
        ]),
        "the release build of catalog-gateway and gateway-bench",
    )?;
    let release = target.join("release");
    let work = target.join("bench-gateway");
    let python = venv(&root, &work)?;
    let venv_bin = python.parent().unwrap_or(Path::new("."));
    let upstreams = upstreams(&release, venv_bin);
    for wanted in &options.upstreams {
        if !upstreams.iter().any(|u| u.name == wanted) {
            return Err(format!("--upstream {wanted}: use echo, time or progress"));
        }
    }
    let proxies = path(&root.join("xtask/src/bench_gateway/proxies.py"));
    println!(
        "{} timed calls per contender after {WARMUP} to warm up, alternating call by call; times in µs.\n",
        options.calls
    );
    for upstream in upstreams
        .iter()
        .filter(|u| options.upstreams.is_empty() || options.upstreams.iter().any(|w| w == u.name))
    {
        let catalog = import(&work, upstream)?;
        let with = |mut first: Vec<String>| {
            first.extend(upstream.command.iter().cloned());
            first
        };
        // One of `gateway-bench`'s programs in front of the upstream.
        let proxy = |program: &str| with(vec![path(&release.join(program))]);
        let gateway = vec![
            path(&release.join("catalog-gateway")),
            "--catalog".into(),
            path(&catalog),
            // The echo tool has no hints, so its row is full-access and gated: allowed here,
            // every other check stays on.
            "--access".into(),
            "full-access".into(),
            "--gated".into(),
            "allow".into(),
        ];
        let mut contenders: Vec<(&str, Vec<String>, Call)> = vec![
            ("direct", upstream.command.clone(), Call::direct(upstream)),
            ("catalog-gateway", gateway.clone(), Call::direct(upstream)),
            ("rust-proxy", proxy("bench-proxy"), Call::direct(upstream)),
            ("line-pipe", proxy("bench-pipe"), Call::direct(upstream)),
            (
                "fastmcp-proxy",
                with(vec![path(&python), proxies.clone(), "fastmcp".into()]),
                Call::direct(upstream),
            ),
            (
                "fastmcp-gateway",
                with(vec![
                    path(&python),
                    proxies.clone(),
                    "fastmcp-gateway".into(),
                ]),
                Call::execute_tool(upstream),
            ),
        ];
        if let Some(baseline) = &options.baseline {
            let mut command = gateway;
            command[0] = path(baseline);
            contenders.insert(2, ("gateway-baseline", command, Call::direct(upstream)));
        }
        let logs = work.join("logs");
        std::fs::create_dir_all(&logs)
            .map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
        let measured = alternate(&contenders, &logs, upstream.name, options.calls)?;
        print_table(upstream, &measured);
    }
    Ok(())
}

/// The bench's own Python environment, installed when missing or stale.
fn venv(root: &Path, work: &Path) -> Result<PathBuf, String> {
    crate::test::venv(
        &root.join("xtask/src/bench_gateway/requirements.txt"),
        &work.join("venv"),
        "the Python contenders",
    )
}

/// A fresh catalog of `upstream`'s tools, as a user imports one.
fn import(work: &Path, upstream: &Upstream) -> Result<PathBuf, String> {
    let dir = work.join(upstream.name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let catalog = dir.join("catalog.toml");
    let xtask = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    step(
        Command::new(xtask)
            .args(["import", "--from-server", "--name", "bench", "--out"])
            .arg(&catalog)
            .arg("--")
            .args(&upstream.command)
            .stdout(Stdio::null()),
        &format!("`import --from-server` of {}", upstream.name),
    )?;
    Ok(catalog)
}

/// What a contender is sent for one call of the upstream's tool.
struct Call(Value);

impl Call {
    fn direct(upstream: &Upstream) -> Call {
        Call::with_meta(
            json!({"name": upstream.tool, "arguments": upstream.arguments}),
            upstream,
        )
    }

    /// fastmcp-gateway serves its meta-tools; an upstream's tool is called through one.
    fn execute_tool(upstream: &Upstream) -> Call {
        Call::with_meta(
            json!({
                "name": "execute_tool",
                "arguments": {"tool_name": upstream.tool, "arguments": upstream.arguments},
            }),
            upstream,
        )
    }

    /// `params`, with a progress token when the upstream's calls carry one.
    fn with_meta(mut params: Value, upstream: &Upstream) -> Call {
        if upstream.progress {
            params["_meta"] = json!({"progressToken": "bench"});
        }
        Call(params)
    }
}

/// The time from the wall-clock stamp a progress notification's message carries (as
/// `bench-upstream` sends it) to now, if it carries one.
fn latency(message: &Value) -> Option<Duration> {
    if message.get("method")? != "notifications/progress" {
        return None;
    }
    let sent: u128 = message.pointer("/params/message")?.as_str()?.parse().ok()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    u64::try_from(now.checked_sub(sent)?)
        .ok()
        .map(Duration::from_nanos)
}

/// A contender's process and the client's session with it.
struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: u64,
    line: String,
    /// The relayed progress notifications' latencies, as they came.
    notified: Vec<Duration>,
}

impl Session {
    fn start(command: &[String], log: &Path) -> Result<Session, String> {
        let log = std::fs::File::create(log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command[0]))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut session = Session {
            child,
            input,
            output,
            next: 0,
            line: String::new(),
            notified: Vec::new(),
        };
        session.request(
            "initialize",
            &json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench-gateway", "version": "1"},
            }),
        )?;
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(session)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut text = message.to_string();
        text.push('\n');
        self.input
            .write_all(text.as_bytes())
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot write to the contender: {e}"))
    }

    /// Sends a request and reads lines until its response, which is returned with the
    /// time from the write to the response's line.
    fn timed(&mut self, method: &str, params: &Value) -> Result<(Value, Duration), String> {
        self.next += 1;
        let id = self.next;
        let mut text =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        text.push('\n');
        let start = Instant::now();
        self.input
            .write_all(text.as_bytes())
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot write to the contender: {e}"))?;
        loop {
            self.line.clear();
            let read = self
                .output
                .read_line(&mut self.line)
                .map_err(|e| format!("cannot read from the contender: {e}"))?;
            let elapsed = start.elapsed();
            if read == 0 {
                return Err(String::from("the contender closed its output"));
            }
            let message: Value = serde_json::from_str(&self.line).map_err(|e| {
                format!(
                    "the contender wrote a line that is not JSON ({e}): {}",
                    self.line
                )
            })?;
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return Ok((message, elapsed));
            }
            // A notification, or a request of the server's: not the answer.
            if let Some(latency) = latency(&message) {
                self.notified.push(latency);
            }
        }
    }

    fn request(&mut self, method: &str, params: &Value) -> Result<Value, String> {
        let (message, _) = self.timed(method, params)?;
        match message.get("result") {
            Some(result) => Ok(result.clone()),
            None => Err(format!("{method} failed: {message}")),
        }
    }

    /// One call; an error or a result marked as one fails the run.
    fn call(&mut self, call: &Call) -> Result<Duration, String> {
        let (message, elapsed) = self.timed("tools/call", &call.0)?;
        let result = message.get("result");
        if result.is_none() || result.and_then(|r| r.get("isError")) == Some(&json!(true)) {
            return Err(format!("the call failed: {message}"));
        }
        Ok(elapsed)
    }

    /// The processor time every live thread of the process has run, from
    /// /proc/PID/task/*/schedstat (nanoseconds, not the clock ticks of /proc/PID/stat).
    fn cpu(&self) -> Result<Duration, String> {
        let tasks = format!("/proc/{}/task", self.child.id());
        let entries = std::fs::read_dir(&tasks).map_err(|e| format!("cannot read {tasks}: {e}"))?;
        let mut total = 0u64;
        for entry in entries.flatten() {
            let stat = std::fs::read_to_string(entry.path().join("schedstat")).unwrap_or_default();
            total += stat
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0);
        }
        Ok(Duration::from_nanos(total))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One contender's figures.
struct Measured {
    label: String,
    /// Each timed call's wall time, in call order.
    times: Vec<Duration>,
    cpu: Duration,
    /// The latency of each relayed progress notification of the timed calls.
    notified: Vec<Duration>,
}

/// The upstreams the contenders are put in front of: `bench-upstream`'s from `release`,
/// `mcp-server-time` from `venv_bin`.
fn upstreams(release: &Path, venv_bin: &Path) -> [Upstream; 3] {
    [
        Upstream {
            name: "echo",
            command: vec![path(&release.join("bench-upstream"))],
            tool: "echo",
            arguments: json!({"text": "hello"}),
            progress: false,
        },
        Upstream {
            name: "time",
            command: vec![path(&venv_bin.join("mcp-server-time"))],
            tool: "get_current_time",
            arguments: json!({"timezone": "UTC"}),
            progress: false,
        },
        Upstream {
            name: "progress",
            command: vec![path(&release.join("bench-upstream"))],
            tool: "progress",
            arguments: json!({}),
            progress: true,
        },
    ]
}

/// Starts every contender, warms each up, then times `calls` calls of each, call by call
/// in a fresh seeded order each round.
fn alternate(
    contenders: &[(&str, Vec<String>, Call)],
    logs: &Path,
    upstream: &str,
    calls: usize,
) -> Result<Vec<Measured>, String> {
    let mut sessions = Vec::new();
    for (label, command, _) in contenders {
        let log = logs.join(format!("{upstream}-{label}.log"));
        let session = Session::start(command, &log)
            .map_err(|e| format!("{label}: {e} (its log: {})", log.display()))?;
        sessions.push(session);
    }
    let watchdog = Watchdog::arm(sessions.iter().map(|s| s.child.id()).collect());
    for ((label, _, call), session) in contenders.iter().zip(&mut sessions) {
        for _ in 0..WARMUP {
            session.call(call).map_err(|e| format!("{label}: {e}"))?;
        }
    }
    let before: Vec<Duration> = sessions
        .iter()
        .map(Session::cpu)
        .collect::<Result<_, _>>()?;
    for session in &mut sessions {
        session.notified.clear();
    }
    let mut times = vec![Vec::with_capacity(calls); contenders.len()];
    // Shuffled, not rotated: with `(round + k) % n` each contender always ran right after
    // the same one, whose call might leave the machine warmer or colder for it.
    let mut rng = crate::r#gen::Rng::new(0x0b5e_55ed);
    let mut order: Vec<usize> = (0..contenders.len()).collect();
    for _ in 0..calls {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &c in &order {
            let elapsed = sessions[c]
                .call(&contenders[c].2)
                .map_err(|e| format!("{}: {e}", contenders[c].0))?;
            times[c].push(elapsed);
        }
    }
    let after: Vec<Duration> = sessions
        .iter()
        .map(Session::cpu)
        .collect::<Result<_, _>>()?;
    watchdog.disarm();
    Ok(contenders
        .iter()
        .zip(times)
        .zip(before.into_iter().zip(after))
        .zip(sessions.iter_mut())
        .map(
            |((((label, _, _), times), (before, after)), session)| Measured {
                label: (*label).to_owned(),
                times,
                cpu: after.saturating_sub(before),
                notified: std::mem::take(&mut session.notified),
            },
        )
        .collect())
}

/// Stops the contenders when a run passes [`DEADLINE`], so a hung one cannot hold the
/// bench forever: the blocked read then ends and the run fails.
struct Watchdog(Arc<Mutex<bool>>);

impl Watchdog {
    fn arm(pids: Vec<u32>) -> Watchdog {
        let done = Arc::new(Mutex::new(false));
        let flag = Arc::clone(&done);
        std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < DEADLINE {
                std::thread::sleep(Duration::from_millis(200));
                if *flag
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                {
                    return;
                }
            }
            eprintln!(
                "bench-gateway: over {} s; stopping the contenders",
                DEADLINE.as_secs()
            );
            for pid in pids {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            }
        });
        Watchdog(done)
    }

    fn disarm(self) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The median and the 90th percentile.
fn quantiles(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        f64::midpoint(values[n / 2 - 1], values[n / 2])
    };
    (median, values[(n * 9 / 10).min(n - 1)])
}

fn print_table(upstream: &Upstream, measured: &[Measured]) {
    let calls = measured[0].times.len();
    let direct: Vec<f64> = measured[0].times.iter().copied().map(micros).collect();
    let (direct_median, _) = quantiles(direct.clone());
    let added =
        |m: &Measured| quantiles(m.times.iter().copied().map(micros).collect()).0 - direct_median;
    let gateway_added = measured
        .iter()
        .find(|m| m.label == "catalog-gateway")
        .map(added);
    let gateway_cpu = measured
        .iter()
        .find(|m| m.label == "catalog-gateway")
        .map(|m| micros(m.cpu));
    println!("Upstream `{}` (`{}`):\n", upstream.name, upstream.tool);
    println!(
        "| contender | median | p90 | added median | paired difference, median (p90) | CPU per call | added ÷ gateway's | CPU ÷ gateway's |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for m in measured {
        let times: Vec<f64> = m.times.iter().copied().map(micros).collect();
        let (median, p90) = quantiles(times.clone());
        #[allow(clippy::cast_precision_loss, reason = "a few hundred calls")]
        let cpu = micros(m.cpu) / calls as f64;
        let ratio = |value: f64, of: Option<f64>| match of {
            Some(of) if of > 0.0 && m.label != "direct" => format!("{:.1}×", value / of),
            _ => String::from("–"),
        };
        let (added_text, paired, added_ratio) = if m.label == "direct" {
            (String::from("–"), String::from("–"), String::from("–"))
        } else {
            let differences: Vec<f64> = times.iter().zip(&direct).map(|(t, d)| t - d).collect();
            let (paired_median, paired_p90) = quantiles(differences);
            (
                format!("{:.0}", median - direct_median),
                format!("{paired_median:.0} ({paired_p90:.0})"),
                ratio(median - direct_median, gateway_added),
            )
        };
        #[allow(clippy::cast_precision_loss, reason = "a few hundred calls")]
        let cpu_ratio = ratio(cpu, gateway_cpu.map(|c| c / calls as f64));
        let label = if m.label == "direct" {
            String::from("direct (CPU: the upstream's)")
        } else {
            m.label.clone()
        };
        println!(
            "| {label} | {median:.0} | {p90:.0} | {added_text} | {paired} | {cpu:.0} | {added_ratio} | {cpu_ratio} |"
        );
    }
    println!();
    if upstream.progress {
        print_notified(measured);
    }
}

/// The relayed notifications' latencies: from the upstream's stamp to the client's read.
fn print_notified(measured: &[Measured]) {
    let direct = (!measured[0].notified.is_empty())
        .then(|| quantiles(measured[0].notified.iter().copied().map(micros).collect()).0);
    println!("Its progress notification, from the upstream's stamp to the client's read:\n");
    println!("| contender | notifications | median | p90 | added median |");
    println!("|---|---:|---:|---:|---:|");
    for m in measured {
        if m.notified.is_empty() {
            println!("| {} | 0 (not passed on) | – | – | – |", m.label);
            continue;
        }
        let (median, p90) = quantiles(m.notified.iter().copied().map(micros).collect());
        let added = match direct {
            Some(direct) if m.label != "direct" => format!("{:.0}", median - direct),
            _ => String::from("–"),
        };
        println!(
            "| {} | {} | {median:.0} | {p90:.0} | {added} |",
            m.label,
            m.notified.len()
        );
    }
    println!();
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}
