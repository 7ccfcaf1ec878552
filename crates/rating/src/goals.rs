//! The goals model: each player an attack and a defence on a log scale, each side's
//! goals Poisson with mean λ = exp(μ + home + attack − defence of the other side), the joint
//! low scores corrected as Dixon and Coles (1997) do, and an online update after each match —
//! a Kalman-style step on the Poisson likelihood whose gain is the player's variance, which
//! grows with idle time.
//!
//! Ranking is by one strength on the 1500 scale: 1500 + [`POINTS_PER_GOAL`]·(e^attack −
//! e^−defence), the expected goal difference against an average side at one goal a match each
//! (so ordering never depends on μ). A match without a score updates from its result alone:
//! the goals it would most likely have had given that result, E[goals | result], stand in for
//! the score (the documented fallback; the step is then smaller, as those expectations sit
//! closer to λ than real scores do).

use super::trace::Trace;
use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

/// Rating points per goal of expected margin against an average side.
pub const POINTS_PER_GOAL: f64 = 300.0;
/// Rating points (the shared side advantage) per unit of log goal rate: 100 points, a home
/// ground's usual worth in Elo, is 0.29 — a third more goals.
pub const ADVANTAGE_POINTS_PER_LOG: f64 = 350.0;
/// The log rate is held within these bounds (λ from 0.0009 to 55 goals), so that no rating,
/// however far a hostile log pushes it, makes a probability that is not finite.
const LOG_RATE_MIN: f64 = -7.0;
const LOG_RATE_MAX: f64 = 4.0;
/// The most goals a side's distribution is summed to: λ ≤ 55 leaves less than 1e-30 beyond.
const MAX_GOALS: usize = 160;
/// The floor under a variance after a match.
const MIN_VARIANCE: f64 = 1e-6;

/// System constants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// μ: the log of the goals an average side scores against an average side (ln 1.35).
    pub mu: f64,
    /// Dixon–Coles ρ: how much more (ρ < 0) or less often 0-0 and 1-1 happen than two
    /// independent Poissons say.
    pub rho: f64,
    /// A newcomer's variance of attack and defence, and the ceiling idle growth returns to.
    pub initial_variance: f64,
    /// Variance added per idle day before the next match: how fast strengths drift.
    pub drift: f64,
    /// The step: a multiplier on the Kalman gain (1 is the plain filter).
    pub step: f64,
    /// κ, how much attack and defence move together: the prior correlation between a side's
    /// attack and its defence. Each one's step also moves the other by κ times as much
    /// (0: apart; good sides are mostly good at both).
    pub share: f64,
    /// The most goals a side's score counts for in the update: a 10-0 against a side new to
    /// the game says less about either than ten times a 1-0 (fitted on the international
    /// results before 2000: about 5). Prediction is unchanged by it.
    pub cap: f64,
    /// σ, how the side advantage splits: the favoured side's goals rise by (1 − σ)·h and the
    /// other side's fall by σ·h (0: all of it on the favoured side's goals, as before the
    /// parameter; fitted on the international results before 2000: 0.22 alone, 0.64 with
    /// `entry` — a home ground keeps goals out as well as scoring them).
    pub home_split: f64,
    /// How far a newcomer starts at the level of the rated side it first meets: attack and
    /// defence `entry`·that side's plus `entry_offset` (0 and 0: at the pool's zero, as
    /// before the parameters). The pool's zero drifts away from its mean as strong sides
    /// learn slowly and beaten newcomers fast; a first opponent is usually a neighbour of
    /// like strength (fitted on the international results before 2000: about 0.55 and −0.26).
    pub entry: f64,
    /// Added to a newcomer's first attack and defence (see `entry`).
    pub entry_offset: f64,
}

/// `cap` when a file sets none: every score counts in full, as before the parameter (the
/// score bound, `ladder::score::POINTS_MAX`).
pub const NO_CAP: f64 = 1000.0;

impl Default for Config {
    fn default() -> Self {
        Config {
            mu: 0.3,
            rho: -0.05,
            initial_variance: 0.1,
            drift: 0.0001,
            step: 1.0,
            share: 0.0,
            cap: NO_CAP,
            home_split: 0.0,
            entry: 0.0,
            entry_offset: 0.0,
        }
    }
}

/// A player's attack and defence (log scale, 0 is the pool's level) and their variance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Attack: the log of goals scored against a side of the pool's level.
    pub attack: f64,
    /// Defence: the log of goals conceded to a side of the pool's level (lower is better).
    pub defence: f64,
    /// The variance of attack and defence: how uncertain they are.
    pub variance: f64,
}

