//! Prediction quality: every match predicted before the ladder updates on it, scored by
//! log-loss, Brier score and accuracy, so that rules can be chosen by evidence.
//!
//! Each played match is scored on side A's expected score E = P(A wins) + ½·P(draw), against
//! the actual score s ∈ {1, ½, 0}:
//!
//! - log-loss = −[s·ln E + (1 − s)·ln(1 − E)], with E and 1 − E each held at 1e-15 or more
//!   (E clamped to [1e-15, 1 − 1e-15]) so that a certain miss costs ln 10¹⁵ ≈ 34.5, not infinity;
//! - Brier = (E − s)²;
//! - accuracy = the share of decisive matches won by the favoured side (E > ½); E = ½ counts
//!   as half right. Draws are left out of accuracy (no side was "right") and counted apart.
//!
//! Scoring E rather than the three-way prediction treats every system alike: Elo and Glicko
//! predict no draws at all, and a three-way log-loss would charge them infinity for each one.
//! The price is that a draw has a binary log-loss of at least ln 2 ≈ 0.693 (reached at
//! E = ½) however good the system: on a log with many draws every system's log-loss has that
//! floor in it, and the differences between systems are what tells.
//!
//! Forfeits and cancelled matches are not predicted (they say nothing about skill); they still
//! apply to the ladder as the log says (a forfeit rates only the side that abandoned it, as a
//! loss: see [`rungs_ladder::replay::rated_sides`]), and are counted as skipped. Team matches
//! are predicted from each side's mean skill, as [`predict_match`] does, with the match's side
//! advantage and each player's skill as it goes into the match.
//!
//! Beside these, for every system the three-outcome log-loss −ln P(the result), each
//! probability held at 1e-15 or more: from the system's own draw model (AllegSkill, goals),
//! or for the others an ordered logit on their expected score whose threshold is learnt from
//! the matches before (`rating::DrawThreshold`); and for every system a
//! calibration table: matches binned by E in tenths, each bin's mean E against the mean score
//! the sides A of those matches made.
//!
//! A window keeps the scoring to part of the log — from a date on (`rungs evaluate --from`),
//! or before it — while the whole log still applies, so the later matches are predicted from
//! everything before them.

use chrono::NaiveDate;
use rungs_ladder::event::{Event, Match, MatchResult};
use rungs_ladder::log::Effective;
use rungs_ladder::predict::predict_match;
use rungs_ladder::quick;
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::{DrawThreshold, Outcome, Prediction};
use serde::Serialize;

/// How often (in events) the progress callback is asked whether to go on.
const PROGRESS_EVERY: u64 = 1024;

/// The clamp that keeps a certain-and-wrong prediction's log-loss finite.
const CLAMP: f64 = 1e-15;

/// How well one set of rules predicted a log. In JSON a mean over no match is `null`, never a
/// 0 that reads as a perfect score.
#[derive(Debug, Clone, PartialEq)]
pub struct Score {
    pub system: System,
    /// The rules in a few words, e.g. `elo K=32` or `skyweaver (defaults)`.
    pub label: String,
    /// The rules scored, for a door to name in its own words.
    pub rules: Rules,
    /// For the run that replays the log as logged, the rules changes it holds (0 or more);
    /// `None` where `rules` hold through the whole history. A door tells the two apart by
    /// this, as `label` does ("this ladder: …").
    pub as_logged: Option<usize>,
    /// Played matches predicted and scored (draws included).
    pub matches: u64,
    /// Of those, draws.
    pub draws: u64,
    /// Forfeits, cancelled matches, and matches no prediction could be made for.
    pub skipped: u64,
    /// Mean log-loss of side A's expected score (0 when `matches` is 0).
    pub log_loss: f64,
    /// Mean Brier score of side A's expected score (0 when `matches` is 0).
    pub brier: f64,
    /// Share of decisive matches the favourite won; `None` when none was decisive (an
    /// all-draw log has no accuracy, rather than one of 0 %).
    pub accuracy: Option<f64>,
    /// Decisive (not drawn) matches: the denominator of `accuracy`.
    pub decisive: u64,
    /// Mean three-outcome log-loss, −ln P(win, draw or loss as it happened), for a system
    /// that predicts draws; `None` for the others (they give every draw probability 0).
    pub log_loss_3way: Option<f64>,
    /// Predicted against observed, by tenths of E; bins without matches are left out.
    pub calibration: Vec<Bin>,
}

