// Parallel tables of hand-computed values are indexed by player number on purpose.
#![allow(clippy::needless_range_loop)]

//! The ranking rules of the Skyweaver white paper and the INVERSUS ranking notes (ratings,
//! Rank Points, seasons, teams), each checked against values computed by hand from the papers'
//! formulas.
//!
//! The engine is driven as a user would drive it: `Ladder::new(rules)` then `Ladder::apply`
//! with `player`, `match`, `soft_reset` and `hard_reset` events. Where a rule needs a player
//! somewhere particular on the ladder, the state is set directly after the `player` event.
//!
//! The expected values never come from the function under test: Glicko-1 steps (eq. 2–3) are
//! written out below from the paper's definitions of q, g, E and d², and Rank Points from
//! eq. 4 and Table 1. For Glicko-2 (INVERSUS) the library's `glicko2::rate` supplies the
//! rating after a match (the rule under test there is what the engine does around it: RP,
//! inactivity, the composite opponent).

use chrono::{Days, NaiveDate};
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId, Side};
use rungs_ladder::inversus;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{InversusParams, Params, Rules, System};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings::standings;
use rungs_ladder::state::{HistoryRow, Skill};
use rungs_rating::{Outcome, glicko, glicko2};

// ---------------------------------------------------------------------------------------------
// Driving the engine
// ---------------------------------------------------------------------------------------------

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + Days::new(n)
}

fn match_event(a: impl Into<Side>, b: impl Into<Side>, result: MatchResult) -> Event {
    Event::Match(Match::new(a, b, result))
}

fn played(o: Outcome) -> MatchResult {
    MatchResult::Played(o)
}

/// A ladder and the running sequence number of its log.
struct Run {
    ladder: Ladder,
    seq: u64,
    history: Vec<HistoryRow>,
}

impl Run {
    fn new(rules: Rules, players: &[&str]) -> Run {
        let mut run = Run {
            ladder: Ladder::new(rules),
            seq: 0,
            history: Vec::new(),
        };
        for (id, name) in players.iter().enumerate() {
            run.event(
                day(0),
                &Event::Player {
                    id: id as PlayerId,
                    name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
                    undated: false,
                },
            );
        }
        run
    }

    fn event(&mut self, date: NaiveDate, e: &Event) {
        self.seq += 1;
        self.ladder
            .apply(date, self.seq, e, &mut self.history)
            .expect("the event applies");
    }

    fn play(&mut self, date: NaiveDate, a: PlayerId, b: PlayerId, o: Outcome) {
        self.event(date, &match_event(a, b, played(o)));
    }

    fn soft_reset(&mut self, date: NaiveDate) {
        self.event(date, &Event::SoftReset);
    }

    fn hard_reset(&mut self, date: NaiveDate) {
        self.event(date, &Event::HardReset);
    }

    fn rp(&self, id: usize) -> f64 {
        self.ladder.players[id].rp
    }

    fn glicko(&self, id: usize) -> glicko::Rating {
        match self.ladder.players[id].skill {
            Skill::Glicko(r) => r,
            other => panic!("not a Glicko skill: {other:?}"),
        }
    }

    fn glicko2(&self, id: usize) -> glicko2::Rating {
        match self.ladder.players[id].skill {
            Skill::Glicko2(r) => r,
            other => panic!("not a Glicko-2 skill: {other:?}"),
        }
    }

    /// Puts a Skyweaver player at `rp` with rating r ± RD, as if they had climbed there this
    /// season: the floor is the highest hard floor at or below `rp`, the season peak `rp`,
    /// and a match played at least (their rating is one of record).
    fn set_sky(&mut self, id: usize, rp: f64, rating: f64, deviation: f64) {
        let p = &mut self.ladder.players[id];
        p.matches = p.matches.max(1);
        p.rp = rp;
        p.floor = hand_floor(rp);
        p.season_peak_rp = rp;
        p.skill = Skill::Glicko(glicko::Rating { rating, deviation });
    }

    fn set_inv(&mut self, id: usize, rp: f64, mu: f64, phi: f64, sigma: f64) {
        let p = &mut self.ladder.players[id];
        p.rp = rp;
        p.skill = Skill::Glicko2(glicko2::Rating { mu, phi, sigma });
    }

    /// The tier each player shows in the standings, by id.
    fn tiers(&self) -> Vec<Tier> {
        let mut out = vec![Tier::Wanderer; self.ladder.players.len()];
        for s in standings(&self.ladder) {
            out[s.id as usize] = s.tier.expect("skyweaver standings carry a tier");
        }
        out
    }
}

fn sky_rules(params: &[&str]) -> Rules {
    let mut rules = Rules::defaults(System::Skyweaver);
    for p in params {
        rules.assign(p).unwrap();
    }
    rules
}

fn inv_rules() -> Rules {
    Rules::defaults(System::Inversus)
}

fn inv_params() -> InversusParams {
    InversusParams::default()
}

fn close(actual: f64, expected: f64, tol: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= tol,
        "{what}: got {actual}, expected {expected} (±{tol})"
    );
}

// ---------------------------------------------------------------------------------------------
// The Skyweaver white paper by hand: Glicko-1 (eq. 1–3) and Rank Points (eq. 4, Table 1)
// ---------------------------------------------------------------------------------------------

/// q = ln(10)/400 = 0.0057565 (the paper).
const Q: f64 = std::f64::consts::LN_10 / 400.0;

/// g(RD) = 1/√(1 + 3q²RD²/π²).
fn hand_g(rd: f64) -> f64 {
    let pi = std::f64::consts::PI;
    1.0 / (1.0 + 3.0 * Q * Q * rd * rd / (pi * pi)).sqrt()
}

/// E(s | r, r_opp, RD_opp) = 1/(1 + 10^(−g(RD_opp)(r − r_opp)/400)).
fn hand_e(r: f64, r_opp: f64, rd_opp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-hand_g(rd_opp) * (r - r_opp) / 400.0))
}

/// Equations 2 and 3: (r', RD') after one match with score s against (r_opp, RD_opp).
fn hand_glicko(r: f64, rd: f64, r_opp: f64, rd_opp: f64, s: f64) -> (f64, f64) {
    let g = hand_g(rd_opp);
    let e = hand_e(r, r_opp, rd_opp);
    let d2 = 1.0 / (Q * Q * g * g * e * (1.0 - e));
    let new_r = r + Q / (1.0 / (rd * rd) + 1.0 / d2) * g * (s - e);
    let new_rd = (1.0 / (1.0 / (rd * rd) + 1.0 / d2)).sqrt().max(30.0);
    (new_r, new_rd)
}

/// Eq. 4's F with the defaults f_min = 0.25: (1000/(3000 − 1250))·min{1, f_min + (1 − f_min)(RP − 200)/1000}.
fn hand_f(rp: f64) -> f64 {
    let f_min = 0.25;
    1000.0 / (3000.0 - 1250.0) * (f_min + (1.0 - f_min) * (rp - 200.0) / 1000.0).min(1.0)
}

/// Eq. 4's B with b_min = 5, b_max = 25: max{b_min, b_max − (RP − 200)/1000·(b_max − b_min)}.
fn hand_b(rp: f64) -> f64 {
    let (b_min, b_max) = (5.0, 25.0);
    (b_max - (rp - 200.0) / 1000.0 * (b_max - b_min)).max(b_min)
}

/// Eq. 4 rounded, then held at the season's hard floor.
fn hand_rp(rp: f64, delta_r: f64, s: f64, a: f64, floor: f64) -> f64 {
    (rp + delta_r * hand_f(rp) + hand_b(rp) * s + a)
        .round()
        .max(floor)
}

/// Table 1's hard floors: Wanderer 200, Trainee I 300, Apprentice I 600, Expert I 900,
/// Master 1200. The highest one at or below `rp`.
fn hand_floor(rp: f64) -> f64 {
    [200.0, 300.0, 600.0, 900.0, 1200.0]
        .into_iter()
        .filter(|&f| rp >= f)
        .fold(0.0, f64::max)
}

/// Table 1's RP minima, Wanderer to Master.
fn hand_tier(rp: f64) -> Tier {
    let rows = [
        (200.0, Tier::Wanderer),
        (300.0, Tier::TraineeI),
        (400.0, Tier::TraineeII),
        (500.0, Tier::TraineeIII),
        (600.0, Tier::ApprenticeI),
        (700.0, Tier::ApprenticeII),
        (800.0, Tier::ApprenticeIII),
        (900.0, Tier::ExpertI),
        (1000.0, Tier::ExpertII),
        (1100.0, Tier::ExpertIII),
        (1200.0, Tier::Master),
    ];
    rows.iter()
        .rev()
        .find(|(min, _)| rp >= *min)
        .map_or(Tier::Wanderer, |(_, t)| *t)
}

