//! A change of 65,536 rows or more (an import) is written through a rollback journal when no
//! other connection has the ladder open, and through the write-ahead log as before when one
//! has; either way the ladder is back on the log afterwards, with caches equal to a replay.
//! (`crash_safety.rs` kills such an import part way: all of it or none lands.)

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;
use rustix::process::{Pid, Signal, kill_process};
use std::path::Path;

use crate::support;
use support::TempDir;

/// Two players joining on 2020-01-01, then `n` matches between them, 100 a day from that
/// day on, A winning two in three.
fn rows(n: u64) -> Vec<(NaiveDate, Entry)> {
    let first = NaiveDate::from_ymd_opt(2020, 1, 1).unwrap();
    let join = |id, name: &str| {
        (
            first,
            Entry::Add {
                event: Event::Player {
                    id,
                    name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
                    undated: false,
                },
            },
        )
    };
    let mut rows = vec![join(0, "Ann"), join(1, "Bo")];
    rows.extend((0..n).map(|i| {
        let outcome = if i % 3 == 2 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        let event = Event::Match(Match::new(0, 1, MatchResult::Played(outcome)));
        (first + chrono::Days::new(i / 100), Entry::Add { event })
    }));
    rows
}

fn size(path: &Path, suffix: &str) -> u64 {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    std::fs::metadata(p).map_or(0, |m| m.len())
}

fn journal_mode(path: &Path) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap()
}

/// Commits 70,000 matches to a new ladder at `path`, `reader` open on it or not; returns the
/// size of the ladder and of its -wal file right after the commit, the store still open.
fn commit_large(path: &Path, reader: bool) -> (u64, u64) {
    let mut store = Store::create(path, &Rules::defaults(System::Skyweaver)).unwrap();
    let other = reader.then(|| {
        let conn = rusqlite::Connection::open(path).unwrap();
        let n: i64 = conn
            .query_row("SELECT count(*) FROM log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0);
        conn
    });
    let rows = rows(70_000);
    let seqs = store
        .commit(&rungs_store::Change::new("70,000 matches", rows.to_vec()).unwrap())
        .unwrap();
    assert_eq!(seqs.len(), 70_002);
    let sizes = (size(path, ""), size(path, "-wal"));
    assert_eq!(size(path, "-journal"), 0, "a journal was left behind");
    // The other connection reads the change.
    if let Some(conn) = other {
        let n: i64 = conn
            .query_row("SELECT sum(rows) FROM log", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 70_002);
    }
    assert_eq!(store.effective().unwrap().len(), 70_002);
    let (replayed, _) = store.replay(None).unwrap();
    assert!(
        store.ladder().unwrap() == replayed,
        "caches differ from a replay"
    );
    drop(store);
    assert_eq!(journal_mode(path), "wal");
    sizes
}

#[test]
fn a_large_change_alone_on_the_ladder_skips_the_write_ahead_log() {
    let dir = TempDir::new("bulk-alone");
    let path = dir.0.join("big.rungs");
    let (file, wal) = commit_large(&path, false);
    // 140,002 history rows of about 28 bytes and the log's blocks: megabytes, written into
    // the ladder itself; the -wal holds at most the few pages of going back to it.
    assert!(file > 2 << 20, "the ladder is {file} bytes");
    assert!(wal < 64 << 10, "the -wal holds {wal} bytes");
}

#[test]
fn a_large_change_beside_another_connection_goes_through_the_log() {
    let dir = TempDir::new("bulk-shared");
    let path = dir.0.join("big.rungs");
    let (file, wal) = commit_large(&path, true);
    // SQLite cannot leave the log while another connection has the ladder open: the pages
    // went through the -wal (and were copied into the ladder by the checkpoint).
    assert!(wal > 2 << 20, "the -wal holds {wal} bytes");
    assert!(file > 2 << 20, "the ladder is {file} bytes");
}

/// A program that opens the ladder while an import writes it through the rollback journal
/// waits for the import (SQLite refuses at once to put the ladder back on the log meanwhile;
/// `journal::back_to_wal` waits as for any lock) and then reads all of it. Before the wait it
/// failed at once with "locked". The import is stopped (SIGSTOP) while its journal is there,
/// and let go once this process has the ladder open: the open meets the import's transaction.
#[test]
fn opening_the_ladder_during_a_large_import_waits_for_it() {
    use std::io::Write;
    let dir = TempDir::new("bulk-open");
    let csv = dir.0.join("big.csv");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&csv).unwrap());
    writeln!(out, "date,player_a,player_b,score").unwrap();
    // 300,000 matches among 1,000 players (a against a + 1 + i % 7), 1,000 a day.
    let first = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();
    for i in 0..300_000u64 {
        let a = i % 1_000;
        let b = (a + 1 + i % 7) % 1_000;
        let date = first + chrono::Days::new(i / 1_000);
        writeln!(
            out,
            "{date},P{a},P{b},{}",
            ["1", "0", "0.5"][(i % 3) as usize]
        )
        .unwrap();
    }
    out.flush().unwrap();
    drop(out);
    let path = dir.0.join("big.rungs");
    let rungs = |args: &[&str]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"));
        c.args(args).current_dir(&dir.0);
        c
    };
    assert!(rungs(&["new", "big.rungs"]).status().unwrap().success());
    let mut import = rungs(&["import", "big.rungs", "big.csv"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = Pid::from_child(&import);
    let journal = dir.0.join("big.rungs-journal");
    // Polled: how often only sets how soon the import is stopped once its journal is there.
    while !journal.exists() {
        let ended = import.try_wait().unwrap();
        assert!(
            ended.is_none(),
            "the import ended ({ended:?}) without a rollback journal beside the ladder"
        );
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    kill_process(pid, Signal::STOP).unwrap();
    if !journal.exists() {
        kill_process(pid, Signal::CONT).unwrap();
        panic!("the import committed before it was stopped");
    }
    let opener = {
        let path = path.clone();
        std::thread::spawn(move || {
            let store = Store::open(&path).expect("the ladder opens once the import is done");
            store.effective().unwrap().len()
        })
    };
    let canonical = std::fs::canonicalize(&path).unwrap();
    // An opener that did not wait has finished: it read nothing, or said "locked".
    while !has_open(&canonical) && !opener.is_finished() {
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
    kill_process(pid, Signal::CONT).unwrap();
    // 1,000 players joining and 300,000 matches.
    assert_eq!(opener.join().unwrap(), 301_000);
    assert!(import.wait().unwrap().success());
    assert_eq!(journal_mode(&path), "wal");
}

/// Whether this process has `file` open (Linux's `/proc/self/fd`).
fn has_open(file: &Path) -> bool {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .any(|target| target == file)
}
