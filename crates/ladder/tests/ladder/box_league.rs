//! Box leagues, hand-computed: March 2026, thirteen players (ids 0–12) in three boxes —
//! [0 1 2 3], [4 5 6 7], [8 9 10 11 12] (boxes of four, the last one larger) — the same
//! results read under each points scheme, every table worked out beside it.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::formats::box_points::{BoxMatch, TieValue, shares};
use rungs_ladder::formats::boxes::{BoxLeague, Move, fill_boxes};
use rungs_ladder::formats::refusal::Refusal;
use rungs_ladder::formats::settings::{BoxPeriodRecord, BoxSettings, PointsScheme, TieBreak};
use rungs_ladder::values::PlayerName;
use rungs_rating::Outcome;

fn march(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// A match with its games; the side with more games won.
fn games(a: PlayerId, b: PlayerId, ga: u32, gb: u32) -> Event {
    let result = MatchResult::Played(if ga > gb { Outcome::Win } else { Outcome::Loss });
    let mut m = Match::new(a, b, result);
    m.goals = Some([ga, gb]);
    Event::Match(m)
}

fn settings(points: PointsScheme) -> BoxSettings {
    BoxSettings {
        box_size: 4,
        up: 1,
        down: 1,
        min_matches: Some(2),
        points,
        ..BoxSettings::default()
    }
}

/// The month: the period, then every result (4 v 5 and 8 v 9 never played).
fn month(points: PointsScheme) -> BoxLeague {
    let mut log: Vec<(NaiveDate, Event)> = (0..13)
        .map(|id| {
            let name = PlayerName::parse(&format!("P{id}")).unwrap();
            (
                march(1),
                Event::Player {
                    id,
                    name,
                    undated: false,
                },
            )
        })
        .collect();
    log.push((
        march(1),
        Event::BoxPeriod {
            period: Box::new(BoxPeriodRecord {
                number: 1,
                start: march(1),
                end: march(31),
                settings: settings(points),
                boxes: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9, 10, 11, 12]],
            }),
        },
    ));
    let results = [
        // Box 1
        games(0, 1, 3, 2),
        games(0, 2, 3, 2),
        games(0, 3, 1, 3),
        games(1, 2, 3, 1),
        games(1, 3, 2, 3),
        games(2, 3, 0, 3),
        // Box 2
        games(4, 6, 3, 2),
        games(4, 7, 3, 2),
        games(5, 6, 3, 0),
        games(5, 7, 2, 3),
        games(6, 7, 0, 3),
        // Box 3
        games(8, 10, 3, 0),
        games(8, 11, 1, 3),
        games(9, 10, 3, 1),
        games(9, 11, 2, 3),
        games(10, 11, 0, 3),
        games(10, 12, 3, 0),
    ];
    for (i, e) in results.into_iter().enumerate() {
        log.push((march(2 + i as u32), e));
    }
    BoxLeague::from_log(log.iter().map(|(d, e)| (*d, e)))
}

fn no_rating(_: PlayerId) -> Option<f64> {
    None
}

/// Each box's order and points.
fn tables(league: &BoxLeague) -> Vec<Vec<(PlayerId, u32)>> {
    league
        .tables(&no_rating)
        .iter()
        .map(|t| t.rows.iter().map(|r| (r.player, r.tally.points)).collect())
        .collect()
}

