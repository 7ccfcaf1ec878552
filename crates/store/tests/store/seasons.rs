//! The season buttons and migration through the store: preview equals the applied result,
//! undo restores the standings exactly, Table 2 row by row, the archive of a season.

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::preview;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::seasons::{Cutoffs, Migration, MigrationEntry, OldRank, SeasonRanking};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings;
use rungs_rating::Outcome;
use rungs_store::Store;

use rungs_testkit as support;
use support::TempDir as Temp;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn add(event: Event) -> Entry {
    Entry::Add { event }
}

fn game(a: PlayerId, b: PlayerId, o: Outcome) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(o)))
}

fn standings_json(store: &Store) -> String {
    let ladder = store.ladder().unwrap();
    standings::to_json(&ladder, &standings::standings(&ladder)).to_string()
}

/// A small Skyweaver club with a Master and a Grandweaver, after a migration and some games.
fn club(dir: &Temp) -> Store {
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.assign("grandweaver_count=1").unwrap();
    let mut store = Store::create(&dir.0.join("club.rungs"), &rules).unwrap();
    let names = ["Ann", "Bo", "Cy", "Di"];
    let players: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (
                day(1),
                add(Event::Player {
                    id: i as PlayerId,
                    name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                    undated: false,
                }),
            )
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("players", players.to_vec()).unwrap())
        .unwrap();
    let migration = Migration {
        entries: vec![
            MigrationEntry {
                player: 0,
                elo: 2300.0,
                old_rank: OldRank::Grandmaster,
            },
            MigrationEntry {
                player: 1,
                elo: 2100.0,
                old_rank: OldRank::Grandmaster,
            },
            MigrationEntry {
                player: 2,
                elo: 1700.0,
                old_rank: OldRank::Scholar,
            },
        ],
    };
    store
        .commit(
            &rungs_store::Change::new(
                "migrate",
                vec![(
                    day(2),
                    add(Event::Migration {
                        migration: Box::new(migration),
                    }),
                )],
            )
            .unwrap(),
        )
        .unwrap();
    for (d, a, b) in [(3, 0, 1), (4, 0, 2), (5, 1, 3), (6, 0, 1)] {
        store
            .commit(
                &rungs_store::Change::new("match", vec![(day(d), add(game(a, b, Outcome::Win)))])
                    .unwrap(),
            )
            .unwrap();
    }
    store
}

#[test]
fn each_button_previews_what_it_then_does_and_undo_restores_it() {
    let dir = Temp::new("buttons");
    let mut store = club(&dir);
    let buttons = [
        ("soft reset", vec![(day(7), add(Event::SoftReset))]),
        ("hard reset", vec![(day(8), add(Event::HardReset))]),
        (
            "migrate",
            vec![(
                day(9),
                add(Event::Migration {
                    migration: Box::new(Migration {
                        entries: vec![MigrationEntry {
                            player: 3,
                            elo: 2050.0,
                            old_rank: Cutoffs::default().rank_of(2050.0),
                        }],
                    }),
                }),
            )],
        ),
    ];
    for (label, rows) in buttons {
        let before_json = standings_json(&store);
        let (before, after) = store.preview(&rows).unwrap();
        let previewed = standings::to_json(&after, &standings::standings(&after)).to_string();
        assert_eq!(
            standings_json(&store),
            before_json,
            "{label}: preview changed the ladder"
        );
        let changes = preview::changes(&before, &after);
        assert!(
            changes.iter().any(|c| c.moved()),
            "{label}: the preview moves nobody"
        );
        store
            .commit(&rungs_store::Change::new(label, rows.to_vec()).unwrap())
            .unwrap();
        assert_eq!(
            standings_json(&store),
            previewed,
            "{label}: applied differs from preview"
        );
        assert_eq!(
            store.ladder().unwrap(),
            after,
            "{label}: applied state differs from preview"
        );
        store.undo().unwrap();
        assert_eq!(
            standings_json(&store),
            before_json,
            "{label}: undo did not restore"
        );
        store.redo().unwrap();
        assert_eq!(
            standings_json(&store),
            previewed,
            "{label}: redo did not reapply"
        );
    }
}

