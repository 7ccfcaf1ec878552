//! A ladder file is data, never code, and what it shows is checked against its log: a file
//! carrying a trigger, a view or a table rungs did not create is refused and
//! left alone; a trigger slipped in while a ladder is open never acts; a log changed behind
//! rungs' back is noticed when the file opens; a tampered cache is found by `rungs check` and
//! mended by `rungs repair`; undo follows what rungs wrote, whatever ids a log chose; a file
//! of the previous format opens and is upgraded.

use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::{Store, StoreError};

use crate::support::cli as cli_support;
use cli_support::Dir;

const LADDER: &str = "club.rungs";

/// What these tests ask of a test's directory besides the shared helpers.
trait Club {
    /// Ann, Bo and Cy, and two matches: Ann beat Bo on 2026-01-02, Bo drew with Cy.
    fn club(&self, name: &str);
    fn sqlite(&self, name: &str) -> rusqlite::Connection;
    fn standings(&self, name: &str) -> serde_json::Value;
}

impl Club for Dir {
    fn club(&self, name: &str) {
        self.ok(&["new", name, "--system", "elo"]);
        self.ok(&[
            "add-player",
            name,
            "Ann",
            "Bo",
            "Cy",
            "--date",
            "2026-01-01",
        ]);
        self.ok(&["add-match", name, "Ann", "Bo", "1", "--date", "2026-01-02"]);
        self.ok(&["add-match", name, "Bo", "Cy", "0.5", "--date", "2026-01-03"]);
    }

    fn sqlite(&self, name: &str) -> rusqlite::Connection {
        cli_support::sqlite(&self.path(name))
    }

    fn standings(&self, name: &str) -> serde_json::Value {
        serde_json::from_str(&self.ok(&["standings", name, "--json"])).unwrap()
    }
}

fn mentions(message: &str, parts: &[&str]) {
    for p in parts {
        assert!(message.contains(p), "{p:?} not in {message:?}");
    }
}

fn wins(standings: &serde_json::Value, player: &str) -> u64 {
    standings
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("{player} not in {standings}"))["wins"]
        .as_u64()
        .unwrap()
}

/// Each kind of schema rungs did not write: refused by reading and by writing commands, the
/// message naming what was found, the file's bytes untouched.
#[test]
fn a_file_with_a_trigger_a_view_or_a_table_rungs_did_not_create_is_refused_and_left_alone() {
    let cases: [(&str, &str, &[&str]); 6] = [
        (
            "flip",
            // What the issue found: a trigger that turns a win into a loss as it is written.
            "CREATE TRIGGER flip AFTER INSERT ON log BEGIN \
             UPDATE log SET data = x'08' || substr(data, 2) WHERE first_seq = new.first_seq; END",
            &["a trigger `flip` on `log`", "never behaviour"],
        ),
        (
            "wins",
            "CREATE TRIGGER wins AFTER UPDATE ON cache_players BEGIN \
             UPDATE cache_players SET state = json_set(state, '$.wins', 1000); END",
            &["a trigger `wins` on `cache_players`"],
        ),
        (
            "view",
            "CREATE VIEW everyone AS SELECT * FROM cache_players",
            &["a view `everyone`"],
        ),
        (
            "table",
            "CREATE TABLE notes(x TEXT)",
            &["a table `notes` that rungs did not create"],
        ),
        (
            "column",
            "ALTER TABLE actions ADD COLUMN extra TEXT",
            &["a table `actions` is not defined as rungs defines it"],
        ),
        (
            "index",
            "DROP INDEX log_action",
            &["an index `log_action` on `log` is missing"],
        ),
    ];
    for (tag, sql, found) in cases {
        let dir = Dir::new(&format!("schema-{tag}"));
        dir.club(LADDER);
        dir.sqlite(LADDER).execute_batch(sql).unwrap();
        let before = dir.bytes(LADDER);
        for args in [
            vec!["standings", LADDER],
            vec![
                "add-match",
                LADDER,
                "Ann",
                "Cy",
                "1",
                "--date",
                "2026-01-04",
            ],
            vec!["check", LADDER],
            vec!["repair", LADDER],
        ] {
            let m = dir.fail(&args);
            mentions(&m, &[LADDER, "not a ladder as rungs writes it"]);
            mentions(&m, found);
        }
        assert_eq!(dir.bytes(LADDER), before, "{tag}: the file was changed");
    }
}

/// A trigger added by another program while rungs holds the ladder open: the next change
/// finds it before it runs (the schema is checked again when it changed), and the
/// connection runs no trigger anyway. Neither its `RAISE` message nor its writes reach the
/// ladder.
#[test]
fn a_trigger_added_while_the_ladder_is_open_cannot_act() {
    let dir = Dir::new("late-trigger");
    dir.club(LADDER);
    let mut store = Store::open(&dir.path(LADDER)).unwrap();
    let before = store.export_log().unwrap();
    let other = dir.sqlite(LADDER);
    other
        .execute_batch(
            "CREATE TRIGGER scam BEFORE INSERT ON actions BEGIN \
             SELECT RAISE(ABORT, 'your ladder is locked: call +1-555-0100'); END;
             CREATE TRIGGER thousand AFTER INSERT ON actions BEGIN \
             UPDATE cache_players SET state = json_set(state, '$.wins', 1000); END;",
        )
        .unwrap();
    let game = Event::Match(Match::new(0, 2, MatchResult::Played(Outcome::Win)));
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 4).unwrap();
    let e = store
        .commit(
            &rungs_store::Change::new("match", vec![(date, Entry::Add { event: game })]).unwrap(),
        )
        .unwrap_err();
    let text = e.to_string();
    mentions(
        &text,
        &["a trigger `scam` on `actions`", "a trigger `thousand`"],
    );
    // Not "555" alone: the temporary directory's name carries the test's process id.
    assert!(
        !text.contains("locked") && !text.contains("+1-555-0100"),
        "the trigger's words reached the user: {text}"
    );
    drop(store);
    other
        .execute_batch("DROP TRIGGER scam; DROP TRIGGER thousand;")
        .unwrap();
    let store = Store::open(&dir.path(LADDER)).unwrap();
    assert_eq!(store.export_log().unwrap(), before);
    let ladder = store.ladder().unwrap();
    assert_eq!(ladder.players[0].wins, 1, "Ann's one win");
    assert_eq!(ladder, store.replay(None).unwrap().0);
}

