//! The work a large change or import does on a second thread, for speed, leaves
//! the same bytes and the same errors as when it was done in line: a change of more than
//! 16,384 rows encodes its log beside the checks and replays beside the log's writing; an
//! import of a file in date order makes its rows while the file is read.

use chrono::NaiveDate;
use rungs_gate::error::ActionError;
use rungs_gate::imports::import_csv;
use rungs_interchange::csv_matches::{Mapping, MatchReader};
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::{Store, StoreError, codec};
use std::path::Path;

use rungs_testkit as support;
use support::TempDir;

fn day(d: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(1990, 1, 1).unwrap() + chrono::Days::new(d)
}

fn join(id: u32, name: &str, date: NaiveDate) -> (NaiveDate, Entry) {
    let event = Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
        undated: false,
    };
    (date, Entry::Add { event })
}

/// Ann and Bo join on 1990-01-01, then `n` matches between them, 100 a day, A winning two in
/// three.
fn rows(n: u64) -> Vec<(NaiveDate, Entry)> {
    let mut rows = vec![join(0, "Ann", day(0)), join(1, "Bo", day(0))];
    rows.extend((0..n).map(|i| {
        let outcome = [Outcome::Win, Outcome::Win, Outcome::Loss][(i % 3) as usize];
        let event = Event::Match(Match::new(0, 1, MatchResult::Played(outcome)));
        (day(i / 100), Entry::Add { event })
    }));
    rows
}