#[test]
fn one_match_scores_under_each_scheme() {
    let m = |result, games| BoxMatch {
        a: 1,
        b: 2,
        result,
        games,
    };
    let win = MatchResult::Played(Outcome::Win);
    let pts = |scheme: &PointsScheme, m: &BoxMatch| {
        shares(scheme, [6, 0], m).map(|[a, b]| [a.points, b.points])
    };
    let hf = PointsScheme::highfield();
    assert_eq!(pts(&hf, &m(win, Some([3, 0]))), Some([7, 1]));
    assert_eq!(pts(&hf, &m(win, Some([3, 1]))), Some([6, 2]));
    assert_eq!(pts(&hf, &m(win, Some([3, 2]))), Some([5, 3]));
    // No games, or a score the table lacks: the narrowest win, 3-2.
    assert_eq!(pts(&hf, &m(win, None)), Some([5, 3]));
    assert_eq!(pts(&hf, &m(win, Some([2, 0]))), Some([5, 3]));
    // B won 3-1, entered from A's side.
    let loss = MatchResult::Played(Outcome::Loss);
    assert_eq!(pts(&hf, &m(loss, Some([1, 3]))), Some([2, 6]));
    // Parts: 1 for playing + 1 a game + 1 for the match: 3-1 gives 1+3+1 = 5 and 1+1 = 2.
    assert_eq!(
        pts(&PointsScheme::parts(), &m(win, Some([3, 1]))),
        Some([5, 2])
    );
    let wdl = PointsScheme::win_draw_loss();
    assert_eq!(pts(&wdl, &m(win, None)), Some([3, 0]));
    let draw = MatchResult::Played(Outcome::Draw);
    assert_eq!(pts(&wdl, &m(draw, None)), Some([1, 1]));
    // A walkover: B gave it, A takes 6; A played, B did not.
    let wo = shares(&hf, [6, 0], &m(MatchResult::ForfeitB, None)).unwrap();
    assert_eq!([wo[0].points, wo[1].points], [6, 0]);
    assert_eq!([wo[0].played, wo[1].played], [true, false]);
    assert_eq!(shares(&hf, [6, 0], &m(MatchResult::Cancelled, None)), None);
}

#[test]
fn game_score_month_ties_broken_by_head_to_head_matches_won_and_games_lost() {
    // Highfield: 3-0 7–1, 3-1 6–2, 3-2 5–3.
    // Box 1: 0 = 5 (3-2 v 1) + 5 (3-2 v 2) + 2 (1-3 v 3) = 12; 1 = 3 + 6 (3-1 v 2) + 3 (2-3 v 3)
    //   = 12; 2 = 3 + 2 + 1 = 6; 3 = 6 + 5 + 7 = 18. 0 and 1 tie on 12: head-to-head 0 took 5
    //   from their match, 1 took 3, so 0 is second.
    // Box 2: 4 = 5 + 5 = 10 (won 2); 5 = 7 + 3 = 10 (won 1); 6 = 3 + 1 + 1 = 5; 7 = 3 + 5 + 7
    //   = 15. 4 and 5 never played: head-to-head 0–0, then matches won 2 > 1.
    // Box 3: 8 = 7 + 2 = 9 (won 1, games lost 0 + 3 = 3); 9 = 6 + 3 = 9 (won 1, lost 1 + 3 = 4);
    //   10 = 1 + 2 + 1 + 7 = 11; 11 = 6 + 5 + 7 = 18; 12 = 1. 8 and 9: head-to-head 0–0, won
    //   1–1, games lost 3 < 4.
    let league = month(PointsScheme::highfield());
    assert_eq!(
        tables(&league),
        [
            vec![(3, 18), (0, 12), (1, 12), (2, 6)],
            vec![(7, 15), (4, 10), (5, 10), (6, 5)],
            vec![(11, 18), (10, 11), (8, 9), (9, 9), (12, 1)],
        ]
    );
    // Every tie-break shown: points, head-to-head (only where it was worked out), matches
    // won, games lost, rating.
    let t = league.tables(&no_rating);
    let w = TieValue::Whole;
    assert_eq!(
        t[0].rows[1].tie_values,
        [
            Some(w(12)),
            Some(w(5)),
            Some(w(2)),
            Some(w(2 + 2 + 3)),
            Some(TieValue::Rating(None))
        ]
    );
    assert_eq!(t[0].rows[0].tie_values[1], None, "3 was never tied");
    assert_eq!(t[1].rows[1].tie_values[1], Some(w(0)));
    assert_eq!(t[2].rows[2].tie_values[3], Some(w(3)));
    assert_eq!(t[2].rows[3].tie_values[3], Some(w(4)));
}

#[test]
fn parts_month_orders_by_points_alone() {
    // 1 for playing, 1 a game, 1 for the match: a 3-2 win is 5 and 3, 3-1 5 and 2, 3-0 5 and 1.
    // Box 1: 0 = 5 + 5 + 2 = 12; 1 = 3 + 5 + 3 = 11; 2 = 3 + 2 + 1 = 6; 3 = 5 + 5 + 5 = 15.
    // Box 2: 4 = 5 + 5 = 10; 5 = 5 + 3 = 8; 6 = 3 + 1 + 1 = 5; 7 = 3 + 5 + 5 = 13.
    // Box 3: 8 = 5 + 2 = 7; 9 = 5 + 3 = 8; 10 = 1 + 2 + 1 + 5 = 9; 11 = 5 + 5 + 5 = 15; 12 = 1.
    assert_eq!(
        tables(&month(PointsScheme::parts())),
        [
            vec![(3, 15), (0, 12), (1, 11), (2, 6)],
            vec![(7, 13), (4, 10), (5, 8), (6, 5)],
            vec![(11, 15), (10, 9), (9, 8), (8, 7), (12, 1)],
        ]
    );
}