impl Rating {
    /// A newcomer, at the pool's level.
    pub fn new(config: &Config) -> Rating {
        Rating {
            attack: 0.0,
            defence: 0.0,
            variance: config.initial_variance,
        }
    }

    /// The strength on the 1500 scale.
    pub fn rating(&self) -> f64 {
        1500.0 + POINTS_PER_GOAL * (self.attack.exp() - (-self.defence).exp())
    }

    /// The strength on the 1500 scale measured from an average side at `centre`, the
    /// (attack, defence) of the pool's mean: the expected goal difference against it at one
    /// goal a match each, e^(attack − c_d) − e^(c_a − defence), in points, so that a side
    /// at the centre reads 1500. The model's zero is a gauge (adding c to every attack and
    /// defence changes no λ), and a pool whose newcomers enter below it sinks away from that
    /// zero; [`rating`](Self::rating) is this at the centre (0, 0).
    pub fn rating_against(&self, centre: (f64, f64)) -> f64 {
        let (c_a, c_d) = centre;
        1500.0 + POINTS_PER_GOAL * ((self.attack - c_d).exp() - (c_a - self.defence).exp())
    }

    /// The uncertainty on the same scale: one standard deviation of attack, in points.
    pub fn deviation(&self) -> f64 {
        POINTS_PER_GOAL * self.variance.max(0.0).sqrt()
    }

    /// A rating `r` of another system on the 1500 scale carried over: attack and defence
    /// alike, so that e^a − e^−a = (r − 1500)/300, a = asinh((r − 1500)/600).
    pub fn from_1500(r: f64, config: &Config) -> Rating {
        let a = ((r - 1500.0) / (2.0 * POINTS_PER_GOAL)).asinh();
        let a = if a.is_finite() { a } else { 0.0 };
        Rating {
            attack: a,
            defence: a,
            variance: config.initial_variance,
        }
    }
}

/// Whether `r` is a newcomer's rating: attack and defence at 0, the newcomer's variance.
fn is_new(r: &Rating, config: &Config) -> bool {
    r.attack == 0.0 && r.defence == 0.0 && r.variance >= config.initial_variance
}

/// The running sums of attack and defence over the rated sides (every rating that is not a
/// newcomer's) and their count: the replay keeps it as ratings change, O(1) a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// The sum of the rated sides' attack.
    pub attack: f64,
    /// The sum of the rated sides' defence.
    pub defence: f64,
    /// How many sides the sums hold.
    pub count: u64,
}

impl Pool {
    /// The pool of `ratings` counted afresh.
    pub fn recount<'a>(ratings: impl IntoIterator<Item = &'a Rating>, config: &Config) -> Pool {
        let mut pool = Pool::default();
        for r in ratings {
            pool.add(r, config);
        }
        pool
    }

    /// `r` joins the sums (a newcomer's rating does not).
    pub fn add(&mut self, r: &Rating, config: &Config) {
        if !is_new(r, config) {
            self.attack += r.attack;
            self.defence += r.defence;
            self.count += 1;
        }
    }

    /// `r` leaves the sums (it must have been added).
    pub fn remove(&mut self, r: &Rating, config: &Config) {
        if !is_new(r, config) && self.count > 0 {
            self.attack -= r.attack;
            self.defence -= r.defence;
            self.count -= 1;
        }
    }

    /// The mean (attack, defence) of the rated sides; (0, 0) with none.
    pub fn mean(&self) -> (f64, f64) {
        if self.count == 0 {
            return (0.0, 0.0);
        }
        let n = self.count as f64;
        (self.attack / n, self.defence / n)
    }
}

