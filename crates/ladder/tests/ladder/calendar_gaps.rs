//! Seasons in which nothing is entered: every season's reset applies, also with
//! nobody playing, and a long gap folds its empty seasons into one archive row and ends where
//! applying them one by one would.

use chrono::NaiveDate;
use rungs_ladder::calendar::{Calendar, EMPTY_SEASONS_APPLIED, SCHEDULED_SEQ, Schedule};
use rungs_ladder::event::{Event, Migration, MigrationEntry, OldRank, PlayerId};
use rungs_ladder::replay::{Ladder, replay};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::state::{HistoryRow, SeasonRanking};

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn join(id: PlayerId, name: &str) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
        undated: false,
    }
}

/// The Skyweaver white paper's weekly and monthly resets (a soft reset every Monday, a hard
/// reset at each month's first), one Grandweaver slot.
fn rules() -> Rules {
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.assign("grandweaver_count=1").unwrap();
    rules.calendar = Calendar::Scheduled(Schedule::default());
    rules
}

/// Ann and Bo join on Monday 2024-01-08 and are migrated on the 10th: Ann a Grandmaster (Elo
/// 2300, RP 1200: the one Grandweaver at the soft resets of 01-15, 22, 29), Bo a Scholar
/// (Elo 1700, RP 700). Then `more`, then Cy joins on `back` (an event that touches only Cy).
fn log(more: Vec<(NaiveDate, Event)>, back: NaiveDate) -> Vec<(NaiveDate, u64, Event)> {
    let migration = Migration {
        entries: vec![
            MigrationEntry {
                player: 0,
                elo: 2300.0,
                old_rank: OldRank::Grandmaster,
            },
            MigrationEntry {
                player: 1,
                elo: 1700.0,
                old_rank: OldRank::Scholar,
            },
        ],
    };
    let mut events = vec![
        (d(2024, 1, 8), join(0, "Ann")),
        (d(2024, 1, 8), join(1, "Bo")),
        (
            d(2024, 1, 10),
            Event::Migration {
                migration: Box::new(migration),
            },
        ),
    ];
    events.extend(more);
    events.push((back, join(2, "Cy")));
    (1..).zip(events).map(|(s, (d, e))| (d, s, e)).collect()
}

fn run(log: &[(NaiveDate, u64, Event)]) -> (Ladder, Vec<HistoryRow>) {
    replay(&rules(), log.iter().map(|(d, s, e)| (*d, *s, e))).unwrap()
}

/// A player's RP at each scheduled reset that changed it: (date, RP).
fn reset_rp(history: &[HistoryRow], id: PlayerId) -> Vec<(NaiveDate, f64)> {
    history
        .iter()
        .filter(|r| r.player == id && r.seq == SCHEDULED_SEQ)
        .map(|r| (r.date, r.figures.score))
        .collect()
}

#[test]
fn a_grandweaver_who_sits_out_four_monthly_seasons_comes_back_at_350() {
    let (ladder, history) = run(&log(Vec::new(), d(2024, 6, 20)));
    // The season ending Monday 02-05 (February's first) sends Ann, Grandweaver that season,
    // to 1000. Nothing is entered until 06-20, yet the seasons ending 03-04, 04-01, 05-06
    // and 06-03 each reset her by Table 1: Expert II (1000) → 700, Apprentice II → 500,
    // Trainee III → 400, Trainee II → 350.
    let ann = reset_rp(&history, 0);
    let hard: Vec<(NaiveDate, f64)> = ann
        .iter()
        .copied()
        .filter(|(date, _)| *date != d(2024, 1, 15))
        .collect();
    assert_eq!(
        hard,
        [
            (d(2024, 2, 5), 1000.0),
            (d(2024, 3, 4), 700.0),
            (d(2024, 4, 1), 500.0),
            (d(2024, 5, 6), 400.0),
            (d(2024, 6, 3), 350.0),
        ]
    );
    assert_eq!(ladder.players[0].rp, 350.0);
    // Bo, Apprentice II (700) in January: 500 on 02-05, then 400, 350, 300 (Trainee I's own
    // value). On 06-03 his reset changes nothing: no row.
    assert_eq!(
        reset_rp(&history, 1)
            .into_iter()
            .filter(|(date, _)| *date >= d(2024, 2, 5))
            .collect::<Vec<_>>(),
        [
            (d(2024, 2, 5), 500.0),
            (d(2024, 3, 4), 400.0),
            (d(2024, 4, 1), 350.0),
            (d(2024, 5, 6), 300.0),
        ]
    );
    assert_eq!(ladder.players[1].rp, 300.0);
    // Five seasons archived, one a month; the empty ones four or five Mondays long, each
    // ranking Ann by the tier she sat in every week.
    assert_eq!((ladder.season, ladder.archive.len()), (6, 5));
    let seasons: Vec<(u32, NaiveDate, u32, u32)> = ladder
        .archive
        .iter()
        .map(|s| (s.number, s.ended, s.weeks, s.folded))
        .collect();
    assert_eq!(
        seasons,
        [
            (1, d(2024, 2, 5), 4, 0),
            (2, d(2024, 3, 4), 4, 0),
            (3, d(2024, 4, 1), 4, 0),
            (4, d(2024, 5, 6), 5, 0),
            (5, d(2024, 6, 3), 4, 0),
        ]
    );
    let ann_seasons: Vec<(SeasonRanking, Vec<f64>, u32)> = ladder.archive[1..]
        .iter()
        .map(|s| {
            let e = &s.entries[0];
            (e.ranking, e.weekly_rp.to_vec(), e.matches)
        })
        .collect();
    assert_eq!(
        ann_seasons,
        [
            (SeasonRanking::Tier(Tier::ExpertII), vec![1000.0; 4], 0),
            (SeasonRanking::Tier(Tier::ApprenticeII), vec![700.0; 4], 0),
            (SeasonRanking::Tier(Tier::TraineeIII), vec![500.0; 5], 0),
            (SeasonRanking::Tier(Tier::TraineeII), vec![400.0; 4], 0),
        ]
    );
    assert_eq!(
        ladder.archive[0].entries[0].peak_tier,
        Some(Tier::Grandweaver)
    );
}

