//! The floor of any proxy over stdio: `bench-pipe COMMAND [ARGS...]` starts the server and
//! copies each line the client writes to it, and each line it writes back, reading
//! nothing: one blocking thread for each direction.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("usage: bench-pipe COMMAND [ARGS...]")?;
    let mut server = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let (Some(mut to_server), Some(from_server)) = (server.stdin.take(), server.stdout.take())
    else {
        return Err("the server's streams are not piped".into());
    };
    let back = std::thread::spawn(move || -> std::io::Result<()> {
        let mut lines = BufReader::new(from_server);
        let mut out = std::io::stdout().lock();
        let mut line = Vec::new();
        while lines.read_until(b'\n', &mut line)? > 0 {
            out.write_all(&line)?;
            out.flush()?;
            line.clear();
        }
        Ok(())
    });
    let mut lines = std::io::stdin().lock();
    let mut line = Vec::new();
    while lines.read_until(b'\n', &mut line)? > 0 {
        to_server.write_all(&line)?;
        to_server.flush()?;
        line.clear();
    }
    drop(to_server);
    back.join().map_err(|_| "the copying thread panicked")??;
    server.wait()?;
    Ok(())
}
