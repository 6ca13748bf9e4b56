//! Progress on the long commands (`import --from-server`, `check --upstreams`,
//! `eval-search` on a large set): drawn on stderr only when it is a terminal and `CI` is
//! unset, so pipes, logs, CI and tests see nothing of it.

use std::io::IsTerminal as _;
#[cfg(feature = "upstreams")]
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether progress is drawn.
fn shown() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A bar of `len` steps, cleared when finished. Print to stderr through
/// [`ProgressBar::suspend`] while it runs.
pub(crate) fn bar(len: u64, message: &'static str) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len).with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{wide_bar}] {pos}/{len} ({eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A spinner for a step of unknown length (a server that starts and lists its tools),
/// turning on its own thread while this one waits.
#[cfg(feature = "upstreams")]
pub(crate) fn spinner(message: String) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner().with_message(message);
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner
}
