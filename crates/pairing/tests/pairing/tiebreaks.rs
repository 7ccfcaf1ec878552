//! FIDE tie-breaks (C.07) on a hand-worked event of six players and four rounds with a
//! pairing-allocated bye, a requested half-point bye and a forfeit; the arithmetic is
//! beside each value.

use rungs_pairing::crosstable::crosstable;
use rungs_pairing::dutch::{Colour, Outcome, Player};
use rungs_pairing::tiebreaks::{TieBreak, dp, standings, value};

use Colour::{Black, White};

fn game(opponent: usize, colour: Colour, score: u32) -> Outcome {
    Outcome::Played {
        opponent,
        colour,
        score,
    }
}

/// A 2000, B 1900, C 1800, D 1700, E 1600, F 1500 (indices 0–5).
///
/// | round | games (white first)          | not playing                       |
/// |-------|------------------------------|-----------------------------------|
/// | 1     | A 1–0 D, B ½–½ E, C 0–1 F    |                                   |
/// | 2     | B ½–½ A, D 1–0 F             | C half-point bye, E the PAB (1)   |
/// | 3     | A 1–0 F, D 0–1 B, C +:− E    | (C wins by forfeit: unplayed)     |
/// | 4     | C 0–1 A, B 1–0 F, E ½–½ D    |                                   |
///
/// Points: A 3½, B 3, E 2, C 1½, D 1½, F 1. Adjusted scores (unplayed rounds as draws):
/// A 3½, B 3, C 0+½+½+0 = 1, D 1½, E ½+½+½+½ = 2, F 1.
fn event() -> Vec<Player> {
    let p = |name: &str, rating: u32, rounds: Vec<Outcome>| Player {
        name: name.into(),
        rating,
        rounds,
    };
    vec![
        p(
            "A",
            2000,
            vec![
                game(3, White, 2),
                game(1, Black, 1),
                game(5, White, 2),
                game(2, Black, 2),
            ],
        ),
        p(
            "B",
            1900,
            vec![
                game(4, White, 1),
                game(0, White, 1),
                game(3, Black, 2),
                game(5, White, 2),
            ],
        ),
        p(
            "C",
            1800,
            vec![
                game(5, White, 0),
                Outcome::Absent { score: 1 },
                Outcome::Forfeit {
                    opponent: 4,
                    colour: White,
                    won: true,
                },
                game(0, White, 0),
            ],
        ),
        p(
            "D",
            1700,
            vec![
                game(0, Black, 0),
                game(5, White, 2),
                game(1, White, 0),
                game(4, Black, 1),
            ],
        ),
        p(
            "E",
            1600,
            vec![
                game(1, Black, 1),
                Outcome::PairingBye { score: 2 },
                Outcome::Forfeit {
                    opponent: 2,
                    colour: Black,
                    won: false,
                },
                game(3, White, 1),
            ],
        ),
        p(
            "F",
            1500,
            vec![
                game(2, Black, 2),
                game(3, Black, 0),
                game(0, Black, 0),
                game(1, Black, 0),
            ],
        ),
    ]
}

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const F: usize = 5;

#[test]
fn buchholz_counts_opponents_adjusted_and_a_dummy_for_unplayed_rounds() {
    let ev = event();
    // A: D 1½ + B 3 + F 1 + C 1 (adjusted: its bye and forfeit count as draws) = 6½.
    assert_eq!(value(&ev, A, TieBreak::Buchholz), 6.5);
    // C: F 1 + dummy 1½ (own score, the half-point bye) + dummy 1½ (the forfeit) + A 3½.
    assert_eq!(value(&ev, C, TieBreak::Buchholz), 7.5);
    // E: B 3 + dummy 2 (the PAB) + dummy 2 (forfeit lost) + D 1½ = 8½.
    assert_eq!(value(&ev, E, TieBreak::Buchholz), 8.5);
    // D: A 3½ + F 1 + B 3 + E 2 = 9½.
    assert_eq!(value(&ev, D, TieBreak::Buchholz), 9.5);
}

