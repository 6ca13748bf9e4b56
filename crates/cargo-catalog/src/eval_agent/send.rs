//! Each request to the provider: answered from the cache when this exact request was sent
//! before, else sent, retried on a rate limit or a server error, and kept.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{BufRead as _, BufReader, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use catalog_core::Value;
use catalog_providers::{Api, Failure};
use serde_json::json;
use sha2::{Digest as _, Sha256};

/// Tries of one request before its failure counts.
const TRIES: u32 = 5;

/// The longest wait before a retry, whatever `retry-after` says.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

/// The provider's API behind a cache of its replies.
pub(super) struct Sender {
    api: Api,
    cache: Option<Cache>,
    /// Requests that went out (retries included), and retries alone.
    pub(super) sent: AtomicUsize,
    pub(super) retried: AtomicUsize,
}

/// Replies by the digest of what was asked: a JSON-lines file, one `{"key", "reply"}` a
/// line, appended as each reply arrives, so a run cut short keeps what it paid for.
struct Cache {
    path: String,
    replies: Mutex<(HashMap<String, Value>, File)>,
}

impl Sender {
    /// Sends to `api`, with the replies kept in the file at `cache` (made when missing).
    ///
    /// # Errors
    /// The cache file cannot be read or written, or holds a line that is not one of its.
    pub(super) fn new(api: Api, cache: Option<&str>) -> Result<Sender, String> {
        let cache = cache.map(Cache::open).transpose()?;
        Ok(Sender {
            api,
            cache,
            sent: AtomicUsize::new(0),
            retried: AtomicUsize::new(0),
        })
    }

    /// The API.
    pub(super) fn api(&self) -> &Api {
        &self.api
    }

    /// The reply to `body`, for the `run`-th run of the evaluation (runs after the first
    /// ask again rather than read the first one's reply).
    ///
    /// # Errors
    /// The provider's last answer when every try failed, or the first one that a retry
    /// would not change (a refused key, a request it calls invalid).
    pub(super) fn send(&self, body: &str, run: usize) -> Result<Value, Failure> {
        let key = self.cache.as_ref().map(|_| key(self.api.url(), run, body));
        if let (Some(cache), Some(key)) = (&self.cache, &key)
            && let Some(reply) = cache.get(key)
        {
            return Ok(reply);
        }
        let mut tries = 0;
        let reply = loop {
            tries += 1;
            self.sent.fetch_add(1, Ordering::Relaxed);
            match self.api.send(body) {
                Ok(reply) => break reply,
                Err(failure) if failure.retryable() && tries < TRIES => {
                    self.retried.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(wait(&failure, tries));
                }
                Err(failure) => return Err(failure),
            }
        };
        if let (Some(cache), Some(key)) = (&self.cache, key) {
            cache.put(key, &reply).map_err(|e| {
                Failure::new(format!("cannot write the cache `{}`: {e}", cache.path))
            })?;
        }
        Ok(reply)
    }
}

/// What the provider asks to wait, at most [`LONGEST_WAIT`]; else an exponential backoff
/// from half a second.
fn wait(failure: &Failure, tries: u32) -> Duration {
    failure
        .retry_after
        .unwrap_or_else(|| Duration::from_millis(500) * 2u32.pow(tries - 1))
        .min(LONGEST_WAIT)
}

/// The digest of one request: where it goes, which run asks, and its body.
fn key(url: &str, run: usize, body: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(url.as_bytes());
    hash.update(b"\n");
    hash.update(run.to_string().as_bytes());
    hash.update(b"\n");
    hash.update(body.as_bytes());
    hash.finalize()
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

impl Cache {
    fn open(path: &str) -> Result<Cache, String> {
        let mut replies = HashMap::new();
        match File::open(path) {
            Ok(file) => {
                for (n, line) in BufReader::new(file).lines().enumerate() {
                    let line = line.map_err(|e| format!("cannot read the cache `{path}`: {e}"))?;
                    if line.trim().is_empty() {
                        continue;
                    }
                    let entry: Value = serde_json::from_str(&line).map_err(|e| {
                        format!(
                            "{path}:{}: not a line of the reply cache ({e}); delete the file to start afresh",
                            n + 1
                        )
                    })?;
                    match (entry["key"].as_str(), entry.get("reply")) {
                        (Some(key), Some(reply)) => {
                            replies.insert(key.to_string(), reply.clone());
                        }
                        _ => {
                            return Err(format!(
                                "{path}:{}: a cache line holds `key` and `reply`; delete the file to start afresh",
                                n + 1
                            ));
                        }
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read the cache `{path}`: {e}")),
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the cache `{path}`: {e}"))?;
        Ok(Cache {
            path: path.to_string(),
            replies: Mutex::new((replies, file)),
        })
    }

    fn get(&self, key: &str) -> Option<Value> {
        let replies = self
            .replies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        replies.0.get(key).cloned()
    }

    fn put(&self, key: String, reply: &Value) -> std::io::Result<()> {
        let mut replies = self
            .replies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let line = json!({"key": key, "reply": reply}).to_string();
        Write::write_all(&mut replies.1, format!("{line}\n").as_bytes())?;
        replies.0.insert(key, reply.clone());
        Ok(())
    }
}