/// A log changed behind rungs' back, three ways: a match's result flipped inside its row,
/// rows added, an undo slipped in. Each is noticed when the file opens — no standings from
/// caches that are not the log's — then `check` names it and `repair` rebuilds from the log,
/// which is the truth.
#[test]
fn a_log_changed_behind_rungs_back_is_noticed_when_the_file_opens() {
    // Ann beat Bo: the add-match action's block holds one plain row, header byte 0 (a win).
    let dir = Dir::new("flipped");
    dir.club(LADDER);
    let conn = dir.sqlite(LADDER);
    let (first, data): (i64, Vec<u8>) = conn
        .query_row(
            "SELECT first_seq, data FROM log WHERE action = 2",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(data[0], 0, "a plain win");
    let mut flipped = data.clone();
    flipped[0] = 2 << 2; // a plain loss of side A
    conn.execute(
        "UPDATE log SET data = ?1 WHERE first_seq = ?2",
        rusqlite::params![flipped, first],
    )
    .unwrap();
    drop(conn);
    let m = dir.fail(&["standings", LADDER]);
    mentions(
        &m,
        &[
            "its caches are not those of its log",
            "the log was changed outside rungs: rows of the log were changed",
            "rungs repair club.rungs",
        ],
    );
    dir.fail(&["add-match", LADDER, "Ann", "Cy", "1"]);
    let e = Store::open(&dir.path(LADDER)).err().unwrap();
    assert!(e.is_stale(), "{e}");
    let m = dir.fail(&["check", LADDER]);
    mentions(&m, &["problems found", "rungs repair club.rungs"]);
    let report = dir.run(&["check", LADDER]);
    let listed = String::from_utf8_lossy(&report.stdout);
    mentions(
        &listed,
        &[
            "the caches were not made from the log as it is: rows of the log were changed",
            "Ann: the cache says",
            "losses 0 where a replay gives 1",
        ],
    );
    let said = dir.ok(&["repair", LADDER]);
    mentions(
        &said,
        &[
            "repaired club.rungs",
            "rows of the log were changed",
            "the log was not changed",
        ],
    );
    dir.ok(&["check", LADDER]);
    // The log is the truth: Bo beat Ann.
    let standings = dir.standings(LADDER);
    assert_eq!((wins(&standings, "Ann"), wins(&standings, "Bo")), (0, 1));

    // Rows added by another program, packed the way rungs packs them.
    let dir = Dir::new("added");
    dir.club(LADDER);
    let game = Event::Match(Match::new(2, 0, MatchResult::Played(Outcome::Win)));
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 5).unwrap();
    let blocks = rungs_store::codec::encode(&[(date, Entry::Add { event: game })]).unwrap();
    let conn = dir.sqlite(LADDER);
    conn.execute_batch(
        "INSERT INTO actions(id, kind, label, at) VALUES (4, 'do', 'sneaked', '2026-01-05')",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO log(first_seq, action, rows, data) VALUES (6, 4, 1, ?1)",
        [&blocks[0].1],
    )
    .unwrap();
    drop(conn);
    let m = dir.fail(&["standings", LADDER]);
    mentions(
        &m,
        &[
            "the log has 6 rows where its caches were made from 5",
            "4 actions where its caches were made from 3",
        ],
    );
    dir.ok(&["repair", LADDER]);
    assert_eq!(wins(&dir.standings(LADDER), "Cy"), 1);

    // An undo slipped in: the draw no longer counts once repaired.
    let dir = Dir::new("undone");
    dir.club(LADDER);
    dir.sqlite(LADDER)
        .execute_batch("INSERT INTO actions(id, kind, label, at) VALUES (4, 'undo', 'x', 'y')")
        .unwrap();
    let m = dir.fail(&["events", LADDER]);
    mentions(&m, &["4 actions where its caches were made from 3"]);
    dir.ok(&["repair", LADDER]);
    let standings = dir.standings(LADDER);
    let draws = |p: &str| {
        standings
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == p)
            .unwrap()["draws"]
            .as_u64()
            .unwrap()
    };
    assert_eq!((draws("Bo"), draws("Cy")), (0, 0));
}