impl Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let scored = |x: f64| (self.matches > 0 && x.is_finite()).then_some(x);
        let mut m = s.serialize_struct("Score", 11)?;
        m.serialize_field("system", &self.system)?;
        m.serialize_field("label", &self.label)?;
        m.serialize_field("matches", &self.matches)?;
        m.serialize_field("draws", &self.draws)?;
        m.serialize_field("skipped", &self.skipped)?;
        m.serialize_field("log_loss", &scored(self.log_loss))?;
        m.serialize_field("brier", &scored(self.brier))?;
        m.serialize_field("accuracy", &self.accuracy.and_then(scored))?;
        m.serialize_field("decisive", &self.decisive)?;
        m.serialize_field("log_loss_3way", &self.log_loss_3way.and_then(scored))?;
        m.serialize_field("calibration", &self.calibration)?;
        m.end()
    }
}

/// One bin of a calibration table: the matches whose E fell in [from, to).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    pub from: f64,
    pub to: f64,
    pub matches: u64,
    /// The mean of E over the bin's matches.
    pub predicted: f64,
    /// The mean score side A made in them (win 1, draw ½, loss 0).
    pub observed: f64,
}

/// Calibration bins: E in [0, 0.1), [0.1, 0.2), … [0.9, 1].
const BINS: usize = 10;

/// Which matches are scored: those dated on or after `from` and before `until` (each bound
/// optional). The replay goes on through every event either way, except that nothing after
/// `until` is needed and none is applied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    pub from: Option<NaiveDate>,
    pub until: Option<NaiveDate>,
}

impl Window {
    /// Everything.
    pub const ALL: Window = Window {
        from: None,
        until: None,
    };

    /// Matches dated `from` or later.
    pub fn from(from: Option<NaiveDate>) -> Window {
        Window { from, until: None }
    }

    /// Matches dated before `until`.
    pub fn until(until: NaiveDate) -> Window {
        Window {
            from: None,
            until: Some(until),
        }
    }

    fn holds(&self, date: NaiveDate) -> bool {
        self.from.is_none_or(|f| date >= f) && self.until.is_none_or(|u| date < u)
    }
}

/// Running sums of one score.
#[derive(Debug, Clone, Default)]
struct Tally {
    matches: u64,
    draws: u64,
    skipped: u64,
    decisive: u64,
    log_loss: f64,
    log_loss_3way: f64,
    brier: f64,
    hits: f64,
    /// Per bin: matches, ΣE, Σs.
    bins: [(u64, f64, f64); BINS],
}

impl Tally {
    /// Adds one match: `p` the system's prediction, `three` its three-outcome forecast (its
    /// own for a system with a draw model, else the ordered logit's).
    fn add(&mut self, p: &Prediction, three: &Prediction, outcome: Outcome) {
        let e = p.expected_score();
        let s = outcome.score();
        let (l, b, hit) = score_one(e, s);
        self.matches += 1;
        self.log_loss += l;
        self.brier += b;
        self.log_loss_3way += -three_way_probability(three, outcome).max(CLAMP).ln();
        match hit {
            Some(h) => {
                self.decisive += 1;
                self.hits += h;
            }
            None => self.draws += 1,
        }
        let bin = ((e * BINS as f64) as usize).min(BINS - 1);
        let (n, sum_e, sum_s) = &mut self.bins[bin];
        *n += 1;
        *sum_e += e;
        *sum_s += s;
    }

    fn finish(&self, rules: &Rules) -> Score {
        let mean = |sum: f64, n: u64| if n == 0 { 0.0 } else { sum / n as f64 };
        Score {
            system: rules.system(),
            label: label(rules),
            rules: rules.clone(),
            as_logged: None,
            matches: self.matches,
            draws: self.draws,
            skipped: self.skipped,
            log_loss: mean(self.log_loss, self.matches),
            brier: mean(self.brier, self.matches),
            accuracy: (self.decisive > 0).then(|| mean(self.hits, self.decisive)),
            decisive: self.decisive,
            log_loss_3way: Some(mean(self.log_loss_3way, self.matches)),
            calibration: self
                .bins
                .iter()
                .enumerate()
                .filter(|(_, (n, _, _))| *n > 0)
                .map(|(i, &(n, sum_e, sum_s))| Bin {
                    from: i as f64 / BINS as f64,
                    to: (i + 1) as f64 / BINS as f64,
                    matches: n,
                    predicted: sum_e / n as f64,
                    observed: sum_s / n as f64,
                })
                .collect(),
        }
    }
}

/// The probability `p` gave to what happened.
fn three_way_probability(p: &Prediction, outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win => p.win_a,
        Outcome::Draw => p.draw,
        Outcome::Loss => p.win_b,
    }
}

/// Why an evaluation stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("evaluation cancelled")]
    Cancelled,
}

pub use rungs_ladder::rules::label;

