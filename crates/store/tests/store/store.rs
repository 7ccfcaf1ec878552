//! The ladder file end to end: actions, undo and redo, corrections, caches equal to replay.

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::HistoryRow;
use rungs_rating::Outcome;
use rungs_store::Store;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn player(id: PlayerId, name: &str) -> Entry {
    Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    }
}

fn game(a: PlayerId, b: PlayerId, o: Outcome) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(o)))
}

fn sorted(mut h: Vec<HistoryRow>) -> Vec<HistoryRow> {
    h.sort_by_key(|r| (r.date, r.seq, r.player));
    h
}

/// The caches hold exactly what a replay from scratch gives, and the latest events read
/// without the whole log are the effective log's last ones.
fn assert_caches_fresh(store: &Store) {
    let mut effective = store.effective().unwrap();
    effective.reverse();
    effective.truncate(3);
    assert_eq!(store.latest_events(3).unwrap(), effective);
    let (ladder, history) = store.replay(None).unwrap();
    assert_eq!(store.ladder().unwrap(), ladder);
    assert_eq!(store.cached_history().unwrap(), sorted(history));
}

fn new_store(dir: &tempdir::Dir, system: System) -> Store {
    Store::create(&dir.path().join("club.rungs"), &Rules::defaults(system)).unwrap()
}

use rungs_testkit as support;
mod tempdir {
    pub use super::support::TempDir as Dir;
}

