//! Memory bounds through the real binary: a daily season calendar over thousands of players
//! and a long log read line by line, held to the memory they use at their peak; and a log of
//! many joins and resets, held to the memory it reserves. Each is sized so that what grew as
//! players × resets (or as the log) breaks its bound and what is bounded stays within it, in
//! a few seconds. The figures are the test build's, measured on Linux with glibc.

use chrono::NaiveDate;
use std::process::{Command, Stdio};

use crate::support::TempDir;
use crate::support::tools;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

/// The daily calendar's import and standings, peak resident MiB: 159 and 109; with a history
/// row written for every player at every reset, the import's is 247.
const BOUND_DAILY: u64 = 200;
/// The joins and resets' import, MiB of address space: it runs in 96 and not in 64; a row
/// reserved for every player at every reset asks 2.4 GiB more.
const BOUND_JOINS: u64 = 400;
/// The long log's import, peak resident MiB: 66 read line by line, 133 held whole.
const BOUND_STREAM: u64 = 100;

/// How a child's memory is held to a bound. Either way the child has one malloc arena:
/// glibc's allocator otherwise opens another when threads meet on one (up to eight per core,
/// each a reservation of 64 MiB), so that what a program holds would depend on the machine's
/// cores and on how busy it is (a streamed import used 66 MiB alone, 131 beside other tests).
#[derive(Clone, Copy)]
enum Bound {
    /// Its peak resident set, in MiB: the memory it used at its most.
    Used(u64),
    /// An address-space cap, in MiB, that it must run under: memory reserved, touched or
    /// not.
    Reserved(u64),
}

/// Runs `rungs ARGS`, which must succeed within `bound`. Its peak resident set is the
/// kernel's count for it alone, as GNU time reports it: `wait4`'s `ru_maxrss` of a child this
/// test spawned itself would also count this test process's own memory, which the child
/// shared until its exec.
fn within(bound: Bound, args: &[&str]) {
    use std::os::unix::process::CommandExt;
    let Some(time) = tools::need("time", "time", "measuring a command's peak memory") else {
        return;
    };
    let mut command = Command::new(time);
    command
        .args(["-f", "peak %M KiB"])
        .arg(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("MALLOC_ARENA_MAX", "1")
        .stdout(Stdio::null());
    if let Bound::Reserved(mib) = bound {
        let cap = rustix::process::Rlimit {
            current: Some(mib << 20),
            maximum: Some(mib << 20),
        };
        // SAFETY: setrlimit is one system call, async-signal-safe; nothing else runs between
        // fork and exec. The cap passes on from `time` to rungs.
        unsafe {
            command.pre_exec(move || {
                rustix::process::setrlimit(rustix::process::Resource::As, cap)?;
                Ok(())
            });
        }
    }
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (said, last) = stderr
        .trim_end()
        .rsplit_once('\n')
        .unwrap_or(("", stderr.trim_end()));
    let peak: u64 = last
        .strip_prefix("peak ")
        .and_then(|l| l.strip_suffix(" KiB"))
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("time said {stderr:?}"));
    let peak = peak >> 10;
    eprintln!("rungs {}: peak resident {peak} MiB", args[0]);
    assert!(out.status.success(), "rungs {args:?}: {said}");
    if let Bound::Used(mib) = bound {
        assert!(
            peak <= mib,
            "rungs {args:?} used {peak} MiB at its peak; the bound is {mib} MiB"
        );
    }
}

#[test]
fn a_daily_calendar_over_thousands_of_players_stays_under_a_memory_cap() {
    // 4,000 players (2,000 matches on 2000-01-01), then one match a day for 6,000 days,
    // under a soft reset every day and a hard reset every 52: 6,000 soft resets × 4,000
    // players. The calendar costs the players it changes, not a row per player per reset
    // (see `BOUND_DAILY`).
    let dir = TempDir::new("capped");
    let csv = dir.0.join("daily.csv");
    let players = 4000u64;
    let mut text = String::from("date,player_a,player_b,score\n");
    let start = d(2000, 1, 1);
    for i in (0..players).step_by(2) {
        text += &format!("{start},P{i},P{},1\n", i + 1);
    }
    for day in 1..=6000u64 {
        let a = day * 7919 % players;
        let b = (a + 1 + day % (players - 1)) % players;
        let date = start + chrono::Days::new(day);
        text += &format!("{date},P{a},P{b},{}\n", day % 2);
    }
    std::fs::write(&csv, text).unwrap();
    let file = dir.0.join("daily.rungs");
    let file = file.to_str().unwrap();
    within(
        Bound::Used(BOUND_DAILY),
        &[
            "new",
            file,
            "--system",
            "skyweaver",
            "--soft-every",
            "1",
            "--hard-every",
            "52",
        ],
    );
    within(
        Bound::Used(BOUND_DAILY),
        &["import", file, csv.to_str().unwrap()],
    );
    // And the standings read back under it.
    within(Bound::Used(BOUND_DAILY), &["standings", file]);
}

