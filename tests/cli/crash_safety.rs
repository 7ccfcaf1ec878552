//! A `rungs import` killed with SIGKILL part way leaves the ladder with all of the import or
//! none of it, never part, and with caches equal to a replay of its log.
//!
//! The import is large (400,000 matches among 2,000 players) so that it runs for seconds; the
//! test measures one complete import, then kills others at chosen moments: at 40% of that time
//! (still reading the CSV), as soon as the transaction spills into the -wal file (mid-write),
//! once the -wal has grown to about the size of the whole ladder (committing, or just
//! committed), and once the ladder file itself grows (committed, checkpoint under way). An
//! import alone on its ladder goes through a rollback journal instead of the -wal: the ladder
//! file grows mid-write, and is nearly whole while it commits.

use rungs_ladder::replay::Ladder;
use rungs_store::Store;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;
use support::TempDir;

const PLAYERS: u64 = 2_000;
const MATCHES: u64 = 400_000;

/// A test's own directory (removed when dropped).
struct Dir(std::path::PathBuf, #[allow(dead_code)] TempDir);

impl Dir {
    fn new(tag: &str) -> Dir {
        let dir = TempDir::new(tag);
        Dir(dir.0.clone(), dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rungs"));
        c.args(args).current_dir(&self.0);
        c
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.command(args).output().unwrap();
        assert!(
            out.status.success(),
            "`rungs {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Removes a ladder and its -wal and -shm files.
    fn remove_ladder(&self, name: &str) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(self.path(&format!("{name}{suffix}")));
        }
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

fn wal_size(path: &Path) -> u64 {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0)
}

/// When to kill the import.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// This long after it started.
    After(Duration),
    /// As soon as the ladder's -wal file holds at least this many bytes.
    WalAtLeast(u64),
    /// As soon as the ladder file itself holds at least this many bytes: a new ladder grows
    /// only when a checkpoint copies committed pages back from the -wal.
    FileAtLeast(u64),
}

/// Starts `rungs import LADDER big.csv` and SIGKILLs it at `moment`. Returns whether it was
/// killed while still running (false: it had finished first, too late to kill).
fn kill_import(dir: &Dir, ladder: &str, moment: Moment) -> bool {
    let path = dir.path(ladder);
    let start = Instant::now();
    let mut child = dir
        .command(&["import", ladder, "big.csv"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut wal_seen = 0;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "the import failed on its own: {status:?}");
            eprintln!(
                "{ladder}: {moment:?} came too late: the import finished in {:?} (largest -wal \
                 seen {wal_seen} bytes)",
                start.elapsed()
            );
            return false;
        }
        let due = match moment {
            Moment::After(d) => start.elapsed() >= d,
            Moment::WalAtLeast(n) => {
                wal_seen = wal_seen.max(wal_size(&path));
                wal_seen >= n
            }
            Moment::FileAtLeast(n) => std::fs::metadata(&path).map_or(0, |m| m.len()) >= n,
        };
        if due {
            break;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let wal = wal_size(&path);
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let at = start.elapsed();
    child.kill().unwrap();
    let status = child.wait().unwrap();
    #[cfg(unix)]
    let killed = {
        use std::os::unix::process::ExitStatusExt;
        status.signal() == Some(9)
    };
    #[cfg(not(unix))]
    let killed = !status.success();
    if killed {
        eprintln!("{ladder}: killed at {at:?} ({moment:?}), ladder {size} bytes, -wal {wal} bytes");
    } else {
        assert!(status.success(), "the import failed on its own: {status:?}");
        eprintln!("{ladder}: {moment:?}: the import finished just before the kill, at {at:?}");
    }
    killed
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
    let full_events = (players + MATCHES) as usize;
    eprintln!(
        "generated {MATCHES} matches among {players} players in {:?}",
        test_start.elapsed()
    );

    // One complete import, timed, as the reference.
    dir.ok(&["new", "ref.rungs"]);
    let start = Instant::now();
    dir.ok(&["import", "ref.rungs", "big.csv"]);
    let full = start.elapsed();
    let ref_size = std::fs::metadata(dir.path("ref.rungs")).unwrap().len();
    eprintln!("a complete import took {full:?}; the ladder is {ref_size} bytes");
    let reference = {
        let store = Store::open(&dir.path("ref.rungs")).unwrap();
        assert_eq!(store.effective().unwrap().len(), full_events);
        let cached = store.ladder().unwrap();
        assert!(cached == store.replay(None).unwrap().0);
        assert_eq!(cached.players.len() as u64, players);
        cached
    };
    dir.remove_ladder("ref.rungs");
    if full < Duration::from_secs(1) {
        eprintln!("warning: the import took only {full:?}; the kills may all come too late");
    }

    let moments = [
        ("early.rungs", Moment::After(full.mul_f64(0.4))),
        ("writing.rungs", Moment::WalAtLeast(1 << 20)),
        ("committing.rungs", Moment::WalAtLeast(ref_size / 10 * 9)),
        ("checkpointing.rungs", Moment::FileAtLeast(1 << 20)),
        // An import alone on its ladder writes through a rollback journal, into the ladder
        // itself (`store/journal.rs`): above it grows mid-write, here it is nearly whole,
        // committing (the journal not yet deleted) or committed.
        ("journal.rungs", Moment::FileAtLeast(ref_size / 10 * 9)),
    ];
    let mut outcomes = Vec::new();
    for (ladder, moment) in moments {
        // Each kill costs about one import plus the checks; stay within about a minute.
        if test_start.elapsed() + full * 2 > Duration::from_secs(60) {
            eprintln!("skipping {ladder}: out of time");
            continue;
        }
        dir.ok(&["new", ladder]);
        let killed = kill_import(&dir, ladder, moment);
        let outcome = check_all_or_none(&dir, ladder, full_events, &reference);
        if !killed {
            assert_eq!(
                outcome,
                Outcome::All,
                "{ladder}: finished, yet not all of it"
            );
        }
        outcomes.push((ladder, killed, outcome));
        dir.remove_ladder(ladder);
    }
    eprintln!(
        "outcomes: {outcomes:?}; whole test {:?}",
        test_start.elapsed()
    );
    assert!(
        outcomes.iter().any(|(_, killed, _)| *killed),
        "no kill landed while the import ran"
    );
}
