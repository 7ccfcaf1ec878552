//! A `rungs import` killed with SIGKILL part way leaves the ladder with all of the import or
//! none of it, never part, and with caches equal to a replay of its log.
//!
//! The import is large (400,000 matches among 2,000 players) so that it runs for seconds. An
//! import alone on its ladder writes through a rollback journal (`rungs_store`'s `journal`
//! module): it reads the whole CSV, opens its transaction (the journal appears beside the
//! ladder), writes its pages into the ladder itself, and commits by deleting the journal.
//! The test kills an import at each of those stages, seen from outside: half the CSV read,
//! the ladder grown by a megabyte with the journal there (the pages held in memory until the
//! commit are being written), the ladder nearly whole, and the journal gone (committed, the
//! import not yet ended). Each kill must land before the import finishes, or the test fails.

use rungs_ladder::replay::Ladder;
use rungs_store::Store;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::cli::Dir;

const PLAYERS: u64 = 2_000;
const MATCHES: u64 = 400_000;

/// Removes a ladder and the files SQLite keeps beside it.
fn remove_ladder(dir: &Dir, name: &str) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(dir.path(&format!("{name}{suffix}")));
    }
}

/// A deterministic 64-bit LCG (Knuth's MMIX constants); the high bits are used.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Writes a standard match CSV of `MATCHES` matches among players `P0..P{PLAYERS-1}`, dates
/// spread over ten years in no particular order. Returns how many players appear.
fn generate(path: &Path) -> u64 {
    let mut rng = Lcg(0x5255_4E47);
    let mut seen = vec![false; PLAYERS as usize];
    let base = chrono::NaiveDate::from_ymd_opt(2016, 1, 1).unwrap();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(out, "date,player_a,player_b,score").unwrap();
    for _ in 0..MATCHES {
        let a = rng.next() % PLAYERS;
        let mut b = rng.next() % (PLAYERS - 1);
        if b >= a {
            b += 1;
        }
        seen[a as usize] = true;
        seen[b as usize] = true;
        let date = base + chrono::Days::new(rng.next() % 3650);
        let score = ["1", "0", "0.5"][(rng.next() % 3) as usize];
        writeln!(out, "{date},P{a},P{b},{score}").unwrap();
    }
    out.flush().unwrap();
    seen.iter().filter(|&&s| s).count() as u64
}

/// The size of `path` with `suffix` added to its name, if there is such a file.
fn size(path: &Path, suffix: &str) -> Option<u64> {
    file(path, suffix).map(|(len, _)| len)
}

/// The size and inode number of `path` with `suffix` added to its name, if there is such a
/// file.
fn file(path: &Path, suffix: &str) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    std::fs::metadata(name).ok().map(|m| (m.len(), m.ino()))
}

/// How far process `pid` has read `file`: the offset of its descriptor open on it (Linux's
/// `/proc/PID/fdinfo`), or `None` while it has none.
fn read_offset(pid: u32, file: &Path) -> Option<u64> {
    for fd in std::fs::read_dir(format!("/proc/{pid}/fd")).ok()? {
        let fd = fd.ok()?;
        if std::fs::read_link(fd.path()).ok().as_deref() != Some(file) {
            continue;
        }
        let info =
            std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{}", fd.file_name().display()))
                .ok()?;
        return info
            .lines()
            .find_map(|l| l.strip_prefix("pos:"))
            .and_then(|p| p.trim().parse().ok());
    }
    None
}

/// When to kill the import: each is something the import is seen doing, and each comes
/// before the import can finish. A rollback journal beside the ladder means its transaction
/// is open; SQLite deletes the journal as the moment of commit.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// It has read at least this many bytes of the CSV and written nothing.
    Reading(u64),
    /// Its journal exists and the ladder has grown to at least this many bytes: pages are
    /// being written into the ladder itself.
    Writing(u64),
    /// Its journal, seen beside a ladder of at least this many bytes, is gone (the file by
    /// that name, if any, is another: putting the ladder back on the write-ahead log is a
    /// small transaction of its own): committed, and still running.
    Committed(u64),
}

/// What was seen of the import when it was killed.
#[derive(Debug)]
struct Seen {
    read: Option<u64>,
    ladder: Option<u64>,
    /// The journal's size and inode number.
    journal: Option<(u64, u64)>,
}

/// Starts `rungs import LADDER big.csv` and SIGKILLs it at `moment`, on a new ladder each
/// try. The kill comes a poll after the moment is seen, so on a loaded machine the import can
/// finish in between (the committed moment is a few milliseconds long): that try is made
/// again, up to five in all, and the test fails if no kill lands — a moment that never comes
/// tests nothing.
fn kill_import(dir: &Dir, ladder: &str, moment: Moment) -> Seen {
    const TRIES: u32 = 5;
    for attempt in 1..=TRIES {
        dir.ok(&["new", ladder]);
        match try_kill_import(dir, ladder, moment) {
            Ok(seen) => return seen,
            Err(why) if attempt < TRIES => {
                eprintln!("{ladder}: try {attempt}: {why}; again");
                remove_ladder(dir, ladder);
            }
            Err(why) => panic!("{ladder}: no kill landed in {TRIES} tries: {why}"),
        }
    }
    unreachable!()
}

