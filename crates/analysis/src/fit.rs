//! Fitting: the parameter values under which a system best predicts a ladder's own
//! history, chosen on the matches before a date and scored on the matches from it on.
//!
//! The objective is [`crate::evaluate`]'s: the mean log-loss of side A's
//! expected score over the played matches before the split, each predicted before it
//! updates the ladder. Only events dated before the split are replayed while searching, so
//! nothing after it can move the fitted values. The log's own `rules` events are skipped:
//! the rules being tried hold through the whole history.
//!
//! The search is coordinate-wise and bounded, within each parameter's declared range
//! ([`Param`]), in a transformed box: a parameter whose range is positive and spans a factor
//! of 100 or more is searched on a log scale, any other linearly. One cycle goes through the
//! parameters in turn; for each it scans a grid across a window (the whole range in the first
//! cycle, 9 points; then ±1/8 of the range around the current value, halved each further
//! cycle, 5 points), then narrows the best grid point's two neighbouring intervals by
//! golden-section search down to 1/2000 of the range. Whole-number parameters are rounded.
//! A point replaces the current one only if it lowers the training log-loss by more than
//! [`GAIN`] (1e-9, far above the rounding noise of a mean over a million matches and far below
//! any real gain), so a parameter that does not affect prediction — Elo's initial rating,
//! which moves every rating alike — keeps its start value and is reported as kept. Cycles stop after four, or once one improves
//! the log-loss by less than 1e-6. Everything is deterministic: no randomness, a fixed order.
//!
//! Speed: the training events are indexed once and each point is scored by the
//! prediction-only replay ([`rungs_ladder::quick`]), summing only the figure the objective
//! needs. What a line search will ask for next is scored ahead on the other core — every
//! point of a grid, the golden section's first pair, and beside each later golden step the
//! point the step after it needs if the interval shrinks the same way — and is counted only
//! when the search asks for it, so the fitted values and the count of replays are those of
//! one point at a time.

use crate::evaluate::{self, EvalError, Score, Window};
use chrono::NaiveDate;
use rungs_ladder::event::{Event, MatchResult};
use rungs_ladder::log::Effective;
use rungs_ladder::quick;
use rungs_ladder::rules::{ParamError, Rules, System};
use rungs_ladder::systems::Param;
use serde::Serialize;
use std::collections::HashMap;

pub mod choose;

/// The share of the played matches a fit is chosen on when no date is given.
pub const DEFAULT_TRAIN_SHARE: f64 = 0.7;

const FIRST_GRID: usize = 9;
const LATER_GRID: usize = 5;
const MAX_CYCLES: usize = 4;
/// The cycles a fit that chooses its parameters may run in its last joint search.
const LAST_CYCLES: usize = 6;
/// A cycle that improves the training log-loss by less than this ends the search.
const SETTLED: f64 = 1e-6;
/// The least lowering of the training log-loss that moves a parameter from its value.
pub const GAIN: f64 = 1e-9;
/// Golden-section search stops at this share of the parameter's (transformed) range.
const TOLERANCE: f64 = 5e-4;
/// Ranges spanning this factor or more (and above 0) are searched on a log scale.
const LOG_SPAN: f64 = 100.0;
const INV_PHI: f64 = 0.618_033_988_749_894_9;

/// The parameters fitted when none are named: those that move a system's predictions most
/// on real results (K, c, τ, β, ε, the side advantage).
pub fn default_params(system: System) -> &'static [&'static str] {
    match system {
        System::Skyweaver => &["advantage", "c_per_day", "min_deviation"],
        System::Inversus => &["advantage", "days_per_period", "min_phi"],
        System::Allegskill => &["advantage", "beta", "gamma"],
        System::Memoir44 => &["advantage", "points"],
        System::Elo => &["advantage", "k"],
        System::Goals => &["advantage", "drift", "step"],
    }
}

/// The split used when none is given: the date of the played match at 70 % of them (in
/// replay order), so that about 70 % come before it. `None` without played matches.
pub fn default_split(events: &[Effective]) -> Option<NaiveDate> {
    let played: Vec<NaiveDate> = events
        .iter()
        .filter(
            |e| matches!(&e.event, Event::Match(m) if matches!(m.result, MatchResult::Played(_))),
        )
        .map(|e| e.date)
        .collect();
    let at = (played.len() as f64 * DEFAULT_TRAIN_SHARE) as usize;
    played.get(at.min(played.len().saturating_sub(1))).copied()
}

/// Why a fit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error(transparent)]
    Param(#[from] ParamError),
    #[error("no parameters to fit")]
    NoParams,
    #[error(
        "no played matches before {0} to fit on; choose a later date (the fit learns from the \
         matches before it and is scored on those after)"
    )]
    NothingBefore(NaiveDate),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// One parameter as the screens of a fit that chose its parameters found it
/// ([`choose::fit_auto`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Screened {
    pub name: &'static str,
    /// The training objective at the start less its lowest across the screen (0 when no
    /// value does better).
    pub effect: f64,
    /// The value where it was lowest.
    pub best: f64,
    /// Its effect at the first joint search's optimum, when it was screened there (not chosen
    /// by the first screen).
    pub effect_after: Option<f64>,
    /// Chosen by the first screen (1) or the second (2); `None`: not fitted.
    pub chosen_by: Option<u8>,
}