#[test]
fn cut_one_drops_an_unplayed_round_first_and_median_drops_both_ends() {
    let ev = event();
    // A has no unplayed round: 6½ − the lowest (1) = 5½.
    assert_eq!(value(&ev, A, TieBreak::BuchholzCut1), 5.5);
    // C: the cut takes a dummy (1½), not F's 1: 7½ − 1½ = 6.
    assert_eq!(value(&ev, C, TieBreak::BuchholzCut1), 6.0);
    // E: 8½ − a dummy 2 = 6½ (D's 1½ stays).
    assert_eq!(value(&ev, E, TieBreak::BuchholzCut1), 6.5);
    // Median: A's values 1½, 3, 1, 1 without the lowest (1) and the highest (3): 2½.
    assert_eq!(value(&ev, A, TieBreak::BuchholzMedian1), 2.5);
}

#[test]
fn sonneborn_berger_weighs_each_opponent_by_the_points_taken() {
    let ev = event();
    // A: D 1½×1 + B 3×½ + F 1×1 + C 1×1 = 1½ + 1½ + 1 + 1 = 5.
    assert_eq!(value(&ev, A, TieBreak::SonnebornBerger), 5.0);
    // B: E 2×½ + A 3½×½ + D 1½×1 + F 1×1 = 1 + 1¾ + 1½ + 1 = 5¼.
    assert_eq!(value(&ev, B, TieBreak::SonnebornBerger), 5.25);
    // C: F 1×0 + dummy 1½×½ (half-point bye) + dummy 1½×1 (forfeit win) + A×0 = 2¼.
    assert_eq!(value(&ev, C, TieBreak::SonnebornBerger), 2.25);
    // E: B 3×½ + dummy 2×1 (PAB) + dummy 2×0 (forfeit lost) + D 1½×½ = 1½ + 2 + ¾ = 4¼.
    assert_eq!(value(&ev, E, TieBreak::SonnebornBerger), 4.25);
}

#[test]
fn wins_games_won_black_games_and_progressive_score() {
    let ev = event();
    // A won rounds 1, 3, 4 over the board.
    assert_eq!(value(&ev, A, TieBreak::Wins), 3.0);
    assert_eq!(value(&ev, A, TieBreak::GamesWon), 3.0);
    // C's only win is the forfeit; E's only full point is the PAB: WIN counts them, GWN not.
    assert_eq!(value(&ev, C, TieBreak::Wins), 1.0);
    assert_eq!(value(&ev, C, TieBreak::GamesWon), 0.0);
    assert_eq!(value(&ev, E, TieBreak::Wins), 1.0);
    assert_eq!(value(&ev, E, TieBreak::GamesWon), 0.0);
    // A had black in rounds 2 and 4; E in round 1 only, its forfeit as black in round 3
    // not being a game.
    assert_eq!(value(&ev, A, TieBreak::BlackGames), 2.0);
    assert_eq!(value(&ev, E, TieBreak::BlackGames), 1.0);
    // A: after each round 1, 1½, 2½, 3½ → 8½. C: 0, ½, 1½, 1½ → 3½.
    assert_eq!(value(&ev, A, TieBreak::Progressive), 8.5);
    assert_eq!(value(&ev, C, TieBreak::Progressive), 3.5);
}

#[test]
fn average_rating_and_performance_count_games_played_only() {
    let ev = event();
    // A met D 1700, B 1900, F 1500, C 1800: 6900 / 4 = 1725.
    assert_eq!(value(&ev, A, TieBreak::AverageRatingOfOpponents), 1725.0);
    // A scored 3½ of 4 = 0.875 → 0.88 → dp 336: 1725 + 336 = 2061.
    assert_eq!(value(&ev, A, TieBreak::PerformanceRating), 2061.0);
    // C played F 1500 and A 2000 (the forfeit is not a game): 1750; 0 of 2 → −800: 950.
    assert_eq!(value(&ev, C, TieBreak::AverageRatingOfOpponents), 1750.0);
    assert_eq!(value(&ev, C, TieBreak::PerformanceRating), 950.0);
    assert_eq!(
        (dp(50), dp(75), dp(100), dp(0), dp(25)),
        (0, 193, 800, -800, -193)
    );
}

