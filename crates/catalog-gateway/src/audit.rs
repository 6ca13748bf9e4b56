//! The audit log: one JSON line per `tools/call`, answered or refused, written before the
//! client gets its answer; and one per request an upstream made of a client (a relayed
//! question: sampling, elicitation, roots), written once the client answered, before the
//! upstream gets the answer.
//!
//! One thread owns the file. Calls hand it their line through a bounded queue and wait
//! for its word that the line is written: when the queue is full, calls wait (the log
//! slows the gateway down rather than lose a line). The thread writes whatever is queued
//! in one `write(2)` to a file opened for appending, then, by the `fsync` policy:
//!
//! - `always`: `fsync` before any of those calls is answered; a line of an answered call
//!   survives the machine's crash;
//! - `periodic` (the default): `fsync` at most once a second; a line of an answered call
//!   is in the kernel before the answer, so it survives the gateway's crash or a
//!   `SIGKILL`, and a power cut loses at most the last second;
//! - `never`: the kernel writes when it will.
//!
//! When the file would grow past `rotate-bytes`, it is renamed `FILE.1` (an older `.1`
//! becomes `.2`, and so on, `keep` of them) and a new one is begun.

use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::mpsc::{Receiver, Sender, channel};
use tokio::sync::oneshot;

/// When the log's lines are forced to the disk.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fsync {
    /// Before the calls whose lines were written are answered.
    Always,
    /// At most once a second; lines reach the kernel before their calls are answered.
    #[default]
    Periodic,
    /// Never by the gateway.
    Never,
}

/// What an audit line holds of a call's arguments.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arguments {
    /// Their digest (SHA-256 of their RFC 8785 canonical JSON): which calls had the same
    /// arguments, without what they were.
    #[default]
    Digest,
    /// The digest and the arguments themselves.
    Values,
}

/// How the log is kept: the `[audit]` table of the operator's file.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    /// The file lines are appended to.
    pub file: PathBuf,
    /// What a line holds of the arguments.
    #[serde(default)]
    pub arguments: Arguments,
    /// When lines are forced to the disk.
    #[serde(default)]
    pub fsync: Fsync,
    /// The size past which the file is rotated (default 100 MiB).
    #[serde(default = "default_rotate")]
    pub rotate_bytes: u64,
    /// How many rotated files are kept (default 5).
    #[serde(default = "default_keep")]
    pub keep: u32,
    /// How many lines may wait for the writer before calls wait (default 4096).
    #[serde(default = "default_queue")]
    pub queue: usize,
}

fn default_rotate() -> u64 {
    100 * 1024 * 1024
}

fn default_keep() -> u32 {
    5
}

fn default_queue() -> usize {
    4096
}

/// One line: what a call did, as an operator reads it afterwards.
#[derive(Serialize, Debug)]
pub struct Line<'a> {
    /// When the call was answered, RFC 3339 in UTC.
    pub time: String,
    /// The client: its token's name, or its access token's subject.
    pub client: &'a str,
    /// The client's profile, if its credential selects one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<&'a str>,
    /// The MCP session, over HTTP with sessions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a str>,
    /// The tool called, as the client named it.
    pub tool: &'a str,
    /// The upstream the row forwards to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<&'a str>,
    /// How the call ended: `ok`, `tool-error`, `refused`, `limited`, `asked`, `failed`.
    pub verdict: &'a str,
    /// The class of a refusal or failure (`PERMISSION_DENIED`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// The arguments' digest.
    pub arguments_digest: String,
    /// The arguments, when the log keeps them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<&'a serde_json::Value>,
    /// From the call's arrival to its answer, in milliseconds.
    pub duration_ms: f64,
    /// The size of the answer's JSON, in bytes.
    pub result_bytes: usize,
    /// What the result scanner found in the result.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub findings: &'a [String],
    /// The W3C trace the call belongs to, when traces are exported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
}