/// The part of a newcomer's start that the pool sets: `share`·the pool's mean (the ladder's
/// `entry_pool`, 0 to 1); `None` when the share is 0, and the pool then plays no part.
pub fn pool_level(pool: &Pool, share: f64) -> Option<(f64, f64)> {
    let w = if share.is_finite() {
        share.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if w == 0.0 {
        return None;
    }
    let (a, d) = pool.mean();
    let finite = |x: f64| if x.is_finite() { w * x } else { 0.0 };
    Some((finite(a), finite(d)))
}

/// `r` as it enters a match against `other`: a newcomer against a rated side starts at
/// `entry`·that side's attack and defence plus `entry_offset` ([`Config::entry`]); anyone
/// else as they are. Prediction and update both look through here, so the first match is
/// predicted from the strengths it updates.
pub fn entered(r: &Rating, other: &Rating, config: &Config) -> Rating {
    entered_at(r, other, None, config)
}

/// [`entered`] with the pool's part `level` ([`pool_level`]) added to a newcomer's start;
/// with a level the offset applies against a newcomer too.
pub fn entered_at(
    r: &Rating,
    other: &Rating,
    level: Option<(f64, f64)>,
    config: &Config,
) -> Rating {
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let (w, offset) = (
        finite(config.entry).clamp(0.0, 1.0),
        finite(config.entry_offset),
    );
    let (pooled, level) = (level.is_some(), level.unwrap_or((0.0, 0.0)));
    if (w == 0.0 && offset == 0.0 && !pooled) || !is_new(r, config) {
        return *r;
    }
    // The first opponent's part needs a rated opponent; the pool's and the offset do not.
    let (w, offset) = if is_new(other, config) {
        if !pooled {
            return *r;
        }
        (0.0, offset)
    } else {
        (w, offset)
    };
    let bound = LOG_RATE_MAX - LOG_RATE_MIN;
    let start = |own: f64, pool: f64| {
        let x = w * own + offset;
        let x = if pooled { x + pool } else { x };
        x.clamp(-bound, bound)
    };
    Rating {
        attack: start(other.attack, level.0),
        defence: start(other.defence, level.1),
        variance: r.variance,
    }
}

/// The variance after `days` idle: v + drift·days, at most the newcomer's.
pub fn grow(r: &Rating, days: f64, config: &Config) -> Rating {
    let days = if days.is_finite() { days.max(0.0) } else { 0.0 };
    Rating {
        variance: (r.variance + config.drift * days).min(config.initial_variance),
        ..*r
    }
}

/// [`grow`], handing `trace` the variance before and after the idle days.
pub fn grow_explained<T: Trace + ?Sized>(
    r: &Rating,
    days: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    let grown = grow(r, days, config);
    trace.step("v", "variance at the last match", "v", r.variance);
    trace.step(
        "drift",
        "variance added per idle day",
        "drift",
        config.drift,
    );
    trace.step(
        "v_t",
        "variance after the idle days",
        "v_t = min(v + drift·days, v_init)",
        grown.variance,
    );
    grown
}

/// The expected goals (λ_A, λ_B): λ_A = exp(μ + (1 − σ)·h⁺ − σ·h⁻ + attack_A − defence_B)
/// with h⁺ the advantage (log units) when it favours A, h⁻ when it favours B, σ the
/// `home_split`; the same for B with the advantage mirrored.
pub fn expected_goals(a: &Rating, b: &Rating, advantage: f64, config: &Config) -> (f64, f64) {
    let held = |x: f64| {
        let x = if x.is_finite() { x } else { 0.0 };
        x.clamp(LOG_RATE_MIN, LOG_RATE_MAX)
    };
    let split = if config.home_split.is_finite() {
        config.home_split.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (up, down) = (advantage.max(0.0), (-advantage).max(0.0));
    // σ = 0 keeps the advantage whole on the favoured side, to the bit.
    let shift = |gain: f64, loss: f64| {
        if split == 0.0 {
            gain
        } else {
            (1.0 - split) * gain - split * loss
        }
    };
    rates_remembered(
        held(config.mu + shift(up, down) + a.attack - b.defence),
        held(config.mu + shift(down, up) + b.attack - a.defence),
    )
}

/// The bits of (x, y) and (e^x, e^y).
type RatesMemo = ([u64; 2], (f64, f64));

/// (e^x, e^y), remembering the last pair worked out on this thread: a match asks for the same
/// two to predict it and for A's update, and for the two exchanged for B's (compared bit for
/// bit, so a remembered rate is exactly the one worked out again).
fn rates_remembered(x: f64, y: f64) -> (f64, f64) {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<Option<RatesMemo>> = const { Cell::new(None) };
    }
    let (xb, yb) = (x.to_bits(), y.to_bits());
    LAST.with(|last| match last.get() {
        Some((k, rates)) if k == [xb, yb] => rates,
        Some((k, (ry, rx))) if k == [yb, xb] => (rx, ry),
        _ => {
            let rates = (x.exp(), y.exp());
            last.set(Some(([xb, yb], rates)));
            rates
        }
    })
}

/// Dixon–Coles' τ for a score (i, j): 1 − λ_Aλ_Bρ at 0-0, 1 + λ_Aρ at 0-1, 1 + λ_Bρ at 1-0,
/// 1 − ρ at 1-1, 1 elsewhere; held at 0 or more (a ρ too large for these λ would otherwise
/// make a negative probability; the probabilities are then normalised).
pub fn tau(i: u32, j: u32, la: f64, lb: f64, rho: f64) -> f64 {
    let t = match (i, j) {
        (0, 0) => 1.0 - la * lb * rho,
        (0, 1) => 1.0 + la * rho,
        (1, 0) => 1.0 + lb * rho,
        (1, 1) => 1.0 - rho,
        _ => 1.0,
    };
    t.max(0.0)
}

/// How far `lambda`'s Poisson probabilities are summed: n = λ + 10√λ + 10, beyond which
/// less than 1e-15 of the mass lies (the probabilities are normalised over what is summed).
fn last_goals(lambda: f64) -> usize {
    ((lambda + 10.0 * lambda.sqrt() + 10.0).ceil() as usize).min(MAX_GOALS)
}

/// The three outcomes' probabilities and, for each, the mean goals of A and of B within it
/// (mass-weighted sums before normalising).
#[derive(Clone, Copy)]
struct Joint {
    mass: [f64; 3],
    goals_a: [f64; 3],
    goals_b: [f64; 3],
    /// The draw's goals summed as the joint of (λ_B, λ_A) sums them, Σ k·p_B(k)·p_A(k):
    /// with it the mirrored joint is this one's sums exchanged, to the bit ([`Joint::mirrored`]).
    draw_goals_mirrored: f64,
}

impl Joint {
    /// The joint of (λ_B, λ_A, ρ), which B's update asks for after A's asked for (λ_A, λ_B, ρ).
    /// Every sum of `joint(lb, la, rho)` is one of this joint's, added in the same order from
    /// the same products (a product of two factors is the same either way round); only the
    /// draw's goals multiply in another order, hence their own sum.
    fn mirrored(&self) -> Joint {
        let m = self.draw_goals_mirrored;
        Joint {
            mass: [self.mass[2], self.mass[1], self.mass[0]],
            goals_a: [self.goals_b[2], m, self.goals_b[0]],
            goals_b: [self.goals_a[2], m, self.goals_a[0]],
            draw_goals_mirrored: self.goals_a[1],
        }
    }
}

/// Index of an outcome in [`Joint`]: A wins, draw, B wins.
fn index(i: usize, j: usize) -> usize {
    match i.cmp(&j) {
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 2,
    }
}

/// [`joint`], remembering the last one worked out on this thread: a match without a score
/// asks for the same (λ_A, λ_B, ρ) to predict it and for the goals its result stands for in
/// A's update, then (λ_B, λ_A, ρ) for B's, the mirror image. The joint is most of the goals
/// system's time; the inputs are compared bit for bit, so a remembered joint is exactly the
/// one worked out again.
fn joint_remembered(la: f64, lb: f64, rho: f64) -> Joint {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<Option<([u64; 3], Joint)>> = const { Cell::new(None) };
    }
    let (a, b, r) = (la.to_bits(), lb.to_bits(), rho.to_bits());
    LAST.with(|last| match last.get() {
        Some(([x, y, z], j)) if [x, y, z] == [a, b, r] => j,
        Some(([x, y, z], j)) if [x, y, z] == [b, a, r] => j.mirrored(),
        _ => {
            let j = joint(la, lb, rho);
            last.set(Some(([a, b, r], j)));
            j
        }
    })
}