/// One fitted parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FittedParam {
    pub name: &'static str,
    pub label: &'static str,
    /// Its value before the fit.
    pub start: f64,
    pub fitted: f64,
    /// The fit moved the value to an edge of its declared range: the data may want more.
    pub at_bound: bool,
    /// No value predicted better by more than [`GAIN`]: the start value is kept.
    pub kept: bool,
}

/// One set of rules scored on both sides of the split.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scored {
    pub label: String,
    /// The matches before the split (what the fit was chosen on).
    pub train: Score,
    /// The matches from the split on (what it never saw).
    pub test: Score,
}

/// A fit and how it compares.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    pub system: System,
    /// Fitted on matches before this date, scored on those from it on.
    pub until: NaiveDate,
    pub params: Vec<FittedParam>,
    /// When the fit chose its parameters itself: every parameter the screen tried, with
    /// what it did (empty when they were named).
    pub screened: Vec<Screened>,
    /// The starting rules with the fitted values.
    #[serde(skip)]
    pub rules: Rules,
    /// Training replays run (a repeated point is not run again).
    pub evaluations: u32,
    pub fitted: Scored,
    /// The system at its default parameters, under the ladder's calendar and side advantage.
    pub defaults: Scored,
}

/// One parameter's axis in the transformed box.
struct Axis {
    param: &'static Param,
    log: bool,
    lo: f64,
    hi: f64,
}

impl Axis {
    fn new(param: &'static Param) -> Axis {
        let log = param.min > 0.0 && param.max / param.min >= LOG_SPAN;
        let (lo, hi) = if log {
            (param.min.ln(), param.max.ln())
        } else {
            (param.min, param.max)
        };
        Axis { param, log, lo, hi }
    }

    fn to_axis(&self, value: f64) -> f64 {
        let u = if self.log { value.ln() } else { value };
        if u.is_finite() {
            u.clamp(self.lo, self.hi)
        } else {
            self.lo
        }
    }

    /// The parameter value at `u`: within the declared range, whole where it must be, and
    /// rounded to the search's resolution — a power of ten at or below the tolerance (on a
    /// log scale, as many significant digits), so that fitted values read as 44.6 and not
    /// 44.591629…, and what is scored is exactly what is reported.
    fn value(&self, u: f64) -> f64 {
        let x = if self.log { u.exp() } else { u };
        let x = x.clamp(self.param.min, self.param.max);
        if self.param.integer {
            return x
                .round()
                .clamp(self.param.min.ceil(), self.param.max.floor());
        }
        let resolution = TOLERANCE * self.width();
        // The power of ten at or below the resolution: 10^⌊log10 r⌋.
        let place = -resolution.log10().floor() as i32;
        let digits = if self.log {
            // r is relative here: keep `place` + 1 significant digits.
            place - x.abs().log10().floor() as i32
        } else {
            place
        };
        round_to(x, digits).clamp(self.param.min, self.param.max)
    }

    fn width(&self) -> f64 {
        self.hi - self.lo
    }

    /// Golden-section steps to narrow `width` down to the tolerance.
    fn golden_steps(&self, width: f64) -> u32 {
        let tol = TOLERANCE * self.width();
        if width <= tol || tol <= 0.0 {
            return 0;
        }
        ((width / tol).ln() / (1.0 / INV_PHI).ln()).ceil() as u32 + 2
    }
}

/// `x` rounded to `digits` decimal places (negative: to tens, hundreds, …), by multiplying
/// with an exact power of ten so that the result prints as short as it reads.
fn round_to(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = digits.clamp(-300, 300);
    let scale = 10f64.powi(digits.abs());
    let rounded = if digits >= 0 {
        (x * scale).round() / scale
    } else {
        (x / scale).round() * scale
    };
    if rounded.is_finite() { rounded } else { x }
}

/// What a fit lowers: the log-loss of the expected score (the default, what
/// `evaluate` ranks by), or the three-outcome log-loss −ln P(win, draw or loss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    #[default]
    Expected,
    ThreeOutcome,
}

impl Objective {
    /// `expected` or `three-outcome`.
    pub fn parse(text: &str) -> Option<Objective> {
        match text.trim().to_ascii_lowercase().as_str() {
            "expected" => Some(Objective::Expected),
            "three-outcome" | "three_outcome" | "3" => Some(Objective::ThreeOutcome),
            _ => None,
        }
    }

    /// The figure of `score` this objective lowers.
    pub fn of(self, score: &evaluate::Score) -> f64 {
        match self {
            Objective::Expected => score.log_loss,
            Objective::ThreeOutcome => score.log_loss_3way.unwrap_or(f64::INFINITY),
        }
    }
}