/// A hand-edited win count and a flipped byte of a history: the first is noticed when the
/// file opens (the cached states are digested as rungs wrote them), both are named by `check`
/// and put right by `repair`, after which the standings are those of the log again.
#[test]
fn a_tampered_cache_is_found_by_check_and_fixed_by_repair() {
    let dir = Dir::new("tampered");
    dir.club(LADDER);
    let honest = dir.standings(LADDER);
    let conn = dir.sqlite(LADDER);
    conn.execute_batch(
        "UPDATE cache_players SET state = json_set(state, '$.wins', 1000) WHERE id = 0",
    )
    .unwrap();
    let mut rows: Vec<u8> = conn
        .query_row("SELECT rows FROM cache_history WHERE player = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    rows[0] ^= 1; // the first row's day, one day off
    conn.execute(
        "UPDATE cache_history SET rows = ?1 WHERE player = 1",
        [&rows],
    )
    .unwrap();
    drop(conn);
    let m = dir.fail(&["standings", LADDER]);
    mentions(&m, &["the cached standings were changed outside rungs"]);
    let m = dir.fail(&["check", LADDER]);
    mentions(&m, &["4 problems found", "rungs repair club.rungs"]);
    let out = dir.run(&["check", LADDER]);
    let listed = String::from_utf8_lossy(&out.stdout);
    mentions(
        &listed,
        &[
            "the cached states are not what rungs wrote",
            "the players' histories are not what rungs wrote",
            "Ann: the cache says wins 1000 where a replay gives 1",
            "Bo: the cached history differs from a replay",
        ],
    );
    // Check changes nothing.
    dir.fail(&["standings", LADDER]);
    let said = dir.ok(&["repair", LADDER]);
    mentions(&said, &["the cached standings were changed outside rungs"]);
    let out = dir.ok(&["check", LADDER]);
    mentions(&out, &["club.rungs: sound", "5 log rows", "3 players"]);
    assert_eq!(dir.standings(LADDER), honest);
    let json: serde_json::Value =
        serde_json::from_str(&dir.ok(&["check", LADDER, "--json"])).unwrap();
    assert_eq!(json["sound"], true);
    assert_eq!(json["events"], 5);
}

/// The season archive, a table of its own since format 3, is part of what rungs wrote: a
/// season edited or deleted there is noticed when the file opens, named by `check`, and put
/// back by `repair`. Matches appended after the seasons leave it as it was.
#[test]
fn a_tampered_season_archive_is_found_and_repaired() {
    let dir = Dir::new("tampered-archive");
    dir.club(LADDER);
    dir.ok(&["hard-reset", LADDER, "--date", "2026-01-04"]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Cy",
        "Ann",
        "1",
        "--date",
        "2026-01-05",
    ]);
    dir.ok(&["hard-reset", LADDER, "--date", "2026-01-06"]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Cy",
        "0",
        "--date",
        "2026-01-07",
    ]);
    let honest = dir.ok(&["seasons", LADDER, "--json"]);
    let archived: Vec<String> = {
        let conn = dir.sqlite(LADDER);
        let mut stmt = conn
            .prepare("SELECT state FROM cache_seasons ORDER BY position")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(archived.len(), 2);
    assert!(archived[0].contains("\"number\":1"), "{}", archived[0]);
    for tamper in [
        "UPDATE cache_seasons SET state = json_set(state, '$.number', 7) WHERE position = 0",
        "DELETE FROM cache_seasons WHERE position = 1",
    ] {
        dir.sqlite(LADDER).execute_batch(tamper).unwrap();
        let m = dir.fail(&["seasons", LADDER]);
        mentions(&m, &["the cached standings were changed outside rungs"]);
        let out = dir.run(&["check", LADDER]);
        assert!(!out.status.success(), "{tamper}");
        mentions(
            &String::from_utf8_lossy(&out.stdout),
            &["the cached states are not what rungs wrote", "archive"],
        );
        dir.ok(&["repair", LADDER]);
        assert_eq!(dir.ok(&["seasons", LADDER, "--json"]), honest, "{tamper}");
        mentions(&dir.ok(&["check", LADDER]), &["club.rungs: sound"]);
    }
}

/// A log whose ids are as large as they go: action 2⁶³−1, sequence numbers past 2⁶³. rungs
/// numbers actions and rows itself on import, so a match added afterwards is the one undo
/// takes back, and redo brings it again.
#[test]
fn an_imported_log_with_huge_ids_then_add_undo_redo() {
    let dir = Dir::new("huge-ids");
    dir.club("small.rungs");
    dir.ok(&["export", "small.rungs", "small.jsonl"]);
    let text = std::fs::read_to_string(dir.path("small.jsonl")).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let n = lines.len();
    // Actions 1, 2, 3 become 1, 2 and 2⁶³−1; rows 1..5 become 1..4 and 2⁶⁴−1.
    for line in &mut lines[1..] {
        if line["action"] == 3 {
            line["action"] = i64::MAX.into();
        }
    }
    lines[n - 1]["seq"] = u64::MAX.into();
    let huge: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path("huge.jsonl"), huge).unwrap();
    dir.ok(&["import-log", LADDER, "huge.jsonl"]);
    let before = dir.standings(LADDER);
    assert_eq!(before, dir.standings("small.rungs"));
    {
        let store = Store::open(&dir.path(LADDER)).unwrap();
        let ids: Vec<i64> = store.actions().unwrap().iter().map(|a| a.0).collect();
        assert_eq!(ids, [1, 2, 3]);
        let seqs: Vec<u64> = store.effective().unwrap().iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [1, 2, 3, 4, 5]);
    }
    dir.ok(&[
        "add-match",
        LADDER,
        "Cy",
        "Ann",
        "1",
        "--date",
        "2026-01-05",
    ]);
    let with = dir.standings(LADDER);
    assert_eq!(wins(&with, "Cy"), 1);
    dir.ok(&["undo", LADDER]);
    assert_eq!(
        dir.standings(LADDER),
        before,
        "undo removed the wrong action"
    );
    dir.ok(&["redo", LADDER]);
    assert_eq!(
        dir.standings(LADDER),
        with,
        "redo did not bring the match back"
    );
    dir.ok(&["check", LADDER]);
}