/// Table 2, every row: r = Elo, RD = 350, RP by old rank, and the tier that RP gives.
#[test]
fn migration_follows_table_two_row_by_row() {
    let dir = Temp::new("table2");
    let mut store =
        Store::create(&dir.0.join("t.rungs"), &Rules::defaults(System::Skyweaver)).unwrap();
    let rows = [
        (OldRank::Grandmaster, 1200.0, Tier::Grandweaver),
        (OldRank::Master, 1100.0, Tier::ExpertIII),
        (OldRank::Prophet, 1000.0, Tier::ExpertII),
        (OldRank::Scholar, 700.0, Tier::ApprenticeII),
        (OldRank::Apprentice, 400.0, Tier::TraineeII),
        (OldRank::BelowApprentice, 200.0, Tier::Wanderer),
    ];
    let players: Vec<_> = rows
        .iter()
        .enumerate()
        .map(|(i, (r, ..))| {
            (
                day(1),
                add(Event::Player {
                    id: i as PlayerId,
                    name: rungs_ladder::values::PlayerName::parse(r.name()).unwrap(),
                    undated: false,
                }),
            )
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("players", players.to_vec()).unwrap())
        .unwrap();
    let entries = rows
        .iter()
        .enumerate()
        .map(|(i, (r, ..))| MigrationEntry {
            player: i as PlayerId,
            elo: 1400.0 + 100.0 * i as f64,
            old_rank: *r,
        })
        .collect();
    store
        .commit(
            &rungs_store::Change::new(
                "migrate",
                vec![(
                    day(2),
                    add(Event::Migration {
                        migration: Box::new(Migration { entries }),
                    }),
                )],
            )
            .unwrap(),
        )
        .unwrap();
    let ladder = store.ladder().unwrap();
    let table = standings::standings(&ladder);
    for (i, (rank, rp, tier)) in rows.iter().enumerate() {
        let p = &ladder.players[i];
        let Some(rungs_ladder::state::Skill::Glicko(r)) = Some(p.skill) else {
            panic!()
        };
        assert_eq!(
            (p.rp, r.rating, r.deviation),
            (*rp, 1400.0 + 100.0 * i as f64, 350.0),
            "{rank:?}"
        );
        let shown = table.iter().find(|s| s.id == i as PlayerId).unwrap().tier;
        assert_eq!(shown, Some(*tier), "{rank:?}");
    }
}

#[test]
fn cutoffs_give_old_ranks_from_elo() {
    let c = Cutoffs::parse("Grandmaster=2400, Master=2100").unwrap();
    assert_eq!(c.rank_of(2400.0), OldRank::Grandmaster);
    assert_eq!(c.rank_of(2399.9), OldRank::Master);
    assert_eq!(c.rank_of(2000.0), OldRank::Prophet);
    assert_eq!(c.rank_of(1600.0), OldRank::Scholar);
    assert_eq!(c.rank_of(1399.0), OldRank::BelowApprentice);
    assert!(
        Cutoffs::parse("Master=2500").is_err(),
        "Master above Grandmaster"
    );
    assert!(Cutoffs::parse("Wizard=1").is_err());
}

/// A season's archive: below Master the tier at season end, Master and up the mean of the
/// end-of-week RP; peak tier, matches and the weekly values.
#[test]
fn the_archive_keeps_each_season() {
    let dir = Temp::new("archive");
    let mut store = club(&dir);
    let week_end_rp = |store: &Store| {
        store
            .ladder()
            .unwrap()
            .players
            .iter()
            .map(|p| p.rp)
            .collect::<Vec<_>>()
    };
    let week1 = week_end_rp(&store);
    store
        .commit(&rungs_store::Change::new("soft", vec![(day(7), add(Event::SoftReset))]).unwrap())
        .unwrap();
    store
        .commit(
            &rungs_store::Change::new("match", vec![(day(8), add(game(1, 0, Outcome::Win)))])
                .unwrap(),
        )
        .unwrap();
    let week2 = week_end_rp(&store);
    store
        .commit(&rungs_store::Change::new("soft", vec![(day(14), add(Event::SoftReset))]).unwrap())
        .unwrap();
    store
        .commit(&rungs_store::Change::new("hard", vec![(day(28), add(Event::HardReset))]).unwrap())
        .unwrap();
    let ladder = store.ladder().unwrap();
    assert_eq!((ladder.season, ladder.week), (2, 1));
    let season = &ladder.archive[0];
    assert_eq!((season.number, season.ended, season.weeks), (1, day(28), 2));
    let ann = season.entries.iter().find(|e| e.name == "Ann").unwrap();
    assert_eq!(ann.weekly_rp, vec![week1[0], week2[0]]);
    assert_eq!(
        ann.ranking,
        SeasonRanking::AverageRp((week1[0] + week2[0]) / 2.0)
    );
    assert_eq!(ann.matches, 4);
    assert_eq!(ann.peak_tier, Some(Tier::Grandweaver));
    let di = season.entries.iter().find(|e| e.name == "Di").unwrap();
    assert_eq!(di.ranking, SeasonRanking::Tier(Tier::Wanderer));
    assert_eq!(di.matches, 1);
    // The new season starts counting afresh.
    assert!(
        ladder
            .players
            .iter()
            .all(|p| p.season_matches == 0 && p.season_weekly.is_empty())
    );
}

/// Memoir '44 through the ladder: a scenario's figures set by the organiser give the
/// Memoir '44 ranking's Appendix II row (Pegasus Bridge, A Allies wins 4–2: +11.53), and
/// without figures the ladder's own history is used once the scenario has one.
#[test]
fn memoir44_scenarios_from_overrides_and_from_history() {
    use rungs_ladder::scenarios::ScenarioOverride;
    let dir = Temp::new("memoir");
    let mut store =
        Store::create(&dir.0.join("m.rungs"), &Rules::defaults(System::Memoir44)).unwrap();
    store
        .commit(
            &rungs_store::Change::new(
                "players",
                vec![
                    (
                        day(1),
                        add(Event::Player {
                            id: 0,
                            name: rungs_ladder::values::PlayerName::parse("A").unwrap(),
                            undated: false,
                        }),
                    ),
                    (
                        day(1),
                        add(Event::Player {
                            id: 1,
                            name: rungs_ladder::values::PlayerName::parse("B").unwrap(),
                            undated: false,
                        }),
                    ),
                ],
            )
            .unwrap(),
        )
        .unwrap();
    let figures = ScenarioOverride {
        scenario: "Pegasus Bridge".into(),
        sides: ["Allies".into(), "Germans".into()],
        ratio: 0.66,
        averages: [3.4, 2.6],
    };
    store
        .commit(
            &rungs_store::Change::new(
                "figures",
                vec![(
                    day(1),
                    add(Event::Scenario {
                        figures: Box::new(figures),
                    }),
                )],
            )
            .unwrap(),
        )
        .unwrap();
    let m = |side: &str, medals: [f64; 2], o| {
        Event::Match(Match {
            a: 0.into(),
            b: 1.into(),
            result: MatchResult::Played(o),
            medals: Some(rungs_ladder::values::Medals::new(medals).unwrap()),
            scenario: Some("pegasus bridge".into()),
            side_a: Some(side.into()),
            home: None,
            goals: None,
            class: None,
            board: None,
        })
    };
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(day(2), add(m("Allies", [4.0, 2.0], Outcome::Win)))],
            )
            .unwrap(),
        )
        .unwrap();
    let ladder = store.ladder().unwrap();
    let ra = ladder.players[0].figures().rating;
    assert!((ra - 1511.53).abs() < 0.005, "{ra}");
    assert!((ladder.players[1].figures().rating - 1488.47).abs() < 0.005);

    // Omaha Beach has no figures: its first battle is plain Elo, the second uses its history
    // (one battle, won by the Germans as A, 6–3) with the prior of 10 balanced battles
    // (memoir44::PRIOR_BATTLES): the Germans' ratio (1 + 5)/(1 + 10) = 6/11, the medal margin
    // weighted 1/11 against averages of 6 (Germans) and 3 (Allies).
    let omaha = |side: &str, medals: [f64; 2], o| {
        Event::Match(Match {
            a: 0.into(),
            b: 1.into(),
            result: MatchResult::Played(o),
            medals: Some(rungs_ladder::values::Medals::new(medals).unwrap()),
            scenario: Some("Omaha Beach".into()),
            side_a: Some(side.into()),
            home: None,
            goals: None,
            class: None,
            board: None,
        })
    };
    let before = store.ladder().unwrap().players[0].figures().rating;
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(day(3), add(omaha("Germans", [6.0, 3.0], Outcome::Win)))],
            )
            .unwrap(),
        )
        .unwrap();
    let after_first = store.ladder().unwrap().players[0].figures().rating;
    let e = rungs_rating::elo::expected(before, 3000.0 - before);
    assert!(
        (after_first - (before + 32.0 * (1.0 - e))).abs() < 1e-9,
        "plain Elo first"
    );
    // Second battle, A as Germans again and winning 6–4. This test used to expect no change
    // (the raw ratio 1 gave pts = 64·(1 − 1) = 0), which Memoir '44's Skill ranking rules out:
    // "the winner should always make points, even if he is on the favored side". Now:
    //   pts = 64·(1 − 6/11) = 320/11 = 29.0909, bonus = 1 + (1/11)·0.1·(3 − 4) = 0.990909,
    //   ΔA = 29.0909·0.990909·(1 − E(A, B)) > 0.
    store
        .commit(
            &rungs_store::Change::new(
                "match",
                vec![(day(4), add(omaha("Germans", [6.0, 4.0], Outcome::Win)))],
            )
            .unwrap(),
        )
        .unwrap();
    let after_second = store.ladder().unwrap().players[0].figures().rating;
    let e = rungs_rating::elo::expected(after_first, 3000.0 - after_first);
    let delta = 320.0 / 11.0 * (1.0 - 0.1 / 11.0) * (1.0 - e);
    assert!(delta > 10.0, "{delta}");
    assert!(
        (after_second - (after_first + delta)).abs() < 1e-9,
        "{after_second} vs {after_first} + {delta}"
    );
}