#[test]
fn standings_rank_by_points_then_the_tie_breaks_in_order() {
    let ev = event();
    let table = standings(&ev, &TieBreak::SWISS_DEFAULT);
    let order: Vec<(usize, usize)> = table.iter().map(|s| (s.player, s.rank)).collect();
    // C and D share 1½: BH-C1 C 6 against D 9½ − 1 = 8½, so D first.
    assert_eq!(order, vec![(A, 1), (B, 2), (E, 3), (D, 4), (C, 5), (F, 6)]);
    assert_eq!(table[3].values, vec![8.5, 9.5, 0.0, 1.0]);
}

#[test]
fn direct_encounter_separates_tied_players_who_met() {
    // X 1–0 Y and Z 0–1 W, then Z 1–0 X and Y 1–0 W: all four on 1 point, but X–W and
    // Y–Z never met, so DE separates nobody (0 each) and all share first place.
    let p = |name: &str, rounds: Vec<Outcome>| Player {
        name: name.into(),
        rating: 1500,
        rounds,
    };
    let (x, y, z, w) = (0, 1, 2, 3);
    let ev = vec![
        p("X", vec![game(y, White, 2), game(z, Black, 0)]),
        p("Y", vec![game(x, Black, 0), game(w, White, 2)]),
        p("Z", vec![game(w, White, 0), game(x, White, 2)]),
        p("W", vec![game(z, Black, 2), game(y, Black, 0)]),
    ];
    let table = standings(&ev, &[TieBreak::DirectEncounter]);
    assert!(table.iter().all(|s| s.values == vec![0.0] && s.rank == 1));
    // X 1–0 Y and Z ½–½ W, then Z 1–0 X and Y 1–0 W: Z 1½, X 1, Y 1, W ½. X and Y are the
    // only two tied and they met: DE X 1 (the win), Y 0.
    let ev = vec![
        p("X", vec![game(1, White, 2), game(2, Black, 0)]),
        p("Y", vec![game(0, Black, 0), game(3, White, 2)]),
        p("Z", vec![game(3, Black, 1), game(0, White, 2)]),
        p("W", vec![game(2, White, 1), game(1, Black, 0)]),
    ];
    let table = standings(&ev, &[TieBreak::DirectEncounter]);
    let order: Vec<(usize, usize, Vec<f64>)> = table
        .iter()
        .map(|s| (s.player, s.rank, s.values.clone()))
        .collect();
    assert_eq!(
        order,
        vec![
            (2, 1, vec![0.0]),
            (0, 2, vec![1.0]),
            (1, 3, vec![0.0]),
            (3, 4, vec![0.0])
        ]
    );
}

#[test]
fn the_crosstable_names_opponents_by_their_place() {
    let table = crosstable(&event(), &TieBreak::SWISS_DEFAULT);
    let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "E", "D", "C", "F"]);
    let cells =
        |k: usize| -> Vec<String> { table.rows[k].cells.iter().map(|c| c.text()).collect() };
    // A: D (4th) with white won, B (2nd) with black drawn, F (6th) won, C (5th) won.
    assert_eq!(cells(0), ["4w1", "2b½", "6w1", "5b1"]);
    // E: the draw with B, the pairing-allocated bye, the forfeit lost to C, the draw with D.
    assert_eq!(cells(2), ["2b½", "bye", "5b−", "4w½"]);
    // C: lost to F, a requested half-point bye, the forfeit won against E, lost to A.
    assert_eq!(cells(4), ["6w0", "½", "3w+", "1w0"]);
    assert_eq!((table.rows[4].points, table.rows[4].place), (1.5, 5));
    assert_eq!(table.rows[3].tiebreaks, vec![8.5, 9.5, 0.0, 1.0]);
}
