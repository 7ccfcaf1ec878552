//! Running the real binary in a test's own directory: commands that must succeed, commands
//! that must fail with one clear line and change nothing.

use super::TempDir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const LADDER: &str = "club.rungs";

/// A test's own directory (removed when dropped), with the helpers below.
pub struct Dir(pub PathBuf, TempDir);

impl Dir {
    pub fn new(tag: &str) -> Dir {
        let dir = TempDir::new(tag);
        Dir(dir.0.clone(), dir)
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.1.path().join(name)
    }

    pub fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).unwrap();
    }

    pub fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rungs"));
        c.args(args).current_dir(&self.0);
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Runs a command that must succeed; its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "`rungs {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs a command that must fail cleanly; its one-line message without the `rungs: `.
    pub fn fail(&self, args: &[&str]) -> String {
        let out = self.run(args);
        failed(args, &out)
    }

    /// What a failed command may not have changed: the standings and the whole log (undo
    /// history included) as `export` writes it.
    pub fn snapshot(&self, file: &str) -> (String, String) {
        let standings = self.ok(&["standings", file, "--json"]);
        self.ok(&["export", file, "snapshot.jsonl"]);
        let log = std::fs::read_to_string(self.path("snapshot.jsonl")).unwrap();
        (standings, log)
    }

    /// A ladder with three players and two matches.
    pub fn ladder(&self) -> &'static str {
        self.ok(&["new", LADDER]);
        self.ok(&[
            "add-player",
            LADDER,
            "Ann",
            "Bo",
            "Cy",
            "--date",
            "2026-01-01",
        ]);
        self.ok(&[
            "add-match",
            LADDER,
            "Ann",
            "Bo",
            "1",
            "--date",
            "2026-01-02",
        ]);
        self.ok(&[
            "add-match",
            LADDER,
            "Bo",
            "Cy",
            "0.5",
            "--date",
            "2026-01-02",
        ]);
        LADDER
    }

    /// Asserts that the command fails and changes nothing; its message.
    pub fn fails_unchanged(&self, file: &str, args: &[&str]) -> String {
        let before = self.snapshot(file);
        let message = self.fail(args);
        let after = self.snapshot(file);
        assert_eq!(
            before.0,
            after.0,
            "`rungs {}` changed the standings",
            args.join(" ")
        );
        assert_eq!(
            before.1,
            after.1,
            "`rungs {}` changed the log",
            args.join(" ")
        );
        message
    }
}

/// Checks a failed run: non-zero exit that is not a panic, nothing but one line on stderr,
/// starting `rungs: `. Returns the message after that prefix.
pub fn failed(args: &[&str], out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let cmd = format!("rungs {}", args.join(" "));
    assert!(!out.status.success(), "`{cmd}` succeeded; stderr: {stderr}");
    assert_ne!(out.status.code(), Some(101), "`{cmd}` panicked: {stderr}");
    assert!(!stderr.contains("panicked"), "`{cmd}` panicked: {stderr}");
    let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
    assert!(
        !line.contains('\n'),
        "`{cmd}`: more than one line: {stderr:?}"
    );
    let message = line
        .strip_prefix("rungs: ")
        .unwrap_or_else(|| panic!("`{cmd}`: message does not start with `rungs: `: {stderr:?}"));
    assert!(!message.trim().is_empty(), "`{cmd}`: empty message");
    message.to_string()
}

pub fn assert_mentions(message: &str, parts: &[&str]) {
    for p in parts {
        assert!(
            message.contains(p),
            "message does not mention {p:?}: {message:?}"
        );
    }
}

pub fn player_count(standings_json: &str) -> usize {
    let v: serde_json::Value = serde_json::from_str(standings_json).unwrap();
    v.as_array().unwrap().len()
}

pub fn sqlite(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}
