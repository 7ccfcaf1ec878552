//! Bad input on the command line: each gets a clear one-line message (naming the file,
//! line and field where there is one), a non-zero exit, and nothing in the ladder changes.
//!
//! Every test runs the real binary in its own temporary directory, with paths relative to it.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli as cli_support;
use crate::support::tools;
use cli_support::Dir;
use cli_support::{assert_mentions, failed, player_count, sqlite};

const HEADER: &str = "date,player_a,player_b,score\n";

/// Case 1: a malformed CSV line: file, line and field named, and none of the good lines
/// before it imported (the import is all or nothing).
#[test]
fn malformed_csv_line_names_file_line_field_and_imports_nothing() {
    let dir = Dir::new("csv");
    let file = dir.ladder();
    // New players on the good lines too: they must not join either.
    let good = "2026-01-03,Ann,Cy,1\n2026-01-03,Dee,Bo,0\n";

    dir.write("bad.csv", &format!("{HEADER}{good}2026-01-04,Ann,Cy,7\n"));
    let m = dir.fails_unchanged(file, &["import", file, "bad.csv"]);
    assert_mentions(&m, &["bad.csv", "line 4", "`score`", "7"]);

    dir.write(
        "bad_date.csv",
        &format!("{HEADER}{good}2026-1x-04,Ann,Cy,1\n"),
    );
    let m = dir.fails_unchanged(file, &["import", file, "bad_date.csv"]);
    assert_mentions(&m, &["bad_date.csv", "line 4", "`date`", "2026-1x-04"]);

    dir.write(
        "bad_day.csv",
        &format!("{HEADER}{good}2026-02-30,Ann,Cy,1\n"),
    );
    let m = dir.fails_unchanged(file, &["import", file, "bad_day.csv"]);
    assert_mentions(&m, &["bad_day.csv", "line 4", "`date`", "2026-02-30"]);

    assert_eq!(player_count(&dir.snapshot(file).0), 3, "Dee joined");
    // The good lines alone do import (the failures above were about the bad line).
    dir.write("good.csv", &format!("{HEADER}{good}"));
    dir.ok(&["import", file, "good.csv"]);
    assert_eq!(player_count(&dir.snapshot(file).0), 4);
}

/// Case 2: an unknown player, entered by hand or in an import that allows no new players.
#[test]
fn unknown_player_is_named_and_nothing_changes() {
    let dir = Dir::new("unknown");
    let file = dir.ladder();

    let m = dir.fails_unchanged(file, &["add-match", file, "Ann", "Zed", "1"]);
    assert_mentions(&m, &["Zed", "unknown player", file]);

    dir.write(
        "x.csv",
        &format!("{HEADER}2026-01-03,Ann,Cy,1\n2026-01-03,Bo,Zed,0\n"),
    );
    let m = dir.fails_unchanged(file, &["import", file, "x.csv", "--no-new-players"]);
    assert_mentions(
        &m,
        &["x.csv", "line 3", "`player_b`", "Zed", "unknown player"],
    );

    dir.write(
        "y.csv",
        &format!("{HEADER}2026-01-03,Ann,Cy,1\n2026-01-03,Bo,Cy,0\n2026-01-04,Xu,Ann,1\n"),
    );
    let m = dir.fails_unchanged(file, &["import", file, "y.csv", "--no-new-players"]);
    assert_mentions(&m, &["y.csv", "line 4", "`player_a`", "Xu"]);
}

/// Case 3: a date that does not parse.
#[test]
fn unparseable_date_is_quoted_with_the_expected_form() {
    let dir = Dir::new("date");
    let file = dir.ladder();
    let m = dir.fails_unchanged(
        file,
        &["add-match", file, "Ann", "Bo", "1", "--date", "2026-13-45"],
    );
    assert_mentions(&m, &["2026-13-45", "YYYY-MM-DD"]);
}

/// Case 4: a score out of range.
#[test]
fn score_out_of_range_is_quoted() {
    let dir = Dir::new("score");
    let file = dir.ladder();
    let m = dir.fails_unchanged(
        file,
        &["add-match", file, "Ann", "Bo", "2", "--date", "2026-01-03"],
    );
    assert_mentions(&m, &["`2`", "score"]);
}