/// The three per-match figures: (log-loss, Brier, accuracy credit or `None` for a draw).
pub fn score_one(expected: f64, actual: f64) -> (f64, f64, Option<f64>) {
    // Each of E and 1 − E is kept at 1e-15 or more; clamping E to 1 − 1e-15 instead would
    // round 1 − E to 1.1e-15 and lose the exact bound.
    // A win or a loss weighs one logarithm by 0: it is not taken. The sum is the same to the
    // bit (the other term is ±0, and x + ±0 is x for every finite x but −0, which no
    // logarithm of a clamped probability is).
    let log_loss = if actual == 1.0 {
        -expected.max(CLAMP).ln()
    } else if actual == 0.0 {
        -(1.0 - expected).max(CLAMP).ln()
    } else {
        -(actual * expected.max(CLAMP).ln() + (1.0 - actual) * (1.0 - expected).max(CLAMP).ln())
    };
    let brier = (expected - actual) * (expected - actual);
    let hit = if actual == 0.5 {
        None
    } else if expected == 0.5 {
        Some(0.5)
    } else if (expected > 0.5) == (actual == 1.0) {
        Some(1.0)
    } else {
        Some(0.0)
    };
    (log_loss, brier, hit)
}

/// `events` without the log's `rules` events: what scoring other rules than the ladder's
/// should replay, so that those rules hold through the whole history instead of being
/// replaced where the ladder's were (an `elo K=16` score must be Elo's all the way).
pub fn without_rules_changes<'a>(
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
) -> impl Iterator<Item = (NaiveDate, u64, &'a Event)> {
    events
        .into_iter()
        .filter(|(_, _, e)| !matches!(e, Event::Rules { .. }))
}

/// The rules scored when none are named: every system at its defaults, and the ladder's own
/// rules as logged (its initial rules and every `rules` event) when they differ from their
/// defaults or the log changes them. Each comes with whether it replays the log's rules
/// changes.
pub fn default_runs(own: &Rules, events: &[Effective]) -> Vec<(Rules, bool)> {
    default_runs_with(own, rules_changes(events))
}

/// [`default_runs`] for a log with `changes` rules events.
pub fn default_runs_with(own: &Rules, changes: usize) -> Vec<(Rules, bool)> {
    let mut runs: Vec<(Rules, bool)> = System::ALL
        .iter()
        .map(|&s| (Rules::defaults(s), false))
        .collect();
    if changes > 0 || *own != Rules::defaults(own.system()) {
        runs.push((own.clone(), true));
    }
    runs
}

/// How many `rules` events the log has.
pub fn rules_changes(events: &[Effective]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.event, Event::Rules { .. }))
        .count()
}

