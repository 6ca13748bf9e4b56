//! MCP's stdio transport is one JSON-RPC message per line. These two pieces sit between
//! a process's pipes and the SDK's transport, so that some messages can be written and
//! read beside the SDK (the gateway's express lane for `tools/call`):
//! - [`Lines`]: one writer that several share, a whole line at a time, so lines written
//!   beside the SDK never land inside one of its own;
//! - [`LineReader`]: hands each line read to a filter first, which passes it on to the
//!   SDK or takes it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

/// Where whole lines go to one writer: cloned for each who writes.
#[derive(Clone, Debug)]
pub struct Lines(UnboundedSender<Vec<u8>>);

impl Lines {
    /// Writes the lines sent to it to `out`, on a task of its own. The task ends, and
    /// the handle completes, once every line sent before [`Lines::finish`] is written,
    /// once every `Lines` and [`LineWriter`] of it is dropped, or when `out` fails.
    pub fn spawn<W>(mut out: W) -> (Lines, JoinHandle<()>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (to, mut from) = unbounded_channel::<Vec<u8>>();
        let task = tokio::spawn(async move {
            while let Some(mut lines) = from.recv().await {
                // An empty line is `finish`: no line written is ever empty.
                let mut finished = lines.is_empty();
                // What else waits goes out in the same write.
                while !finished && let Ok(more) = from.try_recv() {
                    finished = more.is_empty();
                    lines.extend(more);
                }
                if out.write_all(&lines).await.is_err() || out.flush().await.is_err() || finished {
                    break;
                }
            }
        });
        (Lines(to), task)
    }

    /// Ends the writer once the lines sent so far are written, whoever still holds a
    /// `Lines`.
    pub fn finish(&self) {
        // Gone already: then so is the writer.
        let _ = self.0.send(Vec::new());
    }

    /// Sends one whole line, its `\n` included.
    ///
    /// # Errors
    /// The writer stopped: its output failed or closed.
    pub fn send(&self, line: Vec<u8>) -> io::Result<()> {
        self.0
            .send(line)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the output is closed"))
    }

    /// A writer for the SDK's transport: what it writes goes out a whole line at a time.
    #[must_use]
    pub fn writer(&self) -> LineWriter {
        LineWriter {
            lines: self.clone(),
            partial: Vec::new(),
        }
    }
}

/// See [`Lines::writer`].
#[derive(Debug)]
pub struct LineWriter {
    lines: Lines,
    /// The start of a line whose end is not written yet.
    partial: Vec<u8>,
}

impl AsyncWrite for LineWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            this.partial.extend_from_slice(&rest[..=end]);
            this.lines.send(std::mem::take(&mut this.partial))?;
            rest = &rest[end + 1..];
        }
        this.partial.extend_from_slice(rest);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // An unterminated last line still goes out.
        if !self.partial.is_empty() {
            let rest = std::mem::take(&mut self.partial);
            self.lines.send(rest)?;
        }
        Poll::Ready(Ok(()))
    }
}

/// Reads `inner` a line at a time and gives each line, `\n` included, to `filter`,
/// which returns the line to pass it on to the reader or `None` when it took it. What
/// follows the last `\n` at the end of the input is passed on as it is.
pub struct LineReader<R, F> {
    inner: R,
    filter: F,
    /// Read and not yet split into lines; `scanned` bytes of it hold no `\n`.
    unsplit: Vec<u8>,
    scanned: usize,
    /// The lines passed on, and how much of them the reader has had.
    passed: Vec<u8>,
    given: usize,
    ended: bool,
    /// Where a read lands, zeroed once rather than at each read.
    chunk: Box<[u8]>,
}

/// The SDK's end of a [`LineReader`] that runs on a task of its own: the SDK's session
/// wakes only for the lines passed on, not for every line the filter takes.
pub type Passed = tokio::io::DuplexStream;

impl<R, F> LineReader<R, F>
where
    R: AsyncRead + Unpin + Send + 'static,
    F: FnMut(Vec<u8>) -> Option<Vec<u8>> + Unpin + Send + 'static,
{
    /// Reads `inner` through `filter` on a task of its own, until `inner` ends or the
    /// returned end is dropped.
    pub fn spawn(inner: R, filter: F) -> Passed {
        let (mut to, from) = tokio::io::duplex(1 << 16);
        let mut reader = LineReader::new(inner, filter);
        tokio::spawn(async move {
            let _ = tokio::io::copy(&mut reader, &mut to).await;
        });
        from
    }
}

impl<R, F> LineReader<R, F> {
    /// Reads `inner`, through `filter`.
    pub fn new(inner: R, filter: F) -> LineReader<R, F> {
        LineReader {
            inner,
            filter,
            unsplit: Vec::new(),
            scanned: 0,
            passed: Vec::new(),
            given: 0,
            ended: false,
            chunk: vec![0; 8192].into_boxed_slice(),
        }
    }
}

impl<R, F> AsyncRead for LineReader<R, F>
where
    R: AsyncRead + Unpin,
    F: FnMut(Vec<u8>) -> Option<Vec<u8>> + Unpin,
{
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.given < this.passed.len() {
                let n = buf.remaining().min(this.passed.len() - this.given);
                buf.put_slice(&this.passed[this.given..this.given + n]);
                this.given += n;
                if this.given == this.passed.len() {
                    this.passed.clear();
                    this.given = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.ended {
                this.passed = std::mem::take(&mut this.unsplit);
                if this.passed.is_empty() {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            let mut read = ReadBuf::new(&mut this.chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                this.ended = true;
                continue;
            }
            this.unsplit.extend_from_slice(read.filled());
            while let Some(at) = this.unsplit[this.scanned..]
                .iter()
                .position(|&b| b == b'\n')
            {
                let end = this.scanned + at + 1;
                let rest = this.unsplit.split_off(end);
                let line = std::mem::replace(&mut this.unsplit, rest);
                this.scanned = 0;
                if let Some(line) = (this.filter)(line) {
                    this.passed.extend_from_slice(&line);
                }
            }
            this.scanned = this.unsplit.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt as _;

    use super::*;

    #[tokio::test]
    async fn the_reader_passes_what_the_filter_leaves_and_the_unterminated_end() {
        let input: &[u8] = b"one\ntake me\ntwo\nend";
        let mut taken = Vec::new();
        let mut reader = LineReader::new(input, |line: Vec<u8>| {
            if line.starts_with(b"take") {
                taken.push(line);
                None
            } else {
                Some(line)
            }
        });
        let mut out = String::new();
        reader.read_to_string(&mut out).await.unwrap();
        drop(reader);
        assert_eq!(out, "one\ntwo\nend");
        assert_eq!(taken, vec![b"take me\n".to_vec()]);
    }

    #[tokio::test]
    async fn lines_from_several_writers_never_interleave() {
        let (to, mut from) = tokio::io::duplex(1 << 16);
        let (lines, task) = Lines::spawn(to);
        let mut sdk = lines.writer();
        // The SDK writes a line in pieces; a whole line is sent between them.
        sdk.write_all(b"{\"sdk\":").await.unwrap();
        lines.send(b"{\"beside\":1}\n".to_vec()).unwrap();
        sdk.write_all(b"2}\n").await.unwrap();
        // Finished while the SDK's writer still lives: what was sent is written.
        lines.finish();
        task.await.unwrap();
        assert!(lines.send(b"late\n".to_vec()).is_err());
        drop(sdk);
        let mut out = String::new();
        from.read_to_string(&mut out).await.unwrap();
        assert_eq!(out, "{\"beside\":1}\n{\"sdk\":2}\n");
    }
}