/// One line for a request an upstream made of a client, and the client's answer.
#[derive(Serialize, Debug)]
pub struct Relayed<'a> {
    /// When the client answered, RFC 3339 in UTC.
    pub time: String,
    /// The client asked: its token's name, or its access token's subject.
    pub client: &'a str,
    /// The client's profile, if its credential selects one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<&'a str>,
    /// The MCP session, over HTTP with sessions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a str>,
    /// The request, as MCP names it: `sampling/createMessage`, `elicitation/create`,
    /// `roots/list`, or another.
    pub relayed: &'a str,
    /// The upstream that asked.
    pub upstream: &'a str,
    /// The tool whose call it was asked during, when it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<&'a str>,
    /// How the client answered: `accept`, `decline` or `cancel` (elicitation), `answered`,
    /// or `refused` (an error, the client's or the gateway's).
    pub answer: &'a str,
    /// The error, when refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// The digest of the request's params (as of the arguments of a call).
    pub request_digest: String,
    /// From the question to its answer, in milliseconds.
    pub duration_ms: f64,
}

/// A line waiting for the writer, and who waits for its word.
struct Entry {
    line: Vec<u8>,
    written: oneshot::Sender<io::Result<()>>,
}

/// The audit log's handle: cheap to share, one writer thread behind it.
#[derive(Debug)]
pub struct Audit {
    queue: Sender<Entry>,
    arguments: Arguments,
    file: PathBuf,
}

impl Audit {
    /// Opens (or creates) the log and starts its writer.
    ///
    /// # Errors
    /// The file cannot be opened for appending, or the thread cannot start.
    pub fn open(settings: &Settings) -> io::Result<Audit> {
        let writer = Writer::open(settings)?;
        let (queue, lines) = channel(settings.queue.max(1));
        std::thread::Builder::new()
            .name("audit".into())
            .spawn(move || writer.run(lines))?;
        Ok(Audit {
            queue,
            arguments: settings.arguments,
            file: settings.file.clone(),
        })
    }

    /// What lines hold of the arguments.
    #[must_use]
    pub fn arguments(&self) -> Arguments {
        self.arguments
    }

    /// The file lines go to.
    #[must_use]
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Writes `line`, returning once it is written as the `fsync` policy says.
    ///
    /// # Errors
    /// The writer could not write it, or has stopped.
    pub async fn write(&self, line: &impl Serialize) -> io::Result<()> {
        let mut bytes = serde_json::to_vec(line).map_err(io::Error::other)?;
        bytes.push(b'\n');
        let (written, done) = oneshot::channel();
        let entry = Entry {
            line: bytes,
            written,
        };
        // A full queue makes the call wait rather than drop the line.
        self.queue
            .send(entry)
            .await
            .map_err(|_| io::Error::other("the audit writer stopped"))?;
        done.await
            .map_err(|_| io::Error::other("the audit writer stopped"))?
    }
}

/// The writer thread's state: the open file and its size.
struct Writer {
    path: PathBuf,
    file: File,
    size: u64,
    fsync: Fsync,
    rotate_bytes: u64,
    keep: u32,
    synced: Instant,
}

impl Writer {
    fn open(settings: &Settings) -> io::Result<Writer> {
        let file = append(&settings.file)?;
        let size = file.metadata()?.len();
        Ok(Writer {
            path: settings.file.clone(),
            file,
            size,
            fsync: settings.fsync,
            rotate_bytes: settings.rotate_bytes.max(1),
            keep: settings.keep,
            synced: Instant::now(),
        })
    }

    /// Writes what arrives until every handle is gone: what is queued at once goes out
    /// in one write, then each waiting call hears how it went.
    fn run(mut self, mut lines: Receiver<Entry>) {
        let mut batch = Vec::new();
        while let Some(first) = lines.blocking_recv() {
            batch.push(first);
            while let Ok(entry) = lines.try_recv() {
                batch.push(entry);
            }
            let outcome = self.write(&batch);
            for entry in batch.drain(..) {
                let _ = entry.written.send(match &outcome {
                    Ok(()) => Ok(()),
                    Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                });
            }
        }
        let _ = self.file.sync_all();
    }