fn joint(la: f64, lb: f64, rho: f64) -> Joint {
    let (na, nb) = (last_goals(la), last_goals(lb));
    let mut j = Joint {
        mass: [0.0; 3],
        goals_a: [0.0; 3],
        goals_b: [0.0; 3],
        draw_goals_mirrored: 0.0,
    };
    // O(n) by cumulative sums: A wins with i goals against any j < i, B with k goals against
    // any j < k. Each side's probabilities by the recurrence p(k) = p(k − 1)·λ/k from e^−λ,
    // 0 past its last summed goal; the four low ones are kept for Dixon–Coles.
    let (mut qa, mut qb) = ((-la).exp(), (-lb).exp());
    let (mut low_a, mut low_b) = ([0.0; 2], [0.0; 2]);
    let (mut below_a, mut below_a_goals) = (0.0, 0.0);
    let (mut below_b, mut below_b_goals) = (0.0, 0.0);
    for i in 0..=na.max(nb) {
        if i > 0 {
            qa *= la / i as f64;
            qb *= lb / i as f64;
        }
        let (p_a, p_b) = (
            if i <= na { qa } else { 0.0 },
            if i <= nb { qb } else { 0.0 },
        );
        if i < 2 {
            (low_a[i], low_b[i]) = (p_a, p_b);
        }
        let k = i as f64;
        // A scores i, B fewer.
        j.mass[0] += p_a * below_b;
        j.goals_a[0] += k * p_a * below_b;
        j.goals_b[0] += p_a * below_b_goals;
        // Equal.
        j.mass[1] += p_a * p_b;
        j.goals_a[1] += k * p_a * p_b;
        j.goals_b[1] += k * p_a * p_b;
        j.draw_goals_mirrored += k * p_b * p_a;
        // B scores i, A fewer.
        j.mass[2] += p_b * below_a;
        j.goals_b[2] += k * p_b * below_a;
        j.goals_a[2] += p_b * below_a_goals;
        below_a += p_a;
        below_a_goals += k * p_a;
        below_b += p_b;
        below_b_goals += k * p_b;
    }
    // Dixon–Coles: the four low scores, each moved by (τ − 1) of its mass.
    for (i, jj) in [(0usize, 0usize), (0, 1), (1, 0), (1, 1)] {
        let extra = low_a[i] * low_b[jj] * (tau(i as u32, jj as u32, la, lb, rho) - 1.0);
        let o = index(i, jj);
        j.mass[o] += extra;
        j.goals_a[o] += i as f64 * extra;
        j.goals_b[o] += jj as f64 * extra;
        if o == 1 {
            j.draw_goals_mirrored += jj as f64 * extra;
        }
    }
    j
}

