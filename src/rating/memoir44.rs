//! Memoir '44 Online "Skill" (seed 002): zero-sum Elo whose stake depends on how often A's
//! side wins the scenario, with a bonus for the medal margin against the sides' averages.
//!
//! Without a scenario the ratio is 0.5 and the bonus 1: plain Elo with K = 32.
//!
//! The seed asks that a match and its rematch with the same medal scores put both players
//! back where they started. The formula does so only to first order: the rematch is played
//! from the moved ratings, so its Elo expectation differs from the first match's, and the
//! player who won the first match ends `pts·bonus·(E' − ½)` below the start (the rematch test
//! below computes it exactly).

use super::{Outcome, Prediction, elo};
use serde::{Deserialize, Serialize};

/// System constants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A new player's rating (1500).
    pub initial_rating: f64,
    /// The stake when both outcomes are equally likely, doubled: pts = 64·[s + ratio − 2·ratio·s].
    pub points: f64,
    /// The bonus per medal that the loser fell short of (or beat) their side's average (0.1).
    pub bonus_per_medal: f64,
    /// Games before a player leaves provisional status and enters the leaderboard (20).
    pub provisional_games: u32,
    /// Days without a game after which a player leaves the displayed leaderboard (15).
    pub idle_days: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_rating: 1500.0,
            points: 64.0,
            bonus_per_medal: 0.1,
            provisional_games: 20,
            idle_days: 15,
        }
    }
}

/// A Memoir '44 rating (on the Elo scale).
pub type Rating = elo::Rating;

/// What the ladder knows of the scenario a match was played on, from A's side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The fraction of this scenario's battles that A's side has won.
    pub ratio: f64,
    /// The average medal score of A's side.
    pub average_a: f64,
    /// The average medal score of B's side.
    pub average_b: f64,
}

impl Scenario {
    /// The same scenario seen from B's side.
    pub fn mirrored(&self) -> Scenario {
        Scenario {
            ratio: 1.0 - self.ratio,
            average_a: self.average_b,
            average_b: self.average_a,
        }
    }
}

/// The medals each side scored in the match.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Medals {
    pub a: f64,
    pub b: f64,
}

/// How one match's change is made up (the columns of Appendix II).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Breakdown {
    /// pts: the stake, by the side's historical win ratio.
    pub pts: f64,
    /// bonus: the medal-margin factor.
    pub bonus: f64,
    /// ptsA: A's change; B's is its negative.
    pub delta_a: f64,
}

/// pts(s, ratio) = 64·[s + ratio − 2·ratio·s].
pub fn points(s: f64, ratio: f64, config: &Config) -> f64 {
    config.points * (s + ratio - 2.0 * ratio * s)
}

/// bonus = 1 + 0.1·s·(av_B − sc_B) + 0.1·(1 − s)·(av_A − sc_A), never below 0: past that a
/// loser who beat their side's average by ten medals would take points off the winner,
/// which the seed rules out ("the winner should always make points").
pub fn bonus(s: f64, medals: &Medals, scenario: &Scenario, config: &Config) -> f64 {
    let k = config.bonus_per_medal;
    (1.0 + k * s * (scenario.average_b - medals.b)
        + k * (1.0 - s) * (scenario.average_a - medals.a))
        .max(0.0)
}

/// The change for A, with its parts. Without a scenario: ratio ½, bonus 1. Without medals
/// the bonus is 1.
pub fn breakdown(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    scenario: Option<&Scenario>,
    medals: Option<&Medals>,
    config: &Config,
) -> Breakdown {
    let s = outcome.score();
    let ratio = scenario.map_or(0.5, |sc| sc.ratio);
    let pts = points(s, ratio, config);
    let bonus = match (scenario, medals) {
        (Some(sc), Some(m)) => bonus(s, m, sc, config),
        _ => 1.0,
    };
    Breakdown {
        pts,
        bonus,
        delta_a: pts * bonus * (s - elo::expected(a.rating, b.rating)),
    }
}

/// The zero-sum update. Returns (A', B').
pub fn rate(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    scenario: Option<&Scenario>,
    medals: Option<&Medals>,
    config: &Config,
) -> (Rating, Rating) {
    let d = breakdown(a, b, outcome, scenario, medals, config).delta_a;
    (
        Rating {
            rating: a.rating + d,
        },
        Rating {
            rating: b.rating - d,
        },
    )
}