fn count(path: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_large_change_writes_the_log_as_encoded_in_line_and_caches_equal_a_replay() {
    let dir = TempDir::new("beside-log");
    let path = dir.0.join("l.rungs");
    let mut store = Store::create(&path, &Rules::defaults(System::Skyweaver)).unwrap();
    // 20,002 rows: above the 16,384 a change encodes and replays beside other work, below
    // the 65,536 it writes through a rollback journal.
    let rows = rows(20_000);
    let seqs = store
        .commit(&rungs_store::Change::new("20,000 matches", rows.to_vec()).unwrap())
        .unwrap();
    assert_eq!(seqs, (1..=20_002).collect::<Vec<u64>>());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut stmt = conn
        .prepare("SELECT first_seq, action, rows, data FROM log ORDER BY first_seq")
        .unwrap();
    let written: Vec<(i64, i64, i64, Vec<u8>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let inline = codec::encode(&rows).unwrap();
    assert!(inline.len() > 1, "{} blocks", inline.len());
    assert_eq!(written.len(), inline.len());
    let mut first = 1;
    for ((seq, action, n, data), (m, bytes)) in written.iter().zip(&inline) {
        assert_eq!((*seq, *action, *n as u64), (first, 1, *m));
        assert!(data == bytes, "block at row {seq} differs");
        first += *n;
    }
    assert_eq!(first, 20_003);
    let (replayed, _) = store.replay(None).unwrap();
    assert!(
        store.ladder().unwrap() == replayed,
        "caches differ from a replay"
    );
    // Ann won 13,334 of the 20,000 (two in three: i % 3 is 0 or 1 for 6,667 + 6,667).
    let ladder = store.ladder().unwrap();
    assert_eq!(ladder.events, 20_002);
    let ann = &ladder.players[0];
    assert_eq!((ann.matches, ann.wins, ann.losses), (20_000, 13_334, 6_666));
}

#[test]
fn a_large_change_whose_replay_fails_writes_nothing() {
    let dir = TempDir::new("beside-fails");
    let path = dir.0.join("l.rungs");
    let mut store = Store::create(&path, &Rules::defaults(System::Skyweaver)).unwrap();
    // The log is written while the replay runs; the replay meets a third player joining as
    // "ann" on the last day, a name Ann holds (names compare without case).
    let mut rows = rows(20_000);
    rows.push(join(2, "ann", day(199)));
    let err = store
        .commit(&rungs_store::Change::new("fails", rows.to_vec()).unwrap())
        .unwrap_err();
    match &err {
        StoreError::Replay { cause, .. } => assert_eq!(cause.seq(), 20_003, "{err}"),
        other => panic!("not a replay error: {other}"),
    }
    drop(store);
    assert_eq!(count(&path, "actions"), 0);
    assert_eq!(count(&path, "log"), 0);
    assert_eq!(count(&path, "cache_history"), 0);
    assert!(
        Store::open(&path)
            .unwrap()
            .ladder()
            .unwrap()
            .players
            .is_empty()
    );
}

/// Imports `csv` (standard columns) into a new ladder; `allow_new` as `--no-new-players` is
/// not. Returns the ladder's log rows as (date, event) text, or the error.
fn import(dir: &TempDir, name: &str, csv: &str, allow_new: bool) -> Result<Vec<String>, String> {
    let path = dir.0.join(format!("{name}.rungs"));
    let mut store = Store::create(&path, &Rules::defaults(System::Skyweaver)).unwrap();
    if !allow_new {
        let joins = [join(0, "Ann", day(0)), join(1, "Bo", day(0))];
        store
            .commit(&rungs_store::Change::new("Ann and Bo", joins.to_vec()).unwrap())
            .unwrap();
    }
    let reader = MatchReader::new(csv.as_bytes(), name, &Mapping::standard()).unwrap();
    let imported = import_csv(&mut store, reader, name, allow_new, false, &mut |_| true);
    imported.map_err(|e: ActionError| e.to_string())?;
    let mut out = Vec::new();
    store
        .each_event(|date, event| {
            out.push(format!("{date} {}", serde_json::to_string(event).unwrap()))
        })
        .unwrap();
    Ok(out)
}

#[test]
fn a_file_in_date_order_and_the_same_file_shuffled_import_the_same_rows() {
    let dir = TempDir::new("beside-order");
    // 10,000 matches among 300 players, one a day: made while read when in order, after a
    // sort when shuffled (rows 7 apart); both give the same joins and matches.
    let line = |i: u64| {
        let (a, b) = (i * 7 % 300, (i * 7 + 1 + i % 5) % 300);
        format!(
            "{},P{a},P{b},{}\n",
            day(i),
            ["1", "0", "0.5"][(i % 3) as usize]
        )
    };
    let header = "date,player_a,player_b,score\n";
    let sorted: String = std::iter::once(header.to_string())
        .chain((0..10_000).map(line))
        .collect();
    let shuffled: String = std::iter::once(header.to_string())
        .chain((0..10_000).map(|i| line(i * 7 % 10_000)))
        .collect();
    let a = import(&dir, "sorted", &sorted, true).unwrap();
    let b = import(&dir, "shuffled", &shuffled, true).unwrap();
    assert_eq!(a.len(), 10_300, "300 joins and 10,000 matches");
    assert!(a == b, "the shuffled file imported other rows");
    // P0 and P1 play the first match (i = 0: a = 0, b = 1) and join before it as #0 and #1.
    assert_eq!(
        a[0],
        r#"1990-01-01 {"kind":"player","id":0,"name":"P0","undated":true}"#
    );
    assert_eq!(
        a[1],
        r#"1990-01-01 {"kind":"player","id":1,"name":"P1","undated":true}"#
    );
}

#[test]
fn a_bad_line_is_the_one_a_sorted_reading_meets_first() {
    let dir = TempDir::new("beside-errors");
    let header = "date,player_a,player_b,score\n";
    // In date order, an unknown player on line 3 is the error...
    let in_order =
        format!("{header}2020-01-01,Ann,Bo,1\n2020-01-02,Ann,Cy,1\n2020-01-03,Ann,Di,0\n");
    let err = import(&dir, "a", &in_order, false).unwrap_err();
    assert!(err.contains("line 3") && err.contains("Cy"), "{err}");
    // ...unless a later line dated earlier names another: sorted, it comes first.
    let earlier = format!("{in_order}2019-12-31,Di,Bo,1\n");
    let err = import(&dir, "b", &earlier, false).unwrap_err();
    assert!(err.contains("line 5") && err.contains("Di"), "{err}");
    // A line that does not read is the error, wherever it is, as when the file is read
    // whole before any name is looked up.
    let unreadable = format!("{in_order}2020-13-01,Ann,Bo,1\n");
    let err = import(&dir, "c", &unreadable, false).unwrap_err();
    assert!(err.contains("line 5") && err.contains("date"), "{err}");
    // Nothing was imported by any of them.
    for name in ["a", "b", "c"] {
        let path = dir.0.join(format!("{name}.rungs"));
        assert_eq!(count(&path, "actions"), 1, "{name}");
    }
}

#[test]
fn a_ladder_of_thousands_written_whole_is_sound_and_equals_a_replay() {
    // 5,000 players (from 4,096 on, every player's text is made on a second thread while the
    // histories are written): P(i) plays P(i + 1) on day i / 10, A winning.
    let dir = TempDir::new("beside-players");
    let mut csv = String::from("date,player_a,player_b,score\n");
    for i in 0..5_000u64 {
        csv.push_str(&format!("{},P{i},P{},1\n", day(i / 10), (i + 1) % 5_000));
    }
    let path = dir.0.join("many.rungs");
    let rows = import(&dir, "many", &csv, true).unwrap();
    assert_eq!(rows.len(), 10_000, "5,000 joins and 5,000 matches");
    let store = Store::open(&path).unwrap();
    let ladder = store.ladder().unwrap();
    assert_eq!(ladder.players.len(), 5_000);
    // P0 plays twice: beats P1 first, loses to P4999 last.
    let p0 = &ladder.players[0];
    assert_eq!(
        (p0.name.as_str(), p0.matches, p0.wins, p0.losses),
        ("P0", 2, 1, 1)
    );
    let (replayed, _) = store.replay(None).unwrap();
    assert!(ladder == replayed, "caches differ from a replay");
    drop(store);
    let report = Store::check(&path).unwrap();
    assert!(report.is_sound(), "{:?}", report.problems);
    assert_eq!((report.events, report.players), (10_000, 5_000));
}