#[test]
fn import_log_reserves_no_history_a_reset_does_not_write() {
    // 20,000 joins and 4,000 soft resets under elo, whose resets change nobody. A row
    // reserved per player per reset was 20,000 × 4,000 × 32 B = 2.4 GiB, reserved and never
    // touched: the resident memory stays some tens of MiB either way, so this bound is on
    // the memory reserved.
    let dir = TempDir::new("capped-log");
    let log = dir.0.join("joins.jsonl");
    let mut text = String::from(
        r#"{"rules":{"params":{"idle_days":365,"initial_rating":1500.0,"k":32.0,"provisional_games":0},"system":"elo"},"rungs_log":1}"#,
    );
    text.push('\n');
    let start = d(1990, 1, 1);
    let mut seq = 1;
    for id in 0..20_000 {
        text += &format!(
            r#"{{"action":{seq},"action_kind":"do","date":"{start}","event":{{"id":{id},"kind":"player","name":"P{id}"}},"label":"p","op":"add","seq":{seq}}}"#
        );
        text.push('\n');
        seq += 1;
    }
    for day in 1..=4000u64 {
        let date = start + chrono::Days::new(day);
        text += &format!(
            r#"{{"action":{seq},"action_kind":"do","date":"{date}","event":{{"kind":"soft_reset"}},"label":"soft reset","op":"add","seq":{seq}}}"#
        );
        text.push('\n');
        seq += 1;
    }
    std::fs::write(&log, text).unwrap();
    let file = dir.0.join("joins.rungs");
    within(
        Bound::Reserved(BOUND_JOINS),
        &["import-log", file.to_str().unwrap(), log.to_str().unwrap()],
    );
    within(
        Bound::Reserved(BOUND_JOINS),
        &["standings", file.to_str().unwrap()],
    );
}

#[test]
fn import_log_streams_a_long_log_rather_than_holding_it_whole() {
    // 2,000 joins, then 400,000 matches in one action, each line about 190 bytes: a 78 MB
    // log. Read, packed and written line by line, what the import keeps is the ladder it
    // replays (one event in the ladder's packed form is a few bytes, one parsed row over a
    // hundred); held whole as it was read (every row parsed before the first is written) it
    // uses twice the memory (see `BOUND_STREAM`).
    let dir = TempDir::new("capped-stream");
    let log = dir.0.join("long.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&log).unwrap());
    use std::io::Write;
    writeln!(
        out,
        r#"{{"rules":{{"params":{{"idle_days":365,"initial_rating":1500.0,"k":32.0,"provisional_games":0}},"system":"elo"}},"rungs_log":1}}"#
    )
    .unwrap();
    let players = 2000u64;
    let label = "imported long.csv (400000 matches)";
    for id in 0..players {
        writeln!(
            out,
            r#"{{"action":1,"action_kind":"do","date":"2020-01-02","event":{{"id":{id},"kind":"player","name":"Player {id:05}","undated":true}},"label":"{label}","op":"add","seq":{}}}"#,
            id + 1
        )
        .unwrap();
    }
    let start = d(2020, 1, 2);
    let results = ["Win", "Loss", "Draw"];
    for i in 0..400_000u64 {
        let a = i * 7919 % players;
        let b = (a + 1 + i % (players - 1)) % players;
        let date = start + chrono::Days::new(i / 400);
        writeln!(
            out,
            r#"{{"action":1,"action_kind":"do","date":"{date}","event":{{"a":[{a}],"b":[{b}],"kind":"match","result":{{"played":"{}"}}}},"label":"{label}","op":"add","seq":{}}}"#,
            results[(i % 3) as usize],
            players + i + 1
        )
        .unwrap();
    }
    out.flush().unwrap();
    drop(out);
    let file = dir.0.join("long.rungs");
    within(
        Bound::Used(BOUND_STREAM),
        &["import-log", file.to_str().unwrap(), log.to_str().unwrap()],
    );
    // Every row landed, in order: 402,000 events, the last the log's last match (on the last day,
    // 2020-01-02 + 399,999 / 400 = 999 days = 2022-09-27).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(["events", file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.lines().count(), 402_000);
    let last = text.lines().last().unwrap();
    assert!(
        last.trim_start().starts_with("402000  2022-09-27"),
        "{last}"
    );
}