/// The search's state: the training events, the current point, and every point tried.
struct Search<'a, 'p> {
    start: &'a Rules,
    objective: Objective,
    axes: Vec<Axis>,
    /// Each axis at its start value: a coordinate still there leaves the start value exactly
    /// as it was (not rounded to the search's resolution).
    start_point: Vec<f64>,
    events: Vec<(NaiveDate, u64, &'a Event)>,
    /// The training events indexed once for the prediction-only replay, where it covers them.
    log: Option<quick::Log<'a>>,
    until: NaiveDate,
    tried: HashMap<Vec<u64>, f64>,
    /// Points scored ahead, side by side, before the search asks for them: each moves to
    /// `tried` (and counts as an evaluation) only when asked for, so that the search's
    /// decisions and its count of replays are those of one point at a time.
    ready: HashMap<Vec<u64>, f64>,
    evaluations: u32,
    steps: u64,
    planned: u64,
    progress: &'p mut dyn FnMut(u64, u64) -> bool,
}

impl Search<'_, '_> {
    fn rules_at(&self, point: &[f64]) -> Result<Rules, FitError> {
        let mut rules = self.start.clone();
        for (i, &u) in point.iter().enumerate() {
            if u.to_bits() != self.start_point[i].to_bits() {
                rules.set_param(self.axes[i].param.name, self.axes[i].value(u))?;
            }
        }
        Ok(rules)
    }

    /// The value axis `i` takes at `u`: the start value where `u` is still the start.
    fn value_at(&self, i: usize, u: f64) -> f64 {
        if u.to_bits() == self.start_point[i].to_bits() {
            self.start
                .param(self.axes[i].param.name)
                .unwrap_or_else(|| self.axes[i].value(u))
        } else {
            self.axes[i].value(u)
        }
    }

    /// The training log-loss at `point` (infinite where the rules score nothing finite).
    fn objective(&mut self, point: &[f64]) -> Result<f64, FitError> {
        self.steps += 1;
        if !(self.progress)(self.steps, self.planned) {
            return Err(EvalError::Cancelled.into());
        }
        let key = self.key(point);
        if let Some(&f) = self.tried.get(&key) {
            return Ok(f);
        }
        let f = match self.ready.remove(&key) {
            Some(f) => f,
            None => {
                let rules = self.rules_at(point)?;
                self.score(&rules)?
            }
        };
        self.evaluations += 1;
        self.tried.insert(key, f);
        Ok(f)
    }

    fn key(&self, point: &[f64]) -> Vec<u64> {
        point
            .iter()
            .enumerate()
            .map(|(i, &u)| self.value_at(i, u).to_bits())
            .collect()
    }

    fn score(&self, rules: &Rules) -> Result<f64, FitError> {
        training_objective(
            rules,
            self.log.as_ref(),
            &self.events,
            self.until,
            self.objective,
        )
    }