#[test]
fn win_draw_loss_month_breaks_a_three_way_tie_by_head_to_head_then_games_lost() {
    // 3 a win. Box 2: 4 and 7 both won twice (6); 4 beat 7, so 4 first.
    // Box 3: 8, 9 and 10 won once each (3). Among the three: 8 beat 10, 9 beat 10 — head-to-head
    //   3, 3, 0; 8 and 9 still tie, won 1 each; games lost 3 (0 + 3) against 4 (1 + 3).
    let league = month(PointsScheme::win_draw_loss());
    assert_eq!(
        tables(&league),
        [
            vec![(3, 9), (0, 6), (1, 3), (2, 0)],
            vec![(4, 6), (7, 6), (5, 3), (6, 0)],
            vec![(11, 9), (8, 3), (9, 3), (10, 3), (12, 0)],
        ]
    );
    let t = league.tables(&no_rating);
    let h2h: Vec<_> = t[2].rows.iter().map(|r| r.tie_values[1]).collect();
    let w = |n| Some(TieValue::Whole(n));
    assert_eq!(h2h, [None, w(3), w(3), w(0), None]);
}

#[test]
fn a_tie_past_everything_else_goes_to_the_rating() {
    let mut league = month(PointsScheme::win_draw_loss());
    // A fresh period of one box under points then rating, with no matches yet: everyone on
    // 0 points, so the rating orders them.
    let period = BoxPeriodRecord {
        number: 2,
        start: march(1),
        end: march(31),
        settings: BoxSettings {
            tie_breaks: vec![TieBreak::Points, TieBreak::Rating],
            ..settings(PointsScheme::win_draw_loss())
        },
        boxes: vec![vec![0, 1, 2]],
    };
    league.read(
        march(31),
        &Event::BoxPeriod {
            period: Box::new(period),
        },
    );
    let rating = |p: PlayerId| [Some(1500.0), Some(1600.0), None][p as usize];
    let order: Vec<_> = league.tables(&rating)[0]
        .rows
        .iter()
        .map(|r| r.player)
        .collect();
    assert_eq!(order, [1, 0, 2], "1600, 1500, unrated");
}

#[test]
fn the_period_closes_with_promotions_relegations_and_a_removal() {
    // Highfield tables (above), up 1, down 1, minimum 2 matches:
    // box 1: 3 0 1 stay, 2 down; box 2: 7 up, 4 5 stay, 6 down; box 3: 11 up, 10 8 9 stay,
    // 12 played once (under 2) and leaves. New boxes, relegated first then stayers then
    // promoted: [3 0 1 7], [2 4 5 11], [6 10 8 9].
    let league = month(PointsScheme::highfield());
    let next = league
        .next_period(
            &no_rating,
            march(1) + chrono::Months::new(1),
            NaiveDate::from_ymd_opt(2026, 4, 30).unwrap(),
            None,
        )
        .unwrap();
    assert_eq!(
        next.record.boxes,
        [vec![3, 0, 1, 7], vec![2, 4, 5, 11], vec![6, 10, 8, 9]]
    );
    assert_eq!(next.record.number, 2);
    let moved = |p: PlayerId| next.moves.iter().find(|m| m.0 == p).map(|m| m.2);
    assert_eq!(moved(2), Some(Move::Down));
    assert_eq!(moved(7), Some(Move::Up));
    assert_eq!(moved(12), Some(Move::Out));
    assert_eq!(moved(4), Some(Move::Stay));
}

#[test]
fn who_still_has_to_play_whom() {
    let league = month(PointsScheme::highfield());
    let left: Vec<_> = league
        .still_to_play()
        .into_iter()
        .map(|s| s.pairs)
        .collect();
    // Box 3 of five has ten pairs; six were played, so 8–9, 8–12, 9–12 and 11–12 remain.
    assert_eq!(
        left,
        [
            vec![],
            vec![(4, 5)],
            vec![(8, 9), (8, 12), (9, 12), (11, 12)]
        ]
    );
}