/// A's win, draw and loss probabilities for the expected goals (λ_A, λ_B) and ρ; they sum
/// to 1 (normalised over the goals summed).
pub fn probabilities(la: f64, lb: f64, rho: f64) -> Prediction {
    let j = joint_remembered(la, lb, rho);
    let total: f64 = j.mass.iter().sum();
    let [w, d, l] = j.mass.map(|m| (m / total).clamp(0.0, 1.0));
    let s = w + d + l;
    Prediction {
        win_a: w / s,
        draw: d / s,
        win_b: l / s,
    }
}

/// The prediction for A against B, A's advantage in log units (negative favours B).
pub fn predict_with_advantage(
    a: &Rating,
    b: &Rating,
    advantage: f64,
    config: &Config,
) -> Prediction {
    predict_at(a, b, advantage, None, config)
}

/// [`predict_with_advantage`] with a newcomer's pool part `level` ([`pool_level`]).
pub fn predict_at(
    a: &Rating,
    b: &Rating,
    advantage: f64,
    level: Option<(f64, f64)>,
    config: &Config,
) -> Prediction {
    let (a, b) = (
        &entered_at(a, b, level, config),
        &entered_at(b, a, level, config),
    );
    let (la, lb) = expected_goals(a, b, advantage, config);
    probabilities(la, lb, config.rho)
}

/// The goals (own, other's) a result stands for when the match has no score: their mean
/// given that result under (λ_own, λ_other).
pub fn goals_given(la: f64, lb: f64, rho: f64, outcome: Outcome) -> (f64, f64) {
    let j = joint_remembered(la, lb, rho);
    let o = match outcome {
        Outcome::Win => 0,
        Outcome::Draw => 1,
        Outcome::Loss => 2,
    };
    if j.mass[o] > 1e-300 {
        (j.goals_a[o] / j.mass[o], j.goals_b[o] / j.mass[o])
    } else {
        (la, lb)
    }
}

/// One player's rating after a match against `other` (both as they went in): their goals
/// `(scored, conceded)` or, without a score, the result; `advantage` in log units for this
/// player's side (negative: the other side is favoured); `weight` the event class's.
///
/// An extended Kalman step on the Poisson log-likelihood. Own goals g ~ Poisson(λ_own) with
/// log λ_own = μ + h + attack − defence_other, whose prior variance is v + v_other (both
/// sides' uncertainty): the gain on attack is v/(1/w + λ_own·(v + v_other)) times `step`,
/// applied to g − λ_own; on defence the same with λ_other, applied to λ_other − g_other. So a
/// well-known side learns little from a match against an unknown one, and the newcomer
/// learns much. The variance shrinks by what the match told: v' = v·(1 − λ̄·v/(1/w + λ̄·(v +
/// v_other))), λ̄ the mean of the two λ. With a prior correlation κ (`share`) between a
/// side's attack and defence, each step also moves the other by κ times itself (the Kalman
/// gain of the correlated pair).
pub fn rate(
    own: &Rating,
    other: &Rating,
    goals: Option<(u32, u32)>,
    outcome: Outcome,
    advantage: f64,
    weight: f64,
    config: &Config,
) -> Rating {
    rate_at(own, other, goals, outcome, advantage, weight, None, config)
}