    /// Scores the `points` the search is about to ask for, side by side over the cores
    /// (each replay holds only its players' skills), into `ready`. Only through the
    /// prediction-only replay: a full replay's error is left for the search to meet in turn.
    fn prefetch(&mut self, points: &[Vec<f64>]) {
        if self.log.is_none() {
            return;
        }
        let mut todo: Vec<(Vec<u64>, Rules)> = Vec::new();
        for point in points {
            let key = self.key(point);
            if self.tried.contains_key(&key)
                || self.ready.contains_key(&key)
                || todo.iter().any(|(k, _)| *k == key)
            {
                continue;
            }
            match self.rules_at(point) {
                Ok(rules) => todo.push((key, rules)),
                Err(_) => return,
            }
        }
        if todo.len() < 2 {
            return;
        }
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(todo.len());
        if workers < 2 {
            return;
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (log, events) = (self.log.as_ref(), &self.events);
        let (until, objective) = (self.until, self.objective);
        let scored: Vec<Vec<(usize, f64)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    s.spawn(|| {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some((_, rules)) = todo.get(i) else {
                                break;
                            };
                            if let Ok(f) = training_objective(rules, log, events, until, objective)
                            {
                                out.push((i, f));
                            }
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for (i, f) in scored.into_iter().flatten() {
            self.ready.insert(todo[i].0.clone(), f);
        }
    }

    /// Improves coordinate `i` of `point` (whose value is `*best`) within [lo, hi]: a grid
    /// of `n` points, then golden-section search around the best of them.
    fn line(
        &mut self,
        point: &mut [f64],
        best: &mut f64,
        i: usize,
        (lo, hi): (f64, f64),
        n: usize,
    ) -> Result<(), FitError> {
        let mut trial = point.to_vec();
        let mut eval = |search: &mut Self, u: f64, best: &mut f64, point: &mut [f64]| {
            trial[i] = u;
            let f = search.objective(&trial)?;
            if f < *best - GAIN {
                *best = f;
                point[i] = u;
            }
            Ok::<f64, FitError>(f)
        };
        let grid: Vec<f64> = (0..n)
            .map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64)
            .collect();
        // Every grid point is known before any is scored: they are scored side by side.
        let ahead: Vec<Vec<f64>> = grid
            .iter()
            .map(|&u| {
                let mut at = point.to_vec();
                at[i] = u;
                at
            })
            .collect();
        self.prefetch(&ahead);
        let mut values = Vec::with_capacity(n);
        for &u in &grid {
            values.push(eval(self, u, best, point)?);
        }
        let j = (0..n)
            .min_by(|&x, &y| values[x].total_cmp(&values[y]))
            .unwrap_or(0);
        let (mut a, mut b) = (grid[j.saturating_sub(1)], grid[(j + 1).min(n - 1)]);
        let steps = self.axes[i].golden_steps(b - a);
        let mut c = b - (b - a) * INV_PHI;
        let mut d = a + (b - a) * INV_PHI;
        let pair: Vec<Vec<f64>> = [c, d]
            .iter()
            .map(|&u| {
                let mut at = point.to_vec();
                at[i] = u;
                at
            })
            .collect();
        self.prefetch(&pair);
        let mut fc = eval(self, c, best, point)?;
        let mut fd = eval(self, d, best, point)?;
        // Each step needs the one before, so the second core scores ahead: beside the point
        // a step needs, the one the next step needs if the interval shrinks the same way
        // again (what it takes is computed as the step would compute it).
        let at = |point: &[f64], u: f64| {
            let mut at = point.to_vec();
            at[i] = u;
            at
        };
        for k in 2..steps {
            let ahead = k + 1 < steps;
            if fc < fd {
                b = d;
                d = c;
                fd = fc;
                c = b - (b - a) * INV_PHI;
                if ahead {
                    self.prefetch(&[at(point, c), at(point, d - (d - a) * INV_PHI)]);
                }
                fc = eval(self, c, best, point)?;
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + (b - a) * INV_PHI;
                if ahead {
                    self.prefetch(&[at(point, d), at(point, c + (b - c) * INV_PHI)]);
                }
                fd = eval(self, d, best, point)?;
            }
        }
        Ok(())
    }

    /// The window cycle `cycle` searches coordinate `i` in, around `u`, and its grid size.
    fn window(&self, i: usize, u: f64, cycle: usize) -> ((f64, f64), usize) {
        let axis = &self.axes[i];
        if cycle == 0 {
            return ((axis.lo, axis.hi), FIRST_GRID);
        }
        let half = axis.width() / 8.0 / f64::from(1u32 << (cycle - 1));
        (
            ((u - half).max(axis.lo), (u + half).min(axis.hi)),
            LATER_GRID,
        )
    }

    /// An upper bound on the objective calls of a search over axes `active`, for progress.
    fn plan(&self, active: &[usize]) -> u64 {
        self.plan_cycles(active, 0..MAX_CYCLES)
    }

    /// [`Self::plan`] over `cycles` (and three pattern moves a cycle).
    fn plan_cycles(&self, active: &[usize], cycles: std::ops::Range<usize>) -> u64 {
        let mut total = 1u64;
        for cycle in cycles {
            total += 3;
            for &i in active {
                let axis = &self.axes[i];
                let ((lo, hi), n) = self.window(i, (axis.lo + axis.hi) / 2.0, cycle);
                let cell = 2.0 * (hi - lo) / (n - 1) as f64;
                total += n as u64 + u64::from(axis.golden_steps(cell).max(2));
            }
        }
        total
    }

    /// The coordinate search over axes `active` from `point` (whose objective is `*best`),
    /// cycle by cycle until one settles.
    fn descend(
        &mut self,
        point: &mut [f64],
        best: &mut f64,
        active: &[usize],
        first_cycle: usize,
    ) -> Result<(), FitError> {
        self.descend_through(point, best, active, first_cycle..MAX_CYCLES, false)
    }

    /// [`Self::descend`] over `cycles`; with `pattern`, each cycle ends with a Hooke–Jeeves
    /// pattern move: the whole step the cycle made, taken again once, twice and four times
    /// (the first that does not lower the objective ends it), which walks a valley that
    /// runs across the axes (two parameters that trade against each other) in a few
    /// replays where coordinate steps zigzag.
    fn descend_through(
        &mut self,
        point: &mut [f64],
        best: &mut f64,
        active: &[usize],
        cycles: std::ops::Range<usize>,
        pattern: bool,
    ) -> Result<(), FitError> {
        for cycle in cycles {
            let before = *best;
            let from = point.to_vec();
            for &i in active {
                let (window, n) = self.window(i, point[i], cycle);
                self.line(point, best, i, window, n)?;
            }
            if pattern {
                let step: Vec<f64> = point.iter().zip(&from).map(|(a, b)| a - b).collect();
                let base = point.to_vec();
                for times in [1.0, 2.0, 4.0] {
                    let trial: Vec<f64> = base
                        .iter()
                        .zip(&step)
                        .enumerate()
                        .map(|(i, (&u, &d))| {
                            if d == 0.0 {
                                u
                            } else {
                                (u + times * d).clamp(self.axes[i].lo, self.axes[i].hi)
                            }
                        })
                        .collect();
                    let f = self.objective(&trial)?;
                    if f < *best - GAIN {
                        *best = f;
                        point.copy_from_slice(&trial);
                    } else {
                        break;
                    }
                }
            }
            if before - *best < SETTLED {
                break;
            }
        }
        Ok(())
    }

    /// The fitted parameters of axes `active` at `point`.
    fn fitted_params(&self, point: &[f64], active: &[usize]) -> Vec<FittedParam> {
        active
            .iter()
            .map(|&i| {
                let a = &self.axes[i];
                let fitted = self.value_at(i, point[i]);
                let was = self.start.param(a.param.name).unwrap_or(f64::NAN);
                FittedParam {
                    name: a.param.name,
                    label: a.param.label,
                    start: was,
                    fitted,
                    at_bound: fitted != was && (fitted <= a.param.min || fitted >= a.param.max),
                    kept: fitted == was,
                }
            })
            .collect()
    }
}

/// The objective under `rules` on the training events (infinite where they score nothing
/// finite), through the prediction-only replay of `log` where it covers the rules.
fn training_objective(
    rules: &Rules,
    log: Option<&quick::Log<'_>>,
    events: &[(NaiveDate, u64, &Event)],
    until: NaiveDate,
    objective: Objective,
) -> Result<f64, FitError> {
    let lean = match objective {
        Objective::Expected => evaluate::Lean::Expected,
        Objective::ThreeOutcome => evaluate::Lean::ThreeOutcome,
    };
    let quick = log.and_then(|log| evaluate::objective_indexed(rules, log, until, lean));
    let f = match quick {
        Some(f) => f?,
        None => {
            let window = Window::until(until);
            let score =
                evaluate::evaluate_in(rules, events.iter().copied(), window, &mut |_| true)?;
            objective.of(&score)
        }
    };
    Ok(if f.is_finite() { f } else { f64::INFINITY })
}

/// Fits parameters `names` of `start`'s system on the played matches of `events` dated
/// before `until`, and scores the result and the system's defaults on both sides of the
/// split. `progress` hears (steps done, steps planned); returning false cancels.
pub fn fit(
    start: &Rules,
    names: &[&str],
    events: &[Effective],
    until: NaiveDate,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Fit, FitError> {
    fit_for(start, names, events, until, Objective::Expected, progress)
}

/// [`fit`] lowering `objective`.
pub fn fit_for(
    start: &Rules,
    names: &[&str],
    events: &[Effective],
    until: NaiveDate,
    objective: Objective,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Fit, FitError> {
    let system = start.system();
    let mut axes = Vec::with_capacity(names.len());
    for name in names {
        let param = rungs_ladder::rules::declared(system, name)?;
        if !axes.iter().any(|a: &Axis| a.param.name == param.name) {
            axes.push(Axis::new(param));
        }
    }
    if axes.is_empty() {
        return Err(FitError::NoParams);
    }
    let mut search = Search::new(start, axes, events, until, objective, progress)?;
    let active: Vec<usize> = (0..search.axes.len()).collect();
    search.planned = search.plan(&active);
    let mut point = search.start_point.clone();
    let mut best = search.objective(&point)?;
    search.descend(&mut point, &mut best, &active, 0)?;
    let params = search.fitted_params(&point, &active);
    finish(search, &point, params, Vec::new(), events)
}

impl<'a, 'p> Search<'a, 'p> {
    /// A search of `axes` from `start` on the events of `events` dated before `until`.
    fn new(
        start: &'a Rules,
        axes: Vec<Axis>,
        events: &'a [Effective],
        until: NaiveDate,
        objective: Objective,
        progress: &'p mut dyn FnMut(u64, u64) -> bool,
    ) -> Result<Search<'a, 'p>, FitError> {
        let training: Vec<(NaiveDate, u64, &Event)> = evaluate::without_rules_changes(
            events
                .iter()
                .take_while(|e| e.date < until)
                .map(|e| (e.date, e.seq, &e.event)),
        )
        .collect();
        let played_before = training.iter().any(
            |(_, _, e)| matches!(e, Event::Match(m) if matches!(m.result, MatchResult::Played(_))),
        );
        if !played_before {
            return Err(FitError::NothingBefore(until));
        }
        let log = quick::Log::index(training.iter().copied(), Some(until));
        let start_point = axes
            .iter()
            .map(|a| a.to_axis(start.param(a.param.name).unwrap_or(a.param.min)))
            .collect();
        Ok(Search {
            start,
            objective,
            axes,
            start_point,
            events: training,
            log,
            until,
            tried: HashMap::new(),
            ready: HashMap::new(),
            evaluations: 0,
            steps: 0,
            planned: 0,
            progress,
        })
    }
}

/// The fit at `point`, scored with the system's defaults on both sides of the split.
fn finish(
    search: Search<'_, '_>,
    point: &[f64],
    params: Vec<FittedParam>,
    screened: Vec<Screened>,
    events: &[Effective],
) -> Result<Fit, FitError> {
    let rules = search.rules_at(point)?;
    let (start, until) = (search.start, search.until);
    let evaluations = search.evaluations;
    let (steps, planned) = (search.steps, search.planned);
    let progress = search.progress;
    if !progress(steps.max(planned), planned) {
        return Err(EvalError::Cancelled.into());
    }
    // The system's defaults on this ladder: its season calendar and side advantage belong to
    // the ladder, not to the parameters fitted, so the defaults are scored with them too.
    let defaults = start.defaults_for(start.system());
    let [fitted, defaults] = score_splits([&rules, &defaults], events, until);
    let (fitted, defaults) = (fitted?, defaults?);
    Ok(Fit {
        system: start.system(),
        until,
        params,
        screened,
        rules,
        evaluations,
        fitted,
        defaults,
    })
}

/// The training log-loss of `rules` as parameter `name` alone moves around its value: `points`
/// values across ±1/8 of its declared range (on the fit's scale, within the range) and the
/// value itself, in order, each with its log-loss on the matches before `until` — the curve a
/// designer reads the optimum's sharpness from. `progress` hears (points done, points).
pub fn profile(
    rules: &Rules,
    name: &str,
    events: &[Effective],
    until: NaiveDate,
    points: usize,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Vec<[f64; 2]>, FitError> {
    let system = rules.system();
    let param = rungs_ladder::rules::declared(system, name)?;
    let axis = Axis::new(param);
    let centre = axis.to_axis(rules.param(name).unwrap_or(param.min));
    let half = axis.width() / 8.0;
    let (lo, hi) = ((centre - half).max(axis.lo), (centre + half).min(axis.hi));
    let training: Vec<(NaiveDate, u64, &Event)> = evaluate::without_rules_changes(
        events
            .iter()
            .take_while(|e| e.date < until)
            .map(|e| (e.date, e.seq, &e.event)),
    )
    .collect();
    let n = points.max(2);
    let mut xs: Vec<f64> = (0..n)
        .map(|k| axis.value(lo + (hi - lo) * k as f64 / (n - 1) as f64))
        .chain([axis.value(centre)])
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup(); // a whole-number parameter's neighbours may round alike
    let mut curve: Vec<[f64; 2]> = Vec::with_capacity(xs.len());
    for (k, &x) in xs.iter().enumerate() {
        if !progress(k as u64, xs.len() as u64) {
            return Err(EvalError::Cancelled.into());
        }
        let mut at = rules.clone();
        at.set_param(name, x)?;
        let score = evaluate::evaluate_in(
            &at,
            training.iter().copied(),
            Window::until(until),
            &mut |_| true,
        )?;
        if score.matches > 0 && score.log_loss.is_finite() {
            curve.push([x, score.log_loss]);
        }
    }
    Ok(curve)
}

/// [`score_split`] of each of `rules`, side by side over the cores.
pub fn score_splits<const N: usize>(
    rules: [&Rules; N],
    events: &[Effective],
    until: NaiveDate,
) -> [Result<Scored, EvalError>; N] {
    let all = || evaluate::without_rules_changes(events.iter().map(|e| (e.date, e.seq, &e.event)));
    let log = quick::Log::index(all(), None);
    let one = |rules: &Rules| -> Result<Scored, EvalError> {
        let split = match &log {
            Some(log) => evaluate::evaluate_split_indexed(rules, log, until, &mut |_| true),
            None => None,
        };
        let (train, test) = match split {
            Some(split) => split?,
            None => evaluate::evaluate_split(rules, all(), until, &mut |_| true)?,
        };
        Ok(Scored {
            label: evaluate::label(rules),
            train,
            test,
        })
    };
    let parallel = std::thread::available_parallelism().map_or(1, |n| n.get()) > 1;
    if !parallel || N < 2 {
        return rules.map(one);
    }
    std::thread::scope(|s| {
        let handles = rules.map(|r| s.spawn(move || one(r)));
        handles.map(|h| h.join().unwrap_or(Err(EvalError::Cancelled)))
    })
}

/// `rules` held through the whole log (its `rules` events skipped), scored on the matches
/// before `until` and on those from it on, in one replay (the prediction-only one where it
/// covers the rules).
pub fn score_split(
    rules: &Rules,
    events: &[Effective],
    until: NaiveDate,
) -> Result<Scored, EvalError> {
    let [scored] = score_splits([rules], events, until);
    scored
}

#[cfg(test)]
mod tests {
    use super::choose::{CHOSEN_EFFECT, fit_auto};
    use super::*;
    use rungs_ladder::event::{Home, Match, PlayerId};
    use rungs_rating::{Outcome, elo};

    use crate::simulate::Rng;

    fn day(n: u64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2000, 1, 1).unwrap() + chrono::Days::new(n)
    }

    /// A log whose results Elo with K = `k` and side advantage `h` predicts exactly: every
    /// player starts at 1500, each match's result is drawn with A's Elo expectation (home
    /// side raised by h), and the generator's ratings then move by K, as rungs' Elo would.
    /// One match a day; half the matches put A at home, a quarter B, a quarter neither.
    fn elo_world(k: f64, h: f64, players: u32, matches: u64, seed: u64) -> Vec<Effective> {
        let mut rng = Rng(seed);
        let mut events: Vec<Effective> = (0..players)
            .map(|id| Effective {
                date: day(0),
                seq: u64::from(id) + 1,
                event: Event::Player {
                    id,
                    name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
                    undated: false,
                },
            })
            .collect();
        let cfg = elo::Config {
            k,
            ..elo::Config::default()
        };
        let mut ratings = vec![elo::Rating::new(&cfg); players as usize];
        for i in 0..matches {
            let a = rng.below(players);
            let b = (a + 1 + rng.below(players - 1)) % players;
            let home = match rng.below(4) {
                0 | 1 => Home::A,
                2 => Home::B,
                _ => Home::Neutral,
            };
            let shift = h * home.sign();
            let (ra, rb) = (ratings[a as usize], ratings[b as usize]);
            let p = elo::expected(ra.rating + shift, rb.rating);
            let outcome = if rng.unit() < p {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let (a2, b2) = elo::rate_with_advantage(&ra, &rb, outcome, shift, &cfg);
            ratings[a as usize] = a2;
            ratings[b as usize] = b2;
            let m = Match {
                home: Some(home),
                ..Match::new(a as PlayerId, b as PlayerId, MatchResult::Played(outcome))
            };
            events.push(Effective {
                date: day(1 + i),
                seq: u64::from(players) + 1 + i,
                event: Event::Match(m),
            });
        }
        events
    }

    fn elo_fit(events: &[Effective], until: NaiveDate) -> Fit {
        fit(
            &Rules::defaults(System::Elo),
            &["k", "advantage"],
            events,
            until,
            &mut |_, _| true,
        )
        .unwrap()
    }

    /// Generated with K = 24 and h = 80, 12,000 matches among 40 players, fitted on the first
    /// 10,000: both come back within 25 % (K from 18 to 30, h from 60 to 100). The tolerance
    /// is the sampling noise of one such log: seeds 1 to 8 give K 21.7–25.7 and h 73–88.
    #[test]
    fn a_synthetic_elo_log_gives_back_its_k_and_advantage() {
        let events = elo_world(24.0, 80.0, 40, 12_000, 1);
        let f = elo_fit(&events, day(10_001));
        let value = |name: &str| f.params.iter().find(|p| p.name == name).unwrap().fitted;
        let (k, h) = (value("k"), value("advantage"));
        assert!((18.0..=30.0).contains(&k), "K = {k}");
        assert!((60.0..=100.0).contains(&h), "h = {h}");
        assert_eq!(f.fitted.train.matches, 10_000);
        assert_eq!(f.fitted.test.matches, 2_000);
        // The fit predicts the unseen matches better than Elo's defaults (no advantage).
        assert!(f.fitted.test.log_loss < f.defaults.test.log_loss, "{f:?}");
        assert!(f.fitted.train.log_loss < f.defaults.train.log_loss);
        // What is reported is what the rules carry.
        assert_eq!(f.rules.param("k"), Some(k));
        assert_eq!(f.rules.advantage, h);
    }

    /// Without names the fit finds K and the advantage itself: on the Elo world they are the
    /// only parameters that change a prediction (the log has no scores and no event classes,
    /// and the initial rating moves every rating alike), so the screen chooses those two, the
    /// second screen adds none, and they come back within the named fit's tolerances.
    #[test]
    fn without_names_the_fit_chooses_k_and_the_advantage() {
        let events = elo_world(24.0, 80.0, 40, 12_000, 1);
        let until = day(10_001);
        let f = fit_auto(
            &Rules::defaults(System::Elo),
            &events,
            until,
            Objective::Expected,
            &mut |_, _| true,
        )
        .unwrap();
        let chosen: Vec<&str> = f.params.iter().map(|p| p.name).collect();
        assert_eq!(chosen.len(), 2, "{:?}", f.screened);
        assert!(chosen.contains(&"k") && chosen.contains(&"advantage"));
        let screened = |name: &str| f.screened.iter().find(|s| s.name == name).unwrap();
        assert_eq!(screened("initial_rating").effect, 0.0);
        assert_eq!(screened("initial_rating").chosen_by, None);
        assert_eq!(screened("k_cup").effect, 0.0);
        assert!(screened("k").effect >= CHOSEN_EFFECT);
        assert_eq!(screened("k").chosen_by, Some(1));
        assert_eq!(f.screened.len(), System::Elo.facts().params.len());
        let value = |name: &str| f.params.iter().find(|p| p.name == name).unwrap().fitted;
        let (k, h) = (value("k"), value("advantage"));
        assert!((18.0..=30.0).contains(&k), "K = {k}");
        assert!((60.0..=100.0).contains(&h), "h = {h}");
        // As good on the training matches as naming the two.
        let named = elo_fit(&events, until);
        assert!(f.fitted.train.log_loss <= named.fitted.train.log_loss + 1e-5);
        assert!(f.fitted.test.log_loss < f.defaults.test.log_loss);
    }

    /// The choice reads only the training matches: rewriting every result after the split
    /// leaves the screens, the chosen parameters and their values as they were; a cancel
    /// during the screen stops it.
    #[test]
    fn the_choice_never_reads_past_the_split() {
        let events = elo_world(30.0, 60.0, 12, 1_500, 7);
        let until = day(1_001);
        let mut changed = events.clone();
        for e in changed.iter_mut().filter(|e| e.date >= until) {
            if let Event::Match(m) = &mut e.event {
                m.result = MatchResult::Played(Outcome::Draw);
                m.home = Some(Home::B);
            }
        }
        let run = |log: &[Effective]| {
            fit_auto(
                &Rules::defaults(System::Elo),
                log,
                until,
                Objective::Expected,
                &mut |_, _| true,
            )
            .unwrap()
        };
        let (a, b) = (run(&events), run(&changed));
        assert_eq!(a.screened, b.screened);
        assert_eq!(a.params, b.params);
        assert_eq!(a.fitted.train, b.fitted.train);
        assert_ne!(a.fitted.test, b.fitted.test);
        let mut calls = 0;
        let cancelled = fit_auto(
            &Rules::defaults(System::Elo),
            &events,
            until,
            Objective::Expected,
            &mut |_, _| {
                calls += 1;
                calls < 5
            },
        )
        .unwrap_err();
        assert_eq!(cancelled, FitError::Eval(EvalError::Cancelled));
    }

    /// Nothing from the split on is replayed while searching: rewriting every result after it,
    /// and adding matches, leaves the fitted values and the training score as they were.
    #[test]
    fn matches_after_the_split_do_not_move_the_fit() {
        let events = elo_world(30.0, 60.0, 12, 1_500, 7);
        let until = day(1_001);
        let first = elo_fit(&events, until);
        let mut changed = events.clone();
        for e in changed.iter_mut().filter(|e| e.date >= until) {
            if let Event::Match(m) = &mut e.event {
                m.result = MatchResult::Played(Outcome::Draw);
                m.home = Some(Home::B);
            }
        }
        changed.extend(
            elo_world(10.0, -50.0, 12, 300, 9)
                .into_iter()
                .skip(12)
                .map(|mut e| {
                    e.date = day(5_000) + chrono::Days::new(e.seq);
                    e.seq += 10_000;
                    e
                }),
        );
        let second = elo_fit(&changed, until);
        assert_eq!(first.params, second.params);
        assert_eq!(first.fitted.train, second.fitted.train);
        assert_eq!(first.evaluations, second.evaluations);
        assert_ne!(
            first.fitted.test, second.fitted.test,
            "the test half did change"
        );
    }

    #[test]
    fn bad_requests_are_named() {
        let events = elo_world(20.0, 0.0, 4, 20, 3);
        let rules = Rules::defaults(System::Elo);
        let e = fit(&rules, &["tau"], &events, day(10), &mut |_, _| true).unwrap_err();
        assert!(
            e.to_string().contains("`tau`") && e.to_string().contains("k"),
            "{e}"
        );
        let e = fit(&rules, &[], &events, day(10), &mut |_, _| true).unwrap_err();
        assert_eq!(e, FitError::NoParams);
        let e = fit(&rules, &["k"], &events, day(0), &mut |_, _| true).unwrap_err();
        assert_eq!(e, FitError::NothingBefore(day(0)));
        let cancelled = fit(&rules, &["k"], &events, day(10), &mut |_, _| false).unwrap_err();
        assert_eq!(cancelled, FitError::Eval(EvalError::Cancelled));
    }

    /// The curve passes through the fit: at the fitted K its log-loss is the fit's training
    /// score, and no point of it is lower.
    #[test]
    fn the_profile_of_a_fitted_parameter_is_lowest_at_the_fit() {
        let events = elo_world(30.0, 60.0, 12, 1_500, 7);
        let until = day(1_001);
        let f = elo_fit(&events, until);
        let curve = profile(&f.rules, "k", &events, until, 9, &mut |_, _| true).unwrap();
        let k = f.rules.param("k").unwrap();
        // K's range is 0 to 400: the curve spans ±50 around the fit, clamped at 0, and holds
        // the fit itself.
        assert!(k < 50.0, "{k}");
        assert_eq!(curve.len(), 10);
        assert_eq!((curve[0][0], curve[9][0]), (0.0, k + 50.0));
        assert!(curve.windows(2).all(|w| w[0][0] < w[1][0]));
        let at_fit = curve.iter().find(|p| p[0] == k).unwrap()[1];
        assert!((at_fit - f.fitted.train.log_loss).abs() < 1e-12);
        assert!(curve.iter().all(|p| p[1] >= at_fit - 1e-12), "{curve:?}");
    }

    /// 20 played matches: the 14th (index ⌊0.7·20⌋ = 14) is dated day 15, so 14 come before.
    #[test]
    fn the_default_split_leaves_seventy_percent_before_it() {
        let events = elo_world(20.0, 0.0, 4, 20, 3);
        assert_eq!(default_split(&events), Some(day(15)));
        assert_eq!(default_split(&events[..4]), None);
    }

    /// Values read as the search resolves them: K (0 to 400, resolution 0.2) to tenths, the
    /// advantage (±1000, resolution 1) to units, a log-scaled τ-like range to four digits.
    #[test]
    fn fitted_values_are_rounded_to_the_resolution() {
        let k = Axis::new(System::Elo.param("k").unwrap());
        assert_eq!(k.value(44.591_629_5), 44.6);
        let h = Axis::new(System::Elo.param("advantage").unwrap());
        assert_eq!(h.value(107.458), 107.0);
        assert_eq!(h.value(-2000.0), -1000.0);
        let days = Axis::new(System::Inversus.param("days_per_period").unwrap());
        assert!(days.log);
        assert_eq!(days.value(15.634_21_f64.ln()), 15.63);
        let iterations = Axis::new(System::Inversus.param("max_iterations").unwrap());
        assert_eq!(iterations.value(17.6_f64.ln()), 18.0);
        assert_eq!(round_to(0.0, 3), 0.0);
        assert_eq!(round_to(1234.5, -2), 1200.0);
    }
}