#[test]
fn a_box_result_between_boxes_or_played_twice_is_refused() {
    let league = month(PointsScheme::highfield());
    let p = league.current().unwrap();
    assert_eq!(
        p.check_result(3, 4, march(20)),
        Err(Refusal::DifferentBoxes {
            a: 3,
            a_box: 1,
            b: 4,
            b_box: 2
        })
    );
    assert_eq!(
        p.check_result(0, 1, march(20)),
        Err(Refusal::AlreadyPlayed { a: 0, b: 1 })
    );
    assert!(matches!(
        p.check_result(4, 5, NaiveDate::from_ymd_opt(2026, 4, 1).unwrap()),
        Err(Refusal::OutsidePeriod { .. })
    ));
    assert_eq!(p.check_result(4, 5, march(31)), Ok(()));
}

#[test]
fn boxes_fill_with_the_last_one_larger_or_smaller_by_one() {
    let ids: Vec<PlayerId> = (0..16).collect();
    let sizes = |n: usize, s| {
        fill_boxes(&ids[..n], s)
            .iter()
            .map(Vec::len)
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes(15, 5), [5, 5, 5]);
    assert_eq!(sizes(16, 5), [5, 5, 6], "one over: the last box takes it");
    assert_eq!(sizes(14, 5), [5, 5, 4], "one short: the last box");
    assert_eq!(sizes(13, 5), [5, 4, 4], "three over: two boxes one short");
    assert_eq!(sizes(3, 5), [3]);
}

proptest! {
    /// Whatever results, withdrawals and joins come, the next period holds every player of
    /// this one but those who left, each once.
    #[test]
    fn no_player_is_lost_or_doubled_across_boxes(
        n in 4u32..40,
        size in 3u32..7,
        results in prop::collection::vec((0u32..40, 0u32..40, 0u32..4, 0u32..4), 0..80),
        withdrawn in prop::collection::vec(0u32..40, 0..4),
        min in prop::option::of(0u32..3),
    ) {
        let s = BoxSettings { box_size: size, min_matches: min, ..BoxSettings::default() };
        let ids: Vec<PlayerId> = (0..n).collect();
        let boxes = fill_boxes(&ids, size);
        let mut league = BoxLeague::default();
        league.read(march(1), &Event::BoxPeriod { period: Box::new(BoxPeriodRecord {
            number: 1, start: march(1), end: march(31), settings: s, boxes })});
        for w in withdrawn {
            league.read(march(2), &Event::BoxWithdraw { player: w % n, withdrawn: true });
        }
        for (a, b, ga, gb) in results {
            league.read(march(3), &games(a % n, b % n, ga, gb));
        }
        let next = league.next_period(&no_rating, march(1), march(31), None).unwrap();
        let mut got: Vec<PlayerId> = next.record.players().collect();
        got.sort_unstable();
        let mut want: Vec<PlayerId> = next.moves.iter().filter(|m| m.2 != Move::Out).map(|m| m.0).collect();
        want.sort_unstable();
        prop_assert_eq!(&got, &want);
        let mut all: Vec<PlayerId> = next.moves.iter().map(|m| m.0).collect();
        all.sort_unstable();
        prop_assert_eq!(all, ids);
        let mut dedup = got.clone();
        dedup.dedup();
        prop_assert_eq!(dedup, got);
    }
}

/// Following the seasons is left out of the stored rules when off, so a log written before
/// the setting reads as before (off) and is written byte for byte as it was; on, it is kept.
#[test]
fn following_the_seasons_is_stored_only_when_on() {
    let off = serde_json::to_value(BoxSettings::default()).unwrap();
    assert!(off.get("seasons").is_none(), "{off}");
    let read: BoxSettings = serde_json::from_value(off).unwrap();
    assert!(!read.seasons);
    let on = BoxSettings {
        seasons: true,
        ..BoxSettings::default()
    };
    let stored = serde_json::to_value(&on).unwrap();
    assert_eq!(stored["seasons"], true);
    assert_eq!(serde_json::from_value::<BoxSettings>(stored).unwrap(), on);
}