/// Table 1's hard reset values.
fn hand_hard_reset_value(t: Tier) -> f64 {
    match t {
        Tier::Wanderer => 200.0,
        Tier::TraineeI => 300.0,
        Tier::TraineeII => 350.0,
        Tier::TraineeIII => 400.0,
        Tier::ApprenticeI => 450.0,
        Tier::ApprenticeII => 500.0,
        Tier::ApprenticeIII => 550.0,
        Tier::ExpertI => 600.0,
        Tier::ExpertII => 700.0,
        Tier::ExpertIII => 800.0,
        Tier::Master => 900.0,
        Tier::Grandweaver => 1000.0,
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Equation 4 at 200, 700 and 1300 RP
// ---------------------------------------------------------------------------------------------

/// The player is r = 1600, RD = 80; the opponent r = 1500, RD = 120. By hand:
///
///   g(120)  = 1/√(1 + 3·0.0057565²·120²/π²)              = 0.934521267
///   E       = 1/(1 + 10^(−0.934521267·100/400))           = 0.631336264
///   d²      = 1/(q²·g²·E·(1 − E))                         = 148463.2868
///   scale   = q/(1/80² + 1/d²)·g                          = 33.0062 (rating points per unit of s − E)
///   Δr      = win +12.16818709, draw −4.33491033, loss −20.83800776
///   RD'     = √(1/(1/80² + 1/d²))                         = 78.32948773
///
/// Rank Points, RP' = round(RP + Δr·F + B·s):
///   RP  200: F = (1000/1750)·0.25  = 0.142857, B = 25
///            win  200 + 1.738312 + 25   = 226.738 → 227
///            draw 200 − 0.619273 + 12.5 = 211.881 → 212
///            loss 200 − 2.976858        = 197.023 → 197, held at Wanderer's hard floor: 200
///   RP  700: F = (1000/1750)·0.625 = 0.357143, B = 15
///            win  700 + 4.345781 + 15   = 719.346 → 719
///            draw 700 − 1.548182 + 7.5  = 705.952 → 706
///            loss 700 − 7.442146        = 692.558 → 693
///   RP 1300: F = (1000/1750)·1     = 0.571429 (min{1, 1.075}), B = 5 (max{5, 3})
///            win  1300 + 6.953250 + 5   = 1311.953 → 1312
///            draw 1300 − 2.477092 + 2.5 = 1300.023 → 1300
///            loss 1300 − 11.907433      = 1288.093 → 1288
#[test]
fn skyweaver_rp_for_win_draw_loss_at_200_700_1300() {
    // Intermediates of the comment above, recomputed from the paper's definitions.
    let g = hand_g(120.0);
    close(g, 0.934_521_267_2, 1e-9, "g(120)");
    let e = hand_e(1600.0, 1500.0, 120.0);
    close(e, 0.631_336_264_4, 1e-9, "E");
    let d2 = 1.0 / (Q * Q * g * g * e * (1.0 - e));
    close(d2, 148_463.286_848, 1e-5, "d²");
    let expected_dr = [
        (Outcome::Win, 12.168_187_092_9),
        (Outcome::Draw, -4.334_910_333_5),
        (Outcome::Loss, -20.838_007_759_8),
    ];
    for (o, dr) in expected_dr {
        let (r, rd) = hand_glicko(1600.0, 80.0, 1500.0, 120.0, o.score());
        close(r - 1600.0, dr, 1e-9, "Δr by hand");
        close(rd, 78.329_487_734_4, 1e-9, "RD' by hand");
    }
    close(hand_f(200.0), 0.25 / 1.75, 1e-15, "F(200)");
    close(hand_f(700.0), 0.625 / 1.75, 1e-15, "F(700)");
    close(hand_f(1300.0), 1.0 / 1.75, 1e-15, "F(1300)");
    assert_eq!(
        (hand_b(200.0), hand_b(700.0), hand_b(1300.0)),
        (25.0, 15.0, 5.0)
    );

    // (RP, floor reached, outcome, expected RP').
    let cases = [
        (200.0, 200.0, Outcome::Win, 227.0),
        (200.0, 200.0, Outcome::Draw, 212.0),
        (200.0, 200.0, Outcome::Loss, 200.0),
        (700.0, 600.0, Outcome::Win, 719.0),
        (700.0, 600.0, Outcome::Draw, 706.0),
        (700.0, 600.0, Outcome::Loss, 693.0),
        (1300.0, 1200.0, Outcome::Win, 1312.0),
        (1300.0, 1200.0, Outcome::Draw, 1300.0),
        (1300.0, 1200.0, Outcome::Loss, 1288.0),
    ];
    for (rp, floor, o, expected) in cases {
        let mut run = Run::new(sky_rules(&[]), &["player", "opponent"]);
        run.set_sky(0, rp, 1600.0, 80.0);
        assert_eq!(run.ladder.players[0].floor, floor);
        // The opponent sits far from every threshold so their own RP does not matter.
        run.set_sky(1, 650.0, 1500.0, 120.0);
        run.play(day(1), 0, 1, o);

        let (r, rd) = hand_glicko(1600.0, 80.0, 1500.0, 120.0, o.score());
        let me = run.glicko(0);
        close(me.rating, r, 1e-9, "engine r'");
        close(me.deviation, rd, 1e-9, "engine RD'");
        assert_eq!(run.rp(0), expected, "RP {rp} after a {o:?}");
        assert_eq!(
            hand_rp(rp, r - 1600.0, o.score(), 0.0, floor),
            expected,
            "the hand formula agrees with the table in the comment"
        );
    }

    // A brand-new player: r 1500, RD 350, 200 RP with Wanderer's floor already reached. A loss
    // to an equal newcomer costs rating but no Rank Points.
    let mut run = Run::new(sky_rules(&[]), &["new", "other"]);
    assert_eq!(run.rp(0), 200.0);
    assert_eq!(run.ladder.players[0].floor, 200.0);
    run.play(day(1), 0, 1, Outcome::Loss);
    let (r, _) = hand_glicko(1500.0, 350.0, 1500.0, 350.0, 0.0);
    close(run.glicko(0).rating, r, 1e-9, "newcomer's r' after a loss");
    assert!(r < 1500.0 && 200.0 + (r - 1500.0) * hand_f(200.0) < 199.5);
    assert_eq!(run.rp(0), 200.0, "Wanderer is a hard floor");
    // The winner: 200 + Δr·F + 25.
    let (r_b, _) = hand_glicko(1500.0, 350.0, 1500.0, 350.0, 1.0);
    assert_eq!(run.rp(1), hand_rp(200.0, r_b - 1500.0, 1.0, 0.0, 200.0));
}

// ---------------------------------------------------------------------------------------------
// 2. The win-streak bonus A
// ---------------------------------------------------------------------------------------------

/// With a = 10, A = 10 only on a win whose two previous matches were wins: the 3rd and 4th
/// of W W W W, never the 1st or 2nd, never a win after W D or after L W.
#[test]
fn skyweaver_streak_bonus_only_on_a_third_straight_win() {
    let mut run = Run::new(sky_rules(&["a=10"]), &["streaker", "opponent"]);
    run.set_sky(0, 700.0, 1500.0, 100.0);
    run.set_sky(1, 700.0, 1500.0, 100.0);
    use Outcome::{Draw as D, Loss as L, Win as W};
    // (result for player 0, bonus expected)
    let script = [
        (W, false), // 1st win
        (W, false), // 2nd win
        (W, true),  // 3rd straight win
        (W, true),  // 4th: the previous two are still wins
        (D, false),
        (W, false), // after W D
        (W, false), // after D W
        (L, false),
        (W, false), // after W L
        (W, false), // after L W
        (W, true),  // after W W
    ];
    for (i, (o, bonus)) in script.into_iter().enumerate() {
        let (me, opp) = (run.glicko(0), run.glicko(1));
        let (rp, floor) = (run.rp(0), run.ladder.players[0].floor);
        let (r, _) = hand_glicko(
            me.rating,
            me.deviation,
            opp.rating,
            opp.deviation,
            o.score(),
        );
        let with_a = hand_rp(rp, r - me.rating, o.score(), 10.0, floor);
        let without_a = hand_rp(rp, r - me.rating, o.score(), 0.0, floor);
        assert_eq!(
            with_a - without_a,
            10.0,
            "the bonus is visible in match {}",
            i + 1
        );
        run.play(day(1 + i as u64), 0, 1, o);
        let expected = if bonus { with_a } else { without_a };
        assert_eq!(
            run.rp(0),
            expected,
            "match {} ({o:?}), bonus {bonus}",
            i + 1
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Hard floors
// ---------------------------------------------------------------------------------------------

/// A player who climbs to Apprentice I (600) never drops below 600 however often they lose,
/// until the hard reset clears the floor.
#[test]
fn skyweaver_hard_floor_holds_for_the_season_and_the_hard_reset_clears_it() {
    let mut run = Run::new(sky_rules(&[]), &["climber", "wall"]);
    // 590 RP (Trainee III, floor Trainee I = 300), r 1500 ± 100; the wall is r 2000 ± 50.
    run.set_sky(0, 590.0, 1500.0, 100.0);
    run.set_sky(1, 1000.0, 2000.0, 50.0);
    assert_eq!(run.ladder.players[0].floor, 300.0);

    // An upset win: F(590) = (1/1.75)·(0.25 + 0.75·0.39) = 0.31, B(590) = 25 − 0.39·20 = 17.2.
    let (r, _) = hand_glicko(1500.0, 100.0, 2000.0, 50.0, 1.0);
    let after_win = hand_rp(590.0, r - 1500.0, 1.0, 0.0, 300.0);
    assert!(after_win >= 600.0, "{after_win}");
    run.play(day(1), 0, 1, Outcome::Win);
    assert_eq!(run.rp(0), after_win);
    assert_eq!(run.ladder.players[0].floor, 600.0, "Apprentice I reached");

    // Thirty losses: each is eq. 4 with s = 0 (RP − |Δr|·F), held at 600.
    let mut rp = after_win;
    for i in 0..30 {
        let (me, opp) = (run.glicko(0), run.glicko(1));
        let (r, _) = hand_glicko(me.rating, me.deviation, opp.rating, opp.deviation, 0.0);
        let expected = hand_rp(rp, r - me.rating, 0.0, 0.0, 600.0);
        run.play(day(2 + i), 0, 1, Outcome::Loss);
        assert_eq!(run.rp(0), expected, "loss {}", i + 1);
        assert!(run.rp(0) >= 600.0);
        rp = expected;
    }
    assert_eq!(run.rp(0), 600.0, "the losses ran RP down onto the floor");
    // Without the floor the last loss would have gone below 600.
    let (me, opp) = (run.glicko(0), run.glicko(1));
    let (r, _) = hand_glicko(me.rating, me.deviation, opp.rating, opp.deviation, 0.0);
    assert!(hand_rp(600.0, r - me.rating, 0.0, 0.0, 0.0) < 600.0);

    // The hard reset: highest tier reached Apprentice I → 450, and the floor is gone.
    run.hard_reset(day(40));
    assert_eq!(run.rp(0), 450.0);
    assert!(run.ladder.players[0].floor < 450.0);
    let (me, opp) = (run.glicko(0), run.glicko(1));
    assert_eq!(me.deviation, 350.0);
    let (r, _) = hand_glicko(me.rating, me.deviation, opp.rating, opp.deviation, 0.0);
    let expected = hand_rp(450.0, r - me.rating, 0.0, 0.0, 200.0);
    assert!(expected < 450.0);
    run.play(day(41), 0, 1, Outcome::Loss);
    assert_eq!(
        run.rp(0),
        expected,
        "below last season's 600 floor and below 450"
    );
    // It is a new season: the floor is now the one reached this season (Trainee I).
    assert_eq!(run.ladder.players[0].floor, hand_floor(expected));
    for i in 0..40 {
        run.play(day(42 + i), 0, 1, Outcome::Loss);
        assert!(run.rp(0) >= 300.0, "Trainee I was reached this season");
    }
    assert!(run.rp(0) < 450.0);
}

/// After a hard reset a player's RP is their tier's reset value; a Wanderer restarts at 200.
/// Wanderer is a hard floor (the white paper: "players who begin playing and immediately lose will
/// drop rating, r, but not rank, RP, since they are already at the rank floor"), so a
/// Wanderer reset to 200 is held there like a brand-new player.
#[test]
fn skyweaver_wanderer_floor_holds_after_a_hard_reset() {
    let mut run = Run::new(sky_rules(&[]), &["wanderer", "other"]);
    run.set_sky(1, 650.0, 1600.0, 100.0);
    run.hard_reset(day(1));
    assert_eq!(run.rp(0), 200.0);
    run.play(day(2), 0, 1, Outcome::Loss);
    assert_eq!(run.rp(0), 200.0, "Wanderer is a hard floor");
}

/// Three reset values sit exactly on a hard floor: Trainee I's 300 (Trainee I), Expert I's 600
/// (Apprentice I) and Master's 900 (Expert I). Once a player's RP has reached a hard floor
/// this season, RP never drops below it until the next hard reset; after the reset the
/// player's RP *is* that floor in the new season (the white paper: RP is set "and have
/// their rank updated accordingly"). So the engine counts the floor under the reset value as
/// reached, as the Elo migration does for the RP it sets.
#[test]
fn skyweaver_reset_onto_a_hard_floor_holds_it() {
    // (RP before the reset, reset value = a hard floor)
    for (rp, reset) in [(350.0, 300.0), (950.0, 600.0), (1250.0, 900.0)] {
        // No Grandweaver places, so 1250 is a plain Master.
        let mut run = Run::new(sky_rules(&["grandweaver_count=0"]), &["player", "other"]);
        run.set_sky(0, rp, 1500.0, 100.0);
        run.set_sky(1, 700.0, 1600.0, 100.0);
        run.hard_reset(day(1));
        assert_eq!(run.rp(0), reset);
        run.play(day(2), 0, 1, Outcome::Loss);
        assert_eq!(
            run.rp(0),
            reset,
            "reset to {reset}, a hard floor, then a loss"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 4. The weekly soft reset
// ---------------------------------------------------------------------------------------------

/// Grandweavers above 1400 drop to 1400, Masters above 1300 drop to 1300, the rest keep
/// their RP (the white paper's "Weekly Soft Reset" and Table 1).
#[test]
fn skyweaver_soft_reset_caps_master_and_grandweaver_rp() {
    let mut run = Run::new(
        sky_rules(&["grandweaver_count=1"]),
        &["grandweaver", "high master", "master", "expert"],
    );
    run.set_sky(0, 1500.0, 1800.0, 60.0);
    run.set_sky(1, 1350.0, 1700.0, 60.0);
    run.set_sky(2, 1250.0, 1650.0, 60.0);
    run.set_sky(3, 1150.0, 1600.0, 60.0);
    assert_eq!(
        run.tiers(),
        [
            Tier::Grandweaver,
            Tier::Master,
            Tier::Master,
            Tier::ExpertIII
        ]
    );
    run.soft_reset(day(7));
    assert_eq!(
        [run.rp(0), run.rp(1), run.rp(2), run.rp(3)],
        [1400.0, 1300.0, 1250.0, 1150.0]
    );
    assert!(run.ladder.players[0].season_grandweaver);
    assert!(!run.ladder.players[1].season_grandweaver);

    // With two Grandweaver places, a Grandweaver at 1350 keeps 1350: only the Master cap is
    // 1300.
    let mut run = Run::new(sky_rules(&["grandweaver_count=2"]), &["a", "b", "c"]);
    run.set_sky(0, 1450.0, 1800.0, 60.0);
    run.set_sky(1, 1350.0, 1700.0, 60.0);
    run.set_sky(2, 1320.0, 1650.0, 60.0);
    run.soft_reset(day(7));
    assert_eq!([run.rp(0), run.rp(1), run.rp(2)], [1400.0, 1350.0, 1300.0]);
}

/// Each soft reset rolls one rating period: after t idle resets RD = min(√(RD² + c²t), 350)
/// (eq. 1, c = 34.6). From 50: t = 1 → √(2500 + 1197.16) = 60.804; t = 3 → √(2500 + 3591.48)
/// = 78.048; t = 10 → √(2500 + 11971.6) = 120.298; t = 100 → √(2500 + 119716) = 349.594.
/// From 200, t = 100 reaches the cap: √(40000 + 119716) = 399.64 → 350.
#[test]
fn skyweaver_soft_reset_grows_rd_by_equation_1() {
    let c: f64 = 34.6;
    let eq1 = |rd: f64, t: f64| (rd * rd + c * c * t).sqrt().min(350.0);
    close(eq1(50.0, 1.0), 60.804_276_1, 1e-6, "eq. 1, t = 1");
    close(eq1(50.0, 3.0), 78.047_934_0, 1e-6, "eq. 1, t = 3");
    close(eq1(50.0, 10.0), 120.297_963_4, 1e-6, "eq. 1, t = 10");
    close(eq1(50.0, 100.0), 349.594_050_3, 1e-6, "eq. 1, t = 100");
    assert_eq!(eq1(200.0, 100.0), 350.0);

    let mut run = Run::new(sky_rules(&[]), &["idle 50", "idle 200", "idle 350"]);
    run.set_sky(0, 700.0, 1700.0, 50.0);
    run.set_sky(1, 700.0, 1400.0, 200.0);
    let checkpoints = [1, 3, 10, 100];
    for t in 1..=100u64 {
        run.soft_reset(day(7 * t));
        if checkpoints.contains(&t) {
            let t = t as f64;
            close(run.glicko(0).deviation, eq1(50.0, t), 1e-9, "RD from 50");
            close(run.glicko(1).deviation, eq1(200.0, t), 1e-9, "RD from 200");
            assert_eq!(run.glicko(2).deviation, 350.0, "RD_init is the ceiling");
            // The rating itself does not move.
            assert_eq!(run.glicko(0).rating, 1700.0);
            assert_eq!(run.glicko(1).rating, 1400.0);
        }
    }
    assert_eq!(run.glicko(1).deviation, 350.0);
    assert_eq!(run.ladder.week, 101);
}

// ---------------------------------------------------------------------------------------------
// 5. The monthly hard reset
// ---------------------------------------------------------------------------------------------

/// RP := the hard reset value of the highest tier reached this season (Table 1).
#[test]
fn skyweaver_hard_reset_value_of_each_tier() {
    // (name, RP now, highest RP this season, expected reset value)
    let rows: [(&str, f64, f64, f64); 12] = [
        ("wanderer", 250.0, 250.0, 200.0),
        ("trainee 1", 350.0, 350.0, 300.0),
        ("trainee 2", 420.0, 420.0, 350.0),
        ("trainee 3", 599.0, 599.0, 400.0),
        ("apprentice 1", 600.0, 600.0, 450.0),
        ("apprentice 2", 750.0, 750.0, 500.0),
        ("apprentice 3", 850.0, 899.0, 550.0),
        ("expert 1", 900.0, 900.0, 600.0),
        // Reached 1050 (Expert II), fell back to 950 (Expert I): Expert II's value.
        ("fell back", 950.0, 1050.0, 700.0),
        ("expert 3", 1150.0, 1150.0, 800.0),
        ("master", 1250.0, 1250.0, 900.0),
        ("grandweaver", 1350.0, 1350.0, 1000.0),
    ];
    let names: Vec<&str> = rows.iter().map(|r| r.0).collect();
    let mut run = Run::new(sky_rules(&["grandweaver_count=1"]), &names);
    for (i, (_, rp, peak, _)) in rows.iter().enumerate() {
        run.set_sky(i, *rp, 1500.0 + 10.0 * i as f64, 80.0);
        run.ladder.players[i].season_peak_rp = *peak;
    }
    let tiers = run.tiers();
    assert_eq!(
        tiers[8],
        Tier::ExpertI,
        "the one who fell back is Expert I now"
    );
    assert_eq!(tiers[10], Tier::Master);
    assert_eq!(tiers[11], Tier::Grandweaver);
    for (i, (_, _, peak, value)) in rows.iter().enumerate() {
        let highest = if i == 11 {
            Tier::Grandweaver
        } else {
            hand_tier(*peak)
        };
        assert_eq!(hand_hard_reset_value(highest), *value);
    }
    run.hard_reset(day(28));
    for (i, (name, _, _, value)) in rows.iter().enumerate() {
        assert_eq!(run.rp(i), *value, "{name}");
        // The floors reached are cleared; the reset value itself counts as reached when it
        // sits on a hard floor (the design notes), so the floor is the one at or below it.
        assert_eq!(
            run.ladder.players[i].floor,
            hand_floor(*value),
            "{name}: floors cleared"
        );
    }
    assert_eq!(run.ladder.season, 2);
    assert_eq!(run.ladder.week, 1);

    // Reaching 1050 and falling back to 950 through real matches.
    let mut run = Run::new(sky_rules(&[]), &["climber", "opponent"]);
    run.set_sky(0, 1040.0, 1600.0, 100.0);
    run.set_sky(1, 1000.0, 1600.0, 100.0);
    run.play(day(1), 0, 1, Outcome::Win);
    let peak = run.rp(0);
    assert!((1050.0..1100.0).contains(&peak), "{peak}");
    let mut i = 0;
    while run.rp(0) >= 1000.0 {
        i += 1;
        run.play(day(1 + i), 0, 1, Outcome::Loss);
    }
    assert_eq!(hand_tier(run.rp(0)), Tier::ExpertI);
    run.hard_reset(day(28));
    assert_eq!(
        run.rp(0),
        700.0,
        "Expert II was the highest tier this season"
    );
}

/// A player who was a Grandweaver at a weekly reset keeps Grandweaver's reset value (1000)
/// even after falling back among the Masters.
#[test]
fn skyweaver_hard_reset_remembers_a_grandweaver_week() {
    let mut run = Run::new(
        sky_rules(&["grandweaver_count=1"]),
        &["was top", "now top", "master"],
    );
    run.set_sky(0, 1350.0, 1700.0, 60.0);
    run.set_sky(1, 1290.0, 1700.0, 60.0);
    run.set_sky(2, 1220.0, 1600.0, 60.0);
    run.soft_reset(day(7)); // player 0 is the Grandweaver this week (under the 1400 cap)
    assert_eq!([run.rp(0), run.rp(1)], [1350.0, 1290.0]);
    assert!(run.ladder.players[0].season_grandweaver);
    run.ladder.players[0].rp = 1230.0; // falls back among the Masters
    assert_eq!(run.tiers(), [Tier::Master, Tier::Grandweaver, Tier::Master]);
    run.hard_reset(day(28));
    assert_eq!([run.rp(0), run.rp(1), run.rp(2)], [1000.0, 1000.0, 900.0]);
}

/// MMR: r' = 1500 + (r − r_lo)/(r_hi − r_lo)·span, RD' = 350. Ratings 1200, 1350, 1800:
/// span 750 → 1500, 1500 + 150/600·750 = 1687.5, 2250; span 500 → 1500, 1625, 2000.
/// All equal → 1500.
#[test]
fn skyweaver_hard_reset_rescales_mmr() {
    for (span, expected) in [
        (None, [1500.0, 1687.5, 2250.0]),
        (Some("hard_reset_span=500"), [1500.0, 1625.0, 2000.0]),
    ] {
        let params: Vec<&str> = span.into_iter().collect();
        let mut run = Run::new(sky_rules(&params), &["low", "middle", "high"]);
        run.set_sky(0, 400.0, 1200.0, 60.0);
        run.set_sky(1, 700.0, 1350.0, 120.0);
        run.set_sky(2, 1000.0, 1800.0, 300.0);
        run.hard_reset(day(28));
        for (i, r) in expected.into_iter().enumerate() {
            close(run.glicko(i).rating, r, 1e-9, "rescaled r");
            assert_eq!(run.glicko(i).deviation, 350.0);
        }
    }
    let mut run = Run::new(sky_rules(&[]), &["x", "y", "z"]);
    for i in 0..3 {
        run.set_sky(i, 500.0, 1600.0, 40.0 + 50.0 * i as f64);
    }
    run.hard_reset(day(28));
    for i in 0..3 {
        assert_eq!(run.glicko(i).rating, 1500.0);
        assert_eq!(run.glicko(i).deviation, 350.0);
    }
}

/// The hard reset rescales r over all rated players (eq. 5). A player who never played has no
/// rating, only the newcomer's default 1500, and must not set the bottom of the range. Three
/// players who played, at 1600, 1700, 1900, and one who never played (1500, RD 350):
///   range over those who played: 1600 … 1900 → 1500 + (r − 1600)/300·750:
///   1600 → 1500, 1700 → 1500 + 100/300·750 = 1750, 1900 → 2250;
///   the one who never played starts the season as a newcomer joins it: 1500, RD 350.
/// (Counting them, the range was 1500 … 1900 and 1600 went to 1500 + 100/400·750 = 1687.5.)
#[test]
fn skyweaver_hard_reset_range_ignores_a_player_who_never_played() {
    use rungs_ladder::seasons::{HardResetRange, hard_reset_range};
    let mut run = Run::new(sky_rules(&[]), &["low", "middle", "high", "never"]);
    for (i, r) in [1600.0, 1700.0, 1900.0].into_iter().enumerate() {
        run.set_sky(i, 500.0, r, 80.0);
        run.ladder.players[i].matches = 3;
    }
    assert_eq!(run.ladder.players[3].matches, 0);
    assert_eq!(
        hard_reset_range(&run.ladder),
        Some(HardResetRange {
            from: (1600.0, 1900.0),
            to: (1500.0, 2250.0),
        })
    );
    run.hard_reset(day(28));
    for (i, r) in [1500.0, 1750.0, 2250.0, 1500.0].into_iter().enumerate() {
        close(run.glicko(i).rating, r, 1e-9, "rescaled r");
        assert_eq!(run.glicko(i).deviation, 350.0);
    }
    // Next season the one at the bottom has exactly a newcomer's figures (1500, 350), but
    // has played: they still count. "never" still has not, and does not.
    assert_eq!(
        hard_reset_range(&run.ladder).map(|r| r.from),
        Some((1500.0, 2250.0))
    );
    // The span is a parameter (500: 1500 … 2000); equal ratings map to 1500.
    let mut run = Run::new(sky_rules(&["hard_reset_span=500"]), &["a", "b", "never"]);
    run.set_sky(0, 500.0, 1400.0, 80.0);
    run.set_sky(1, 500.0, 1400.0, 90.0);
    run.ladder.players[0].matches = 1;
    run.ladder.players[1].matches = 1;
    assert_eq!(
        hard_reset_range(&run.ladder),
        Some(HardResetRange {
            from: (1400.0, 1400.0),
            to: (1500.0, 1500.0),
        })
    );
    run.ladder.players[1].skill = Skill::Glicko(glicko::Rating {
        rating: 1800.0,
        deviation: 90.0,
    });
    assert_eq!(
        hard_reset_range(&run.ladder).map(|r| r.to),
        Some((1500.0, 2000.0))
    );
    // Nobody rated, or another system: no range.
    let run = Run::new(sky_rules(&[]), &["x", "y"]);
    assert_eq!(hard_reset_range(&run.ladder), None);
    let run = Run::new(inv_rules(), &["x", "y"]);
    assert_eq!(hard_reset_range(&run.ladder), None);
}

/// A migrated rating is a rating (r := Elo) even before its first match here: it
/// counts in the range. Migrated at 1300 (never played), played at 1600 and 1900:
///   1300 … 1900 → 1300 → 1500, 1600 → 1500 + 300/600·750 = 1875, 1900 → 2250.
#[test]
fn skyweaver_hard_reset_range_counts_a_migrated_rating() {
    use rungs_ladder::seasons::{Migration, MigrationEntry, OldRank, hard_reset_range};
    let mut run = Run::new(sky_rules(&[]), &["migrated", "a", "b"]);
    run.set_sky(1, 500.0, 1600.0, 80.0);
    run.set_sky(2, 500.0, 1900.0, 80.0);
    run.event(
        day(1),
        &Event::Migration {
            migration: Box::new(Migration {
                entries: vec![MigrationEntry {
                    player: 0,
                    elo: 1300.0,
                    old_rank: OldRank::BelowApprentice,
                }],
            }),
        },
    );
    assert_eq!(
        hard_reset_range(&run.ladder).map(|r| r.from),
        Some((1300.0, 1900.0))
    );
    run.hard_reset(day(28));
    for (i, r) in [1500.0, 1875.0, 2250.0].into_iter().enumerate() {
        close(run.glicko(i).rating, r, 1e-9, "rescaled r");
    }
}

/// Migrates `(player, Elo)` pairs with an old rank that gives 200 RP.
fn migrate_elo(run: &mut Run, date: NaiveDate, list: &[(PlayerId, f64)]) {
    use rungs_ladder::seasons::{Migration, MigrationEntry, OldRank};
    let entries = list
        .iter()
        .map(|&(player, elo)| MigrationEntry {
            player,
            elo,
            old_rank: OldRank::BelowApprentice,
        })
        .collect();
    run.event(
        date,
        &Event::Migration {
            migration: Box::new(Migration { entries }),
        },
    );
}

/// A migrated Elo of exactly 1500 is a rating of record, though it equals
/// a newcomer's (1500, 350). An Elo list A 1500, B 1600, C 1700 and no matches; eq. 5 over
/// all three (r_lo = 1500, r_hi = 1700, span 750):
///   A 1500 → 1500 + 0/200·750 = 1500, B 1600 → 1500 + 100/200·750 = 1875,
///   C 1700 → 1500 + 200/200·750 = 2250.
/// (Taking A for a newcomer gave the range 1600–1700 and B 1600 → 1500.)
/// And Sc migrated at 1500 between players who played at 1300 and 2300:
///   1500 + (1500 − 1300)/(2300 − 1300)·750 = 1500 + 0.2·750 = 1650.
#[test]
fn skyweaver_a_migrated_elo_of_1500_is_a_rating_of_record() {
    use rungs_ladder::seasons::{HardResetRange, hard_reset_range};
    let mut run = Run::new(sky_rules(&[]), &["A", "B", "C"]);
    migrate_elo(&mut run, day(1), &[(0, 1500.0), (1, 1600.0), (2, 1700.0)]);
    let range = hard_reset_range(&run.ladder).expect("three migrated ratings");
    assert_eq!(
        range,
        HardResetRange {
            from: (1500.0, 1700.0),
            to: (1500.0, 2250.0),
        }
    );
    assert_eq!(range.text(), "MMR 1500–1700 → 1500–2250");
    run.hard_reset(day(28));
    for (i, r) in [1500.0, 1875.0, 2250.0].into_iter().enumerate() {
        close(run.glicko(i).rating, r, 1e-9, "rescaled r");
    }

    let mut run = Run::new(sky_rules(&[]), &["lo", "hi", "Sc", "never"]);
    run.set_sky(0, 500.0, 1300.0, 80.0);
    run.set_sky(1, 500.0, 2300.0, 80.0);
    run.ladder.players[0].matches = 4;
    run.ladder.players[1].matches = 4;
    migrate_elo(&mut run, day(1), &[(2, 1500.0)]);
    assert_eq!(
        hard_reset_range(&run.ladder).map(|r| r.from),
        Some((1300.0, 2300.0))
    );
    run.hard_reset(day(28));
    close(run.glicko(2).rating, 1650.0, 1e-9, "Sc");
    // The one who neither played nor was migrated starts as a newcomer joins: 1500.
    assert_eq!(run.glicko(3).rating, 1500.0);
}

// ---------------------------------------------------------------------------------------------
// 6. Grandweaver
// ---------------------------------------------------------------------------------------------

/// Grandweaver = the top N by RP among players at 1200 or more; ties at equal RP go to the
/// higher rating, then the lower id (src/ladder/replay.rs `grandweaver_set`).
#[test]
fn skyweaver_grandweaver_is_the_top_n_masters() {
    let names = ["p0", "p1", "p2", "p3", "p4", "p5"];
    // (RP, rating)
    let setup = [
        (1250.0, 1600.0),
        (1300.0, 1500.0),
        (1300.0, 1700.0),
        (1300.0, 1700.0), // same RP and rating as p2: the lower id (p2) wins the tie
        (1199.0, 2000.0), // best rating, but not a Master
        (1400.0, 1400.0),
    ];
    use Tier::{ExpertIII as E3, Grandweaver as GW, Master as M};
    let expected = [
        (0, [M, M, M, M, E3, M]),
        (1, [M, M, M, M, E3, GW]),
        (2, [M, M, GW, M, E3, GW]),
        (3, [M, M, GW, GW, E3, GW]),
        (4, [M, GW, GW, GW, E3, GW]),
        (5, [GW, GW, GW, GW, E3, GW]),
        (100, [GW, GW, GW, GW, E3, GW]),
    ];
    for (n, tiers) in expected {
        let mut run = Run::new(sky_rules(&[&format!("grandweaver_count={n}")]), &names);
        for (i, (rp, r)) in setup.iter().enumerate() {
            run.set_sky(i, *rp, *r, 80.0);
        }
        assert_eq!(run.tiers(), tiers, "N = {n}");
    }
}

/// Grandweaver is the top N of the players on the leaderboard (the white paper: "competing
/// with other players on the ladder"); a retired or idle player, whom
/// the standings leave off, holds no slot. N = 1, idle_days 15. R retired at 1450 RP, r
/// 2100; I idle (last match 2 Jan, the ladder's latest 11 Feb: 40 days) at 1500 RP; M at
/// 1350 RP, r 1800, on the leaderboard. M is the Grandweaver; R and I are Masters.
///   Soft reset: the Grandweaver cap is 1400, the Master cap 1300: M 1350 stays 1350,
///   R 1450 → 1300, I 1500 → 1300.
///   Hard reset (Table 1): Grandweaver 1000 for M, Master 900 for R and I.
/// (Taking R for the Grandweaver showed M as "Master" and nobody as Grandweaver, capped M
/// at 1300 and gave R the Grandweaver's 1400 cap and reset value 1000.)
#[test]
fn skyweaver_grandweaver_slots_go_to_players_on_the_leaderboard() {
    use Tier::{Grandweaver as GW, Master as M};
    let mut run = Run::new(
        sky_rules(&["grandweaver_count=1", "idle_days=15"]),
        &["R", "I", "M", "x"],
    );
    run.set_sky(0, 1450.0, 2100.0, 60.0);
    run.set_sky(1, 1500.0, 1900.0, 60.0);
    run.set_sky(2, 1350.0, 1800.0, 60.0);
    for (i, last) in [(0, 40), (1, 1), (2, 41), (3, 41)] {
        run.ladder.players[i].last_played = Some(day(last));
        run.ladder.players[i].matches = 30;
    }
    run.event(
        day(41),
        &Event::Retire {
            id: 0,
            retired: true,
        },
    );
    let rows = standings(&run.ladder);
    let listed: Vec<usize> = rows
        .iter()
        .filter(|s| s.listed())
        .map(|s| s.id as usize)
        .collect();
    assert_eq!(listed, [2, 3], "R retired, I idle");
    assert_eq!(run.tiers()[..3], [M, M, GW]);
    run.soft_reset(day(42));
    assert_eq!([run.rp(0), run.rp(1), run.rp(2)], [1300.0, 1300.0, 1350.0]);
    run.hard_reset(day(43));
    assert_eq!([run.rp(0), run.rp(1), run.rp(2)], [900.0, 900.0, 1000.0]);
}

/// The white paper resets RP to "the highest tier reached during the season"; a
/// Grandweaver slot held at any moment counts, not only at a weekly reset. N = 1. P (1250
/// RP) beats x on 2 Jan and is the Grandweaver on that day's standings; Q (1248 RP, the
/// same r and RD as P) beats P on 3 Jan and takes the slot. The hard reset on 4 Jan gives
/// both the Grandweaver's 1000 (P was given Master's 900).
#[test]
fn skyweaver_a_grandweaver_slot_held_between_resets_is_reached() {
    use Tier::{Grandweaver as GW, Master as M};
    let mut run = Run::new(sky_rules(&["grandweaver_count=1"]), &["P", "Q", "x"]);
    run.set_sky(0, 1250.0, 1900.0, 80.0);
    run.set_sky(1, 1248.0, 1900.0, 80.0);
    run.play(day(1), 0, 2, Outcome::Win);
    assert_eq!(run.tiers()[..2], [GW, M], "2 Jan: P holds the slot");
    run.play(day(2), 1, 0, Outcome::Win);
    assert_eq!(run.tiers()[..2], [M, GW], "3 Jan: Q has taken it");
    assert!(run.rp(1) > run.rp(0) && run.rp(0) >= 1200.0);
    run.hard_reset(day(3));
    assert_eq!([run.rp(0), run.rp(1)], [1000.0, 1000.0]);
}

/// A tie for the last slot (equal RP, equal rating) goes to the player who
/// joined first (the README's rule), not the lower id; and the standings list the
/// Grandweaver above the Master. N = 1. Yv is entered first (id 0) with the join date
/// 1 Feb, Xe second (id 1) joined 1 Jan; both at 1200 RP and r 2000: Xe is the Grandweaver,
/// listed first.
#[test]
fn skyweaver_grandweaver_ties_go_to_the_player_who_joined_first() {
    let jan1 = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
    let feb1 = NaiveDate::from_ymd_opt(2024, 2, 1).unwrap();
    let mut run = Run::new(sky_rules(&["grandweaver_count=1"]), &[]);
    // Replay order is by date: Xe's join (entered second) comes first.
    run.ladder
        .apply(
            jan1,
            2,
            &Event::Player {
                id: 1,
                name: rungs_ladder::values::PlayerName::parse("Xe").unwrap(),
                undated: false,
            },
            &mut run.history,
        )
        .unwrap();
    run.ladder
        .apply(
            feb1,
            1,
            &Event::Player {
                id: 0,
                name: rungs_ladder::values::PlayerName::parse("Yv").unwrap(),
                undated: false,
            },
            &mut run.history,
        )
        .unwrap();
    run.set_sky(0, 1200.0, 2000.0, 60.0);
    run.set_sky(1, 1200.0, 2000.0, 60.0);
    let rows = standings(&run.ladder);
    let order: Vec<(&str, Option<Tier>)> = rows
        .iter()
        .map(|s| (run.ladder.players[s.id as usize].name.as_str(), s.tier))
        .collect();
    assert_eq!(
        order,
        [("Xe", Some(Tier::Grandweaver)), ("Yv", Some(Tier::Master))]
    );
}

// ---------------------------------------------------------------------------------------------
// 7. INVERSUS Rank Points, rule by rule
// ---------------------------------------------------------------------------------------------

/// μ mapped from [−6.045, 6.045] onto [0, 10000].
fn map(x: f64) -> f64 {
    (x + 6.045) / 12.09 * 10000.0
}

fn g2(mu: f64, phi: f64) -> glicko2::Rating {
    glicko2::Rating {
        mu,
        phi,
        sigma: 0.06,
    }
}

/// After μ = 1, φ = 0.4: target = map(1 − 1.2) = 5.845/12.09·10000 = 4834.574,
/// upper = map(1 + 1.2) = 8.245/12.09·10000 = 6819.686.
#[test]
fn inversus_rp_moves_half_way_to_the_target() {
    let p = inv_params();
    let after = g2(1.0, 0.4);
    let target = map(1.0 - 1.2);
    close(target, 4_834.574_028, 1e-3, "target");
    close(inversus::target_rp(&after, &p), target, 1e-9, "target_rp");
    // From 4000, a win: 4000 + (4834.574 − 4000)/2 = 4417.287 → 4417.
    assert_eq!(
        inversus::next_rp(4000.0, 1.0, &after, 1.0, Outcome::Win, &p),
        4417.0
    );
    // From 5500, a loss: 5500 + (4834.574 − 5500)/2 = 5167.287 → 5167.
    assert_eq!(
        inversus::next_rp(5500.0, 1.0, &after, 1.0, Outcome::Loss, &p),
        5167.0
    );
}

#[test]
fn inversus_win_never_lowers_and_loss_never_raises_rp() {
    let p = inv_params();
    let after = g2(1.0, 0.4); // target 4834.574, upper 6819.686
    // A win at 5500, above the target: half-way would be −332.7; instead +1 (5501 ≤ upper).
    assert_eq!(
        inversus::next_rp(5500.0, 1.0, &after, 1.0, Outcome::Win, &p),
        5501.0
    );
    // A loss at 4000, below the target: half-way would be +417.3; instead −1.
    assert_eq!(
        inversus::next_rp(4000.0, 1.0, &after, 1.0, Outcome::Loss, &p),
        3999.0
    );
}

#[test]
fn inversus_decided_matches_move_at_least_one() {
    let p = inv_params();
    let after = g2(1.0, 0.4); // target 4834.574
    // A win at 4834: half-way is +0.287, which would round to no change; the minimum is 1.
    assert_eq!(
        inversus::next_rp(4834.0, 1.0, &after, 1.0, Outcome::Win, &p),
        4835.0
    );
    // A loss at 4835: half-way is −0.213; the minimum is −1.
    assert_eq!(
        inversus::next_rp(4835.0, 1.0, &after, 1.0, Outcome::Loss, &p),
        4834.0
    );
}

/// The exception: a win whose +1 would pass the player's upper bound μ + 3φ (mapped) or
/// 10000 moves less than 1 (here: nothing once rounded).
#[test]
fn inversus_minimum_step_stops_at_the_upper_bound_and_10000() {
    let p = inv_params();
    // μ = 1, φ = 0.43: upper = map(2.29) = 8.335/12.09·10000 = 6894.127.
    let after = g2(1.0, 0.43);
    close(map(1.0 + 1.29), 6894.127, 1e-3, "upper");
    // At 6894 a +1 would pass 6894.127: the step is 0.127 → rounds to no change.
    assert_eq!(
        inversus::next_rp(6894.0, 1.0, &after, 1.0, Outcome::Win, &p),
        6894.0
    );
    // Already above the upper bound (target 4760.1, far below): a win moves 0.
    assert_eq!(
        inversus::next_rp(6900.0, 1.0, &after, 1.0, Outcome::Win, &p),
        6900.0
    );
    // The 10000 limit: μ = 6, φ = 0.2 → target map(5.4) = 9466.5, upper map(6.6) = 10459 > 10000.
    let top = g2(6.0, 0.2);
    assert_eq!(
        inversus::next_rp(10000.0, 6.0, &top, 6.0, Outcome::Win, &p),
        10000.0
    );
    assert_eq!(
        inversus::next_rp(9999.0, 6.0, &top, 6.0, Outcome::Win, &p),
        10000.0
    );
}

/// μ = 1, φ = 0.4 puts the upper bound at 6819.686. From 6819 a win may not add 1 (6820 is
/// past the bound), so under the INVERSUS notes' rule ("always award a minimum of 1 RP unless
/// it will step you past the upper end of your 99.7% confidence bounds") the win falls back to
/// the half-way rule, which never lowers RP: 6819. The engine instead steps the fractional
/// distance to the bound, 0.686, and rounding turns that into +1: 6820, past the bound.
#[test]
fn inversus_win_never_rounds_past_the_upper_bound() {
    let p = inv_params();
    let after = g2(1.0, 0.4);
    let upper = map(1.0 + 1.2);
    close(upper, 6819.686, 1e-3, "upper");
    let next = inversus::next_rp(6819.0, 1.0, &after, 1.0, Outcome::Win, &p);
    assert!(next <= upper, "RP {next} passed the upper bound {upper}");
    assert_eq!(next, 6819.0);
}

/// No move exceeds 500, up or down (draws included).
#[test]
fn inversus_steps_are_capped_at_500() {
    let p = inv_params();
    // μ = 2, φ = 0.3: target map(1.1) = 7.145/12.09·10000 = 5909.843.
    let after = g2(2.0, 0.3);
    // From 0: half-way is +2954.9 → +500.
    assert_eq!(
        inversus::next_rp(0.0, 2.0, &after, 2.0, Outcome::Win, &p),
        500.0
    );
    assert_eq!(
        inversus::next_rp(0.0, 2.0, &after, 2.0, Outcome::Draw, &p),
        500.0
    );
    // From 9000: half-way is −1545.1 → −500.
    assert_eq!(
        inversus::next_rp(9000.0, 2.0, &after, 2.0, Outcome::Loss, &p),
        8500.0
    );
    assert_eq!(
        inversus::next_rp(9000.0, 2.0, &after, 2.0, Outcome::Draw, &p),
        8500.0
    );
    // The upset bonus is part of the move, and the move is capped. The INVERSUS notes: "I also
    // limit changes in RP to 500 points"; the design notes: no single RP move exceeds 500, the
    // upset bonus included. From 0, beating an opponent 6.045 above: 500 + 250·6.045/12.09 =
    // 500 + 125 = 625 uncapped (what this test expected before), 500 capped.
    assert_eq!(
        inversus::next_rp(0.0, 0.0, &after, 6.045, Outcome::Win, &p),
        500.0
    );
}

/// The audit's 519, through the engine: a new player (μ 0, φ 2.015, RP 0) beats an opponent
/// at μ 0.91884 (φ 0.5). The rating after the win comes from glicko2::rate; its target
/// map(μ' − 3φ') is above 1000, so half-way is more than 500 and the step is capped at 500;
/// the upset bonus 250·0.91884/12.09 = 19.0 used to come on top: 519. Now the move is 500.
#[test]
fn inversus_no_rp_move_exceeds_500_with_the_upset_bonus() {
    let cfg = inv_params().glicko2;
    let gap = 19.0 * 12.09 / 250.0; // 0.91884
    let opp = g2(gap, 0.5);
    let mut run = Run::new(inv_rules(), &["newcomer", "favourite"]);
    run.set_inv(1, 5000.0, opp.mu, opp.phi, opp.sigma);
    run.play(day(1), 0, 1, Outcome::Win);
    let new = glicko2::Rating::new(&cfg);
    let after = glicko2::rate(&new, &opp, Outcome::Win, &cfg).0;
    assert_eq!(run.glicko2(0), after);
    let half = map(after.mu - 3.0 * after.phi) / 2.0;
    assert!(half > 500.0, "half-way is {half}");
    close(
        250.0 * (opp.mu - new.mu) / 12.09,
        19.0,
        1e-12,
        "the upset bonus",
    );
    assert_eq!(run.rp(0), 500.0, "not 500 + 19 = 519");
}

#[test]
fn inversus_rp_is_clamped_at_zero() {
    let p = inv_params();
    let after = g2(-3.2, 1.0); // μ − 3φ = −6.2 < −6.045: map = −0.155/12.09·10000 = −128.2
    close(map(-6.2), -128.205, 1e-3, "unclamped target");
    assert_eq!(inversus::target_rp(&after, &p), 0.0);
    // A loss at 0 stays at 0 (the −1 minimum does not go negative).
    assert_eq!(
        inversus::next_rp(0.0, -3.2, &after, -3.2, Outcome::Loss, &p),
        0.0
    );
    // A draw at 300 moves half-way to 0 (150), not half-way to −128.2 (85.9 → 86).
    assert_eq!(
        inversus::next_rp(300.0, -3.2, &after, -3.2, Outcome::Draw, &p),
        150.0
    );
}

/// A win over a higher-μ opponent adds 250·(μ_opp − μ)/12.09, with μ the values going into
/// the match.
#[test]
fn inversus_upset_bonus() {
    let p = inv_params();
    let after = g2(1.0, 0.4); // target 4834.574
    // From 4000, μ 0.5 beats μ 2.5: 4000 + 417.287 + 250·2/12.09 (= 41.356) = 4458.643 → 4459.
    assert_eq!(
        inversus::next_rp(4000.0, 0.5, &after, 2.5, Outcome::Win, &p),
        4459.0
    );
    // Beating a lower-μ opponent: no bonus, 4417.
    assert_eq!(
        inversus::next_rp(4000.0, 0.5, &after, -1.5, Outcome::Win, &p),
        4417.0
    );
    // The bonus at the largest gap, 12.09, is the full 250: from 4834 (minimum step 1).
    assert_eq!(
        inversus::next_rp(4834.0, -6.045, &after, 6.045, Outcome::Win, &p),
        4834.0 + 1.0 + 250.0
    );
    // No bonus for a draw or a loss against a higher-μ opponent.
    assert_eq!(
        inversus::next_rp(4000.0, 0.5, &after, 2.5, Outcome::Draw, &p),
        4417.0
    );
    assert_eq!(
        inversus::next_rp(5500.0, 0.5, &after, 2.5, Outcome::Loss, &p),
        5167.0
    );
}

/// A draw moves half-way either way, with no minimum and no bonus.
#[test]
fn inversus_draw_moves_half_way_either_way() {
    let p = inv_params();
    let after = g2(1.0, 0.4); // target 4834.574
    assert_eq!(
        inversus::next_rp(4000.0, 1.0, &after, 1.0, Outcome::Draw, &p),
        4417.0
    );
    assert_eq!(
        inversus::next_rp(5500.0, 1.0, &after, 1.0, Outcome::Draw, &p),
        5167.0
    );
    // No minimum: +0.287 and −0.213 both round to no change.
    assert_eq!(
        inversus::next_rp(4834.0, 1.0, &after, 1.0, Outcome::Draw, &p),
        4834.0
    );
    assert_eq!(
        inversus::next_rp(4835.0, 1.0, &after, 1.0, Outcome::Draw, &p),
        4835.0
    );
}

/// The same rules through the engine: the rating after the match is glicko2::rate's, the
/// Rank Points are worked out by hand from it.
#[test]
fn inversus_rp_rules_through_the_engine() {
    let cfg = inv_params().glicko2;
    // (RP, own μ, φ; opponent μ, φ; outcome)
    struct Case {
        rp: f64,
        me: glicko2::Rating,
        opp: glicko2::Rating,
        o: Outcome,
        rule: &'static str,
    }
    let cases = [
        Case {
            rp: 4000.0,
            me: g2(1.0, 0.5),
            opp: g2(1.0, 0.5),
            o: Outcome::Win,
            rule: "half-way",
        },
        Case {
            rp: 5000.0,
            me: g2(1.0, 0.5),
            opp: g2(1.0, 0.5),
            o: Outcome::Loss,
            rule: "half-way",
        },
        Case {
            rp: 6000.0,
            me: g2(0.5, 0.5),
            opp: g2(0.5, 0.5),
            o: Outcome::Win,
            rule: "win never lowers",
        },
        Case {
            rp: 100.0,
            me: g2(0.5, 0.5),
            opp: g2(0.5, 0.5),
            o: Outcome::Loss,
            rule: "loss never raises",
        },
        Case {
            rp: 3400.0,
            me: g2(0.2, 0.5),
            opp: g2(1.8, 0.5),
            o: Outcome::Win,
            rule: "upset bonus",
        },
        Case {
            rp: 3400.0,
            me: g2(0.2, 0.5),
            opp: g2(1.8, 0.5),
            o: Outcome::Draw,
            rule: "draw",
        },
        Case {
            rp: 0.0,
            me: g2(0.0, 2.015),
            opp: g2(3.0, 0.5),
            o: Outcome::Loss,
            rule: "clamp at 0",
        },
        Case {
            rp: 300.0,
            me: g2(-4.5, 1.0),
            opp: g2(-4.5, 1.0),
            o: Outcome::Draw,
            rule: "target clamped at 0",
        },
        Case {
            rp: 0.0,
            me: g2(3.0, 0.3),
            opp: g2(3.0, 0.3),
            o: Outcome::Win,
            rule: "500 cap",
        },
    ];
    for c in cases {
        let mut run = Run::new(inv_rules(), &["me", "opponent"]);
        run.set_inv(0, c.rp, c.me.mu, c.me.phi, c.me.sigma);
        run.set_inv(1, 5000.0, c.opp.mu, c.opp.phi, c.opp.sigma);
        run.play(day(1), 0, 1, c.o);
        let after = glicko2::rate(&c.me, &c.opp, c.o, &cfg).0;
        assert_eq!(run.glicko2(0), after, "{}: the rating", c.rule);
        let target = map(after.mu - 3.0 * after.phi).max(0.0);
        let half = (target - c.rp) / 2.0;
        let bonus = 250.0 * (c.opp.mu - c.me.mu) / 12.09;
        let expected = match c.rule {
            "half-way" => {
                assert!(half.abs() >= 1.0 && half.abs() <= 500.0);
                assert_eq!(half > 0.0, c.o == Outcome::Win);
                (c.rp + half).round()
            }
            "win never lowers" => {
                assert!(half < 0.0 && map(after.mu + 3.0 * after.phi) > c.rp + 1.0);
                c.rp + 1.0
            }
            "loss never raises" => {
                assert!(half > 0.0);
                c.rp - 1.0
            }
            "upset bonus" => {
                assert!((1.0..=500.0).contains(&half));
                (c.rp + half + bonus).round()
            }
            "draw" => {
                assert!((1.0..=500.0).contains(&half));
                (c.rp + half).round() // no bonus on a draw
            }
            "clamp at 0" => {
                assert!(half > 0.0); // −1 from 0, clamped
                0.0
            }
            "target clamped at 0" => {
                // Unclamped, half-way would land below 150 (the target is under −2).
                assert!(map(after.mu - 3.0 * after.phi) < -2.0);
                assert_eq!(target, 0.0);
                150.0 // half-way from 300 to 0
            }
            "500 cap" => {
                assert!(half > 500.0);
                500.0
            }
            _ => unreachable!(),
        };
        assert_eq!(run.rp(0), expected, "{}", c.rule);
    }
}

/// Inactivity before a match is whole days idle / 14 rating periods: φ = √(φ² + t·σ²),
/// then the match is one more rating period (glicko2::rate on the grown φ).
#[test]
fn inversus_idle_days_are_partial_rating_periods() {
    let cfg = inv_params().glicko2;
    for (idle, t) in [(14u64, 1.0), (7, 0.5), (20, 20.0 / 14.0), (0, 0.0)] {
        let mut run = Run::new(inv_rules(), &["returning", "fresh"]);
        run.set_inv(0, 4000.0, 0.5, 0.3, 0.06);
        run.ladder.players[0].last_played = Some(day(10));
        run.set_inv(1, 4000.0, 0.5, 0.3, 0.06); // never played: no inactivity
        run.play(day(10 + idle), 0, 1, Outcome::Win);

        // 14 days: φ = √(0.3² + 0.06²) = √0.0936 = 0.305941.
        let grown_phi = (0.3f64 * 0.3 + t * 0.06 * 0.06).sqrt();
        if idle == 14 {
            close(grown_phi, 0.305_941_170_8, 1e-9, "one period's growth");
        }
        let grown = g2(0.5, grown_phi);
        let expected = glicko2::rate(&grown, &g2(0.5, 0.3), Outcome::Win, &cfg).0;
        let got = run.glicko2(0);
        close(got.mu, expected.mu, 1e-12, "μ'");
        close(got.phi, expected.phi, 1e-12, "φ'");
        close(got.sigma, expected.sigma, 1e-12, "σ'");
        if idle > 0 {
            // Distinguishable from no inactivity at all.
            let stale = glicko2::rate(&g2(0.5, 0.3), &g2(0.5, 0.3), Outcome::Win, &cfg).0;
            assert!((got.phi - stale.phi).abs() > 1e-6, "{idle} days");
        }
        // The opponent had no previous match, so nothing grew.
        let opp = glicko2::rate(&g2(0.5, 0.3), &grown, Outcome::Loss, &cfg).0;
        close(run.glicko2(1).phi, opp.phi, 1e-12, "opponent φ'");
    }

    // Through real matches: play on day 0, again on day 14.
    let mut run = Run::new(inv_rules(), &["a", "b", "c"]);
    run.play(day(0), 0, 1, Outcome::Win);
    let after_first = run.glicko2(0);
    run.event(
        day(14),
        &Event::Player {
            id: 3,
            name: rungs_ladder::values::PlayerName::parse("d").unwrap(),
            undated: false,
        },
    );
    run.play(day(14), 0, 3, Outcome::Loss);
    let grown = glicko2::Rating {
        phi: (after_first.phi * after_first.phi + after_first.sigma * after_first.sigma).sqrt(),
        ..after_first
    };
    let new_d = glicko2::Rating::new(&cfg);
    let expected = glicko2::rate(&grown, &new_d, Outcome::Loss, &cfg).0;
    close(
        run.glicko2(0).phi,
        expected.phi,
        1e-12,
        "φ after 14 idle days",
    );
    close(
        run.glicko2(0).mu,
        expected.mu,
        1e-12,
        "μ after 14 idle days",
    );
}

/// An abandoned match, the INVERSUS ranking notes: "If the save data already has a pending
/// unresolved match (e.g. the player quit the game), it is evaluated as a loss [...] If the
/// match ends early due to the opponent quitting, the pending match is canceled (you do not get
/// an automatic win)." So the quitter takes a rated loss; for the player left behind the match
/// is cancelled — no rating change, no RP change.
///
/// The quitter (μ 0.5, φ 0.6, RP 4500) ends exactly where a played loss against the same
/// opponent puts them; the opponent (μ −0.5, φ 0.7, RP 3000) does not move at all: not μ, φ,
/// σ, RP, nor their record (no win, not even a match played).
#[test]
fn inversus_forfeit_the_quitter_loses_and_the_other_is_unchanged() {
    let cfg = inv_params().glicko2;
    let (me, opp) = (g2(0.5, 0.6), g2(-0.5, 0.7));
    let mut forfeit = Run::new(inv_rules(), &["quitter", "stayer"]);
    let mut loss = Run::new(inv_rules(), &["quitter", "stayer"]);
    for run in [&mut forfeit, &mut loss] {
        run.set_inv(0, 4500.0, me.mu, me.phi, me.sigma);
        run.set_inv(1, 3000.0, opp.mu, opp.phi, opp.sigma);
    }
    let stayer_before = forfeit.ladder.players[1].clone();
    forfeit.event(day(1), &match_event(0, 1, MatchResult::ForfeitA));
    loss.play(day(1), 0, 1, Outcome::Loss);
    // The quitter: glicko2::rate's loss, RP target map(μ' − 3φ') below 4500 → half-way down.
    let a = glicko2::rate(&me, &opp, Outcome::Loss, &cfg).0;
    assert_eq!(forfeit.glicko2(0), a);
    let target = map(a.mu - 3.0 * a.phi);
    assert!(target < 4500.0 - 2.0 && 4500.0 - target < 1000.0);
    assert_eq!(forfeit.rp(0), (4500.0 + (target - 4500.0) / 2.0).round());
    assert_eq!(forfeit.ladder.players[0], loss.ladder.players[0]);
    assert_eq!(
        (
            forfeit.ladder.players[0].matches,
            forfeit.ladder.players[0].losses
        ),
        (1, 1)
    );
    // The player left behind: the match is cancelled for them.
    assert_eq!(forfeit.ladder.players[1], stayer_before);
    assert_eq!(forfeit.glicko2(1), opp);
    assert_eq!(forfeit.rp(1), 3000.0);
    assert_eq!(
        (
            forfeit.ladder.players[1].matches,
            forfeit.ladder.players[1].wins
        ),
        (0, 0)
    );
    // Only the quitter gets a history row for the match.
    let rows: Vec<PlayerId> = forfeit
        .history
        .iter()
        .filter(|h| h.seq == forfeit.seq)
        .map(|h| h.player)
        .collect();
    assert_eq!(rows, vec![0]);

    // B abandoning, mirrored: B loses, A stays.
    let mut forfeit_b = Run::new(inv_rules(), &["stayer", "quitter"]);
    forfeit_b.set_inv(0, 5000.0, me.mu, me.phi, me.sigma);
    forfeit_b.set_inv(1, 3000.0, opp.mu, opp.phi, opp.sigma);
    let stayer_before = forfeit_b.ladder.players[0].clone();
    forfeit_b.event(day(1), &match_event(0, 1, MatchResult::ForfeitB));
    assert_eq!(forfeit_b.ladder.players[0], stayer_before);
    assert_eq!(
        forfeit_b.glicko2(1),
        glicko2::rate(&opp, &me, Outcome::Loss, &cfg).0
    );
}

/// The audit's case: two new players (μ 0, φ 2.015, σ 0.06, RP 0), the first quits. Before
/// the fix the one left behind got a full rated win, μ 0 → 0.934 and RP 0 → 500; now nothing
/// moves for them. The quitter's loss: μ falls, and RP stays at 0 (a loss never raises RP,
/// and RP is clamped at 0).
#[test]
fn inversus_forfeit_gives_no_automatic_win_to_a_new_player() {
    let cfg = inv_params().glicko2;
    let new = glicko2::Rating::new(&cfg);
    let mut run = Run::new(inv_rules(), &["quitter", "newcomer"]);
    run.event(day(1), &match_event(0, 1, MatchResult::ForfeitA));
    assert_eq!(run.glicko2(1), new);
    assert_eq!(run.rp(1), 0.0);
    let (lost, would_have_won) = glicko2::rate(&new, &new, Outcome::Loss, &cfg);
    close(
        would_have_won.mu,
        0.934,
        0.0005,
        "the old automatic win's μ",
    );
    assert_eq!(run.glicko2(0), lost);
    assert!(lost.mu < 0.0);
    assert_eq!(run.rp(0), 0.0);
    assert_eq!(run.ladder.players[1].last_played, None);
}

/// The player left behind keeps their idle time: their inactivity is not applied (nor their
/// last match date moved) by a match that was cancelled for them. Both play on day 1; B
/// abandons a match on day 15; A's next match on day 29 grows φ by 28 idle days = 2 periods:
/// φ = √(φ² + 2σ²), exactly as if the forfeit had never happened. The quitter was rated
/// against A with A's 14 idle days applied (φ_A = √(φ_A² + σ_A²)), as a played loss would be.
#[test]
fn inversus_forfeit_leaves_the_other_players_idle_time_alone() {
    let cfg = inv_params().glicko2;
    let mut with = Run::new(inv_rules(), &["a", "b", "c"]);
    let mut without = Run::new(inv_rules(), &["a", "b", "c"]);
    for run in [&mut with, &mut without] {
        run.set_inv(0, 4000.0, 0.5, 0.6, 0.06);
        run.set_inv(1, 3000.0, -0.5, 0.7, 0.05);
        run.set_inv(2, 3000.0, 0.0, 0.8, 0.06);
        run.play(day(1), 0, 1, Outcome::Win);
    }
    let a_after_day1 = with.glicko2(0);
    let b_after_day1 = with.glicko2(1);
    with.event(day(15), &match_event(0, 1, MatchResult::ForfeitB));
    assert_eq!(with.glicko2(0), a_after_day1);
    assert_eq!(with.ladder.players[0].last_played, Some(day(1)));
    let a_idle = glicko2::Rating {
        phi: (a_after_day1.phi.powi(2) + a_after_day1.sigma.powi(2)).sqrt(),
        ..a_after_day1
    };
    let b_idle = glicko2::Rating {
        phi: (b_after_day1.phi.powi(2) + b_after_day1.sigma.powi(2)).sqrt(),
        ..b_after_day1
    };
    assert_eq!(
        with.glicko2(1),
        glicko2::rate(&b_idle, &a_idle, Outcome::Loss, &cfg).0
    );
    for run in [&mut with, &mut without] {
        run.play(day(29), 0, 2, Outcome::Win);
    }
    assert_eq!(with.ladder.players[0], without.ladder.players[0]);
    assert_eq!(with.ladder.players[2], without.ladder.players[2]);
}

/// Every system follows the INVERSUS ranking notes on forfeits (a `forfeit` means the same
/// under every system): the quitter's state is exactly that after a played loss, the other
/// side's is what it was before. Team forfeits: every member of the quitting side takes the
/// loss (against the virtual opponent, as in a played team loss); the other team is unchanged.
#[test]
fn every_system_the_quitter_loses_and_the_other_is_unchanged() {
    let win = played(Outcome::Win);
    for system in System::ALL {
        let names = ["p0", "p1", "p2", "p3"];
        // Some history first, so that nobody is at a new player's figures.
        let warm = |run: &mut Run| {
            run.event(day(1), &match_event(0, 1, win));
            run.event(day(2), &match_event(2, 3, played(Outcome::Draw)));
            run.event(day(3), &match_event(1, 2, win));
        };
        // 1v1, A quits / B quits.
        // (forfeit, the played result that rates the quitter alike, quitter, stayer)
        let cases = [
            (MatchResult::ForfeitA, Outcome::Loss, 0, 2),
            (MatchResult::ForfeitB, Outcome::Win, 2, 0),
        ];
        for (forfeit, same_for_quitter, quitter, stayer) in cases {
            let mut f = Run::new(Rules::defaults(system), &names);
            let mut l = Run::new(Rules::defaults(system), &names);
            warm(&mut f);
            warm(&mut l);
            let before = f.ladder.players.clone();
            f.event(day(20), &match_event(0, 2, forfeit));
            l.event(day(20), &match_event(0, 2, played(same_for_quitter)));
            assert_eq!(
                f.ladder.players[quitter], l.ladder.players[quitter],
                "{system}: the quitter"
            );
            assert_eq!(
                f.ladder.players[stayer], before[stayer],
                "{system}: the other side"
            );
            assert_eq!(f.ladder.players[quitter].losses, before[quitter].losses + 1);
        }
        // 2v2, team B (2, 3) quits.
        let mut f = Run::new(Rules::defaults(system), &names);
        let mut l = Run::new(Rules::defaults(system), &names);
        warm(&mut f);
        warm(&mut l);
        let before = f.ladder.players.clone();
        f.event(
            day(20),
            &match_event(vec![0, 1], vec![2, 3], MatchResult::ForfeitB),
        );
        l.event(day(20), &match_event(vec![0, 1], vec![2, 3], win));
        for i in [2, 3] {
            assert_eq!(
                f.ladder.players[i], l.ladder.players[i],
                "{system}: quitter {i}"
            );
        }
        for i in [0, 1] {
            assert_eq!(f.ladder.players[i], before[i], "{system}: stayer {i}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 8. A 2v2 INVERSUS match: the composite virtual opponent
// ---------------------------------------------------------------------------------------------

/// Each member is rated against a virtual opponent: μ = own μ + (mean opposing μ − mean own
/// μ), φ = mean opposing φ (the INVERSUS ranking notes' code).
///
/// Team A: μ 1.0 / φ 0.5 and μ −0.6 / φ 0.9 (mean μ 0.2); team B: μ 0.8 / φ 0.4 and
/// μ 0.4 / φ 1.2 (mean μ 0.6, mean φ 0.8). Team A wins.
///   A0 faces μ 1.0 + 0.4 = 1.4, φ 0.8;  A1 faces μ −0.6 + 0.4 = −0.2, φ 0.8;
///   team A's mean φ is 0.7:
///   B0 faces μ 0.8 − 0.4 = 0.4, φ 0.7;  B1 faces μ 0.4 − 0.4 = 0.0, φ 0.7.
#[test]
fn inversus_team_match_uses_the_composite_virtual_opponent() {
    let cfg = inv_params().glicko2;
    let players = [
        glicko2::Rating {
            mu: 1.0,
            phi: 0.5,
            sigma: 0.06,
        },
        glicko2::Rating {
            mu: -0.6,
            phi: 0.9,
            sigma: 0.05,
        },
        glicko2::Rating {
            mu: 0.8,
            phi: 0.4,
            sigma: 0.07,
        },
        glicko2::Rating {
            mu: 0.4,
            phi: 1.2,
            sigma: 0.06,
        },
    ];
    let rps = [4000.0, 2000.0, 5000.0, 3000.0];
    let mut run = Run::new(inv_rules(), &["a0", "a1", "b0", "b1"]);
    for (i, r) in players.iter().enumerate() {
        run.set_inv(i, rps[i], r.mu, r.phi, r.sigma);
    }
    run.event(
        day(1),
        &match_event(vec![0, 1], vec![2, 3], played(Outcome::Win)),
    );

    // (virtual μ, virtual φ, outcome) per player, from the comment above.
    let virtual_opponents = [
        (1.4, 0.8, Outcome::Win),
        (-0.2, 0.8, Outcome::Win),
        (0.4, 0.7, Outcome::Loss),
        (0.0, 0.7, Outcome::Loss),
    ];
    for (i, (mu, phi, o)) in virtual_opponents.into_iter().enumerate() {
        let own = players[i];
        let (own_team, other) = if i < 2 {
            ([0, 1], [2, 3])
        } else {
            ([2, 3], [0, 1])
        };
        let mean = |ids: [usize; 2], f: fn(&glicko2::Rating) -> f64| {
            (f(&players[ids[0]]) + f(&players[ids[1]])) / 2.0
        };
        let v_mu = own.mu + (mean(other, |r| r.mu) - mean(own_team, |r| r.mu));
        let v_phi = mean(other, |r| r.phi);
        close(v_mu, mu, 1e-12, "virtual μ");
        close(v_phi, phi, 1e-12, "virtual φ");
        let virtual_opponent = glicko2::Rating {
            mu: v_mu,
            phi: v_phi,
            sigma: mean(other, |r| r.sigma), // σ of the opponent does not enter own update
        };
        let expected = glicko2::rate(&own, &virtual_opponent, o, &cfg).0;
        assert_eq!(run.glicko2(i), expected, "player {i}");

        // Rank Points: half-way to the target; the winners were the weaker team (mean μ 0.2
        // against 0.6), so each gets the upset bonus 250·0.4/12.09 = 8.271.
        let target = map(expected.mu - 3.0 * expected.phi).max(0.0);
        let half = (target - rps[i]) / 2.0;
        let rp = match o {
            Outcome::Win => {
                assert!((1.0..=500.0).contains(&half), "{half}");
                (rps[i] + half + 250.0 * 0.4 / 12.09).round()
            }
            _ => {
                assert!((-500.0..=-1.0).contains(&half), "{half}");
                (rps[i] + half).round()
            }
        };
        assert_eq!(run.rp(i), rp, "player {i} RP");
    }
}

// ---------------------------------------------------------------------------------------------
// 9. A four-week Skyweaver season
// ---------------------------------------------------------------------------------------------

/// One player of the hand model: the white paper's rules written out independently of the
/// engine.
#[derive(Debug, Clone)]
struct Hand {
    rp: f64,
    r: f64,
    rd: f64,
    floor: f64,
    peak: f64,
    was_gw: bool,
}

struct Season {
    p: Vec<Hand>,
    n: usize,
}

impl Season {
    fn play(&mut self, a: usize, b: usize, s: f64) {
        let (pa, pb) = (self.p[a].clone(), self.p[b].clone());
        let (ra, rda) = hand_glicko(pa.r, pa.rd, pb.r, pb.rd, s);
        let (rb, rdb) = hand_glicko(pb.r, pb.rd, pa.r, pa.rd, 1.0 - s);
        for (i, r, rd, sc) in [(a, ra, rda, s), (b, rb, rdb, 1.0 - s)] {
            let h = &mut self.p[i];
            h.rp = hand_rp(h.rp, r - h.r, sc, 0.0, h.floor);
            h.r = r;
            h.rd = rd;
            h.floor = h.floor.max(hand_floor(h.rp));
            h.peak = h.peak.max(h.rp);
        }
    }

    fn grandweavers(&self) -> Vec<bool> {
        let mut masters: Vec<usize> = (0..self.p.len())
            .filter(|&i| self.p[i].rp >= 1200.0)
            .collect();
        masters.sort_by(|&x, &y| {
            self.p[y]
                .rp
                .total_cmp(&self.p[x].rp)
                .then(self.p[y].r.total_cmp(&self.p[x].r))
                .then(x.cmp(&y))
        });
        let mut gw = vec![false; self.p.len()];
        for &i in masters.iter().take(self.n) {
            gw[i] = true;
        }
        gw
    }

    fn tiers(&self) -> Vec<Tier> {
        let gw = self.grandweavers();
        (0..self.p.len())
            .map(|i| {
                if gw[i] {
                    Tier::Grandweaver
                } else {
                    hand_tier(self.p[i].rp)
                }
            })
            .collect()
    }

    fn soft_reset(&mut self) {
        let gw = self.grandweavers();
        for (i, h) in self.p.iter_mut().enumerate() {
            if gw[i] {
                h.was_gw = true;
                h.rp = h.rp.min(1400.0);
            } else if h.rp >= 1200.0 {
                h.rp = h.rp.min(1300.0);
            }
            h.rd = (h.rd * h.rd + 34.6 * 34.6).sqrt().min(350.0);
        }
    }

    fn hard_reset(&mut self) {
        let gw = self.grandweavers();
        let lo = self.p.iter().map(|h| h.r).fold(f64::INFINITY, f64::min);
        let hi = self.p.iter().map(|h| h.r).fold(f64::NEG_INFINITY, f64::max);
        for (i, h) in self.p.iter_mut().enumerate() {
            let highest = if gw[i] || h.was_gw {
                Tier::Grandweaver
            } else {
                hand_tier(h.peak)
            };
            h.rp = hand_hard_reset_value(highest);
            h.r = 1500.0 + (h.r - lo) / (hi - lo) * 750.0;
            h.rd = 350.0;
            // Floors cleared; a reset value on a hard floor counts as reached (the design notes).
            h.floor = hand_floor(h.rp);
            h.peak = h.rp;
            h.was_gw = false;
        }
    }
}

/// Four players, N = 1 Grandweaver place, four weeks; soft resets after weeks 1–3, a hard
/// reset after week 4. The RP columns below were worked out by hand (eq. 2–4 as written above,
/// floors and caps of Table 1); `Season` repeats that arithmetic step by step.
///
/// Start: Ada 1395 RP (r 1700 ± 60), Bo 1295 (1650 ± 70), Cy 605 (1500 ± 150), Di 270 (1500 ± 350).
///
/// Week 1: Ada beats Bo (Ada 1395 → 1404.84 → 1405, Bo 1295 → 1288.45 → 1288);
///         Cy beats Di (Cy 605 → 634.55 → 635, Di 270 → 239.89 → 240);
///         Bo beats Cy (Bo 1288 → 1298.12 → 1298, Cy 635 → 622.82 → 623);
///         Ada beats Di (Di 240 → 234.79 → 235, Ada 1405 → 1411.36 → 1411).
///   end of week: 1411 GW, 1298 Master, 623 Apprentice I, 235 Wanderer.
///   soft reset: Ada (the Grandweaver) 1411 → 1400; RD' = √(RD² + 34.6²):
///   58.915 → 68.324, 67.677 → 76.009, 134.251 → 138.638, 236.542 → 239.059.
/// Week 2: Bo beats Ada (Bo 1298 → 1313.46 → 1313, Ada 1400 → 1391.53 → 1392);
///         Cy draws Di (Cy 623 → 625.36 → 625, Di 235 → 256.36 → 256);
///         Di beats Cy (Di 256 → 300.37 → 300: Trainee I reached; Cy 625 → 608.42 → 608).
///   end of week: 1392 GW, 1313 Master, 608 Apprentice I, 300 Trainee I.
///   soft reset: Bo (a Master) 1313 → 1300.
/// Week 3: Ada beats Cy (Ada 1392 → 1400.36 → 1400, Cy 608 → 602.63 → 603);
///         Bo beats Di (Bo 1300 → 1310.14 → 1310, Di 300 → 292.17 → held at 300);
///         Cy beats Di (Cy 603 → 632.06 → 632, Di 300 → 287.40 → held at 300).
///   end of week: 1400 GW, 1310 Master, 632 Apprentice I, 300 Trainee I.
///   soft reset: Bo 1310 → 1300.
/// Week 4: Ada draws Bo (Ada 1400 → 1401.74 → 1402, Bo 1300 → 1303.37 → 1303);
///         Di beats Cy (Di 300 → 336.42 → 336, Cy 632 → 617.10 → 617);
///         Cy beats Bo (Bo 1303 → 1285.51 → 1286, Cy 617 → 653.31 → 653).
///   end of season: 1402 GW, 1286 Master, 653 Apprentice I, 336 Trainee I.
///   hard reset: Ada Grandweaver → 1000, Bo Master → 900, Cy Apprentice I → 450,
///   Di Trainee I → 300; r from [1436.663 (Di), 1700.562 (Ada)] onto [1500, 2250]:
///   Ada 2250, Bo 1500 + 209.050/263.899·750 = 2094.119, Cy 1597.320, Di 1500; RD 350.
#[test]
fn skyweaver_four_week_season_by_hand() {
    use Tier::*;
    let mut run = Run::new(
        sky_rules(&["grandweaver_count=1"]),
        &["Ada", "Bo", "Cy", "Di"],
    );
    let start = [
        (1395.0, 1700.0, 60.0),
        (1295.0, 1650.0, 70.0),
        (605.0, 1500.0, 150.0),
        (270.0, 1500.0, 350.0),
    ];
    let mut season = Season {
        p: Vec::new(),
        n: 1,
    };
    for (i, (rp, r, rd)) in start.into_iter().enumerate() {
        run.set_sky(i, rp, r, rd);
        season.p.push(Hand {
            rp,
            r,
            rd,
            floor: hand_floor(rp),
            peak: rp,
            was_gw: false,
        });
    }
    let (ada, bo, cy, di) = (0, 1, 2, 3);
    let weeks: [&[(usize, usize, f64)]; 4] = [
        &[(ada, bo, 1.0), (cy, di, 1.0), (bo, cy, 1.0), (di, ada, 0.0)],
        &[(bo, ada, 1.0), (cy, di, 0.5), (di, cy, 1.0)],
        &[(ada, cy, 1.0), (bo, di, 1.0), (cy, di, 1.0)],
        &[(ada, bo, 0.5), (di, cy, 1.0), (bo, cy, 0.0)],
    ];
    // RP and tiers at the end of each week (before its reset) and after the reset.
    let end_of_week: [([f64; 4], [Tier; 4]); 4] = [
        (
            [1411.0, 1298.0, 623.0, 235.0],
            [Grandweaver, Master, ApprenticeI, Wanderer],
        ),
        (
            [1392.0, 1313.0, 608.0, 300.0],
            [Grandweaver, Master, ApprenticeI, TraineeI],
        ),
        (
            [1400.0, 1310.0, 632.0, 300.0],
            [Grandweaver, Master, ApprenticeI, TraineeI],
        ),
        (
            [1402.0, 1286.0, 653.0, 336.0],
            [Grandweaver, Master, ApprenticeI, TraineeI],
        ),
    ];
    let after_reset: [([f64; 4], [Tier; 4]); 4] = [
        (
            [1400.0, 1298.0, 623.0, 235.0],
            [Grandweaver, Master, ApprenticeI, Wanderer],
        ),
        (
            [1392.0, 1300.0, 608.0, 300.0],
            [Grandweaver, Master, ApprenticeI, TraineeI],
        ),
        (
            [1400.0, 1300.0, 632.0, 300.0],
            [Grandweaver, Master, ApprenticeI, TraineeI],
        ),
        (
            [1000.0, 900.0, 450.0, 300.0],
            [ExpertII, ExpertI, TraineeII, TraineeI],
        ),
    ];
    // RD after each soft reset (4 decimals, from the hand computation), and r after the hard
    // reset.
    let rd_after_soft: [[f64; 4]; 3] = [
        [68.3242, 76.0087, 138.6379, 239.0591],
        [75.5358, 82.0332, 132.2013, 189.1959],
        [82.2206, 87.8146, 125.7993, 160.0294],
    ];
    let r_after_hard = [2250.0, 2094.1195, 1597.3198, 1500.0];

    let check = |run: &Run, season: &Season, rp: &[f64; 4], tiers: &[Tier; 4], when: &str| {
        for i in 0..4 {
            assert_eq!(season.p[i].rp, rp[i], "hand model, player {i}, {when}");
            assert_eq!(run.rp(i), rp[i], "engine, player {i}, {when}");
            let g = run.glicko(i);
            close(g.rating, season.p[i].r, 1e-9, &format!("r of {i}, {when}"));
            close(
                g.deviation,
                season.p[i].rd,
                1e-9,
                &format!("RD of {i}, {when}"),
            );
            assert_eq!(
                run.ladder.players[i].floor, season.p[i].floor,
                "floor {i} {when}"
            );
        }
        assert_eq!(season.tiers(), tiers.to_vec(), "hand tiers, {when}");
        assert_eq!(run.tiers(), tiers.to_vec(), "engine tiers, {when}");
    };

    for (w, week) in weeks.iter().enumerate() {
        for (k, &(a, b, s)) in week.iter().enumerate() {
            let o = Outcome::from_score(s).unwrap();
            run.play(
                day(7 * w as u64 + k as u64 + 1),
                a as PlayerId,
                b as PlayerId,
                o,
            );
            season.play(a, b, s);
        }
        let (rp, tiers) = &end_of_week[w];
        check(&run, &season, rp, tiers, &format!("end of week {}", w + 1));
        if w < 3 {
            run.soft_reset(day(7 * (w as u64 + 1)));
            season.soft_reset();
            for i in 0..4 {
                close(
                    run.glicko(i).deviation,
                    rd_after_soft[w][i],
                    5e-5,
                    "RD after soft reset",
                );
            }
        } else {
            run.hard_reset(day(28));
            season.hard_reset();
            for i in 0..4 {
                close(
                    run.glicko(i).rating,
                    r_after_hard[i],
                    5e-5,
                    "r after hard reset",
                );
                assert_eq!(run.glicko(i).deviation, 350.0);
            }
        }
        let (rp, tiers) = &after_reset[w];
        check(&run, &season, rp, tiers, &format!("after reset {}", w + 1));
    }
    assert_eq!((run.ladder.season, run.ladder.week), (2, 1));
}

// ---------------------------------------------------------------------------------------------
// 10. Memoir '44's Skill ranking and AllegSkill's ranking page through the engine
// ---------------------------------------------------------------------------------------------

fn memoir_battle(
    a: PlayerId,
    b: PlayerId,
    o: Outcome,
    scenario: &str,
    side_a: &str,
    medals: Option<[f64; 2]>,
) -> Event {
    Event::Match(Match {
        medals: medals.map(|pair| rungs_ladder::values::Medals::new(pair).unwrap()),
        scenario: Some(scenario.into()),
        side_a: Some(side_a.into()),
        ..Match::new(a, b, played(o))
    })
}

fn elo_of(run: &Run, id: usize) -> f64 {
    match run.ladder.players[id].skill {
        Skill::Elo(r) => r.rating,
        other => panic!("not an Elo skill: {other:?}"),
    }
}

/// Memoir '44 Online's Skill ranking: "the winner should always make points, even if he is on
/// the favored side". Omaha Beach, A as the Germans both times. Battle 1, 6–3: the scenario's
/// first battle is plain Elo, A 1516, B 1484. Battle 2, A wins 6–4. The raw history (1 battle,
/// won by the Germans) gives ratio 1 and pts = 64·(1 + 1 − 2) = 0: A stayed at 1516. With the
/// prior of 10 balanced battles (memoir44::PRIOR_BATTLES):
///   ratio = (1 + 5)/(1 + 10) = 6/11, pts = 64·(1 − 6/11) = 29.0909;
///   medal weight 1/11, averages Germans 6, Allies 3: bonus = 1 + (1/11)·0.1·(3 − 4) = 0.990909;
///   E = 1/(1 + 10^(−32/400)) = 1/1.831764 = 0.545922: ΔA = 28.826446·0.454078 = +13.0895.
#[test]
fn memoir44_a_scenarios_second_battle_gives_the_winner_points() {
    let mut run = Run::new(Rules::defaults(System::Memoir44), &["A", "B"]);
    let omaha = |medals| memoir_battle(0, 1, Outcome::Win, "Omaha Beach", "Germans", Some(medals));
    run.event(day(1), &omaha([6.0, 3.0]));
    assert_eq!((elo_of(&run, 0), elo_of(&run, 1)), (1516.0, 1484.0));
    run.event(day(2), &omaha([6.0, 4.0]));
    let e = 1.0 / (1.0 + 10f64.powf(-32.0 / 400.0));
    close(e, 0.545_922, 1e-6, "E");
    let delta = 64.0 * 5.0 / 11.0 * (1.0 - 0.1 / 11.0) * (1.0 - e);
    close(delta, 13.0895, 1e-4, "ΔA");
    close(elo_of(&run, 0), 1516.0 + delta, 1e-9, "A");
    close(elo_of(&run, 1), 1484.0 - delta, 1e-9, "B");
}

/// No medal history: neutral averages, bonus 1. Operation Cobra's first two battles carry no
/// medal scores, one won by each side (players 0 and 1). Then two new players meet there,
/// 2 as the Allies winning 4–3: ratio = (1 + 5)/(2 + 10) = ½, pts = 64·(1 + ½ − 1) = 32,
/// bonus 1, E = ½: +16, 1516 and 1484. (Averages read as 0 gave bonus 1 + 0.1·(0 − 3) =
/// 0.7 and +11.2.)
#[test]
fn memoir44_no_medal_history_gives_a_bonus_of_one() {
    let mut run = Run::new(Rules::defaults(System::Memoir44), &["p", "q", "C", "D"]);
    let cobra = |a, b, o, side, medals| memoir_battle(a, b, o, "Operation Cobra", side, medals);
    run.event(day(1), &cobra(0, 1, Outcome::Win, "Allies", None));
    run.event(day(2), &cobra(0, 1, Outcome::Loss, "Allies", None));
    run.event(
        day(3),
        &cobra(2, 3, Outcome::Win, "Allies", Some([4.0, 3.0])),
    );
    assert_eq!((elo_of(&run, 2), elo_of(&run, 3)), (1516.0, 1484.0));
}

/// A forfeited battle is not part of the scenario's history: after one played battle and a
/// forfeit, the next battle is rated as the scenario's second (ratio 6/11), not its third.
#[test]
fn memoir44_a_forfeit_is_not_a_battle_of_the_scenario() {
    let mut with = Run::new(Rules::defaults(System::Memoir44), &["A", "B", "C", "D"]);
    let mut without = Run::new(Rules::defaults(System::Memoir44), &["A", "B", "C", "D"]);
    for run in [&mut with, &mut without] {
        run.event(
            day(1),
            &memoir_battle(
                0,
                1,
                Outcome::Win,
                "Omaha Beach",
                "Germans",
                Some([6.0, 3.0]),
            ),
        );
    }
    with.event(
        day(2),
        &Event::Match(Match {
            medals: rungs_ladder::values::Medals::new([1.0, 0.0]).ok(),
            scenario: Some("Omaha Beach".into()),
            side_a: Some("Allies".into()),
            ..Match::new(0, 1, MatchResult::ForfeitB)
        }),
    );
    for run in [&mut with, &mut without] {
        run.event(
            day(3),
            &memoir_battle(
                2,
                3,
                Outcome::Win,
                "Omaha Beach",
                "Germans",
                Some([6.0, 4.0]),
            ),
        );
    }
    assert_eq!(with.ladder.scenarios, without.ladder.scenarios);
    assert_eq!(elo_of(&with, 2), elo_of(&without, 2));
    // C and D were 1500 each: 64·5/11·(1 − 1/110)·½ = 14.4132.
    close(elo_of(&with, 2), 1500.0 + 14.4132, 1e-4, "C");
}

/// AllegSkill's ranking page: "ε ≃ 0.08 is derived empirically from the percentage of games which
/// result in a draw, currently ~1.01%". With `draw_rate` = 0.0101 the ε used by replay and
/// prediction is √2·β·Φ⁻¹(1.0101/2) = 5.892557·0.0126588 = 0.07459 (≈ 0.075); with the
/// default `draw_rate` 0, and in a file written before the parameter existed, ε is as set.
#[test]
fn allegskill_epsilon_from_the_draw_rate_in_replay_and_prediction() {
    use rungs_ladder::predict::predict;
    use rungs_ladder::rules::AllegskillParams;
    use rungs_rating::trueskill;
    let mut rules = Rules::defaults(System::Allegskill);
    rules.assign("draw_rate=0.0101").unwrap();
    let Params::Allegskill(params) = &rules.params else {
        unreachable!()
    };
    let cfg = params.effective_trueskill();
    close(cfg.epsilon, 0.075, 0.0005, "ε");
    close(cfg.epsilon, 0.074_592_758, 1e-8, "ε");
    assert_eq!(
        trueskill::Config {
            epsilon: 0.08,
            ..cfg
        },
        params.trueskill,
        "only ε is derived"
    );

    let mut run = Run::new(rules.clone(), &["a", "b"]);
    let new = trueskill::Rating::new(&cfg);
    let predicted = predict(&run.ladder, &[0], &[1]).unwrap();
    assert_eq!(predicted, trueskill::predict(&new, &new, &cfg));
    run.play(day(1), 0, 1, Outcome::Draw);
    let (a, b) = trueskill::rate(&new, &new, Outcome::Draw, &cfg);
    assert_eq!(run.ladder.players[0].skill, Skill::TrueSkill(a));
    assert_eq!(run.ladder.players[1].skill, Skill::TrueSkill(b));

    // draw_rate 0 (the default): ε as set.
    assert_eq!(
        AllegskillParams::default().effective_trueskill(),
        trueskill::Config::default()
    );
    // An older file's rules, without the parameter, keep their ε.
    let old: Rules =
        serde_json::from_str(r#"{"system":"allegskill","params":{"epsilon":0.2}}"#).unwrap();
    let Params::Allegskill(old) = old.params else {
        unreachable!()
    };
    assert_eq!(old.draw_rate, 0.0);
    assert_eq!(old.effective_trueskill().epsilon, 0.2);
}

/// Memoir '44's winner "should always make points", even under organiser figures. Figures for
/// a scenario with averages 1 and 1 (ratio ½): a win 13–12 gives bonus 1 + 0.1·(1 − 12) =
/// −0.1 and 12–11 gives 1 + 0.1·(1 − 11) = 0, both floored to memoir44::MIN_BONUS = 0.1:
/// pts = 64·(1 + ½ − 1) = 32, E = ½, ΔA = 32·0.1·½ = +1.6 (each from 1500). (The floor of 0
/// left both players at 1500.)
#[test]
fn memoir44_a_winner_always_makes_points() {
    use rungs_ladder::scenarios::ScenarioOverride;
    assert_eq!(rungs_rating::memoir44::MIN_BONUS, 0.1);
    for medals in [[13.0, 12.0], [12.0, 11.0]] {
        let mut run = Run::new(Rules::defaults(System::Memoir44), &["A", "B"]);
        run.event(
            day(1),
            &Event::Scenario {
                figures: Box::new(ScenarioOverride {
                    scenario: "Bloodbath".into(),
                    sides: ["Allies".into(), "Axis".into()],
                    ratio: 0.5,
                    averages: [1.0, 1.0],
                }),
            },
        );
        run.event(
            day(2),
            &memoir_battle(0, 1, Outcome::Win, "Bloodbath", "Allies", Some(medals)),
        );
        let delta = 32.0 * 0.1 * 0.5;
        close(elo_of(&run, 0), 1500.0 + delta, 1e-9, "winner");
        close(elo_of(&run, 1), 1500.0 - delta, 1e-9, "loser");
    }
}

/// The first battle that names a scenario's second side is rated from the
/// scenario's history, like every later one. Pegasus Bridge: A (Allies) beats B 6–3; then
/// C, as the Axis, beats D 6–2 — the first battle naming the Axis. From the Axis' view,
/// with the prior of 10 balanced battles: ratio = (0 + 5)/(1 + 10) = 5/11,
/// pts = 64·(1 + 5/11 − 10/11) = 34.9091; medal weight 1/11, averages Axis 3, Allies 6:
/// bonus = 1 + (1/11)·0.1·(6 − 2) = 1.036364; E = ½: ΔC = 34.9091·1.036364·½ = +18.0893.
/// (It was rated as plain Elo, +16.00.)
#[test]
fn memoir44_the_first_battle_naming_the_second_side_uses_the_history() {
    let mut run = Run::new(Rules::defaults(System::Memoir44), &["A", "B", "C", "D"]);
    let pegasus = |a, b, side, medals| {
        memoir_battle(a, b, Outcome::Win, "Pegasus Bridge", side, Some(medals))
    };
    run.event(day(1), &pegasus(0, 1, "Allies", [6.0, 3.0]));
    run.event(day(2), &pegasus(2, 3, "Axis", [6.0, 2.0]));
    let delta = 64.0 * (6.0 / 11.0) * (1.0 + 0.4 / 11.0) * 0.5;
    close(delta, 18.0893, 1e-4, "ΔC");
    close(elo_of(&run, 2), 1500.0 + delta, 1e-9, "C");
    close(elo_of(&run, 3), 1500.0 - delta, 1e-9, "D");
}

/// AllegSkill's ranking page derives ε "from the percentage of games which result in a
/// draw"; `draw_rate=observed` takes that rate from the ladder's own matches so far, with a
/// prior of 100 matches at the rate the typed ε stands for:
///   p0 = 2·Φ(ε/(√2·β)) − 1 = 2·Φ(0.08/5.892557) − 1 = 0.0108321,
///   p = (draws + 100·p0)/(matches + 100), ε = √2·β·Φ⁻¹((p + 1)/2).
/// Before any match ε is the typed 0.08. After a win, two draws and a win (4 matches, 2
/// draws): p = (2 + 1.08321)/104 = 0.0296463, ε(p) = 0.218995, and the next match —
/// predicted and rated — uses it.
#[test]
fn allegskill_draw_rate_observed_follows_the_ladders_draws() {
    use rungs_ladder::predict::predict;
    use rungs_rating::{normal, trueskill};
    let mut rules = Rules::defaults(System::Allegskill);
    rules.assign("draw_rate=observed").unwrap();
    let cfg = trueskill::Config::default();
    let p0 = 2.0 * normal::cdf(0.08 / (2f64.sqrt() * 25.0 / 6.0)) - 1.0;
    close(p0, 0.010_832_1, 1e-7, "p0");
    close(cfg.epsilon_for_draw_rate(p0), 0.08, 1e-12, "ε from p0");
    let mut run = Run::new(rules, &["a", "b", "c", "d"]);
    let new = trueskill::Rating::new(&cfg);
    assert_eq!(
        predict(&run.ladder, &[2], &[3]).unwrap(),
        trueskill::predict(&new, &new, &cfg)
    );
    for o in [Outcome::Win, Outcome::Draw, Outcome::Draw, Outcome::Win] {
        run.play(day(1), 0, 1, o);
    }
    let p = (2.0 + 100.0 * p0) / 104.0;
    close(p, 0.029_646_3, 1e-7, "p");
    let observed = trueskill::Config {
        epsilon: cfg.epsilon_for_draw_rate(p),
        ..cfg
    };
    close(observed.epsilon, 0.218_995, 1e-6, "ε(p)");
    assert_eq!(
        predict(&run.ladder, &[2], &[3]).unwrap(),
        trueskill::predict(&new, &new, &observed)
    );
    run.play(day(2), 2, 3, Outcome::Draw);
    let (c, d) = trueskill::rate(&new, &new, Outcome::Draw, &observed);
    assert_eq!(run.ladder.players[2].skill, Skill::TrueSkill(c));
    assert_eq!(run.ladder.players[3].skill, Skill::TrueSkill(d));
    // The typed rate is still an option.
    let mut typed = Rules::defaults(System::Allegskill);
    typed.assign("draw_rate=0.0101").unwrap();
    assert_eq!(typed.param("draw_rate"), Some(0.0101));
    assert!(typed.assign("draw_rate=seen").is_err());
}

/// AllegSkill's ranking page sets no leaderboard rule; AllegSkill no longer borrows
/// Memoir '44's (20 games provisional, 15 idle days). Its shown rank μ − 3σ starts at 0 and
/// climbs as σ falls — its own provisional period — so no game count is asked
/// (provisional_games 0), and a player leaves after a year without a game (idle_days 365),
/// as under the other systems whose papers say nothing. A player with one game, idle for
/// 30 days, is listed.
#[test]
fn allegskill_has_its_own_leaderboard_defaults() {
    let rules = Rules::defaults(System::Allegskill);
    assert_eq!(rules.param("provisional_games"), Some(0.0));
    assert_eq!(rules.param("idle_days"), Some(365.0));
    let mut run = Run::new(rules, &["a", "b", "c", "d"]);
    run.play(day(1), 0, 1, Outcome::Win);
    run.play(day(31), 2, 3, Outcome::Win);
    assert!(standings(&run.ladder).iter().all(|s| s.listed()));
}