/// The probability that A beats B (the Elo expectation; the scenario does not enter it).
pub fn predict(a: &Rating, b: &Rating) -> Prediction {
    elo::predict(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EQUAL: Rating = Rating { rating: 1500.0 };

    /// One row of Appendix II: (score A, score B, pts, bonus, ptsA, r'A, r'B).
    type Row = (f64, f64, f64, f64, f64, f64, f64);

    fn check_table(ratio: f64, av1: f64, av2: f64, rows: &[Row]) {
        let cfg = Config::default();
        let sc = Scenario {
            ratio,
            average_a: av1,
            average_b: av2,
        };
        for &(sa, sb, pts, bonus, pts_a, ra, rb) in rows {
            let outcome = if sa > sb {
                Outcome::Win
            } else if sa < sb {
                Outcome::Loss
            } else {
                Outcome::Draw
            };
            let m = Medals { a: sa, b: sb };
            let d = breakdown(&EQUAL, &EQUAL, outcome, Some(&sc), Some(&m), &cfg);
            let (a2, b2) = rate(&EQUAL, &EQUAL, outcome, Some(&sc), Some(&m), &cfg);
            let row = format!("ratio {ratio}, {sa}-{sb}");
            assert!((d.pts - pts).abs() <= 0.005, "{row}: pts {}", d.pts);
            assert!((d.bonus - bonus).abs() <= 0.005, "{row}: bonus {}", d.bonus);
            assert!(
                (d.delta_a - pts_a).abs() <= 0.01,
                "{row}: ptsA {}",
                d.delta_a
            );
            assert!((a2.rating - ra).abs() <= 0.01, "{row}: r'A {}", a2.rating);
            assert!((b2.rating - rb).abs() <= 0.01, "{row}: r'B {}", b2.rating);
        }
    }

    #[test]
    fn appendix_two_elo_standard() {
        let cfg = Config::default();
        let m = Medals { a: 4.0, b: 2.0 };
        let d = breakdown(&EQUAL, &EQUAL, Outcome::Win, None, Some(&m), &cfg);
        assert_eq!((d.pts, d.bonus, d.delta_a), (32.0, 1.0, 16.0));
        let (a, b) = rate(&EQUAL, &EQUAL, Outcome::Win, None, Some(&m), &cfg);
        assert_eq!((a.rating, b.rating), (1516.0, 1484.0));
    }

    /// Pegasus Bridge, A playing the Allies. The table's ratio column reads 66 % (Appendix I
    /// says 68 %); its pts 21.76 = 64·0.34 confirm 0.66.
    #[test]
    fn appendix_two_pegasus_bridge() {
        check_table(
            0.66,
            3.4,
            2.6,
            &[
                (4.0, 2.0, 21.76, 1.06, 11.53, 1511.53, 1488.47),
                (4.0, 3.0, 21.76, 0.96, 10.44, 1510.44, 1489.56),
                (4.0, 1.0, 21.76, 1.16, 12.62, 1512.62, 1487.38),
                (4.0, 0.0, 21.76, 1.26, 13.71, 1513.71, 1486.29),
                (2.0, 4.0, 42.24, 1.14, -24.08, 1475.92, 1524.08),
                (3.0, 4.0, 42.24, 1.04, -21.96, 1478.04, 1521.96),
                (1.0, 4.0, 42.24, 1.24, -26.19, 1473.81, 1526.19),
                (0.0, 4.0, 42.24, 1.34, -28.30, 1471.70, 1528.30),
            ],
        );
    }

    /// Omaha Beach, A playing the Germans (79 %).
    #[test]
    fn appendix_two_omaha_beach() {
        check_table(
            0.79,
            5.5,
            3.1,
            &[
                (6.0, 5.0, 13.44, 0.81, 5.44, 1505.44, 1494.56),
                (6.0, 4.0, 13.44, 0.91, 6.12, 1506.12, 1493.88),
                (6.0, 3.0, 13.44, 1.01, 6.79, 1506.79, 1493.21),
                (6.0, 2.0, 13.44, 1.11, 7.46, 1507.46, 1492.54),
                (6.0, 1.0, 13.44, 1.21, 8.13, 1508.13, 1491.87),
                (6.0, 0.0, 13.44, 1.31, 8.80, 1508.80, 1491.20),
                (5.0, 6.0, 50.56, 1.05, -26.54, 1473.46, 1526.54),
                (4.0, 6.0, 50.56, 1.15, -29.07, 1470.93, 1529.07),
                (3.0, 6.0, 50.56, 1.25, -31.60, 1468.40, 1531.60),
                (2.0, 6.0, 50.56, 1.35, -34.13, 1465.87, 1534.13),
                (1.0, 6.0, 50.56, 1.45, -36.66, 1463.34, 1536.66),
                (0.0, 6.0, 50.56, 1.55, -39.18, 1460.82, 1539.18),
            ],
        );
    }

    /// Operation Cobra, A playing the Allies (48 %).
    #[test]
    fn appendix_two_operation_cobra() {
        check_table(
            0.48,
            3.8,
            3.8,
            &[
                (5.0, 4.0, 33.28, 0.98, 16.31, 1516.31, 1483.69),
                (5.0, 3.0, 33.28, 1.08, 17.97, 1517.97, 1482.03),
                (5.0, 2.0, 33.28, 1.18, 19.64, 1519.64, 1480.36),
                (5.0, 1.0, 33.28, 1.28, 21.30, 1521.30, 1478.70),
                (5.0, 0.0, 33.28, 1.38, 22.96, 1522.96, 1477.04),
                (4.0, 5.0, 30.72, 0.98, -15.05, 1484.95, 1515.05),
                (3.0, 5.0, 30.72, 1.08, -16.59, 1483.41, 1516.59),
                (2.0, 5.0, 30.72, 1.18, -18.12, 1481.88, 1518.12),
                (1.0, 5.0, 30.72, 1.28, -19.66, 1480.34, 1519.66),
                (0.0, 5.0, 30.72, 1.38, -21.20, 1478.80, 1521.20),
            ],
        );
    }

    /// The seed's symmetry wish, tested for what the formula does: A wins Pegasus Bridge 4–2
    /// as the Allies, then the rematch with sides swapped ends 4–2 for B. The stakes are the
    /// same (pts 21.76, bonus 1.06) but the rematch starts from moved ratings, so A ends below
    /// where it began by exactly pts·bonus·(E' − ½), E' being A's expectation before the rematch.
    #[test]
    fn rematch_with_same_scores_returns_players_only_to_first_order() {
        let cfg = Config::default();
        let first = Scenario {
            ratio: 0.66,
            average_a: 3.4,
            average_b: 2.6,
        };
        let swapped = Scenario {
            ratio: 0.34,
            average_a: 2.6,
            average_b: 3.4,
        };
        let (a1, b1) = rate(
            &EQUAL,
            &EQUAL,
            Outcome::Win,
            Some(&first),
            Some(&Medals { a: 4.0, b: 2.0 }),
            &cfg,
        );
        let (a2, b2) = rate(
            &a1,
            &b1,
            Outcome::Loss,
            Some(&swapped),
            Some(&Medals { a: 2.0, b: 4.0 }),
            &cfg,
        );
        let stake = 21.76 * 1.06;
        let e_rematch = elo::expected(a1.rating, b1.rating);
        let drift = stake * (e_rematch - 0.5);
        assert!(
            (a2.rating - (1500.0 - drift)).abs() < 1e-9,
            "A ends at {}",
            a2.rating
        );
        assert!(
            (b2.rating - (1500.0 + drift)).abs() < 1e-9,
            "B ends at {}",
            b2.rating
        );
        // After the first match A leads by 23.06, so E' = 0.5332 and the drift is 0.76 points.
        assert!((drift - 0.7645).abs() < 0.0001, "drift {drift}");
    }

    #[test]
    fn bonus_never_turns_a_win_into_a_loss() {
        let cfg = Config::default();
        let sc = Scenario {
            ratio: 0.5,
            average_a: 1.0,
            average_b: 1.0,
        };
        let d = breakdown(
            &EQUAL,
            &EQUAL,
            Outcome::Win,
            Some(&sc),
            Some(&Medals { a: 20.0, b: 19.0 }),
            &cfg,
        );
        assert_eq!(d.bonus, 0.0);
        assert!(d.delta_a >= 0.0);
    }
}