/// Case 5: a file that is not SQLite at all: refused, and its bytes left alone.
#[test]
fn text_file_is_not_a_ladder_and_is_left_alone() {
    let dir = Dir::new("text");
    let line = "This is a grocery list, not a ladder: eggs, milk, flour, 12 apples.\n";
    let text: String = line.repeat(4096 / line.len() + 1)[..4096].to_string();
    dir.write("x.rungs", &text);

    let m = dir.fail(&["standings", "x.rungs"]);
    assert_mentions(
        &m,
        &["x.rungs", "not a rungs ladder", "not an SQLite database"],
    );
    let m = dir.fail(&["add-match", "x.rungs", "Ann", "Bo", "1"]);
    assert_mentions(
        &m,
        &["x.rungs", "not a rungs ladder", "not an SQLite database"],
    );
    assert_eq!(
        dir.bytes("x.rungs"),
        text.as_bytes(),
        "the file was changed"
    );
    assert!(!dir.path("x.rungs-wal").exists(), "a -wal file was left");
}

/// Case 6: an SQLite database of some other program: refused, and its bytes left alone.
#[test]
fn foreign_sqlite_database_is_not_a_ladder_and_is_left_alone() {
    let dir = Dir::new("foreign");
    {
        let conn = sqlite(&dir.path("other.db"));
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1), ('two');")
            .unwrap();
    }
    let before = dir.bytes("other.db");

    let m = dir.fail(&["standings", "other.db"]);
    assert_mentions(&m, &["other.db", "not a rungs ladder"]);
    let m = dir.fail(&["add-player", "other.db", "Ann"]);
    assert_mentions(&m, &["other.db", "not a rungs ladder"]);
    assert_eq!(dir.bytes("other.db"), before, "the file was changed");
}

/// Case 7: a ladder written by a newer rungs: refused without touching it.
#[test]
fn newer_ladder_format_is_refused_and_left_alone() {
    let dir = Dir::new("newer");
    let file = dir.ladder();
    let path = dir.path(file);
    let entries = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("SELECT COALESCE(SUM(rows), 0) FROM log", [], |r| r.get(0))
            .unwrap()
    };
    let count = {
        let conn = sqlite(&path);
        conn.pragma_update(None, "user_version", 99).unwrap();
        entries(&conn)
    };
    assert!(count > 0);

    let m = dir.fail(&["add-match", file, "Ann", "Bo", "1", "--date", "2026-01-03"]);
    assert_mentions(&m, &[file, "newer", "99"]);
    let m = dir.fail(&["standings", file]);
    assert_mentions(&m, &[file, "newer", "99"]);

    let conn = sqlite(&path);
    let version: i32 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 99, "the format version was changed");
    assert_eq!(entries(&conn), count, "the log was changed");
}

/// Case 8: a ladder another process holds the write lock on: refused after the busy timeout,
/// and the same command works once the lock is gone.
#[test]
fn locked_ladder_is_refused_after_the_busy_timeout() {
    let dir = Dir::new("locked");
    let file = dir.ladder();
    let before = dir.snapshot(file);
    let args = ["add-match", file, "Ann", "Bo", "1", "--date", "2026-01-03"];

    let conn = sqlite(&dir.path(file));
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    // The lock is held until the command has returned, so it gave up on its own. It waited
    // the busy timeout first: a lower bound only, which a slow machine cannot break.
    let start = Instant::now();
    let out = dir.run(&args);
    let waited = start.elapsed();
    let m = failed(&args, &out);
    assert_mentions(&m, &[file, "locked"]);
    assert!(
        waited >= rungs_store::schema::BUSY_TIMEOUT,
        "gave up after {waited:?}, before the busy timeout"
    );
    conn.execute_batch("ROLLBACK").unwrap();
    drop(conn);

    assert_eq!(
        dir.snapshot(file),
        before,
        "the locked command changed the ladder"
    );
    dir.ok(&args);
    assert_ne!(
        dir.snapshot(file),
        before,
        "the retried command changed nothing"
    );
}

/// Case 9: corrections of an event that does not exist.
#[test]
fn missing_event_is_named() {
    let dir = Dir::new("noevent");
    let file = dir.ladder();
    let m = dir.fails_unchanged(file, &["edit-match", file, "999", "--score", "1"]);
    assert_mentions(&m, &[file, "no event 999"]);
    let m = dir.fails_unchanged(file, &["delete-event", file, "999"]);
    assert_mentions(&m, &[file, "no event 999"]);
}