    fn write(&mut self, batch: &[Entry]) -> io::Result<()> {
        let bytes: Vec<u8> = batch.iter().flat_map(|e| e.line.iter().copied()).collect();
        let len = bytes.len() as u64;
        if self.size > 0 && self.size + len > self.rotate_bytes {
            self.rotate()?;
        }
        self.file.write_all(&bytes)?;
        self.size += len;
        let due = match self.fsync {
            Fsync::Always => true,
            Fsync::Periodic => self.synced.elapsed() >= Duration::from_secs(1),
            Fsync::Never => false,
        };
        if due {
            self.file.sync_data()?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// `FILE.(k)` becomes `FILE.(k+1)` from the oldest kept down, `FILE` becomes `FILE.1`,
    /// and a new `FILE` is begun.
    fn rotate(&mut self) -> io::Result<()> {
        self.file.sync_all()?;
        let numbered = |n: u32| {
            let mut name = self.path.clone().into_os_string();
            name.push(format!(".{n}"));
            PathBuf::from(name)
        };
        if self.keep == 0 {
            std::fs::remove_file(&self.path)?;
        } else {
            let _ = std::fs::remove_file(numbered(self.keep));
            for n in (1..self.keep).rev() {
                let from = numbered(n);
                if from.exists() {
                    std::fs::rename(&from, numbered(n + 1))?;
                }
            }
            std::fs::rename(&self.path, numbered(1))?;
        }
        self.file = append(&self.path)?;
        self.size = 0;
        Ok(())
    }
}

fn append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(tool: &str) -> Line<'_> {
        Line {
            time: "2026-12-03T08:00:00Z".into(),
            client: "ide",
            profile: None,
            session: None,
            tool,
            upstream: Some("time"),
            verdict: "ok",
            error: None,
            arguments_digest: "sha256:00".into(),
            arguments: None,
            duration_ms: 1.5,
            result_bytes: 10,
            findings: &[],
            trace_id: None,
        }
    }

    fn settings(dir: &Path, rotate_bytes: u64) -> Settings {
        Settings {
            file: dir.join("audit.jsonl"),
            arguments: Arguments::Digest,
            fsync: Fsync::Always,
            rotate_bytes,
            keep: 2,
            queue: 4,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("audit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_line_is_written_before_its_call_goes_on() {
        let dir = scratch("lines");
        let audit = std::sync::Arc::new(Audit::open(&settings(&dir, 1 << 20)).unwrap());
        // More writers than the queue holds: they wait, none is lost.
        let mut tasks = Vec::new();
        for i in 0..64 {
            let audit = std::sync::Arc::clone(&audit);
            tasks.push(tokio::spawn(async move {
                let tool = format!("tool{i}");
                audit.write(&line(&tool)).await.unwrap();
                // Once `write` returned, the line is in the file.
                let text = std::fs::read_to_string(audit.file()).unwrap();
                assert!(text.contains(&format!("\"tool\":\"tool{i}\"")), "{i}");
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let text = std::fs::read_to_string(dir.join("audit.jsonl")).unwrap();
        assert_eq!(text.lines().count(), 64);
        for l in text.lines() {
            let parsed: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(parsed["client"], "ide");
            assert!(parsed.get("profile").is_none(), "{l}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_file_is_rotated_and_only_keep_files_stay() {
        let dir = scratch("rotate");
        let one = serde_json::to_vec(&line("t")).unwrap().len() as u64 + 1;
        // Room for three lines a file.
        let audit = Audit::open(&settings(&dir, one * 3)).unwrap();
        for _ in 0..10 {
            audit.write(&line("t")).await.unwrap();
        }
        let lines =
            |name: &str| std::fs::read_to_string(dir.join(name)).map_or(0, |t| t.lines().count());
        assert_eq!(lines("audit.jsonl"), 1);
        assert_eq!(lines("audit.jsonl.1"), 3);
        assert_eq!(lines("audit.jsonl.2"), 3);
        assert!(!dir.join("audit.jsonl.3").exists(), "keep = 2");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