/// Through the store: a Grandweaver slot held between weekly resets counts
/// at the hard reset, on the fast path that loads only a change's players (and the slots'
/// holders). N = 1; P and Q come in as Grandmasters (1200 RP, Elo 2000), P first by entry.
/// P beats x (P holds the slot); Q beats P and takes it — P, the last holder, falls, so the
/// change needs every player. The hard reset gives both the Grandweaver's 1000, and the
/// caches are what a replay of the log gives.
#[test]
fn a_grandweaver_slot_held_between_resets_counts_through_the_store() {
    let dir = Temp::new("slot-held");
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.assign("grandweaver_count=1").unwrap();
    let mut store = Store::create(&dir.0.join("slots.rungs"), &rules).unwrap();
    let players: Vec<_> = ["P", "Q", "x"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (
                day(1),
                add(Event::Player {
                    id: i as PlayerId,
                    name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                    undated: false,
                }),
            )
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("players", players.to_vec()).unwrap())
        .unwrap();
    let grandmaster = |player| MigrationEntry {
        player,
        elo: 2000.0,
        old_rank: OldRank::Grandmaster,
    };
    let migration = Migration {
        entries: vec![grandmaster(0), grandmaster(1)],
    };
    store
        .commit(
            &rungs_store::Change::new(
                "migrate",
                vec![(
                    day(2),
                    add(Event::Migration {
                        migration: Box::new(migration),
                    }),
                )],
            )
            .unwrap(),
        )
        .unwrap();
    let tiers = |store: &Store| {
        let ladder = store.ladder().unwrap();
        let mut t = vec![None; 3];
        for s in standings::standings(&ladder) {
            t[s.id as usize] = s.tier;
        }
        t
    };
    store
        .commit(
            &rungs_store::Change::new("match", vec![(day(3), add(game(0, 2, Outcome::Win)))])
                .unwrap(),
        )
        .unwrap();
    assert_eq!(
        tiers(&store)[..2],
        [Some(Tier::Grandweaver), Some(Tier::Master)]
    );
    store
        .commit(
            &rungs_store::Change::new("match", vec![(day(4), add(game(1, 0, Outcome::Win)))])
                .unwrap(),
        )
        .unwrap();
    assert_eq!(
        tiers(&store)[..2],
        [Some(Tier::Master), Some(Tier::Grandweaver)]
    );
    let ladder = store.ladder().unwrap();
    assert!(ladder.players[0].season_grandweaver && ladder.players[1].season_grandweaver);
    assert_eq!(ladder, store.replay(None).unwrap().0);
    store
        .commit(
            &rungs_store::Change::new("hard reset", vec![(day(5), add(Event::HardReset))]).unwrap(),
        )
        .unwrap();
    let ladder = store.ladder().unwrap();
    assert_eq!(
        [ladder.players[0].rp, ladder.players[1].rp],
        [1000.0, 1000.0]
    );
    assert_eq!(ladder, store.replay(None).unwrap().0);
}
