//! Memoir '44 Online's "Skill" ranking: zero-sum Elo whose stake depends on how often A's
//! side wins the scenario, with a bonus for the medal margin against the sides' averages.
//!
//! Without a scenario the ratio is 0.5 and the bonus 1: plain Elo with K = 32.
//!
//! The ranking asks that a match and its rematch with the same medal scores put both players
//! back where they started. The formula does so only to first order: the rematch is played
//! from the moved ratings, so its Elo expectation differs from the first match's, and the
//! player who won the first match ends `pts·bonus·(E' − ½)` below the start (the rematch test
//! below computes it exactly).

use super::trace::Trace;
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

/// How many battles a scenario's own history is taken to start from: `PRIOR_BATTLES`
/// imaginary battles, won half by each side and scored at each side's average, come before
/// the real ones. Memoir '44 Online's Skill ranking asks that "the winner should always make
/// points, even if he is on the favored side", but its ratio and averages come from hundreds of
/// battles (Appendix I: 1571, 686, 484). Taken raw from a young history they break that rule: after
/// one battle the ratio is 0 or 1, and the winner on the side that won it gets pts = 64·(1 + 1 − 2)
/// = 0; with no medal scores yet the averages would read 0 and cut a 4–3 win's bonus to 0.7.
///
/// With the prior the ratio is (wins + 5)/(battles + 10): ½ before any battle, 6/11 after
/// one win, never 0 or 1, so the winner always makes points; and the medal margin counts
/// n/(n + 10) of its weight after n battles with medals: none (a bonus of exactly 1) before
/// the first, 99.4 % at Pegasus Bridge's 1571. The ranking's own scenarios barely move: Omaha
/// Beach's 544/686 = 79.3 % reads 549/696 = 78.9 %, Pegasus Bridge's 68.2 % reads 68.1 %.
pub const PRIOR_BATTLES: f64 = 10.0;

/// What the ladder knows of the scenario a match was played on, from A's side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The fraction of this scenario's battles that A's side has won.
    pub ratio: f64,
    /// The average medal score of A's side.
    pub average_a: f64,
    /// The average medal score of B's side.
    pub average_b: f64,
    /// How much the medal margin against the averages counts, from 0 to 1: 1 for figures
    /// known from many battles (the Memoir '44 ranking's tables, the organiser's figures); from
    /// the ladder's own history n/(n + [`PRIOR_BATTLES`]) after n battles with medals, so 0 —
    /// neutral averages, a bonus of exactly 1 — before the first.
    #[serde(default = "full_weight")]
    pub medal_weight: f64,
}

fn full_weight() -> f64 {
    1.0
}

impl Scenario {
    /// Figures known well (the Memoir '44 ranking's tables, the organiser's): taken as they are.
    pub fn known(ratio: f64, average_a: f64, average_b: f64) -> Scenario {
        Scenario {
            ratio,
            average_a,
            average_b,
            medal_weight: 1.0,
        }
    }

    /// The scenario from A's side as its own history tells it, with the prior of
    /// [`PRIOR_BATTLES`] balanced battles: `battles` fought, `wins_a` won by A's side (a draw
    /// counts half), and `medal_battles` of them with medal scores, in which A's side scored
    /// `medals_a` in all and B's side `medals_b`.
    pub fn from_history(
        battles: u32,
        wins_a: f64,
        medal_battles: u32,
        medals_a: f64,
        medals_b: f64,
    ) -> Scenario {
        let n = battles as f64;
        let m = medal_battles as f64;
        let average = |total: f64| if m > 0.0 { total / m } else { 0.0 };
        Scenario {
            ratio: (wins_a + 0.5 * PRIOR_BATTLES) / (n + PRIOR_BATTLES),
            average_a: average(medals_a),
            average_b: average(medals_b),
            medal_weight: m / (m + PRIOR_BATTLES),
        }
    }

    /// The same scenario seen from B's side.
    pub fn mirrored(&self) -> Scenario {
        Scenario {
            ratio: 1.0 - self.ratio,
            average_a: self.average_b,
            average_b: self.average_a,
            medal_weight: self.medal_weight,
        }
    }
}

/// The medals each side scored in the match.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Medals {
    /// Side A's medals.
    pub a: f64,
    /// Side B's medals.
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

/// The least the medal bonus can be: a tenth of the stake. Memoir '44 Online's Skill ranking
/// has the loser who beat their side's average cut the winner's points by 10 % a medal, and also
/// says "the winner should always make points"; past ten medals (a 13–12 win against averages of 1)
/// the cut would leave nothing, or take points off the winner. The floor keeps a win worth what a
/// loser nine medals above their average leaves it, 10 %; the ranking's tables never reach it
/// (their lowest bonus is 0.81).
pub const MIN_BONUS: f64 = 0.1;