/// Every kind of action keeps the caches' stamp and digest true: the file reopens (which
/// compares them) after each, and its caches equal a replay.
#[test]
fn every_action_keeps_the_stamp_true() {
    let dir = Dir::new("stamps");
    let path = dir.path(LADDER);
    let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    let join = |id: PlayerId, name: &str| Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    };
    let game = |a: PlayerId, b: PlayerId, o: Outcome| Entry::Add {
        event: Event::Match(Match::new(a, b, MatchResult::Played(o))),
    };
    drop(Store::create(&path, &Rules::defaults(System::Skyweaver)).unwrap());
    let steps: Vec<Step> = vec![
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new(
                    "players",
                    vec![
                        (day(1), join(0, "Ann")),
                        (day(1), join(1, "Bo")),
                        (day(2), join(2, "Cy")),
                    ],
                )
                .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new("m", vec![(day(3), game(0, 1, Outcome::Win))]).unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new("m", vec![(day(4), game(1, 2, Outcome::Draw))]).unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new("backdated", vec![(day(2), game(2, 0, Outcome::Win))])
                    .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new(
                    "edit",
                    vec![(
                        day(5),
                        Entry::Edit {
                            target: 4,
                            event: game(0, 1, Outcome::Loss).into_event(),
                        },
                    )],
                )
                .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new(
                    "soft",
                    vec![(
                        day(6),
                        Entry::Add {
                            event: Event::SoftReset,
                        },
                    )],
                )
                .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| s.undo().map(drop).unwrap()),
        Box::new(|s| s.redo().map(drop).unwrap()),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new("delete", vec![(day(6), Entry::Delete { target: 5 })])
                    .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new(
                    "hard",
                    vec![(
                        day(7),
                        Entry::Add {
                            event: Event::HardReset,
                        },
                    )],
                )
                .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            let rules = Rules::defaults(System::Elo);
            s.commit(
                &rungs_store::Change::new(
                    "rules",
                    vec![(
                        day(8),
                        Entry::Add {
                            event: Event::Rules {
                                rules: Box::new(rules),
                            },
                        },
                    )],
                )
                .unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| {
            s.commit(
                &rungs_store::Change::new("m", vec![(day(9), game(2, 1, Outcome::Win))]).unwrap(),
            )
            .map(drop)
            .unwrap()
        }),
        Box::new(|s| s.undo().map(drop).unwrap()),
        Box::new(|s| s.undo().map(drop).unwrap()),
    ];
    for (i, step) in steps.iter().enumerate() {
        let mut store = Store::open(&path).unwrap_or_else(|e| panic!("before step {i}: {e}"));
        step(&mut store);
        drop(store);
        let store = Store::open(&path).unwrap_or_else(|e| panic!("after step {i}: {e}"));
        assert_eq!(
            store.ladder().unwrap(),
            store.replay(None).unwrap().0,
            "step {i}"
        );
        let report = Store::check(&path).unwrap();
        assert!(report.is_sound(), "step {i}: {:?}", report.problems);
    }
}

/// One change made to a store in a test.
type Step<'a> = Box<dyn Fn(&mut Store) + 'a>;

trait IntoEvent {
    fn into_event(self) -> Event;
}

impl IntoEvent for Entry {
    fn into_event(self) -> Event {
        match self {
            Entry::Add { event } | Entry::Edit { event, .. } => event,
            Entry::Delete { .. } => panic!("no event"),
        }
    }
}

