//! The floor of any proxy over stdio: `bench-pipe COMMAND [ARGS...]` starts the server and
//! copies each line the client writes to it, and each line it writes back, reading
//! nothing: one blocking thread for each direction.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Copies `from` to `to` a line at a time, each line flushed as it comes.
fn pass(mut from: impl BufRead, mut to: impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    while from.read_until(b'\n', &mut line)? > 0 {
        to.write_all(&line)?;
        to.flush()?;
        line.clear();
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("usage: bench-pipe COMMAND [ARGS...]")?;
    let mut server = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let (Some(to_server), Some(from_server)) = (server.stdin.take(), server.stdout.take()) else {
        return Err("the server's streams are not piped".into());
    };
    let back = std::thread::spawn(move || pass(BufReader::new(from_server), io::stdout().lock()));
    // Ends with the client's input; dropping the server's input then ends the server.
    pass(io::stdin().lock(), to_server)?;
    back.join().map_err(|_| "the copying thread panicked")??;
    server.wait()?;
    Ok(())
}
