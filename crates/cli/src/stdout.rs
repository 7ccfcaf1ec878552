//! Standard output for every command: a write that fails is never ignored and never a panic.
//! The first failure is kept and later writes are skipped; when the command ends, a closed
//! pipe (`rungs events | head`) is the usual quiet exit, and any other failure (a full disk,
//! `> /dev/full`) is an error, so a script never takes lost output for success.

use std::io::{self, Write};
use std::sync::Mutex;

static FAILED: Mutex<Option<io::Error>> = Mutex::new(None);

fn failed() -> bool {
    FAILED.lock().map_or(true, |f| f.is_some())
}

/// Keeps `e` if it is the first failure.
pub fn keep(e: io::Error) {
    if let Ok(mut f) = FAILED.lock()
        && f.is_none()
    {
        *f = Some(e);
    }
}

/// Writes one line (what `say!` does).
pub fn write_line(args: std::fmt::Arguments<'_>) {
    if failed() {
        return;
    }
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        keep(e);
    }
}

/// Writes `bytes` whole (a man page, completions, a stream).
pub fn write_all(bytes: &[u8]) {
    if failed() {
        return;
    }
    if let Err(e) = io::stdout().lock().write_all(bytes) {
        keep(e);
    }
}

/// The outcome of a writer's own result: its failure is kept like any other.
pub fn check(result: io::Result<()>) {
    if let Err(e) = result {
        keep(e);
    }
}

/// At the end of a command: flushes, and turns a kept failure into the command's error. A
/// closed pipe is no error (the reader had what it wanted).
pub fn finished() -> anyhow::Result<()> {
    if let Err(e) = io::stdout().lock().flush() {
        keep(e);
    }
    let kept = FAILED.lock().ok().and_then(|mut f| f.take());
    match kept {
        None => Ok(()),
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Some(e) => Err(anyhow::anyhow!("standard output: cannot write: {e}")),
    }
}