#[test]
fn matches_undo_redo_edit_delete_keep_caches_equal_to_replay() {
    for system in System::ALL {
        let dir = tempdir::Dir::new(system.name());
        let mut store = new_store(&dir, system);
        store
            .commit(
                &rungs_store::Change::new(
                    "players",
                    vec![
                        (day(1), player(0, "Ann")),
                        (day(1), player(1, "Bo")),
                        (day(1), player(2, "Cy")),
                    ],
                )
                .unwrap(),
            )
            .unwrap();
        assert_caches_fresh(&store);
        let s1 = store
            .commit(
                &rungs_store::Change::new(
                    "match",
                    vec![(
                        day(2),
                        Entry::Add {
                            event: game(0, 1, Outcome::Win),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
        let _s2 = store
            .commit(
                &rungs_store::Change::new(
                    "match",
                    vec![(
                        day(3),
                        Entry::Add {
                            event: game(1, 2, Outcome::Draw),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
        assert_caches_fresh(&store);
        // A backdated match recomputes everything after it.
        store
            .commit(
                &rungs_store::Change::new(
                    "backdated",
                    vec![(
                        day(1),
                        Entry::Add {
                            event: game(2, 0, Outcome::Win),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
        assert_caches_fresh(&store);
        // Edit the first match into a loss and move it later; then delete it.
        store
            .commit(
                &rungs_store::Change::new(
                    "edit",
                    vec![(
                        day(4),
                        Entry::Edit {
                            target: s1[0],
                            event: game(0, 1, Outcome::Loss),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
        assert_caches_fresh(&store);
        let before_delete = store.ladder().unwrap();
        store
            .commit(
                &rungs_store::Change::new(
                    "delete",
                    vec![(day(4), Entry::Delete { target: s1[0] })],
                )
                .unwrap(),
            )
            .unwrap();
        assert_caches_fresh(&store);
        assert_eq!(store.ladder().unwrap().players[0].matches, 1);
        // Undo brings the deleted match back, redo removes it again.
        assert_eq!(store.undo().unwrap().label, "delete");
        assert_caches_fresh(&store);
        assert_eq!(store.ladder().unwrap(), before_delete);
        store.redo().unwrap();
        assert_caches_fresh(&store);
        assert_eq!(store.ladder().unwrap().players[0].matches, 1);
        // Undo everything: an empty ladder again.
        while store.undo().is_ok() {}
        assert_caches_fresh(&store);
        assert!(store.ladder().unwrap().players.is_empty());
    }
}

#[test]
fn undo_survives_reopening_the_file() {
    let dir = tempdir::Dir::new("reopen");
    let path = dir.path().join("club.rungs");
    {
        let mut store = Store::create(&path, &Rules::default()).unwrap();
        store
            .commit(
                &rungs_store::Change::new(
                    "players",
                    vec![(day(1), player(0, "Ann")), (day(1), player(1, "Bo"))],
                )
                .unwrap(),
            )
            .unwrap();
        store
            .commit(
                &rungs_store::Change::new(
                    "match",
                    vec![(
                        day(2),
                        Entry::Add {
                            event: game(0, 1, Outcome::Win),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
        store.undo().unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.ladder().unwrap().players[0].matches, 0);
    assert_eq!(store.redo().unwrap().label, "match");
    assert_eq!(store.ladder().unwrap().players[0].matches, 1);
    // A new action clears what could be redone.
    store.undo().unwrap();
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(
                    day(3),
                    Entry::Add {
                        event: game(1, 0, Outcome::Win),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    assert!(store.redo().is_err());
    assert_caches_fresh(&store);
}

#[test]
fn a_bad_event_changes_nothing() {
    let dir = tempdir::Dir::new("bad");
    let mut store = new_store(&dir, System::Skyweaver);
    store
        .commit(
            &rungs_store::Change::new(
                "players",
                vec![(day(5), player(0, "Ann")), (day(5), player(1, "Bo"))],
            )
            .unwrap(),
        )
        .unwrap();
    let before = store.export_log().unwrap();
    // A match before the players joined.
    let e = store
        .commit(
            &rungs_store::Change::new(
                "early",
                vec![(
                    day(1),
                    Entry::Add {
                        event: game(0, 1, Outcome::Win),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap_err();
    assert!(e.to_string().contains("has not joined"), "{e}");
    // A match with an unknown player, appended at the end.
    let e = store
        .commit(
            &rungs_store::Change::new(
                "ghost",
                vec![(
                    day(6),
                    Entry::Add {
                        event: game(0, 7, Outcome::Win),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap_err();
    assert!(e.to_string().contains("player #7"), "{e}");
    assert_eq!(store.export_log().unwrap(), before);
    assert_caches_fresh(&store);
}

/// A later id may join before an earlier one in replay order (ids follow entry order, joins
/// follow dates): replay holds the earlier ids as placeholders until they join, and the caches
/// hold what the replay does.
#[test]
fn a_later_id_joining_first_is_cached_like_the_replay() {
    let dir = tempdir::Dir::new("gap");
    let mut store = new_store(&dir, System::Elo);
    store
        .commit(&rungs_store::Change::new("Ann", vec![(day(5), player(0, "Ann"))]).unwrap())
        .unwrap();
    store
        .commit(&rungs_store::Change::new("Di", vec![(day(6), player(1, "Di"))]).unwrap())
        .unwrap();
    // Bo, entered third, joined first.
    store
        .commit(&rungs_store::Change::new("Bo early", vec![(day(1), player(2, "Bo"))]).unwrap())
        .unwrap();
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(
                    day(7),
                    Entry::Add {
                        event: game(2, 0, Outcome::Win),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    assert_caches_fresh(&store);
    let ladder = store.ladder().unwrap();
    let names: Vec<&str> = ladder.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Di", "Bo"]);
    assert!(ladder.players.iter().all(|p| p.joined));
    // Elo K = 32 between equals: Bo +16, Ann −16.
    assert_eq!(ladder.players[2].figures().rating, 1516.0);
    assert_eq!(ladder.players[0].figures().rating, 1484.0);
}

/// A change that gives a new player an id beyond the next one, or names a player id the
/// ladder does not hold, is refused before anything is allocated for it, and nothing changes.
#[test]
fn ids_beyond_the_players_held_are_refused() {
    let dir = tempdir::Dir::new("ids");
    let mut store = new_store(&dir, System::Elo);
    store
        .commit(&rungs_store::Change::new("Ann", vec![(day(5), player(0, "Ann"))]).unwrap())
        .unwrap();
    let before = store.export_log().unwrap();
    let e = store
        .commit(&rungs_store::Change::new("skip", vec![(day(5), player(3, "Di"))]).unwrap())
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("new player id 3, skipping ids (the next new player is #1)"),
        "{e}"
    );
    let e = store
        .commit(&rungs_store::Change::new("huge", vec![(day(5), player(u32::MAX, "Zed"))]).unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("new player id 4294967295"), "{e}");
    let e = store
        .commit(
            &rungs_store::Change::new(
                "ghost",
                vec![(
                    day(6),
                    Entry::Add {
                        event: game(0, 4_000_000_000, Outcome::Win),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("player #4000000000, who is not on the ladder (1 players)"),
        "{e}"
    );
    assert_eq!(store.export_log().unwrap(), before);
    assert_caches_fresh(&store);
}

/// A recomputation cancelled from another thread lands nothing: a backdated edit, an undo,
/// and a replaying preview each stop with `Cancelled` and leave the file as it was; the
/// progress they report only rises.
#[test]
fn a_cancelled_recomputation_changes_nothing() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let dir = tempdir::Dir::new("cancel");
    let mut store = new_store(&dir, System::Skyweaver);
    store
        .commit(
            &rungs_store::Change::new(
                "players",
                vec![(day(1), player(0, "Ann")), (day(1), player(1, "Bo"))],
            )
            .unwrap(),
        )
        .unwrap();
    let seqs = store
        .commit(
            &rungs_store::Change::new(
                "two matches",
                vec![
                    (
                        day(2),
                        Entry::Add {
                            event: game(0, 1, Outcome::Win),
                        },
                    ),
                    (
                        day(3),
                        Entry::Add {
                            event: game(0, 1, Outcome::Loss),
                        },
                    ),
                ],
            )
            .unwrap(),
        )
        .unwrap();
    let before = store.effective().unwrap();
    let (cancel, permille) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    store.watch(cancel.clone(), permille.clone());
    let edit = [(
        day(2),
        Entry::Edit {
            target: seqs[0],
            event: game(0, 1, Outcome::Draw),
        },
    )];
    // Not cancelled: the stages report as they finish, and the edit lands.
    store
        .commit(&rungs_store::Change::new("edit", edit.to_vec()).unwrap())
        .unwrap();
    assert!(permille.load(Ordering::Relaxed) >= 750);
    store.undo().unwrap();
    assert_eq!(store.effective().unwrap(), before);
    cancel.store(true, Ordering::Relaxed);
    let after_undo = store.export_log().unwrap();
    for attempt in [
        store
            .commit(&rungs_store::Change::new("edit", edit.to_vec()).unwrap())
            .map(|_| ()),
        store.undo().map(|_| ()),
        store.redo().map(|_| ()),
        store.preview(&edit).map(|_| ()),
    ] {
        let e = attempt.unwrap_err();
        assert!(matches!(e, rungs_store::StoreError::Cancelled), "{e}");
        assert_eq!(e.to_string(), "cancelled; the ladder is unchanged");
    }
    assert_eq!(store.export_log().unwrap(), after_undo);
    assert_caches_fresh(&store);
    // An append at the end needs no recomputation and still lands.
    let appended = [(
        day(9),
        Entry::Add {
            event: game(1, 0, Outcome::Win),
        },
    )];
    let (now, after) = store.preview(&appended).unwrap();
    assert_eq!(after.players[1].wins, now.players[1].wins + 1);
}

/// Caches an older rungs wrote (the format 2 fixture) lack the match and draw counts, the
/// Grandweaver slots and the medal squares this rungs keeps. Read-only they read as they are
/// and check sound (the missing counts are not held against them); opened writable they are
/// rebuilt from the log at once (a file from before the guard), and a change then leaves
/// caches exactly a fresh replay's.
#[test]
fn an_older_rungs_caches_are_replayed_at_the_first_change() {
    let dir = tempdir::Dir::new("older-caches");
    let path = dir.path().join("old.rungs");
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/format2.rungs");
    std::fs::copy(fixture, &path).unwrap();
    let mut store = Store::open(&path).unwrap();
    let before = store.ladder().unwrap();
    // The older rungs kept no counts; opened writable, its caches were rebuilt from the log
    // at once (a file from before the guard), so they are known: 5 played, 2 drawn.
    assert_eq!(
        before.results.map(|r| (r.played, r.drawn)),
        Some((5, 2)),
        "rebuilt when opened"
    );
    assert!(Store::check(&path).unwrap().is_sound());
    let last = before.last_date.unwrap();
    let (a, b) = {
        let mut ids =
            (0..before.players.len() as PlayerId).filter(|&i| before.players[i as usize].joined);
        (ids.next().unwrap(), ids.next().unwrap())
    };
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(
                    last,
                    Entry::Add {
                        event: game(a, b, Outcome::Draw),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    let after = store.ladder().unwrap();
    assert!(
        after.results.is_some_and(|r| r.played > 0 && r.drawn > 0),
        "{:?}",
        after.results
    );
    assert_caches_fresh(&store);
    assert!(Store::check(&path).unwrap().is_sound());
}