/// [`rate`] with a newcomer's pool part `level` ([`pool_level`]).
#[allow(clippy::too_many_arguments)]
pub fn rate_at(
    own: &Rating,
    other: &Rating,
    goals: Option<(u32, u32)>,
    outcome: Outcome,
    advantage: f64,
    weight: f64,
    level: Option<(f64, f64)>,
    config: &Config,
) -> Rating {
    rate_explained(
        own,
        other,
        goals,
        outcome,
        advantage,
        weight,
        level,
        config,
        &mut (),
    )
}

/// [`rate_at`], handing `trace` the expected goals (the rates λ), the goals counted, the
/// gains and steps on attack and defence, and the new variance (the plain function is this
/// one with no trace).
#[allow(clippy::too_many_arguments)]
pub fn rate_explained<T: Trace + ?Sized>(
    own: &Rating,
    other: &Rating,
    goals: Option<(u32, u32)>,
    outcome: Outcome,
    advantage: f64,
    weight: f64,
    level: Option<(f64, f64)>,
    config: &Config,
    trace: &mut T,
) -> Rating {
    let (own, other) = (
        &entered_at(own, other, level, config),
        &entered_at(other, own, level, config),
    );
    trace.step("att", "attack going in", "att", own.attack);
    trace.step("def", "defence going in", "def", own.defence);
    trace.step("v", "variance going in", "v", own.variance);
    trace.step("att_opp", "opponent's attack", "att_opp", other.attack);
    trace.step("def_opp", "opponent's defence", "def_opp", other.defence);
    trace.step("v_opp", "opponent's variance", "v_opp", other.variance);
    if advantage != 0.0 {
        trace.step("h", "side advantage (log units)", "h", advantage);
    }
    let (l_own, l_other) = expected_goals(own, other, advantage, config);
    trace.step(
        "λ",
        "expected goals scored",
        "λ = exp(μ + h + att − def_opp)",
        l_own,
    );
    trace.step(
        "λ_opp",
        "expected goals conceded",
        "λ_opp = exp(μ − h + att_opp − def)",
        l_other,
    );
    let cap = if config.cap.is_finite() {
        config.cap.max(0.0)
    } else {
        NO_CAP
    };
    let (g_own, g_other) = match goals {
        Some((x, y)) => (f64::from(x).min(cap), f64::from(y).min(cap)),
        None => goals_given(l_own, l_other, config.rho, outcome),
    };
    trace.step(
        "g",
        "goals scored, as counted",
        match goals {
            Some(_) => "the score, capped",
            None => "the mean goals given the result",
        },
        g_own,
    );
    trace.step(
        "g_opp",
        "goals conceded, as counted",
        match goals {
            Some(_) => "the score, capped",
            None => "the mean goals given the result",
        },
        g_other,
    );
    let w = if weight.is_finite() {
        weight.max(0.0)
    } else {
        1.0
    };
    trace.step("w", "the event class's weight", "w", w);
    if w == 0.0 {
        return *own;
    }
    let v = own.variance.max(MIN_VARIANCE);
    let prior = v + other.variance.max(MIN_VARIANCE);
    trace.step(
        "v + v_opp",
        "prior variance of the rates",
        "v + v_opp",
        prior,
    );
    let gain = |lambda: f64| config.step * v / (1.0 / w + lambda * prior);
    trace.step(
        "k_att",
        "gain on attack",
        "k = step·v/(1/w + λ(v + v_opp))",
        gain(l_own),
    );
    trace.step(
        "k_def",
        "gain on defence",
        "k = step·v/(1/w + λ_opp(v + v_opp))",
        gain(l_other),
    );
    let (to_attack, to_defence) = (
        gain(l_own) * (g_own - l_own),
        gain(l_other) * (l_other - g_other),
    );
    trace.step("Δatt", "step on attack", "k_att·(g − λ)", to_attack);
    trace.step(
        "Δdef",
        "step on defence",
        "k_def·(λ_opp − g_opp)",
        to_defence,
    );
    let share = if config.share.is_finite() {
        config.share.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if share != 0.0 {
        trace.step("κ", "correlation of attack and defence", "κ", share);
    }
    let attack = own.attack + to_attack + share * to_defence;
    let defence = own.defence + to_defence + share * to_attack;
    let mean = (l_own + l_other) / 2.0;
    let variance = (v * (1.0 - mean * v / (1.0 / w + mean * prior))).max(MIN_VARIANCE);
    // A step that would leave the range where rates are held is cut at its edge.
    let bound = LOG_RATE_MAX - LOG_RATE_MIN;
    let new = Rating {
        attack: attack.clamp(-bound, bound),
        defence: defence.clamp(-bound, bound),
        variance,
    };
    trace.step(
        "att'",
        "new attack",
        "att' = att + Δatt + κ·Δdef",
        new.attack,
    );
    trace.step(
        "def'",
        "new defence",
        "def' = def + Δdef + κ·Δatt",
        new.defence,
    );
    trace.step(
        "v'",
        "new variance",
        "v' = v·(1 − λ̄v/(1/w + λ̄(v + v_opp))), λ̄ = (λ + λ_opp)/2",
        new.variance,
    );
    new
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(attack: f64, defence: f64, variance: f64) -> Rating {
        Rating {
            attack,
            defence,
            variance,
        }
    }

    /// λ by hand, μ = 0.3, A at home with h = 0.25 (log units):
    ///   λ_A = exp(0.3 + 0.25 + 0.2 − 0.1) = exp(0.65) = 1.9155408
    ///   λ_B = exp(0.3 + 0 + (−0.1) − 0.4) = exp(−0.2) = 0.8187308
    /// and the other way round (B favoured, advantage −0.25) the 0.25 goes to B's λ.
    #[test]
    fn expected_goals_by_hand() {
        let cfg = Config::default();
        let (a, b) = (r(0.2, 0.4, 0.1), r(-0.1, 0.1, 0.1));
        let (la, lb) = expected_goals(&a, &b, 0.25, &cfg);
        assert!((la - 1.915_540_8).abs() < 1e-7, "{la}");
        assert!((lb - 0.818_730_8).abs() < 1e-7, "{lb}");
        let (la, lb) = expected_goals(&a, &b, -0.25, &cfg);
        assert!((la - 0.65f64.exp() / 0.25f64.exp()).abs() < 1e-12);
        assert!((lb - 0.05f64.exp()).abs() < 1e-12);
    }

    /// Dixon–Coles' τ by hand, λ_A = 1.5, λ_B = 1.2, ρ = −0.1:
    ///   τ(0,0) = 1 − 1.5·1.2·(−0.1) = 1.18; τ(0,1) = 1 + 1.5·(−0.1) = 0.85;
    ///   τ(1,0) = 1 + 1.2·(−0.1) = 0.88; τ(1,1) = 1 + 0.1 = 1.1; τ(2,0) = 1.
    /// The draw: independent Poissons give Σ p_A(k)p_B(k) = 0.2548168 (e^−2.7·Σ 1.8^k/k!²
    /// = 0.0672055·3.7916053, the sum to k = 10); the correction adds
    /// p(0,0)·0.18 + p(1,1)·0.1 = 0.0672055·0.18 + 0.1209699·0.1 = 0.0241940, so 0.2790108.
    #[test]
    fn dixon_coles_by_hand() {
        assert!((tau(0, 0, 1.5, 1.2, -0.1) - 1.18).abs() < 1e-12);
        assert!((tau(0, 1, 1.5, 1.2, -0.1) - 0.85).abs() < 1e-12);
        assert!((tau(1, 0, 1.5, 1.2, -0.1) - 0.88).abs() < 1e-12);
        assert!((tau(1, 1, 1.5, 1.2, -0.1) - 1.1).abs() < 1e-12);
        assert_eq!(tau(2, 0, 1.5, 1.2, -0.1), 1.0);
        let p = probabilities(1.5, 1.2, -0.1);
        assert!((p.draw - 0.279_010_8).abs() < 1e-6, "{p:?}");
        assert!((p.win_a + p.draw + p.win_b - 1.0).abs() < 1e-12);
        let plain = probabilities(1.5, 1.2, 0.0);
        assert!((plain.draw - 0.254_816_8).abs() < 1e-6, "{plain:?}");
        // The stronger attack wins more often.
        assert!(p.win_a > p.win_b);
    }

    /// The step by hand: two newcomers (v = 0.1 each), μ = 0.3, no advantage, A wins 3-1.
    ///   λ = e^0.3 = 1.3498588 each; prior variance 0.1 + 0.1 = 0.2;
    ///   gain = 0.1/(1 + 1.3498588·0.2) = 0.1/1.2699718 = 0.0787419;
    ///   attack' = 0.0787419·(3 − 1.3498588) = 0.1299353;
    ///   defence' = 0.0787419·(1.3498588 − 1) = 0.0275486;
    ///   v' = 0.1·(1 − 1.3498588·0.1/1.2699718) = 0.1·0.8937095 = 0.0893710.
    #[test]
    fn the_step_by_hand() {
        let cfg = Config::default();
        let n = Rating::new(&cfg);
        let a = rate(&n, &n, Some((3, 1)), Outcome::Win, 0.0, 1.0, &cfg);
        assert!((a.attack - 0.129_935_3).abs() < 1e-7, "{a:?}");
        assert!((a.defence - 0.027_548_6).abs() < 1e-7, "{a:?}");
        assert!((a.variance - 0.089_371_0).abs() < 1e-7, "{a:?}");
        // B's view of the same match: the mirror image.
        let b = rate(&n, &n, Some((1, 3)), Outcome::Loss, 0.0, 1.0, &cfg);
        assert!((b.attack + 0.027_548_6).abs() < 1e-7 && (b.defence + 0.129_935_3).abs() < 1e-7);
        // A class weight of 0 moves nothing; a bigger win moves more.
        assert_eq!(
            rate(&n, &n, Some((3, 1)), Outcome::Win, 0.0, 0.0, &cfg).attack,
            0.0
        );
        let big = rate(&n, &n, Some((5, 1)), Outcome::Win, 0.0, 1.0, &cfg);
        assert!(big.rating() > a.rating());
    }

    /// Without a score a win still raises the winner, and the stand-in goals are the goals
    /// given a win: more than λ for the winner.
    #[test]
    fn a_result_without_a_score_updates_from_the_result() {
        let cfg = Config::default();
        let n = Rating::new(&cfg);
        let (g, h) = goals_given(1.35, 1.35, cfg.rho, Outcome::Win);
        assert!(g > 1.35 && h < 1.35 && g > h, "{g} {h}");
        let a = rate(&n, &n, None, Outcome::Win, 0.0, 1.0, &cfg);
        let b = rate(&n, &n, None, Outcome::Loss, 0.0, 1.0, &cfg);
        assert!(a.rating() > 1500.0 && b.rating() < 1500.0);
        assert!((a.rating() - 1500.0 + (b.rating() - 1500.0)).abs() < 1e-9);
        let d = rate(&n, &n, None, Outcome::Draw, 0.0, 1.0, &cfg);
        assert!((d.rating() - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn ratings_carry_over_from_the_1500_scale() {
        let cfg = Config::default();
        for x in [1500.0, 1800.0, 900.0, 3000.0] {
            assert!((Rating::from_1500(x, &cfg).rating() - x).abs() < 1e-9);
        }
        let g = grow(&r(0.0, 0.0, 0.01), 100.0, &cfg);
        assert!((g.variance - 0.02).abs() < 1e-12);
        assert_eq!(grow(&g, 1e9, &cfg).variance, cfg.initial_variance);
    }

    /// B's update reads A's joint mirrored: every sum equal, bit for bit, to the joint worked
    /// out afresh for (λ_B, λ_A), over low, even, lopsided and extreme rates and ρ either side.
    #[test]
    fn the_mirrored_joint_is_the_joint_of_the_rates_exchanged() {
        let rates = [0.0009, 0.3, 1.0, 1.35, 1.9155408, 2.7, 5.5, 17.0, 55.0];
        for &la in &rates {
            for &lb in &rates {
                for rho in [-0.1, -0.05, 0.0, 0.08] {
                    let (m, fresh) = (joint(la, lb, rho).mirrored(), joint(lb, la, rho));
                    let bits = |j: &Joint| {
                        let mut v: Vec<u64> = [j.mass, j.goals_a, j.goals_b]
                            .iter()
                            .flatten()
                            .map(|x| x.to_bits())
                            .collect();
                        v.push(j.draw_goals_mirrored.to_bits());
                        v
                    };
                    assert_eq!(bits(&m), bits(&fresh), "λ {la} {lb} ρ {rho}");
                }
            }
        }
        // And through the memo: A's stand-in goals for a win are B's for a loss, exchanged.
        let (g, h) = goals_given(1.9155408, 0.8187308, -0.05, Outcome::Win);
        let (h2, g2) = goals_given(0.8187308, 1.9155408, -0.05, Outcome::Loss);
        assert_eq!((g.to_bits(), h.to_bits()), (g2.to_bits(), h2.to_bits()));
    }
}