/// What a failed `import-log` left at `name`: nothing, or a valid ladder holding no actions.
fn assert_no_half_import(dir: &Dir, name: &str) {
    if !dir.path(name).exists() {
        assert!(!dir.path(&format!("{name}-wal")).exists());
        eprintln!("import-log left no {name} behind");
        return;
    }
    eprintln!("import-log left an empty ladder {name} behind");
    let store = rungs_store::Store::open(&dir.path(name)).unwrap();
    assert!(store.actions().unwrap().is_empty(), "{name} holds actions");
    assert!(store.effective().unwrap().is_empty(), "{name} holds events");
}

/// Case 10: a JSON Lines log with a bad line: file, line and field named, and no half-loaded
/// ladder.
#[test]
fn bad_jsonl_line_names_file_line_field_and_loads_nothing() {
    let dir = Dir::new("jsonl");
    let file = dir.ladder();
    let (_, log) = dir.snapshot(file);
    let mut lines: Vec<String> = log.lines().map(str::to_string).collect();
    assert!(lines.len() >= 4, "export too short: {log}");
    assert!(lines[2].contains("\"date\":\"2026-01-01\""), "{}", lines[2]);
    lines[2] = lines[2].replace("\"date\":\"2026-01-01\"", "\"date\":\"2026-01-0x\"");
    dir.write("bad.jsonl", &(lines.join("\n") + "\n"));

    let m = dir.fail(&["import-log", "new.rungs", "bad.jsonl"]);
    assert_mentions(&m, &["bad.jsonl", "line 3", "`date`", "2026-01-0x"]);
    // The code reads the whole log before it creates the ladder: no file at all.
    assert!(
        !dir.path("new.rungs").exists(),
        "import-log created new.rungs"
    );
    assert_no_half_import(&dir, "new.rungs");

    // An id that no join has given is refused as the log is read, before any file exists
    // (replay never allocates for players that do not exist).
    let mut lines: Vec<String> = log.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"match\""))
        .unwrap();
    assert!(lines[i].contains("\"a\":[0]"), "{}", lines[i]);
    lines[i] = lines[i].replace("\"a\":[0]", "\"a\":[7]");
    dir.write("ghost.jsonl", &(lines.join("\n") + "\n"));
    let m = dir.fail(&["import-log", "ghost.rungs", "ghost.jsonl"]);
    assert_mentions(
        &m,
        &["ghost.jsonl", &format!("line {}", i + 1), "player id 7"],
    );
    assert!(
        !dir.path("ghost.rungs").exists(),
        "import-log made ghost.rungs"
    );

    // A log that reads but does not replay (Ann joins after her first match) is found out
    // only once the ladder exists: that one transaction rolls back, and the file goes.
    dir.write("late.jsonl", &late_join(&log));
    let m = dir.fail(&["import-log", "late.rungs", "late.jsonl"]);
    assert_mentions(
        &m,
        &["late.jsonl: line 5", "Ann", "2026-01-02", "has not joined"],
    );
    assert!(
        !dir.path("late.rungs").exists(),
        "import-log left late.rungs"
    );
    assert_no_half_import(&dir, "late.rungs");
}

/// The exported log of [`Dir::ladder`] with Ann's join moved after her first match.
fn late_join(log: &str) -> String {
    let line = log
        .lines()
        .find(|l| l.contains("\"name\":\"Ann\""))
        .expect("Ann joins");
    assert!(line.contains("\"date\":\"2026-01-01\""), "{line}");
    log.replacen(line, &line.replace("2026-01-01", "2026-03-01"), 1)
}

/// Case 10b: a replay failure is told once: the message does not repeat its cause.
#[test]
fn replay_failure_message_is_not_repeated() {
    let dir = Dir::new("jsonl-repeat");
    let file = dir.ladder();
    let (_, log) = dir.snapshot(file);
    dir.write("late.jsonl", &late_join(&log));
    let m = dir.fail(&["import-log", "late.rungs", "late.jsonl"]);
    let cause = "has not joined the ladder";
    assert_eq!(m.matches(cause).count(), 1, "repeated: {m:?}");
}

