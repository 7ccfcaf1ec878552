//! Readers that may not write a ladder (a club member's account beside the owner's), meeting
//! the owner's writes: each through the real binary run as `nobody`.

use crate::support::cli as cli_support;
use crate::support::tools;
use cli_support::Dir;
use cli_support::{LADDER, assert_mentions};
use rustix::process::{Pid, Signal, kill_process};
use std::process::{Command, Stdio};
use std::time::Duration;

/// `setpriv`, to run rungs as `nobody`: the tests must run as root for that (permissions do
/// not bind root, so there is no reader without write access to be otherwise). `None`,
/// having said why, where the test may skip.
fn setpriv() -> Option<String> {
    if !tools::root() {
        tools::skipped("a reader without write access: the tests run as root to be `nobody`");
        return None;
    }
    tools::need("setpriv", "util-linux", "a reader without write access")
}

/// Runs `rungs ARGS` as `nobody` through `setpriv`.
fn as_nobody(setpriv: &str, dir: &Dir, args: &[&str]) -> std::process::Output {
    Command::new(setpriv)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .current_dir(&dir.0)
        .output()
        .unwrap()
}

/// With the owner adding matches and `nobody` reading the 0644 ladder, 19 of 80
/// reads said "damaged ladder file: database disk image is malformed". The ladder was sound:
/// a reader that may not write it reads without SQLite's locks, and the owner's checkpoints
/// rewrote pages under it. Such a read now reads again until it meets a quiet moment: never
/// damaged, and never a failure.
#[test]
fn a_reader_without_write_access_never_calls_a_live_ladder_damaged() {
    let dir = Dir::new("reader-race");
    dir.ladder();
    // The folder and file as a user's: readable by all, writable by the owner.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(setpriv) = setpriv() else {
        return;
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, path) = (stop.clone(), dir.0.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && n < 400 {
                let score = ["1", "0", "0.5"][n % 3];
                let _ = Command::new(env!("CARGO_BIN_EXE_rungs"))
                    .args(["add-match", LADDER, "Ann", "Cy", score])
                    .current_dir(&path)
                    .output();
                n += 1;
            }
        })
    };
    let mut said = Vec::new();
    for i in 0..80 {
        let args: &[&str] = if i % 2 == 0 {
            &["check", LADDER]
        } else {
            &["standings", LADDER, "--json"]
        };
        let out = as_nobody(&setpriv, &dir, args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &err;
        for word in [
            "damaged",
            "malformed",
            "repair",
            "not a rungs ladder",
            "caches are not",
        ] {
            assert!(!text.contains(word), "read {i}: {text}");
        }
        if !out.status.success() {
            said.push(err);
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    // Every read waits for a moment when nothing is being written, as a reader with write
    // access waits for the lock: none fails (5 of 80 said "another program was writing the
    // ladder while rungs read it").
    assert!(
        said.is_empty(),
        "{} of 80 reads failed: {said:?}",
        said.len()
    );
}

/// An import killed mid-write leaves the ladder's rollback journal beside it (the bulk path
/// writes through one). A reader that may not write read the half-written file as it lay
/// ("damaged ladder file: database disk image is malformed", or "attempt to write a
/// readonly database"). It is told in words what happened and that opening the ladder once
/// with write access restores it; the owner's next command does, and the reader then reads
/// the ladder as it was before the unfinished change.
#[test]
fn a_reader_without_write_access_is_told_what_a_killed_import_left() {
    let dir = Dir::new("left-mid-change");
    dir.ladder();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(setpriv) = setpriv() else {
        return;
    };
    let before = dir.ok(&["standings", LADDER, "--json"]);
    // A change written through a rollback journal, its pages spilling into the ladder before
    // it commits, copied as it stands: the copy is the ladder a killed import leaves, its
    // journal hot (no program holds it).
    {
        let conn = rusqlite::Connection::open(dir.path(LADDER)).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "delete");
        conn.execute_batch(
            "PRAGMA cache_size = 1; BEGIN;
             INSERT INTO meta(key, value) VALUES ('unfinished', hex(randomblob(400000)));",
        )
        .unwrap();
        for suffix in ["", "-journal"] {
            std::fs::copy(
                dir.path(&format!("{LADDER}{suffix}")),
                dir.path(&format!("left.rungs{suffix}")),
            )
            .unwrap();
        }
        conn.execute_batch("ROLLBACK").unwrap();
    }
    assert!(dir.path("left.rungs-journal").exists());
    let out = as_nobody(&setpriv, &dir, &["standings", "left.rungs"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{err}");
    assert_mentions(
        &err,
        &[
            "left.rungs",
            "stopped part way",
            "journal",
            "open the ladder once with write access",
        ],
    );
    for word in ["readonly", "malformed", "damaged"] {
        assert!(!err.contains(word), "{err}");
    }
    // The owner's next open puts the ladder back as it was before the unfinished change.
    dir.ok(&["check", "left.rungs"]);
    assert!(!dir.path("left.rungs-journal").exists());
    let out = as_nobody(&setpriv, &dir, &["standings", "left.rungs", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), before);
}

/// The owner's import of 70,000 matches writes the ladder through a rollback journal, holding
/// its exclusive lock while it writes the file itself. A reader that may not write meets it
/// there, stopped for longer than SQLite's lock wait: it reads a consistent moment — the
/// ladder before the import or after it, never part of it — and never fails.
#[test]
fn a_reader_without_write_access_waits_for_an_import_it_meets_mid_write() {
    let dir = Dir::new("reader-waits");
    dir.ladder();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(setpriv) = setpriv() else {
        return;
    };
    // 70,000 rows: past the 65,536 from which an import writes through a rollback journal.
    let mut csv = String::from("date,player_a,player_b,score\n");
    for i in 0..70_000 {
        let b = ["Bo", "Cy"][i % 2];
        let score = ["1", "0", "0.5"][i % 3];
        csv += &format!("2026-02-01,Ann,{b},{score}\n");
    }
    dir.write("big.csv", &csv);
    let mut import = dir
        .command(&["import", LADDER, "big.csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let journal = dir.path(&format!("{LADDER}-journal"));
    // The import writes the ladder itself once its journal holds what puts it back: it holds
    // the ladder's exclusive lock from then until it is done. Caught there, it is stopped.
    let marks = || {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(dir.path(LADDER)).unwrap();
        (m.size(), m.mtime(), m.mtime_nsec())
    };
    let before = marks();
    let pid = Pid::from_child(&import);
    loop {
        if import.try_wait().unwrap().is_some() {
            panic!("the import finished before it was seen writing the ladder");
        }
        if journal.exists() && marks() != before {
            kill_process(pid, Signal::STOP).unwrap();
            if journal.exists() {
                break;
            }
            kill_process(pid, Signal::CONT).unwrap();
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    let reader = Command::new(&setpriv)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_rungs"))
        .args(["standings", LADDER, "--json"])
        .current_dir(&dir.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Longer than a reader with write access waits for a lock (2 s), shorter than a reader
    // without waits for a quiet moment (10 s).
    std::thread::sleep(Duration::from_secs(3));
    kill_process(pid, Signal::CONT).unwrap();
    let imported = import.wait_with_output().unwrap();
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let read = reader.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&read.stderr);
    assert!(read.status.success(), "the reader failed: {err}");
    // A consistent moment: the ladder before the import (Ann's one match, her win over Bo) or
    // after it, when the 70,000 add, each third a win, a loss, a draw: 23,334 + 1 wins,
    // 23,333 losses, 23,333 draws. Never part of it.
    let standings: serde_json::Value = serde_json::from_slice(&read.stdout).unwrap();
    let ann = standings
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == "Ann")
        .unwrap();
    let seen = [&ann["wins"], &ann["draws"], &ann["losses"]].map(|n| n.as_i64().unwrap());
    assert!(
        seen == [1, 0, 0] || seen == [23_335, 23_333, 23_333],
        "{ann}"
    );
}