/// bonus = 1 + 0.1·s·(av_B − sc_B) + 0.1·(1 − s)·(av_A − sc_A), never below [`MIN_BONUS`].
/// The margin terms count by the scenario's `medal_weight` (1 for known figures, the ranking's
/// formula as it stands; 0 without medal history, a bonus of 1).
pub fn bonus(s: f64, medals: &Medals, scenario: &Scenario, config: &Config) -> f64 {
    let k = config.bonus_per_medal;
    let margin =
        k * s * (scenario.average_b - medals.b) + k * (1.0 - s) * (scenario.average_a - medals.a);
    (1.0 + scenario.medal_weight * margin).max(MIN_BONUS)
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
    breakdown_explained(a, b, outcome, scenario, medals, config, &mut ())
}

/// [`breakdown`], handing `trace` the scenario's ratio and averages, the medals, the stake,
/// the bonus, E and A's change (the plain function is this one with no trace).
pub fn breakdown_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    scenario: Option<&Scenario>,
    medals: Option<&Medals>,
    config: &Config,
    trace: &mut T,
) -> Breakdown {
    let s = outcome.score();
    trace.step("s", "score", "win 1, draw ½, loss 0", s);
    let ratio = scenario.map_or(0.5, |sc| sc.ratio);
    trace.step(
        "ratio",
        "share of the scenario's battles this side has won",
        "(wins + 5)/(battles + 10), ½ without a scenario",
        ratio,
    );
    let pts = points(s, ratio, config);
    trace.step("pts", "stake", "pts = 64·[s + ratio − 2·ratio·s]", pts);
    if let (Some(sc), Some(m)) = (scenario, medals) {
        trace.step("av_A", "this side's average medals", "av_A", sc.average_a);
        trace.step(
            "av_B",
            "the other side's average medals",
            "av_B",
            sc.average_b,
        );
        trace.step("sc_A", "this side's medals", "sc_A", m.a);
        trace.step("sc_B", "the other side's medals", "sc_B", m.b);
        trace.step(
            "weight",
            "how much the averages count",
            "n/(n + 10) after n battles with medals",
            sc.medal_weight,
        );
    }
    let bonus = match (scenario, medals) {
        (Some(sc), Some(m)) => bonus(s, m, sc, config),
        _ => 1.0,
    };
    trace.step(
        "bonus",
        "medal-margin factor",
        "bonus = max(1 + weight·0.1·[s(av_B − sc_B) + (1 − s)(av_A − sc_A)], 0.1)",
        bonus,
    );
    let e = elo::expected(a.rating, b.rating);
    trace.step(
        "E",
        "expected score",
        "E = 1/(1 + 10^((r_B − r_A − h)/400))",
        e,
    );
    let delta_a = pts * bonus * (s - e);
    trace.step(
        "ptsA",
        "this side's change",
        "ptsA = pts·bonus·(s − E)",
        delta_a,
    );
    trace.step(
        "−ptsA",
        "the other side's change (zero sum)",
        "ptsB = −ptsA",
        -delta_a,
    );
    Breakdown {
        pts,
        bonus,
        delta_a,
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
    rate_with_advantage(a, b, outcome, scenario, medals, 0.0, config)
}

/// [`rate`] with side A's rating raised by `advantage` points in the Elo expectation
/// (the side advantage of the design notes): ptsA = pts·bonus·(s − E(r_A + h, r_B)). The
/// stake and the bonus do not depend on the ratings, so the breakdown of A at r_A + h is the
/// change; it moves r_A.
pub fn rate_with_advantage(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    scenario: Option<&Scenario>,
    medals: Option<&Medals>,
    advantage: f64,
    config: &Config,
) -> (Rating, Rating) {
    rate_explained(a, b, outcome, scenario, medals, advantage, config, &mut ())
}

/// [`rate_with_advantage`], handing `trace` the ratings going in and the breakdown
/// ([`breakdown_explained`]), then A's new rating.
#[allow(clippy::too_many_arguments)]
pub fn rate_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    scenario: Option<&Scenario>,
    medals: Option<&Medals>,
    advantage: f64,
    config: &Config,
    trace: &mut T,
) -> (Rating, Rating) {
    trace.step("r_A", "rating going in", "r_A", a.rating);
    trace.step("r_B", "opponent's rating", "r_B", b.rating);
    if advantage != 0.0 {
        trace.step("h", "side advantage", "h", advantage);
    }
    let favoured = Rating {
        rating: a.rating + advantage,
    };
    let d = breakdown_explained(&favoured, b, outcome, scenario, medals, config, trace).delta_a;
    trace.step("r_A'", "new rating", "r_A' = r_A + ptsA", a.rating + d);
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

/// [`predict`] with side A's rating raised by `advantage` points.
pub fn predict_with_advantage(a: &Rating, b: &Rating, advantage: f64) -> Prediction {
    elo::predict_with_advantage(a, b, advantage)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EQUAL: Rating = Rating { rating: 1500.0 };

    /// One row of Appendix II: (score A, score B, pts, bonus, ptsA, r'A, r'B).
    type Row = (f64, f64, f64, f64, f64, f64, f64);

    fn check_table(ratio: f64, av1: f64, av2: f64, rows: &[Row]) {
        let cfg = Config::default();
        let sc = Scenario::known(ratio, av1, av2);
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

    /// Side advantage by hand, h = 100 at equal ratings: E = 1/(1 + 10^(−100/400)) = 0.6400650.
    ///   Without a scenario: pts = 64·(1 + ½ − 1) = 32, bonus 1: ptsA = 32·(1 − 0.6400650) =
    ///   11.51792, as Elo K = 32.
    ///   On a scenario whose A side wins 60 % with averages 4 (A) and 3 (B), A winning 5–2:
    ///   pts = 64·(1 + 0.6 − 1.2) = 25.6, bonus = 1 + 0.1·1·(3 − 2) = 1.1,
    ///   ptsA = 25.6·1.1·(1 − 0.6400650) = 10.135770.
    #[test]
    fn side_advantage_by_hand() {
        let cfg = Config::default();
        let (a, b) = rate_with_advantage(&EQUAL, &EQUAL, Outcome::Win, None, None, 100.0, &cfg);
        assert!((a.rating - 1_511.517_92).abs() < 1e-5 && (b.rating - 1_488.482_08).abs() < 1e-5);
        let sc = Scenario::known(0.6, 4.0, 3.0);
        let m = Medals { a: 5.0, b: 2.0 };
        let (a, b) = rate_with_advantage(
            &EQUAL,
            &EQUAL,
            Outcome::Win,
            Some(&sc),
            Some(&m),
            100.0,
            &cfg,
        );
        assert!((a.rating - 1_510.135_77).abs() < 1e-5, "{a:?}");
        assert!((b.rating - 1_489.864_23).abs() < 1e-5, "{b:?}");
        assert!((predict_with_advantage(&EQUAL, &EQUAL, 100.0).win_a - 0.640_065_0).abs() < 1e-7);
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

    /// The ranking's symmetry wish, tested for what the formula does: A wins Pegasus Bridge 4–2
    /// as the Allies, then the rematch with sides swapped ends 4–2 for B. The stakes are the
    /// same (pts 21.76, bonus 1.06) but the rematch starts from moved ratings, so A ends below
    /// where it began by exactly pts·bonus·(E' − ½), E' being A's expectation before the rematch.
    #[test]
    fn rematch_with_same_scores_returns_players_only_to_first_order() {
        let cfg = Config::default();
        let first = Scenario::known(0.66, 3.4, 2.6);
        let swapped = Scenario::known(0.34, 2.6, 3.4);
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

    /// A 20–19 win against averages of 1: 1 + 0.1·(1 − 19) = −0.8, held at MIN_BONUS 0.1:
    /// ΔA = 32·0.1·½ = +1.6, a win still worth something.
    #[test]
    fn bonus_never_turns_a_win_into_a_loss() {
        let cfg = Config::default();
        let sc = Scenario::known(0.5, 1.0, 1.0);
        let d = breakdown(
            &EQUAL,
            &EQUAL,
            Outcome::Win,
            Some(&sc),
            Some(&Medals { a: 20.0, b: 19.0 }),
            &cfg,
        );
        assert_eq!(d.bonus, 0.1);
        assert!((d.delta_a - 1.6).abs() < 1e-12, "{d:?}");
    }

    /// Memoir '44 Online's Skill ranking: "the winner should always make points, even if he is
    /// on the favored side". A scenario's second battle, its first won by the Germans 6–3. Raw, the
    /// Germans' ratio would be 1/1 and a German winner's pts 64·(1 + 1 − 2) = 0. With the prior:
    ///   ratio = (1 + 5)/(1 + 10) = 6/11 = 0.545454…, pts = 64·(1 − 6/11) = 320/11 = 29.0909;
    ///   one battle with medals: weight 1/11, averages 6 (Germans) and 3 (Allies);
    ///   Germans win 6–4: bonus = 1 + (1/11)·0.1·(3 − 4) = 1 − 0.1/11 = 0.990909;
    ///   equal players: ptsA = 29.0909 · 0.990909 · ½ = 14.4132.
    #[test]
    fn a_scenarios_second_battle_gives_the_winner_points() {
        let cfg = Config::default();
        let sc = Scenario::from_history(1, 1.0, 1, 6.0, 3.0);
        assert!((sc.ratio - 6.0 / 11.0).abs() < 1e-15);
        assert!((sc.medal_weight - 1.0 / 11.0).abs() < 1e-15);
        let m = Medals { a: 6.0, b: 4.0 };
        let d = breakdown(&EQUAL, &EQUAL, Outcome::Win, Some(&sc), Some(&m), &cfg);
        assert!((d.pts - 320.0 / 11.0).abs() < 1e-12, "{d:?}");
        assert!((d.bonus - (1.0 - 0.1 / 11.0)).abs() < 1e-12, "{d:?}");
        assert!((d.delta_a - 14.4132).abs() < 1e-4, "{d:?}");
        // The Allies winning instead: ratio 5/11, pts 64·6/11 = 34.909, more for the underdog.
        let allies = sc.mirrored();
        let d = breakdown(&EQUAL, &EQUAL, Outcome::Win, Some(&allies), None, &cfg);
        assert!((d.pts - 64.0 * 6.0 / 11.0).abs() < 1e-12, "{d:?}");
        // Before any battle: ratio ½ and no medal weight, plain Elo's 32 and bonus 1.
        let fresh = Scenario::from_history(0, 0.0, 0, 0.0, 0.0);
        assert_eq!((fresh.ratio, fresh.medal_weight), (0.5, 0.0));
    }

    /// No medal history: the averages are neutral. Two battles without medals, one won by
    /// each side: ratio (1 + 5)/(2 + 10) = ½, pts = 64·(1 + ½ − 1) = 32. Equal players, A wins
    /// 4–3: bonus 1 (the averages read as 0 would give 1 + 0.1·(0 − 3) = 0.7, and +11.2),
    /// so ptsA = 32 · 1 · ½ = +16: 1516 and 1484.
    #[test]
    fn no_medal_history_gives_a_bonus_of_one() {
        let cfg = Config::default();
        let sc = Scenario::from_history(2, 1.0, 0, 0.0, 0.0);
        assert_eq!(sc.ratio, 0.5);
        let m = Medals { a: 4.0, b: 3.0 };
        let d = breakdown(&EQUAL, &EQUAL, Outcome::Win, Some(&sc), Some(&m), &cfg);
        assert_eq!((d.pts, d.bonus, d.delta_a), (32.0, 1.0, 16.0));
        let (a, b) = rate(&EQUAL, &EQUAL, Outcome::Win, Some(&sc), Some(&m), &cfg);
        assert_eq!((a.rating, b.rating), (1516.0, 1484.0));
        // A loss 3–4 likewise: bonus 1, −16.
        let m = Medals { a: 3.0, b: 4.0 };
        let d = breakdown(&EQUAL, &EQUAL, Outcome::Loss, Some(&sc), Some(&m), &cfg);
        assert_eq!((d.bonus, d.delta_a), (1.0, -16.0));
    }

    /// Whatever a young history says, the winner makes points: every history of up to 30
    /// battles, every result and medal count up to 6–6.
    #[test]
    fn a_young_history_never_zeroes_the_winner() {
        let cfg = Config::default();
        for battles in 0..=30u32 {
            for wins in 0..=battles {
                let sc = Scenario::from_history(
                    battles,
                    wins as f64,
                    battles,
                    6.0 * battles as f64,
                    0.0,
                );
                for (sa, sb) in [(6.0, 5.0), (4.0, 0.0), (1.0, 0.0)] {
                    let m = Medals { a: sa, b: sb };
                    let d = breakdown(&EQUAL, &EQUAL, Outcome::Win, Some(&sc), Some(&m), &cfg);
                    assert!(d.delta_a > 0.0, "{battles} battles, {wins} won: {d:?}");
                    let m = Medals { a: sb, b: sa };
                    let d = breakdown(&EQUAL, &EQUAL, Outcome::Loss, Some(&sc), Some(&m), &cfg);
                    assert!(d.delta_a < 0.0, "{battles} battles, {wins} won: {d:?}");
                }
            }
        }
    }
}