/// Case 11: `new` over an existing file.
#[test]
fn new_over_an_existing_file_is_refused() {
    let dir = Dir::new("exists");
    let file = dir.ladder();
    let before = dir.snapshot(file);
    let bytes = dir.bytes(file);
    let m = dir.fail(&["new", file]);
    assert_mentions(&m, &[file, "already exists"]);
    let m = dir.fail(&["new", file, "--system", "elo"]);
    assert_mentions(&m, &[file, "already exists"]);
    assert_eq!(dir.bytes(file), bytes, "the file was changed");
    assert_eq!(dir.snapshot(file), before);

    // Not only ladders: any file is kept.
    dir.write("notes.txt", "keep me\n");
    let m = dir.fail(&["new", "notes.txt"]);
    assert_mentions(&m, &["notes.txt", "already exists"]);
    assert_eq!(dir.bytes("notes.txt"), b"keep me\n");
}

/// `rungs standings FILE | head -1`: stdout closed early is not a panic.
#[test]
fn stdout_closed_early_is_not_a_panic() {
    let dir = Dir::new("pipe");
    let file = dir.ladder();
    // Enough players that the standings overflow a pipe's buffer.
    let names: Vec<String> = (0..3000).map(|i| format!("Player{i}")).collect();
    let mut args = vec!["add-player", file, "--date", "2026-01-01"];
    args.extend(names.iter().map(String::as_str));
    dir.ok(&args);

    for json in [false, true] {
        let mut args = vec!["standings", file];
        if json {
            args.push("--json");
        }
        let mut child = dir
            .command(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::BufRead;
            let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut first = String::new();
            let n = stdout.read_line(&mut first).unwrap();
            assert!(n > 0, "no output");
            // Dropped here: the reading end closes while rungs is still writing.
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
        assert!(!stderr.contains("panicked"), "panicked: {stderr}");
    }
}

/// A damaged ladder file: a clear message, and the file left as it
/// was for whoever recovers it.
#[test]
fn corrupt_ladder_is_refused_and_left_alone() {
    let dir = Dir::new("corrupt");
    let file = dir.ladder();
    assert!(
        !dir.path(&format!("{file}-wal")).exists(),
        "rungs left a -wal file"
    );
    let mut bytes = dir.bytes(file);
    assert!(bytes.len() > 8192);
    // Page 1 holds the schema: scribble over its b-tree header.
    for (i, b) in bytes[100..1124].iter_mut().enumerate() {
        *b = [0xde, 0xad, 0xbe, 0xef][i % 4];
    }
    std::fs::write(dir.path(file), &bytes).unwrap();

    let m = dir.fail(&["standings", file]);
    assert_mentions(&m, &[file, "damaged"]);
    let m = dir.fail(&["add-match", file, "Ann", "Bo", "1", "--date", "2026-01-03"]);
    assert_mentions(&m, &[file, "damaged"]);
    assert_eq!(dir.bytes(file), bytes, "the damaged file was changed");
}

/// Runs `rungs ARGS` with its address space capped at `megabytes` (`prlimit --as`): an
/// allocation in proportion to a number read, rather than to the data held, would abort.
fn bounded(dir: &Dir, megabytes: u64, args: &[&str]) -> Output {
    Command::new("prlimit")
        .arg(format!("--as={}", megabytes << 20))
        .arg(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .current_dir(&dir.0)
        .output()
        .expect("prlimit (util-linux) runs")
}

/// A player id of twenty million — 4.8 GB of placeholders if replay believed it — in a JSON
/// Lines log and in a ladder file's own log: refused by line and by row, within 256 MB.
#[test]
fn a_huge_player_id_is_refused_in_bounded_memory() {
    let dir = Dir::new("huge-id");
    let file = dir.ladder();
    let (_, log) = dir.snapshot(file);
    let lines = log.lines().count();
    let zed = r#"{"action":4,"action_kind":"do","label":"add Zed","seq":6,"date":"2026-01-05","op":"add","event":{"kind":"player","id":20000000,"name":"Zed"}}"#;
    dir.write("zed.jsonl", &format!("{log}{zed}\n"));
    let args = ["import-log", "zed.rungs", "zed.jsonl"];
    let m = failed(&args, &bounded(&dir, 256, &args));
    assert_mentions(
        &m,
        &[
            "zed.jsonl",
            &format!("line {}", lines + 1),
            "player id 20000000 skips ids",
        ],
    );
    assert!(!dir.path("zed.rungs").exists());

    // The same join written into a ladder's log behind rungs' back: the file says its caches
    // are stale; a repair reads the log, and refuses the row before replaying anything.
    let event = rungs_ladder::event::Event::Player {
        id: 20_000_000,
        name: rungs_ladder::values::PlayerName::parse("Zed").unwrap(),
        undated: false,
    };
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 5).unwrap();
    let blocks =
        rungs_store::codec::encode(&[(date, rungs_ladder::event::Entry::Add { event })]).unwrap();
    let conn = sqlite(&dir.path(file));
    conn.execute_batch("INSERT INTO actions(id, kind, label, at) VALUES (4, 'do', 'Zed', 'now')")
        .unwrap();
    conn.execute(
        "INSERT INTO log(first_seq, action, rows, data) VALUES (6, 4, 1, ?1)",
        [&blocks[0].1],
    )
    .unwrap();
    drop(conn);
    for args in [["repair", file], ["check", file], ["standings", file]] {
        let m = failed(&args, &bounded(&dir, 256, &args));
        assert_mentions(&m, &[file]);
    }
    let args = ["repair", file];
    let m = failed(&args, &bounded(&dir, 256, &args));
    assert_mentions(
        &m,
        &["row 6: player id 20000000 skips ids (3 players joined before it)"],
    );
    let out = bounded(&dir, 256, &["check", file]);
    assert_mentions(
        &String::from_utf8_lossy(&out.stdout),
        &["player id 20000000 skips ids"],
    );

    // And replay itself, handed such an event directly, refuses before allocating.
    let rules = rungs_ladder::rules::Rules::defaults(rungs_ladder::rules::System::Elo);
    let zed = rungs_ladder::event::Event::Player {
        id: 20_000_000,
        name: rungs_ladder::values::PlayerName::parse("Zed").unwrap(),
        undated: false,
    };
    let e = rungs_ladder::replay::replay_state(&rules, [(date, 1, &zed)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "event 1 on 2026-01-05: Zed joins as player number 20000001; a ladder holds at most \
         1048576 players"
    );
}

/// A file that is one endless line (`/dev/zero`): refused once a line passes its limit
/// (1 MiB a CSV row, 16 MiB a log line), within 256 MB, naming the file and line, and nothing
/// changes.
#[test]
fn an_endless_line_is_refused_in_bounded_memory() {
    let dir = Dir::new("endless");
    let file = dir.ladder();
    let before = dir.snapshot(file);
    let args = ["import", file, "/dev/zero"];
    let m = failed(&args, &bounded(&dir, 256, &args));
    assert_mentions(
        &m,
        &[
            "/dev/zero",
            "line 1",
            "`row`",
            "runs on for more than 1 MiB without ending",
        ],
    );
    let args = ["import-log", "new.rungs", "/dev/zero"];
    let m = failed(&args, &bounded(&dir, 256, &args));
    assert_mentions(
        &m,
        &[
            "/dev/zero",
            "line 1",
            "`line`",
            "runs on for more than 16 MiB without ending",
        ],
    );
    assert!(!dir.path("new.rungs").exists());
    // A long line after a good header: its own line number.
    let mut text = String::from(HEADER);
    text.push_str("2026-01-04,Ann,Bo,1\n");
    text.push_str(&"x".repeat(3 << 20));
    dir.write("long.csv", &text);
    let args = ["import", file, "long.csv"];
    let m = failed(&args, &bounded(&dir, 256, &args));
    assert_mentions(&m, &["long.csv", "line 3", "more than 1 MiB"]);
    assert_eq!(dir.snapshot(file), before);
}

/// The hidden temporary files new ladders are made under, left in `dir`.
fn leftovers(dir: &Dir) -> Vec<String> {
    std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".rungs-new"))
        .collect()
}

