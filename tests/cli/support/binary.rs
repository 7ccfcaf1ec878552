//! The real binary run with absolute paths: commands that must succeed (their stdout, or
//! their JSON) and commands that must fail with one line naming what is wrong. For the tests
//! that address files by absolute path.

use super::TempDir;
use serde_json::Value;
use std::process::{Command, Output};

/// A test's own directory (removed when dropped), with the helpers below.
pub struct Dir(TempDir);

impl Dir {
    pub fn new(tag: &str) -> Dir {
        Dir(TempDir::new(tag))
    }

    /// The absolute path of `name` in the directory, as an argument.
    pub fn path(&self, name: &str) -> String {
        self.0.path().join(name).display().to_string()
    }
}

pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .output()
        .unwrap()
}

pub fn rungs(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "rungs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&rungs(args)).unwrap()
}

/// A failing run: exit code 1, one line on stderr, naming each of `parts`.
pub fn fails(args: &[&str], parts: &[&str]) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "rungs {args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("rungs: "), "{stderr}");
    for p in parts {
        assert!(stderr.contains(p), "{stderr:?} does not name {p:?}");
    }
}