/// One try of [`kill_import`]: `Err` when the import finished before the kill landed.
fn try_kill_import(dir: &Dir, ladder: &str, moment: Moment) -> Result<Seen, String> {
    let path = dir.path(ladder);
    let csv = std::fs::canonicalize(dir.path("big.csv")).unwrap();
    let mut child = dir
        .command(&["import", ladder, "big.csv"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // The inode of the import's journal, once seen beside a nearly whole ladder.
    let mut import_journal = None;
    let seen = loop {
        let seen = Seen {
            read: read_offset(child.id(), &csv),
            ladder: size(&path, ""),
            journal: file(&path, "-journal"),
        };
        let journal = seen.journal.map(|(_, inode)| inode);
        let due = match moment {
            Moment::Reading(n) => journal.is_none() && seen.read.is_some_and(|r| r >= n),
            Moment::Writing(n) => journal.is_some() && seen.ladder.is_some_and(|l| l >= n),
            Moment::Committed(n) => {
                if seen.ladder.is_some_and(|l| l >= n) && import_journal.is_none() {
                    import_journal = journal;
                }
                import_journal.is_some() && journal != import_journal
            }
        };
        if due {
            break seen;
        }
        if let Some(status) = child.try_wait().unwrap() {
            return Err(format!(
                "the import ended ({status}) after {:?} before {moment:?}; last seen {seen:?}",
                start.elapsed()
            ));
        }
        // Polled, not timed: how often only sets how soon after the moment the kill comes.
        std::thread::sleep(Duration::from_micros(200));
    };
    child.kill().unwrap();
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    if status.signal() != Some(9) {
        return Err(format!(
            "the import finished before the kill at {moment:?} ({status}); seen {seen:?}"
        ));
    }
    eprintln!(
        "{ladder}: killed at {:?} ({moment:?}), seen {seen:?}",
        start.elapsed()
    );
    Ok(seen)
}

#[derive(Debug, PartialEq)]
enum Outcome {
    All,
    None,
}

/// The ladder after a killed import: it opens (from the command line and the library), holds
/// all of the import or none of it, and its caches equal a replay of its log.
fn check_all_or_none(dir: &Dir, ladder: &str, full_events: usize, reference: &Ladder) -> Outcome {
    let path = dir.path(ladder);
    // The command line first, so that it is what meets the -wal the kill left.
    let json = dir.ok(&["standings", ladder, "--json"]);
    let standings: serde_json::Value = serde_json::from_str(&json).unwrap();
    let listed = standings.as_array().unwrap().len();

    let store = Store::open(&path).unwrap();
    let events = store.effective().unwrap().len();
    let actions = store.actions().unwrap().len();
    let cached = store.ladder().unwrap();
    let (replayed, _) = store.replay(None).unwrap();
    assert!(
        cached == replayed,
        "{ladder}: the caches differ from a replay of the log"
    );
    let outcome = if events == 0 {
        assert_eq!(actions, 0, "{ladder}: an action with no events");
        assert_eq!(listed, 0, "{ladder}: standings list players of no events");
        assert!(cached.players.is_empty());
        Outcome::None
    } else {
        assert_eq!(
            events, full_events,
            "{ladder}: part of the import landed ({events} of {full_events} events)"
        );
        assert_eq!(actions, 1, "{ladder}: the import is not one action");
        assert_eq!(listed, reference.players.len());
        assert!(
            cached == *reference,
            "{ladder}: the whole import gives other standings than a complete one"
        );
        Outcome::All
    };
    eprintln!("{ladder}: {outcome:?} of the import ({events} events)");
    outcome
}

#[test]
fn killed_import_leaves_all_of_it_or_none() {
    let test_start = Instant::now();
    let dir = Dir::new("import");
    let players = generate(&dir.path("big.csv"));
    let csv_size = std::fs::metadata(dir.path("big.csv")).unwrap().len();
    let full_events = (players + MATCHES) as usize;
    eprintln!(
        "generated {MATCHES} matches among {players} players ({csv_size} bytes) in {:?}",
        test_start.elapsed()
    );

    // One complete import as the reference.
    dir.ok(&["new", "ref.rungs"]);
    let start = Instant::now();
    dir.ok(&["import", "ref.rungs", "big.csv"]);
    let ref_size = std::fs::metadata(dir.path("ref.rungs")).unwrap().len();
    eprintln!(
        "a complete import took {:?}; the ladder is {ref_size} bytes",
        start.elapsed()
    );
    let reference = {
        let store = Store::open(&dir.path("ref.rungs")).unwrap();
        assert_eq!(store.effective().unwrap().len(), full_events);
        let cached = store.ladder().unwrap();
        assert!(cached == store.replay(None).unwrap().0);
        assert_eq!(cached.players.len() as u64, players);
        cached
    };
    remove_ladder(&dir, "ref.rungs");

    // What each kill must leave: none of the import until the journal is deleted, all of it
    // after. Nearly whole, the ladder may be either: the commit may end as the kill comes.
    let moments = [
        (
            "reading.rungs",
            Moment::Reading(csv_size / 2),
            Some(Outcome::None),
        ),
        (
            "writing.rungs",
            Moment::Writing(1 << 20),
            Some(Outcome::None),
        ),
        ("committing.rungs", Moment::Writing(ref_size / 10 * 9), None),
        (
            "committed.rungs",
            Moment::Committed(ref_size / 10 * 9),
            Some(Outcome::All),
        ),
    ];
    for (ladder, moment, expected) in moments {
        kill_import(&dir, ladder, moment);
        let outcome = check_all_or_none(&dir, ladder, full_events, &reference);
        if let Some(expected) = expected {
            assert_eq!(outcome, expected, "{ladder}: killed at {moment:?}");
        }
        remove_ladder(&dir, ladder);
    }
    eprintln!("whole test {:?}", test_start.elapsed());
}