/// A `simulate` killed while it writes, and a `new` and a `simulate` that cannot finish (a
/// file-size limit: what a full disk does to them) leave no file under the name — no 0-byte
/// file, nothing a retry is refused for — and the retry sweeps away what they left.
#[test]
fn killed_or_failed_new_and_simulate_leave_no_file() {
    let dir = Dir::new("no-leftovers");
    let mut child = dir
        .command(&[
            "simulate",
            "--players",
            "5000",
            "--weeks",
            "52",
            "--matches-per-week",
            "5000",
            "big.rungs",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once it writes: its temporary file exists and has grown to a megabyte, far past
    // a new ladder (the simulation itself is done). Polled, not timed.
    let writing = || {
        leftovers(&dir)
            .iter()
            .any(|name| std::fs::metadata(dir.path(name)).is_ok_and(|m| m.len() >= 1 << 20))
    };
    while !writing() {
        let ended = child.try_wait().unwrap();
        assert!(
            ended.is_none(),
            "simulate ended ({ended:?}) before it was seen writing"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            status.signal(),
            Some(9),
            "the kill came too late: {status:?}"
        );
    }
    assert!(
        !dir.path("big.rungs").exists(),
        "a killed simulate left big.rungs"
    );
    let small = ["--players", "10", "--weeks", "1", "--matches-per-week", "5"];
    let mut args = vec!["simulate"];
    args.extend(small);
    args.push("big.rungs");
    dir.ok(&args);
    assert!(dir.path("big.rungs").exists());
    assert_eq!(
        leftovers(&dir),
        Vec::<String>::new(),
        "the retry did not sweep"
    );
    dir.ok(&["check", "big.rungs"]);

    // A file-size limit of 8 KB: the process is stopped (SIGXFSZ) or refused mid-write.
    let Some(prlimit) = tools::need("prlimit", "util-linux", "a file-size limit") else {
        return;
    };
    for (name, args) in [
        ("tiny.rungs", vec!["new", "tiny.rungs"]),
        ("sim.rungs", {
            let mut a = vec!["simulate"];
            a.extend(small);
            a.push("sim.rungs");
            a
        }),
    ] {
        let out = Command::new(&prlimit)
            .arg("--fsize=8192")
            .arg(env!("CARGO_BIN_EXE_rungs"))
            .args(&args)
            .current_dir(&dir.0)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{name}: it fitted in 8 KB");
        assert!(!dir.path(name).exists(), "{name}: left behind");
        dir.ok(&args);
        assert!(dir.path(name).exists());
        assert_eq!(leftovers(&dir), Vec::<String>::new(), "{name}: not swept");
    }
}

/// Runs `rungs ARGS` as a user who may not write the test's files: `nobody` when the tests
/// run as root (to whom permissions do not apply), else as is.
fn as_reader(dir: &Dir, args: &[&str]) -> Output {
    let mut c = if tools::root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_rungs"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_rungs"))
    };
    c.args(args).current_dir(&dir.0).output().unwrap()
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A ladder this process cannot write opens immutable, by a `file:` URI: a name outside plain
/// ASCII (or with `?`, `#`, `%` or a space) reaches SQLite as it is. `Café.rungs` was sent as
/// `CafÃ©.rungs`, and did not open.
#[test]
fn a_read_only_ladder_with_any_name_opens() {
    let dir = Dir::new("read-only-names");
    let file = dir.ladder();
    let standings = dir.ok(&["standings", file, "--json"]);
    for name in ["Café ünï.rungs", "a?b#c%20 d.rungs"] {
        std::fs::copy(dir.path(file), dir.path(name)).unwrap();
        set_mode(&dir.path(name), 0o444);
        let out = as_reader(&dir, &["standings", name, "--json"]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), standings, "{name}");
        set_mode(&dir.path(name), 0o644);
    }
}