/// A file of ladder format 1 (as rungs wrote before the log moved into blocks), made with
/// that format's own SQL and rows as it stored them — text dates, ids as SQLite handed them
/// out, one as large as they go — opens, is upgraded in place, and reads as it did; undo then
/// follows the order the actions were written in.
#[test]
fn a_version_1_file_opens_and_is_upgraded() {
    let dir = Dir::new("v1");
    let path = dir.path(LADDER);
    {
        let conn = version_1_file(&path);
        let big = i64::MAX;
        conn.execute_batch(&format!(
            "INSERT INTO actions(id, kind, label, at) VALUES
               (5, 'do', 'add 2 players', 't'), (9, 'do', 'add match', 't'),
               (12, 'do', 'add match', 't'), ({big}, 'do', 'edit event 20', 't');
             INSERT INTO entries(seq, action, date, op, target, a, b, result, body) VALUES
               (10, 5, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{{\"kind\":\"player\",\"id\":0,\"name\":\"Ann\"}}'),
               (11, 5, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{{\"kind\":\"player\",\"id\":1,\"name\":\"Bo\"}}'),
               (20, 9, '2026-01-02', 'add', NULL, 0, 1, '1', NULL),
               (21, 12, '2026-01-03', 'add', NULL, 1, 0, '0.5', NULL),
               (30, {big}, '2026-01-04', 'edit', 20, 0, 1, '0', NULL);"
        ))
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let version: i32 = store_version(&dir);
    assert_eq!(version, 3, "upgraded to the current format");
    let events = store.effective().unwrap();
    let seqs: Vec<(u64, String)> = events.iter().map(|e| (e.seq, e.date.to_string())).collect();
    // Rows renumbered 1..5 in entry order; the edit (row 5) moved row 3 to its own date.
    assert_eq!(
        seqs,
        [
            (1, "2026-01-01".to_string()),
            (2, "2026-01-01".to_string()),
            (4, "2026-01-03".to_string()),
            (3, "2026-01-04".to_string())
        ]
    );
    let ladder = store.ladder().unwrap();
    assert_eq!(ladder, store.replay(None).unwrap().0);
    // Elo K = 32: the draw first (no change between equals), then Bo beat Ann: Bo 1516.
    assert_eq!(ladder.players[1].figures().rating, 1516.0);
    let ids: Vec<i64> = store.actions().unwrap().iter().map(|a| a.0).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    drop(store);
    assert!(Store::check(&path).unwrap().is_sound());
    // The last action written (the edit, id 2⁶³−1 in format 1) is the one undone.
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.undo().unwrap().label, "edit event 20");
    assert_eq!(
        store.ladder().unwrap().players[0].wins,
        1,
        "Ann's win is back"
    );

    // A format 1 file carrying a trigger is refused before anything is upgraded.
    let dir = Dir::new("v1-trigger");
    let path = dir.path(LADDER);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "application_id", 0x5255_4E47)
            .unwrap();
        conn.execute_batch(rungs_store::schema::VERSION_1_SQL)
            .unwrap();
        conn.execute_batch("CREATE TRIGGER t AFTER INSERT ON entries BEGIN SELECT 1; END")
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let e = Store::open(&path).err().unwrap();
    assert!(matches!(e, StoreError::Open(_)), "{e}");
    mentions(
        &e.to_string(),
        &["ladder format 1", "a trigger `t` on `entries`"],
    );
    assert_eq!(store_version(&dir), 1);
}

/// A format 1 file's names as an older rungs accepted them: `Café` twice, composed (NFC) and
/// decomposed (NFD). Upgraded, the second Café could not be named at all (the first hid it)
/// and `check` called the file sound. Now `check` names the problem, each player is found by
/// its exact name, and renaming mends the file. A name the check refuses outright (one with a
/// zero-width space) cannot be held by a ladder: such a file is damaged, and said so with
/// its row.
#[test]
fn a_version_1_files_clashing_names_are_found_and_can_be_renamed() {
    let dir = Dir::new("v1-names");
    let path = dir.path(LADDER);
    let (nfc, nfd, zwsp) = ("Caf\u{e9}", "Cafe\u{301}", "Bo\u{200b}");
    let version_1_players = |path: &std::path::Path, names: &[&str]| {
        let conn = version_1_file(path);
        conn.execute(
            "INSERT INTO actions(id, kind, label, at) VALUES (1, 'do', 'add players', 't')",
            [],
        )
        .unwrap();
        for (i, name) in names.iter().enumerate() {
            let body = serde_json::json!({"kind": "player", "id": i, "name": name}).to_string();
            conn.execute(
                "INSERT INTO entries(seq, action, date, op, body) VALUES (?1, 1, '2026-01-01', 'add', ?2)",
                rusqlite::params![i as i64 + 1, body],
            )
            .unwrap();
        }
    };
    let damaged = dir.path("zwsp.rungs");
    version_1_players(&damaged, &[nfc, zwsp]);
    let out = dir.run(&["check", "zwsp.rungs"]);
    assert!(!out.status.success());
    mentions(
        &String::from_utf8_lossy(&out.stderr),
        &[
            "damaged ladder file",
            "row 2: contains the invisible formatting character U+200B",
        ],
    );
    version_1_players(&path, &[nfc, nfd]);
    let out = dir.run(&["check", LADDER]);
    assert!(!out.status.success());
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    mentions(
        &said,
        &[&format!(
            "players `{nfc}` and `{nfd}` have names that compare equal"
        )],
    );
    // Typed loosely, the name is one of two: the message says so and names both.
    let out = dir.run(&["add-match", LADDER, "cafe\u{301}", nfc, "1"]);
    assert!(!out.status.success());
    mentions(
        &String::from_utf8_lossy(&out.stderr),
        &["unknown player", "2 players have names that compare equal"],
    );
    // Typed exactly, each is found: the decomposed one is renamed, the match lands.
    dir.ok(&["rename", LADDER, nfd, "Cafe Two"]);
    dir.ok(&["add-match", LADDER, "cafe two", nfc, "1"]);
    let out = dir.run(&["check", LADDER]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The upgrade kept the old log's shared names as written: a match dated before the rename
    // replays the whole log, and still lands.
    dir.ok(&[
        "add-match",
        LADDER,
        "Cafe Two",
        nfc,
        "0",
        "--date",
        "2026-01-02",
    ]);
    // Reading the log (evaluate, fit, replay, a date's standings) takes it as it is.
    dir.ok(&["evaluate", LADDER]);
    dir.ok(&["fit", LADDER, "--system", "elo"]);
    dir.ok(&["replay", LADDER]);
    dir.ok(&["standings", LADDER, "--at", "2026-01-02"]);
    // Without that note the log does not replay (Café joins twice by today's rule); `repair`
    // keeps the log as written and writes the note again.
    dir.sqlite(LADDER)
        .execute("DELETE FROM meta WHERE key = 'names_shared_through'", [])
        .unwrap();
    let out = dir.run(&["check", LADDER]);
    assert!(!out.status.success());
    mentions(
        &String::from_utf8_lossy(&out.stdout),
        &["does not replay", "cannot join as"],
    );
    dir.ok(&["repair", LADDER]);
    let out = dir.run(&["check", LADDER]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// An empty Elo ladder in format 1, as rungs wrote it then: its rules and an empty cache.
fn version_1_file(path: &std::path::Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_update(None, "application_id", 0x5255_4E47)
        .unwrap();
    conn.execute_batch(rungs_store::schema::VERSION_1_SQL)
        .unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    let rules = serde_json::to_string(&Rules::defaults(System::Elo)).unwrap();
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('rules', ?1)",
        [&rules],
    )
    .unwrap();
    let ladder = rungs_ladder::replay::Ladder::new(Rules::defaults(System::Elo));
    conn.execute(
        "INSERT INTO cache_ladder(id, last_action, state) VALUES (1, 0, ?1)",
        [serde_json::to_string(&ladder).unwrap()],
    )
    .unwrap();
    conn
}

fn store_version(dir: &Dir) -> i32 {
    dir.sqlite(LADDER)
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// Each kind of damage gets a message that says what is wrong, never SQLite's words for a
/// query ("Query returned no rows", "table meta already exists").
#[test]
fn each_kind_of_damage_is_named() {
    let cases: [(&str, &str, &[&str]); 5] = [
        (
            "rules",
            "DELETE FROM meta WHERE key = 'rules'",
            &["damaged ladder file", "its rules are missing"],
        ),
        (
            "caches",
            "DELETE FROM cache_ladder",
            &["its caches are missing", "rungs repair club.rungs"],
        ),
        (
            "unfinished",
            "PRAGMA user_version = 0",
            &[
                "damaged ladder file",
                "its format number is 0 (none), yet it holds tables",
            ],
        ),
        (
            "numbering",
            "UPDATE log SET first_seq = 9 WHERE first_seq = 5",
            &[
                "damaged ladder file",
                "log row 9 does not follow row 4 (of action 2)",
            ],
        ),
        (
            "actions",
            "PRAGMA foreign_keys = OFF; UPDATE actions SET id = 7 WHERE id = 3; UPDATE log SET action = 7 WHERE action = 3",
            &[
                "damaged ladder file",
                "its actions are numbered 7 where rungs numbers them 1, 2, 3, … (expected 3)",
            ],
        ),
    ];
    for (tag, sql, said) in cases {
        let dir = Dir::new(&format!("damage-{tag}"));
        dir.club(LADDER);
        dir.sqlite(LADDER).execute_batch(sql).unwrap();
        let m = dir.fail(&["standings", LADDER]);
        mentions(&m, &[LADDER]);
        mentions(&m, said);
        for words in ["Query returned no rows", "already exists"] {
            assert!(!m.contains(words), "{tag}: {m}");
        }
    }
    // A ladder whose caches are missing is mended by a repair; one whose log is damaged is not.
    let dir = Dir::new("damage-mend");
    dir.club(LADDER);
    let honest = dir.standings(LADDER);
    dir.sqlite(LADDER)
        .execute_batch(
            "DELETE FROM cache_ladder; DELETE FROM cache_players; DELETE FROM cache_history",
        )
        .unwrap();
    let said = dir.ok(&["repair", LADDER]);
    mentions(&said, &["its caches are missing"]);
    assert_eq!(dir.standings(LADDER), honest);
    dir.sqlite(LADDER)
        .execute_batch("UPDATE log SET data = x'ff' WHERE action = 3")
        .unwrap();
    let m = dir.fail(&["repair", LADDER]);
    mentions(
        &m,
        &[
            "damaged ladder file",
            "its log: row 5: unknown operation code 3",
        ],
    );
    // An empty file, as a failed copy leaves: not a ladder, and said so.
    std::fs::write(dir.path("empty.rungs"), b"").unwrap();
    let m = dir.fail(&["standings", "empty.rungs"]);
    mentions(&m, &["empty.rungs: not a rungs ladder (an empty file)"]);
}

/// Rules another program wrote into the file, out of their range (once `k=-1e308`, here
/// a side advantage of 1e300), are refused by name when the ladder opens — never replayed into
/// ratings of ±5e307 and then a cache of nulls — and `rungs check` names them too.
#[test]
fn out_of_range_rules_in_the_file_are_refused_by_name() {
    let dir = Dir::new("rules-tampered");
    dir.club(LADDER);
    let before = std::fs::read(dir.path(LADDER)).unwrap();
    dir.sqlite(LADDER)
        .execute(
            "UPDATE meta SET value = json_set(value, '$.advantage', 1e300) WHERE key = 'rules'",
            [],
        )
        .unwrap();
    let e = Store::open(&dir.path(LADDER)).err().unwrap().to_string();
    mentions(
        &e,
        &[
            "its rules do not read",
            "`advantage`",
            "1e300",
            "outside its range",
        ],
    );
    assert_ne!(
        std::fs::read(dir.path(LADDER)).unwrap(),
        before,
        "the test did tamper"
    );
}

/// A log block deleted by another program, then `repair`ed: the ladder checked sound, but its
/// export was refused ("a \"do\" action must carry a log row"). A log reads back what the
/// ladder holds, an action whose rows are gone included.
#[test]
fn a_repaired_ladder_with_a_rowless_action_exports_and_imports_back() {
    let dir = Dir::new("rowless");
    dir.club(LADDER);
    let last: i64 = dir
        .sqlite(LADDER)
        .query_row("SELECT MAX(first_seq) FROM log", [], |r| r.get(0))
        .unwrap();
    dir.sqlite(LADDER)
        .execute("DELETE FROM log WHERE first_seq = ?1", [last])
        .unwrap();
    dir.ok(&["repair", LADDER]);
    assert!(dir.ok(&["check", LADDER]).contains("sound"));
    dir.ok(&["export", LADDER, "log.jsonl"]);
    dir.ok(&["import-log", "back.rungs", "log.jsonl"]);
    assert_eq!(
        dir.ok(&["standings", "back.rungs", "--json"]),
        dir.ok(&["standings", LADDER, "--json"])
    );
    dir.ok(&["export", "back.rungs", "again.jsonl"]);
    assert_eq!(
        std::fs::read_to_string(dir.path("again.jsonl")).unwrap(),
        std::fs::read_to_string(dir.path("log.jsonl")).unwrap()
    );
}

/// A ladder an older rungs wrote may give one name to two players on some date (it checked
/// names at the end only). A backdated change then meets that old clash: the refusal says it
/// is not the change's doing and that `repair` keeps the log as written; after it, the change
/// lands.
#[test]
fn an_older_ladders_name_clash_points_to_repair() {
    let dir = Dir::new("old-clash");
    dir.ok(&["new", LADDER]);
    dir.ok(&["add-player", LADDER, "Ann", "Bo", "--date", "2024-01-01"]);
    // As the older rungs let it in: Ann is renamed on 2024-06-01, a new Ann joins on 03-01.
    let meta = |sql: &str| {
        dir.sqlite(LADDER).execute(sql, []).unwrap();
    };
    meta("INSERT INTO meta(key, value) VALUES ('names_shared_through', '1000')");
    dir.ok(&["rename", LADDER, "Ann", "Anna", "--date", "2024-06-01"]);
    dir.ok(&["add-player", LADDER, "Ann", "--date", "2024-03-01"]);
    meta("DELETE FROM meta WHERE key = 'names_shared_through'");
    let args = [
        "add-match",
        LADDER,
        "Bo",
        "Anna",
        "1",
        "--date",
        "2024-02-01",
    ];
    let out = dir.run(&args);
    assert!(!out.status.success());
    mentions(
        &String::from_utf8_lossy(&out.stderr),
        &[
            "Ann cannot join as `Ann`",
            "The ladder held this before this change",
            "rungs repair",
        ],
    );
    dir.ok(&["repair", LADDER]);
    dir.ok(&args);
    // A clash the change itself makes says nothing of repair: Eve is Eve until 2024-05-01.
    dir.ok(&["add-player", LADDER, "Eve", "--date", "2024-01-01"]);
    dir.ok(&["rename", LADDER, "Eve", "Zed", "--date", "2024-05-01"]);
    let out = dir.run(&["rename", LADDER, "Bo", "eve", "--date", "2024-02-01"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    mentions(
        &said,
        &["Bo cannot be renamed `eve`", "the player now called Zed"],
    );
    assert!(!said.contains("repair"), "{said}");
}

/// The history cache is not in the digest checked at open. A history copied from another
/// player, or deleted, was shown as it stood (`history Ann` printed Bo's rows, or nothing); the
/// histories' guard (`store/guard.rs`) now finds it when a history is read. A file from before
/// the guard, read-only, still has the older check: a history must end at its standing.
#[test]
fn a_tampered_history_is_not_shown() {
    let dir = Dir::new("history-tamper");
    dir.club(LADDER);
    let before = dir.ok(&["history", LADDER, "Ann", "--json"]);
    let copy = "UPDATE cache_history SET rows = (SELECT rows FROM cache_history WHERE player = 1), \
                last_day = (SELECT last_day FROM cache_history WHERE player = 1), \
                last_seq = (SELECT last_seq FROM cache_history WHERE player = 1) WHERE player = 0";
    for tamper in [copy, "DELETE FROM cache_history"] {
        dir.sqlite(LADDER).execute(tamper, []).unwrap();
        let out = dir.run(&["history", LADDER, "Ann", "--json"]);
        assert!(!out.status.success(), "{tamper}");
        mentions(
            &String::from_utf8_lossy(&out.stderr),
            &[
                "the players' histories were changed outside rungs",
                "rungs repair",
            ],
        );
        dir.ok(&["repair", LADDER]);
        assert_eq!(dir.ok(&["history", LADDER, "Ann", "--json"]), before);
    }
    // A file from before the guard (here: its guard deleted) is rebuilt from its log the first
    // time it opens writable, and guarded: a tampered history is not blessed but replaced.
    dir.sqlite(LADDER)
        .execute_batch(&format!("DELETE FROM meta WHERE key = 'guard'; {copy}"))
        .unwrap();
    assert_eq!(dir.ok(&["history", LADDER, "Ann", "--json"]), before);
    let guards: i64 = dir
        .sqlite(LADDER)
        .query_row("SELECT COUNT(*) FROM meta WHERE key = 'guard'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(guards, 1, "guarded once rebuilt");
    assert_eq!(dir.ok(&["history", LADDER, "Ann", "--json"]), before);
}

/// Audit finding: while the app kept a ladder open, its saves lay in `club.rungs-wal`, so a
/// copy of `club.rungs` alone (a backup, a sync) opened "sound" without them. Each change now
/// reaches the file itself when it is saved: the copy holds every match reported saved.
#[test]
fn a_copy_of_the_file_alone_holds_what_an_open_ladder_saved() {
    let dir = Dir::new("copy-open");
    dir.club(LADDER);
    let mut open = Store::open(&dir.path(LADDER)).unwrap();
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 4).unwrap();
    for _ in 0..5 {
        let m = Entry::Add {
            event: Event::Match(Match::new(2, 0, MatchResult::Played(Outcome::Win))),
        };
        open.commit(&rungs_store::Change::new("Cy beat Ann", vec![(date, m)]).unwrap())
            .unwrap();
    }
    std::fs::copy(dir.path(LADDER), dir.path("copy.rungs")).unwrap();
    assert!(!dir.path("copy.rungs-wal").exists());
    let copy = Store::open(&dir.path("copy.rungs")).unwrap();
    // The club's 2 matches and the 5 saved while the ladder stayed open.
    assert_eq!(copy.ladder().unwrap().players[2].matches, 6);
    assert_eq!(copy.ladder().unwrap(), open.ladder().unwrap());
    drop(open);
}

/// Two `edit-match` of the same match at once both said "changed",
/// and one change was lost; two imports of the same file both landed. A change is built from
/// the ladder as its store read it, so a commit after another program moved the log on is
/// refused whole (the CLI then reads again and builds the change again).
#[test]
fn a_change_built_from_a_ladder_another_program_changed_is_refused() {
    let dir = Dir::new("changed-meanwhile");
    dir.club(LADDER);
    let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 4).unwrap();
    let draw = Entry::Add {
        event: Event::Match(Match::new(0, 2, MatchResult::Played(Outcome::Draw))),
    };
    let mut mine = Store::open(&dir.path(LADDER)).unwrap();
    let before = mine.ladder().unwrap();
    let mut other = Store::open(&dir.path(LADDER)).unwrap();
    other
        .commit(&rungs_store::Change::new("Ann drew with Cy", vec![(day, draw.clone())]).unwrap())
        .unwrap();
    let e = mine
        .commit(&rungs_store::Change::new("Ann drew with Cy", vec![(day, draw.clone())]).unwrap())
        .unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::ChangedMeanwhile {
                read: 3,
                now: 4,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("nothing was changed"), "{e}");
    assert!(
        mine.undo().is_err(),
        "undo would take back the other's change"
    );
    // Read again: the change is made against what is there.
    assert_ne!(mine.ladder().unwrap(), before);
    mine.commit(&rungs_store::Change::new("Ann drew with Cy", vec![(day, draw)]).unwrap())
        .unwrap();
    assert_eq!(mine.ladder().unwrap().players[0].draws, 2);
    assert!(Store::check(&dir.path(LADDER)).unwrap().is_sound());
}

/// A format 1 file holding `Ann` and `ann` (an older rungs compared
/// names by case only) could be locked by a rename the gate accepted: `rename Ann ANN` landed,
/// and then every change was refused (a replay found ANN's name held by ann). The rename is
/// now refused by name — ann still holds it — and the file goes on taking changes; a rename to
/// a name of its own mends it.
#[test]
fn a_version_1_files_shared_name_cannot_be_renamed_into_again() {
    let dir = Dir::new("v1-shared-rename");
    let path = dir.path(LADDER);
    {
        let conn = version_1_file(&path);
        conn.execute(
            "INSERT INTO actions(id, kind, label, at) VALUES (1, 'do', 'add players', 't')",
            [],
        )
        .unwrap();
        for (i, name) in ["Ann", "ann", "Bo"].iter().enumerate() {
            let body = serde_json::json!({"kind": "player", "id": i, "name": name}).to_string();
            conn.execute(
                "INSERT INTO entries(seq, action, date, op, body) VALUES (?1, 1, '2026-01-01', 'add', ?2)",
                rusqlite::params![i as i64 + 1, body],
            )
            .unwrap();
        }
    }
    dir.ok(&["repair", LADDER]);
    let m = dir.fail(&["rename", LADDER, "Ann", "ANN"]);
    mentions(&m, &["`ANN`", "ann"]);
    // The file still takes changes: a match, then the rename that mends the clash.
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Bo",
        "1",
        "--date",
        "2026-01-02",
    ]);
    dir.ok(&["rename", LADDER, "Ann", "Ann Lee"]);
    dir.ok(&[
        "add-match",
        LADDER,
        "ann",
        "Bo",
        "1",
        "--date",
        "2026-01-03",
    ]);
    let out = dir.run(&["check", LADDER]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A log row whose name the checks refuse (written there by another program: rungs cannot
/// write one) is damage, said with the row and the kind of event, never a name read as it lies
/// nor a panic. The row is packed as the store packs it: the operation and shape (an added
/// event as JSON, 0 | 6 << 2), the day from 0001-01-01 as day 1 zigzagged, the JSON's length,
/// the JSON.
#[test]
fn a_stored_name_the_checks_refuse_is_damage_named_by_its_row() {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    let dir = Dir::new("damage-name");
    dir.ok(&["new", LADDER]);
    dir.ok(&["add-player", LADDER, "Ann", "--date", "2026-01-01"]);
    let json = r#"{"kind":"player","id":0,"name":"Ann,Bo"}"#;
    // 2026-01-01 is day 739,617 counted from 0001-01-01 as 1; zigzagged, 1,479,234.
    let mut block = vec![6 << 2];
    varint(&mut block, 1_479_234);
    varint(&mut block, json.len() as u64);
    block.extend_from_slice(json.as_bytes());
    dir.sqlite(LADDER)
        .execute("UPDATE log SET data = ?1 WHERE action = 1", [&block])
        .unwrap();
    let m = dir.fail(&["repair", LADDER]);
    mentions(
        &m,
        &[
            "damaged ladder file",
            "its log: row 1: its `player` event does not read",
            "contains a comma",
        ],
    );
}

/// A format 1 file whose log does not replay — a player against themself, or a match of a
/// player whose join was undone — was refused naming nobody ("player #0 has not joined") and
/// without a word that the file is damaged. It is refused as a damaged file, the players
/// named by the names its log gave them.
#[test]
fn a_version_1_file_whose_log_does_not_replay_is_damaged_and_names_the_player() {
    let dir = Dir::new("v1-self-match");
    let path = dir.path(LADDER);
    {
        let conn = version_1_file(&path);
        conn.execute_batch(
            "INSERT INTO actions(id, kind, label, at) VALUES
               (5, 'do', 'add 2 players', 't'), (9, 'do', 'add match', 't');
             INSERT INTO entries(seq, action, date, op, target, a, b, result, body) VALUES
               (10, 5, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{\"kind\":\"player\",\"id\":0,\"name\":\"Ann\"}'),
               (11, 5, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{\"kind\":\"player\",\"id\":1,\"name\":\"Bo\"}'),
               (20, 9, '2026-01-02', 'add', NULL, 0, 0, '1', NULL);",
        )
        .unwrap();
    }
    let m = dir.fail(&["standings", LADDER]);
    mentions(&m, &["damaged ladder file", "ladder format 1", "Ann"]);
    assert!(!m.contains('#'), "{m}");

    let dir = Dir::new("v1-undone-join");
    let path = dir.path(LADDER);
    {
        let conn = version_1_file(&path);
        conn.execute_batch(
            "INSERT INTO actions(id, kind, label, at) VALUES
               (5, 'do', 'add Ann', 't'), (6, 'do', 'add Cy', 't'), (7, 'undo', 'add Cy', 't'),
               (9, 'do', 'add match', 't');
             INSERT INTO entries(seq, action, date, op, target, a, b, result, body) VALUES
               (10, 5, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{\"kind\":\"player\",\"id\":0,\"name\":\"Ann\"}'),
               (11, 6, '2026-01-01', 'add', NULL, NULL, NULL, NULL,
                '{\"kind\":\"player\",\"id\":1,\"name\":\"Cy\"}'),
               (20, 9, '2026-01-02', 'add', NULL, 0, 1, '1', NULL);",
        )
        .unwrap();
    }
    let m = dir.fail(&["standings", LADDER]);
    mentions(
        &m,
        &[
            "damaged ladder file",
            "ladder format 1",
            "Cy",
            "has not joined",
        ],
    );
    assert!(!m.contains("#1"), "{m}");
}