/// Scores each run on `events`, best (lowest log-loss) first. A run that replays the log as
/// logged is labelled `this ladder: …`; the others hold their rules through the whole history.
/// `progress` hears the events done across all runs.
pub fn evaluate_runs(
    runs: &[(Rules, bool)],
    events: &[Effective],
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<Score>, EvalError> {
    evaluate_runs_in(runs, events, Window::ALL, progress)
}

/// [`evaluate_runs`] scoring only the matches in `window`. The runs are independent replays
/// of one decoded log, so they share it and run side by side, one per core (each holds its
/// own ladder: memory grows with the cores, not with the runs); the scores are those of the
/// runs made one after another.
pub fn evaluate_runs_in(
    runs: &[(Rules, bool)],
    events: &[Effective],
    window: Window,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<Score>, EvalError> {
    let log = RunLog {
        len: events.len() as u64,
        changes: rules_changes(events),
        index: quick::Log::index(
            without_rules_changes(events.iter().map(|e| (e.date, e.seq, &e.event))),
            window.until,
        ),
        events: AllEvents::Here(events),
    };
    evaluate_runs_over(runs, &log, window, progress)
}

/// The log a set of runs replays, as [`evaluate_runs_over`] reads it.
pub struct RunLog<'e> {
    /// How many events it holds.
    pub len: u64,
    /// How many of them are `rules` events.
    pub changes: usize,
    /// The log without its rules changes, indexed once for every run the prediction-only
    /// replay covers (up to the window's end), or `None` where it covers none.
    pub index: Option<quick::Log<'e>>,
    /// Every event, for a run that replays in full.
    pub events: AllEvents<'e>,
}

/// A log's every event: at hand, or made when a run first needs them (most runs need only
/// the index, and a million events made is some 170 MB).
pub enum AllEvents<'e> {
    Here(&'e [Effective]),
    Later(&'e (dyn Fn() -> Vec<Effective> + Sync)),
}

/// [`evaluate_runs_in`] over a log as the store hands it out.
pub fn evaluate_runs_over(
    runs: &[(Rules, bool)],
    log: &RunLog<'_>,
    window: Window,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<Score>, EvalError> {
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    let changes = log.changes;
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(runs.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let cancelled = AtomicBool::new(false);
    let made = std::sync::OnceLock::new();
    let events = || -> &[Effective] {
        match log.events {
            AllEvents::Here(events) => events,
            AllEvents::Later(make) => made.get_or_init(make),
        }
    };
    let log_len = log.len;
    let log = log.index.as_ref();
    let one = |rules: &Rules, as_logged: bool| -> Result<Score, EvalError> {
        let mut last = 0u64;
        let mut tick = |now: u64| {
            done.fetch_add(now - last, Ordering::Relaxed);
            last = now;
            !cancelled.load(Ordering::Relaxed)
        };
        let indexed = match log {
            Some(log) if !as_logged || changes == 0 => {
                evaluate_indexed(rules, log, window, &mut tick)
            }
            _ => None,
        };
        let mut score = if let Some(score) = indexed {
            score?
        } else {
            let all = events().iter().map(|e| (e.date, e.seq, &e.event));
            if as_logged {
                evaluate_in(rules, all, window, &mut tick)?
            } else {
                evaluate_in(rules, without_rules_changes(all), window, &mut tick)?
            }
        };
        // The rest of this run's events count as done (a window may stop it early).
        done.fetch_add(log_len - last, Ordering::Relaxed);
        if as_logged {
            score.as_logged = Some(changes);
            score.label = format!("this ladder: {}", score.label);
            match changes {
                0 => {}
                1 => score.label += " + 1 rules change",
                n => score.label += &format!(" + {n} rules changes"),
            }
        }
        Ok(score)
    };
    // The dearest runs start first, so that no core is left with a long one at the end.
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost(runs[i].0.system())));
    let work = |tx: std::sync::mpsc::Sender<Vec<(usize, Result<Score, EvalError>)>>| {
        let mut scored = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let (rules, as_logged) = &runs[i];
            let score = one(rules, *as_logged);
            let failed = score.is_err();
            scored.push((i, score));
            if failed {
                cancelled.store(true, Ordering::Relaxed);
                break;
            }
        }
        let _ = tx.send(scored);
    };
    let mut results: Vec<(usize, Result<Score, EvalError>)> = Vec::with_capacity(runs.len());
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..workers {
            let tx = tx.clone();
            s.spawn(|| work(tx));
        }
        drop(tx);
        // Progress is heard here only (it need not be shareable), until every worker has
        // sent its scores (or, having panicked, dropped its sender: the scope then panics).
        loop {
            match rx.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(scored) => results.extend(scored),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if !progress(done.load(Ordering::Relaxed)) {
                        cancelled.store(true, Ordering::Relaxed);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    results.sort_by_key(|(i, _)| *i);
    // A run that failed stops the others, which then read as cancelled: its error is the one.
    if let Some(pos) = results
        .iter()
        .position(|(_, r)| matches!(r, Err(e) if !matches!(e, EvalError::Cancelled)))
        && let (_, Err(e)) = results.swap_remove(pos)
    {
        return Err(e);
    }
    if cancelled.load(Ordering::Relaxed) || !progress(done.load(Ordering::Relaxed)) {
        return Err(EvalError::Cancelled);
    }
    let mut scores: Vec<Score> = results.into_iter().filter_map(|(_, r)| r.ok()).collect();
    scores.sort_by(|x, y| x.log_loss.total_cmp(&y.log_loss));
    Ok(scores)
}

/// A system's replay cost relative to the others: CPU seconds of the prediction-only replay
/// of the million-match synthetic ladder, in hundredths (`evaluate --system S` less the
/// decoding; BENCHMARKS.md).
fn cost(system: System) -> u32 {
    match system {
        System::Goals => 46,
        System::Inversus => 37,
        System::Skyweaver => 21,
        System::Allegskill => 17,
        System::Memoir44 => 15,
        System::Elo => 4,
    }
}

/// Replays `events` (in replay order) under `rules`, predicting every played match on the
/// ladder as it stands just before it. `progress` is told how many events are done every so
/// often; returning false stops with [`EvalError::Cancelled`].
pub fn evaluate<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Score, EvalError> {
    evaluate_in(rules, events, Window::ALL, progress)
}

/// [`evaluate`] scoring only the matches in `window`; the replay stops at `window.until`.
pub fn evaluate_in<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
    window: Window,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Score, EvalError> {
    let mut tally = [Tally::default()];
    let until = window.until;
    replay_scored(
        rules,
        events,
        until,
        &mut tally,
        &|d| window.holds(d).then_some(0),
        progress,
    )?;
    Ok(tally[0].finish(rules))
}

/// Scores the matches before `split` and those from it on, in one replay: (before, after).
pub fn evaluate_split<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
    split: NaiveDate,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(Score, Score), EvalError> {
    let mut tally = [Tally::default(), Tally::default()];
    let side = |d: NaiveDate| Some(usize::from(d >= split));
    replay_scored(rules, events, None, &mut tally, &side, progress)?;
    Ok((tally[0].finish(rules), tally[1].finish(rules)))
}

/// Replays `events` under `rules` up to (not including) `stop`, predicting each match before
/// it applies and adding it to the tally `bucket` names for its date (`None`: not scored).
/// The prediction-only replay ([`quick`]) does it where it covers the log and the rules.
fn replay_scored<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
    stop: Option<NaiveDate>,
    tally: &mut [Tally],
    bucket: &dyn Fn(NaiveDate) -> Option<usize>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(), EvalError> {
    let events: Vec<(NaiveDate, u64, &Event)> = events.into_iter().collect();
    if rules.calendar.schedule().is_none()
        && let Some(log) = quick::Log::index(events.iter().copied(), stop)
        && let Some(done) = replay_quick(rules, &log, stop, (tally, None), bucket, progress)
    {
        return done;
    }
    replay_full(rules, events, stop, tally, bucket, progress)
}

/// The one figure a fit lowers, where a tally needs no other: the sums behind it are added
/// as `Tally::add` adds them, so the mean is the same to the bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lean {
    /// The expected score's log-loss: no ordered logit is learnt or scored.
    Expected,
    /// The three-outcome log-loss.
    ThreeOutcome,
}

/// What scores each match of one replay.
struct Scorer<'t> {
    tally: &'t mut [Tally],
    /// The system has a draw model of its own.
    own_draws: bool,
    threshold: DrawThreshold,
    lean: Option<Lean>,
}

impl Scorer<'_> {
    fn new<'t>(rules: &Rules, tally: &'t mut [Tally]) -> Scorer<'t> {
        Scorer {
            tally,
            own_draws: rules.facts().draws,
            threshold: DrawThreshold::default(),
            lean: None,
        }
    }

    /// Scores `m` into tally `bucket`, `predict` asked only where the prediction counts.
    fn score(
        &mut self,
        m: &Match,
        bucket: Option<usize>,
        predict: impl FnOnce() -> Option<Prediction>,
    ) {
        let own_draws = self.own_draws;
        let t = bucket.and_then(|i| self.tally.get_mut(i));
        let prediction = match (m.result, own_draws, &t) {
            (MatchResult::Played(_), false, _) | (MatchResult::Played(_), true, Some(_)) => {
                predict()
            }
            _ => None,
        };
        match (m.result, prediction) {
            (MatchResult::Played(outcome), Some(p)) if p.expected_score().is_finite() => {
                let e = p.expected_score();
                if self.lean == Some(Lean::Expected) {
                    if let Some(t) = t {
                        t.matches += 1;
                        t.log_loss += score_one(e, outcome.score()).0;
                    }
                    return;
                }
                // A system without a draw model is given one: an ordered logit on its
                // expected score, its threshold learnt from every played match before
                // (scored or not).
                let three = if own_draws {
                    p
                } else {
                    self.threshold.predict(e)
                };
                match (t, self.lean) {
                    (Some(t), Some(_)) => {
                        t.matches += 1;
                        t.log_loss_3way += -three_way_probability(&three, outcome).max(CLAMP).ln();
                    }
                    (Some(t), None) => t.add(&p, &three, outcome),
                    (None, _) => {}
                }
                if !own_draws {
                    // `three` is the threshold's forecast for `e`, as learning asks it.
                    self.threshold.learn_from(&three, outcome);
                }
            }
            _ => {
                if let Some(t) = t {
                    t.skipped += 1;
                }
            }
        }
    }
}