#[test]
fn a_long_gap_folds_its_empty_seasons_and_ends_where_season_by_season_would() {
    // Cy joins on 2031-06-20: the season ending 2024-02-05, eight empty ones applied one by
    // one (ending 03-04 … 10-07), then one row for the seasons ending 2024-11-04 … 2031-06-02
    // (the first Monday of June 2031): (2031·12 + 5) − (2024·12 + 9) = 80 seasons.
    let back = d(2031, 6, 20);
    let (folded, folded_history) = run(&log(Vec::new(), back));
    assert_eq!(folded.archive.len(), 1 + EMPTY_SEASONS_APPLIED as usize + 1);
    let last = folded.archive.last().unwrap();
    assert_eq!((last.number, last.folded, last.through()), (10, 79, 89));
    assert_eq!(last.ended, d(2031, 6, 2));
    assert_eq!(folded.season, 90);
    // Every week of the run at the fixed point: Ann and Bo at Trainee I's 300.
    assert_eq!(last.weeks as usize, last.entries[0].weekly_rp.len());
    assert!(last.entries[0].weekly_rp.iter().all(|rp| rp == 300.0));
    assert_eq!(last.entries[0].ranking, SeasonRanking::Tier(Tier::TraineeI));
    assert_eq!((folded.players[0].rp, folded.players[1].rp), (300.0, 300.0));

    // The same seasons, none of them empty: Di joins and is renamed in the middle of every
    // month (touching no one's figures), so each season applies on its own.
    let mut more = vec![(d(2024, 1, 8), join(3, "Di"))];
    let mut month = d(2024, 2, 15);
    let mut k = 0;
    while month < back {
        let name = if k % 2 == 0 { "Dee" } else { "Di" };
        more.push((
            month,
            Event::Rename {
                id: 3,
                name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            },
        ));
        month = month.checked_add_months(chrono::Months::new(1)).unwrap();
        k += 1;
    }
    let mut stepped_log = log(more, back);
    // Di joins with the others (id 3 before Cy's 2 in replay order: Cy joins last).
    stepped_log.sort_by_key(|(date, seq, _)| (*date, *seq));
    let (stepped, stepped_history) = run(&stepped_log);
    assert_eq!(stepped.archive.len(), 89);
    assert_eq!(stepped.season, folded.season);
    for id in [0, 1] {
        let (a, b) = (&folded.players[id], &stepped.players[id]);
        assert_eq!(
            (a.rp, a.skill, a.floor),
            (b.rp, b.skill, b.floor),
            "player {id}"
        );
        let rows = |h: &[HistoryRow]| -> Vec<HistoryRow> {
            h.iter()
                .filter(|r| r.player == id as PlayerId)
                .copied()
                .collect()
        };
        assert_eq!(rows(&folded_history), rows(&stepped_history), "player {id}");
    }
    // Each folded season is a season of the stepped ladder with the same entries.
    for season in &stepped.archive[9..] {
        let ann = &season.entries[0];
        assert_eq!(ann.ranking, last.entries[0].ranking);
        assert!(ann.weekly_rp.iter().all(|rp| rp == 300.0));
    }
    let weeks: u32 = stepped.archive[9..].iter().map(|s| s.weeks).sum();
    assert_eq!(weeks, last.weeks);
}

#[test]
fn nine_thousand_years_of_weekly_seasons_replay_as_a_handful() {
    // One event in 0001, one in 9000: 108,000 monthly seasons, ten archive rows.
    let events = [
        (d(1, 1, 1), 1, join(0, "Ann")),
        (d(9000, 12, 31), 2, join(1, "Bo")),
    ];
    let (ladder, history) = replay(&rules(), events.iter().map(|(d, s, e)| (*d, *s, e))).unwrap();
    assert_eq!(ladder.archive.len(), 10);
    // Seasons 1 … 9 one by one (ending on the first Mondays of February … October 0001),
    // then one row for the (9000·12 + 11) − (1·12 + 9) = 107,990 seasons ending after
    // October 0001 up to December 9000: seasons 10 … 107,999.
    assert_eq!(ladder.archive[9].through(), 107_999);
    assert_eq!(ladder.season, 108_000);
    // Ann, never rated, at Wanderer's 200 all along: not one reset changed her.
    assert_eq!(history.len(), 2);
}