/// Read commands work on a ladder that cannot be written, in a folder that can and in one
/// that cannot (no -shm can be made there); a change is refused as read-only and the file's
/// bytes stay as they were.
#[test]
fn read_commands_work_on_a_read_only_file_and_in_a_read_only_folder() {
    let dir = Dir::new("read-only");
    let file = dir.ladder();
    let standings = dir.ok(&["standings", file, "--json"]);
    let events = dir.ok(&["events", file, "--json"]);
    let history = dir.ok(&["history", file, "Ann", "--json"]);
    let bytes = dir.bytes(file);
    for folder in [0o777, 0o555] {
        set_mode(&dir.path(file), 0o444);
        set_mode(&dir.0, folder);
        let read = |args: &[&str]| {
            let out = as_reader(&dir, args);
            assert!(
                out.status.success(),
                "folder {folder:o}: `rungs {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        };
        assert_eq!(read(&["standings", file, "--json"]), standings);
        assert_eq!(read(&["events", file, "--json"]), events);
        assert_eq!(read(&["history", file, "Ann", "--json"]), history);
        read(&["check", file]);
        read(&["replay", file]);
        let args = ["add-match", file, "Ann", "Cy", "1", "--date", "2026-01-03"];
        let m = failed(&args, &as_reader(&dir, &args));
        assert_mentions(&m, &[file, "read-only", "nothing was changed"]);
        // No -shm or -wal is left beside it: made with the file's read-only mode, they kept
        // the ladder unwritable once its mode was restored.
        for sidecar in ["-shm", "-wal"] {
            assert!(
                !dir.path(&format!("{file}{sidecar}")).exists(),
                "folder {folder:o}: a read left {file}{sidecar}"
            );
        }
        set_mode(&dir.0, 0o755);
        set_mode(&dir.path(file), 0o644);
        assert_eq!(
            dir.bytes(file),
            bytes,
            "folder {folder:o}: the file was changed"
        );
    }
}

/// A ladder of format 2 (written by the rungs before the season archive got a table of its
/// own: four players, two seasons archived, an undo) reads as it did. Read-only it is read as
/// it lies; writable it is upgraded in place when opened, and then shows and exports what the
/// rungs that wrote it did (its standings and log, saved beside it then; its archive as a
/// replay of the log archives it today).
#[test]
fn a_format_2_ladder_reads_as_it_did_read_only_or_upgraded() {
    let dir = Dir::new("format-2");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let expected = |name: &str| std::fs::read_to_string(fixtures.join(name)).unwrap();
    let file = "old.rungs";
    std::fs::copy(fixtures.join("format2.rungs"), dir.path(file)).unwrap();
    let bytes = dir.bytes(file);
    let version = || -> i32 {
        sqlite(&dir.path(file))
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(), 2);
    set_mode(&dir.path(file), 0o444);
    let read = |args: &[&str]| {
        let out = as_reader(&dir, args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        read(&["seasons", file, "--json"]),
        expected("format2.seasons.json")
    );
    assert_eq!(
        read(&["standings", file, "--json"]),
        expected("format2.standings.json")
    );
    assert!(read(&["check", file]).contains("sound"));
    assert_eq!(
        dir.bytes(file),
        bytes,
        "a read-only format 2 file is left as it is"
    );
    set_mode(&dir.path(file), 0o644);
    // Writable, the older file's caches are rebuilt once from its log: both seasons were
    // ended by the button within a week no soft reset closed, and a season's end now counts
    // that final week's RP too (and keeps each week's tier). Its standings and log are as
    // they were.
    assert_eq!(
        dir.ok(&["seasons", file, "--json"]),
        expected("format2.seasons.replayed.json")
    );
    assert_eq!(version(), 3, "upgraded when opened writable");
    let archived: i64 = sqlite(&dir.path(file))
        .query_row("SELECT COUNT(*) FROM cache_seasons", [], |r| r.get(0))
        .unwrap();
    assert_eq!(archived, 2, "the two seasons moved into their table");
    assert_eq!(
        dir.ok(&["standings", file, "--json"]),
        expected("format2.standings.json")
    );
    dir.ok(&["export", file, "log.jsonl"]);
    assert_eq!(
        std::fs::read_to_string(dir.path("log.jsonl")).unwrap(),
        expected("format2.jsonl")
    );
    assert!(dir.ok(&["check", file]).contains("sound"));
    // It goes on as a ladder of today's format: a third season ends and is archived.
    dir.ok(&["hard-reset", file, "--date", "2026-02-01"]);
    let seasons: serde_json::Value =
        serde_json::from_str(&dir.ok(&["seasons", file, "--json"])).unwrap();
    assert_eq!(seasons.as_array().map(Vec::len), Some(3));
    assert!(dir.ok(&["check", file]).contains("sound"));
}