/// [`replay_scored`] through the whole ladder's replay.
fn replay_full(
    rules: &Rules,
    events: Vec<(NaiveDate, u64, &Event)>,
    stop: Option<NaiveDate>,
    tally: &mut [Tally],
    bucket: &dyn Fn(NaiveDate) -> Option<usize>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(), EvalError> {
    let mut ladder = Ladder::new(rules.clone());
    let mut scratch = Vec::new();
    let mut scorer = Scorer::new(rules, tally);
    for (done, (date, seq, event)) in (0u64..).zip(events) {
        if done % PROGRESS_EVERY == 0 && !progress(done) {
            return Err(EvalError::Cancelled);
        }
        if stop.is_some_and(|s| date >= s) {
            break;
        }
        // The season calendar's resets due before the event apply first, as they would
        // within it: a match is forecast from the ratings it is rated from.
        rungs_ladder::seasons::catch_up(&mut ladder, date, &mut scratch);
        if let Event::Match(m) = event {
            scorer.score(m, bucket(date), || predict_match(&ladder, m, date));
        }
        ladder.apply(date, seq, event, &mut scratch)?;
        scratch.clear();
        // No prediction reads the season archive: a season is dropped as it ends, so the
        // replay holds the players, not players × seasons.
        ladder.archive.clear();
    }
    Ok(())
}

/// [`replay_scored`] through the prediction-only replay of `log`; `None` where it does not
/// cover the rules.
fn replay_quick(
    rules: &Rules,
    log: &quick::Log<'_>,
    stop: Option<NaiveDate>,
    (tally, lean): (&mut [Tally], Option<Lean>),
    bucket: &dyn Fn(NaiveDate) -> Option<usize>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Option<Result<(), EvalError>> {
    let mut replayer = quick::Replayer::new(rules, log)?;
    let mut scorer = Scorer::new(rules, tally);
    scorer.lean = lean;
    // Progress is asked as often as the full replay asks it: at every 1024th event.
    let mut tick = 0u64;
    for op in &log.ops {
        if op.at >= tick {
            if !progress(op.at / PROGRESS_EVERY * PROGRESS_EVERY) {
                return Some(Err(EvalError::Cancelled));
            }
            tick = (op.at / PROGRESS_EVERY + 1) * PROGRESS_EVERY;
        }
        if stop.is_some_and(|s| op.date >= s) {
            break;
        }
        let mut play = |m: &Match| {
            let going = replayer.going_into(m, op.day);
            scorer.score(m, bucket(op.date), || replayer.predict(m, &going));
            replayer.apply_match(m, op.day, going);
        };
        match op.step {
            quick::Step::Match(m) => play(m),
            quick::Step::Plain(p) => play(&p.to_match()),
            other => replayer.apply_other(other),
        }
    }
    Some(Ok(()))
}

/// [`evaluate_in`] on a log indexed once for many replays ([`quick::Log::index`], with
/// `window.until` or no stop); `None` where the rules need the full replay.
pub fn evaluate_indexed(
    rules: &Rules,
    log: &quick::Log<'_>,
    window: Window,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Option<Result<Score, EvalError>> {
    let mut tally = [Tally::default()];
    let bucket = |d: NaiveDate| window.holds(d).then_some(0);
    let done = replay_quick(
        rules,
        log,
        window.until,
        (&mut tally, None),
        &bucket,
        progress,
    )?;
    Some(done.map(|()| tally[0].finish(rules)))
}

/// The mean of the one figure `lean` names over the matches before `until` (0 over none), as
/// [`evaluate_indexed`]'s score has it, in less work; `None` where the rules need the full
/// replay.
pub fn objective_indexed(
    rules: &Rules,
    log: &quick::Log<'_>,
    until: NaiveDate,
    lean: Lean,
) -> Option<Result<f64, EvalError>> {
    let mut tally = [Tally::default()];
    let bucket = |d: NaiveDate| (d < until).then_some(0);
    let done = replay_quick(
        rules,
        log,
        Some(until),
        (&mut tally, Some(lean)),
        &bucket,
        &mut |_| true,
    )?;
    let t = &tally[0];
    let sum = match lean {
        Lean::Expected => t.log_loss,
        Lean::ThreeOutcome => t.log_loss_3way,
    };
    Some(done.map(|()| {
        if t.matches == 0 {
            0.0
        } else {
            sum / t.matches as f64
        }
    }))
}

/// [`evaluate_split`] on an indexed log; `None` where the rules need the full replay.
pub fn evaluate_split_indexed(
    rules: &Rules,
    log: &quick::Log<'_>,
    split: NaiveDate,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Option<Result<(Score, Score), EvalError>> {
    let mut tally = [Tally::default(), Tally::default()];
    let side = |d: NaiveDate| Some(usize::from(d >= split));
    let done = replay_quick(rules, log, None, (&mut tally, None), &side, progress)?;
    Some(done.map(|()| (tally[0].finish(rules), tally[1].finish(rules))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::{Match, PlayerId};
    use rungs_rating::Outcome;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, d).unwrap()
    }

    fn game(a: PlayerId, b: PlayerId, result: MatchResult) -> Event {
        Event::Match(Match::new(a, b, result))
    }

    fn log() -> Vec<(NaiveDate, u64, Event)> {
        let join = |id: PlayerId, name: &str| Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        };
        vec![
            (day(1), 1, join(0, "Ann")),
            (day(1), 2, join(1, "Bo")),
            (day(1), 3, join(2, "Cy")),
            (day(2), 4, game(0, 1, MatchResult::Played(Outcome::Win))),
            (day(3), 5, game(1, 2, MatchResult::Played(Outcome::Draw))),
            (day(4), 6, game(2, 0, MatchResult::Played(Outcome::Loss))),
            (day(5), 7, game(0, 2, MatchResult::ForfeitB)),
            (day(5), 8, game(1, 0, MatchResult::Cancelled)),
            (day(6), 9, game(1, 2, MatchResult::Played(Outcome::Win))),
        ]
    }

    fn run(rules: &Rules, events: &[(NaiveDate, u64, Event)]) -> Score {
        evaluate(
            rules,
            events.iter().map(|(d, s, e)| (*d, *s, e)),
            &mut |_| true,
        )
        .unwrap()
    }

    /// Elo K=32 by hand. E_A = 1/(1 + 10^((r_B − r_A)/400)).
    ///  1. Ann 1500 v Bo 1500: E = 0.5, s = 1. Ann 1516, Bo 1484.
    ///  2. Bo 1484 v Cy 1500: E = 1/(1 + 10^(16/400)), s = ½. Bo += 32(½ − E), Cy −= the same.
    ///  3. Cy v Ann 1516: E = 1/(1 + 10^((1516 − Cy)/400)), s = 0. Cy −= 32E, Ann += 32E.
    ///  4. Ann v Cy, Cy abandons it: not predicted. The INVERSUS ranking notes: the quitter
    ///     takes a rated loss, Cy −= 32(1 − E4) (Cy's own expectation is 1 − E4); for Ann, left
    ///     behind, the match is cancelled: no automatic win, no change.
    ///  5. Bo v Ann cancelled: nothing.
    ///  6. Bo v Cy: E = 1/(1 + 10^((Cy − Bo)/400)), s = 1.
    #[test]
    fn elo_by_hand() {
        let e = |ra: f64, rb: f64| 1.0 / (1.0 + 10f64.powf((rb - ra) / 400.0));
        let (mut ann, mut bo, mut cy) = (1500.0, 1500.0, 1500.0);
        let e1 = e(ann, bo);
        ann += 32.0 * (1.0 - e1);
        bo -= 32.0 * (1.0 - e1);
        let e2 = e(bo, cy);
        bo += 32.0 * (0.5 - e2);
        cy -= 32.0 * (0.5 - e2);
        let e3 = e(cy, ann);
        cy -= 32.0 * e3;
        ann += 32.0 * e3;
        let e4 = e(ann, cy);
        cy -= 32.0 * (1.0 - e4);
        let e6 = e(bo, cy);
        let ll = |e: f64, s: f64| -(s * e.ln() + (1.0 - s) * (1.0 - e).ln());
        let expected_ll = (ll(e1, 1.0) + ll(e2, 0.5) + ll(e3, 0.0) + ll(e6, 1.0)) / 4.0;
        let expected_brier =
            ((e1 - 1.0).powi(2) + (e2 - 0.5).powi(2) + e3.powi(2) + (e6 - 1.0).powi(2)) / 4.0;
        // Match 1 is a coin flip (½ right); Cy was the underdog in 3 (E3 < ½) and lost: right;
        // Bo, ahead of Cy after Cy's loss and forfeit, was the favourite in 6 and won: right.
        assert!(e3 < 0.5 && e6 > 0.5, "{e3} {e6}");
        let expected_accuracy = (0.5 + 1.0 + 1.0) / 3.0;

        let s = run(&Rules::defaults(System::Elo), &log());
        assert_eq!(s.label, "elo K=32");
        assert_eq!(
            (s.matches, s.draws, s.skipped, s.decisive),
            (4, 1, 2, 3),
            "{s:?}"
        );
        assert!(
            (s.log_loss - expected_ll).abs() < 1e-12,
            "{s:?} {expected_ll}"
        );
        assert!((s.brier - expected_brier).abs() < 1e-12, "{s:?}");
        assert!(
            (s.accuracy.unwrap() - expected_accuracy).abs() < 1e-12,
            "{s:?}"
        );
        // A draw costs at least ln 2 whatever the prediction.
        assert!(ll(e2, 0.5) >= std::f64::consts::LN_2);
    }

    /// A decisive result's log-loss takes one logarithm, and is the two-term formula's to
    /// the bit: over E from 0 to 1 in steps of 1/1000 and at the clamp's edges.
    #[test]
    fn one_logarithm_is_the_two_term_formula() {
        let two = |e: f64, s: f64| -(s * e.max(CLAMP).ln() + (1.0 - s) * (1.0 - e).max(CLAMP).ln());
        let edges = [0.0, 1e-16, CLAMP, 1.0 - 1e-16, 1.0, 0.5];
        for e in (0..=1000).map(|k| f64::from(k) / 1000.0).chain(edges) {
            for s in [0.0, 0.5, 1.0] {
                assert_eq!(score_one(e, s).0.to_bits(), two(e, s).to_bits(), "{e} {s}");
            }
        }
        // E = ¼ and a win: −ln ¼ = 2 ln 2.
        assert_eq!(score_one(0.25, 1.0).0, -(0.25f64.ln()));
        assert!((score_one(0.25, 1.0).0 - 2.0 * std::f64::consts::LN_2).abs() < 1e-15);
    }

    #[test]
    fn certain_misses_stay_finite_and_labels_name_what_differs() {
        let (l, b, hit) = score_one(1.0, 0.0);
        assert!((l - 34.538776394910684).abs() < 1e-6 && b == 1.0 && hit == Some(0.0));
        let (l, _, hit) = score_one(0.5, 0.5);
        assert!((l - std::f64::consts::LN_2).abs() < 1e-15 && hit.is_none());
        let mut r = Rules::defaults(System::Elo);
        r.assign("k=16").unwrap();
        assert_eq!(label(&r), "elo K=16");
        assert_eq!(label(&Rules::default()), "skyweaver (defaults)");
        let mut r = Rules::defaults(System::Inversus);
        r.assign("tau=0.3").unwrap();
        assert_eq!(label(&r), "inversus tau=0.3");
    }

    #[test]
    fn other_rules_hold_through_a_rules_change() {
        let mut events = log();
        let switch = Event::Rules {
            rules: Box::new(Rules::default()),
        };
        events.insert(4, (day(2), 10, switch));
        let elo = Rules::defaults(System::Elo);
        let as_logged = run(&elo, &events);
        let held = evaluate(
            &elo,
            without_rules_changes(events.iter().map(|(d, s, e)| (*d, *s, e))),
            &mut |_| true,
        )
        .unwrap();
        assert_eq!(held, run(&elo, &log()), "the switch is ignored");
        assert_ne!(as_logged.log_loss, held.log_loss, "the switch applies");
    }

    #[test]
    fn progress_can_cancel() {
        let events = log();
        let mut calls = 0;
        let out = evaluate(
            &Rules::default(),
            events.iter().map(|(d, s, e)| (*d, *s, e)),
            &mut |done| {
                calls += 1;
                assert_eq!(done, 0);
                false
            },
        );
        assert_eq!(out, Err(EvalError::Cancelled));
        assert_eq!(calls, 1);
    }

    /// Runs made side by side score as each alone, in the same order, and hear progress up
    /// to every event of every run; a run that cannot replay is the error, and a `false` from
    /// progress cancels.
    #[test]
    fn runs_side_by_side_score_as_each_alone() {
        let events: Vec<Effective> = log()
            .into_iter()
            .map(|(date, seq, event)| Effective { date, seq, event })
            .collect();
        let mut k16 = Rules::defaults(System::Elo);
        k16.assign("k=16").unwrap();
        let runs: Vec<(Rules, bool)> = [
            Rules::default(),
            Rules::defaults(System::Elo),
            k16,
            Rules::defaults(System::Inversus),
            Rules::defaults(System::Allegskill),
        ]
        .into_iter()
        .map(|r| (r, false))
        .collect();
        let mut heard = 0;
        let scores = evaluate_runs(&runs, &events, &mut |n| {
            heard = heard.max(n);
            true
        })
        .unwrap();
        assert_eq!(heard, 5 * 9, "five runs of nine events");
        let mut alone: Vec<Score> = runs.iter().map(|(r, _)| run(r, &log())).collect();
        alone.sort_by(|x, y| x.log_loss.total_cmp(&y.log_loss));
        assert_eq!(scores, alone);

        let mut bad = events.clone();
        bad.push(Effective {
            date: day(7),
            seq: 10,
            event: game(0, 7, MatchResult::Played(Outcome::Win)),
        });
        let out = evaluate_runs(&runs, &bad, &mut |_| true);
        assert!(matches!(out, Err(EvalError::Replay(_))), "{out:?}");
        assert_eq!(
            evaluate_runs(&runs, &events, &mut |_| false),
            Err(EvalError::Cancelled)
        );
    }

    #[test]
    fn an_empty_log_scores_zero_not_nan() {
        let s = run(&Rules::default(), &[]);
        assert_eq!(
            (s.matches, s.log_loss, s.brier, s.accuracy),
            (0, 0.0, 0.0, None)
        );
    }

    #[test]
    fn every_system_predicts_and_stays_finite() {
        for system in System::ALL {
            let s = run(&Rules::defaults(system), &log());
            assert_eq!(s.matches, 4, "{system}");
            assert!(s.log_loss.is_finite() && s.log_loss > 0.0, "{s:?}");
            assert!((0.0..=1.0).contains(&s.brier));
            assert!(
                s.accuracy.is_some_and(|a| (0.0..=1.0).contains(&a)),
                "{s:?}"
            );
        }
    }
}
