//! Simulation: a synthetic population with known true skills, played through the ladder
//! to see how many matches it takes to climb, how much RP inflates per week, and
//! how well the ladder orders true skill, under the given rules.
//!
//! The model, and the choices it makes:
//!
//! - True skills are drawn from Normal(1500, `skill_sd`) on the Elo scale.
//! - `matches_per_week` is the total across the ladder (not per player), spread evenly over
//!   the week's seven days.
//! - A match: a player drawn uniformly at random is paired with the player whose current
//!   rating on the 1500 scale ([`Skill::rating_1500`](rungs_ladder::state::Skill::rating_1500)) is nearest to their own plus
//!   Normal(0, `pairing_noise`) — matchmaking as a ladder does it, by the rating it shows,
//!   blurred by who happens to be online. A sorted index keeps each pairing O(log n).
//! - The result comes from the true skills by the logistic Elo model, P(A wins) =
//!   1/(1 + 10^(−Δ/400)). There are no draws: Skyweaver and INVERSUS have none, and the model
//!   stays exactly the one the true skills are defined by.
//! - Every week ends with a soft reset; every fourth week also ends with a hard reset right
//!   after its soft reset, so a season is four weeks and its fourth week's RP is in the
//!   season's weekly record (as the Skyweaver white paper's four-week season runs).
//! - Deterministic for a seed (on a given build): a SplitMix64 generator, Box–Muller normals,
//!   and no hash-map order anywhere.

use chrono::{Days, NaiveDate};
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::leaderboard;
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::{Params, Rules, System};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::state::Skill;
use rungs_ladder::values::PlayerName;
use rungs_pairing::ladder::History;
use rungs_pairing::simulated::{self, SimPairing, Week};
use rungs_rating::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The most players a simulation takes (each is a log row and a cached player).
pub const MAX_PLAYERS: u32 = 100_000;
/// The most weeks (ten years).
pub const MAX_WEEKS: u32 = 520;
/// The most matches in all (weeks × matches per week): the rows are held in memory until they
/// are committed, about 120 bytes each, so two million stay near a quarter of a gigabyte.
pub const MAX_MATCHES: u64 = 2_000_000;
/// The most player-weeks (players × weeks): every weekly reset records a history row and an
/// archive entry for every player, so 100,000 players for 520 weeks asked for 52 million rows
/// (8.6 GB, then a state too large for SQLite). 5.2 million (10,000 players for ten years, or
/// 100,000 for one) stay near a gigabyte and a half.
pub const MAX_PLAYER_WEEKS: u64 = 5_200_000;

const PROGRESS_EVERY: u64 = 4096;

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    pub players: u32,
    pub weeks: u32,
    /// Matches per week across the whole ladder.
    pub matches_per_week: u32,
    pub rules: Rules,
    pub seed: u64,
    /// The spread of true skill on the 1500 Elo scale.
    pub skill_sd: f64,
    /// The standard deviation of the noise on the rating a player is matched by.
    pub pairing_noise: f64,
    /// The day the players join and the first week begins.
    pub start: NaiveDate,
    /// How players are paired: nearest (the default, an online queue), random, or each
    /// day's players as rounds of the balanced or Swiss engine.
    #[serde(default)]
    pub pairing: SimPairing,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            players: 200,
            weeks: 12,
            matches_per_week: 2000,
            rules: Rules::default(),
            seed: 1,
            skill_sd: 200.0,
            pairing_noise: 100.0,
            start: NaiveDate::from_ymd_opt(2026, 1, 5).unwrap_or_default(),
            pairing: SimPairing::Nearest,
        }
    }
}

impl SimConfig {
    /// The last day the simulation writes: its last week's Sunday, with that week's resets.
    pub fn last_day(&self) -> Option<NaiveDate> {
        self.start
            .checked_add_days(Days::new((7 * u64::from(self.weeks)).saturating_sub(1)))
    }

    /// The start when none is given: the default Monday, or, for a run that would pass
    /// `today` from it, the latest Monday from which `weeks` weeks end by `today` (a
    /// simulation records matches as played, and nothing is played ahead of today).
    pub fn default_start(weeks: u32, today: NaiveDate) -> NaiveDate {
        use chrono::Datelike;
        let usual = SimConfig::default().start;
        let Some(latest) =
            today.checked_sub_days(Days::new((7 * u64::from(weeks)).saturating_sub(1)))
        else {
            return usual;
        };
        let monday = latest - Days::new(u64::from(latest.weekday().num_days_from_monday()));
        usual.min(monday)
    }

    /// The number of events the simulation makes (what progress counts up to).
    pub fn events(&self) -> u64 {
        let weeks = self.weeks as u64;
        self.players as u64 + weeks * (self.matches_per_week as u64 + 1) + weeks / 4
    }

    /// Checks every field; the error names the first one out of range.
    pub fn validate(&self) -> Result<(), SimError> {
        let bad = |field: &'static str, message: String| Err(SimError::Invalid { field, message });
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return bad(
                "players",
                format!("{} is out of range; give 2 to {MAX_PLAYERS}", self.players),
            );
        }
        if !(1..=MAX_WEEKS).contains(&self.weeks) {
            return bad(
                "weeks",
                format!("{} is out of range; give 1 to {MAX_WEEKS}", self.weeks),
            );
        }
        let total = self.weeks as u64 * self.matches_per_week as u64;
        let player_weeks = u64::from(self.players) * u64::from(self.weeks);
        if player_weeks > MAX_PLAYER_WEEKS {
            return bad(
                "weeks",
                format!(
                    "{} players for {} weeks is {player_weeks} player-weeks; at most \
                     {MAX_PLAYER_WEEKS} (each weekly reset records every player): fewer \
                     players or fewer weeks",
                    self.players, self.weeks
                ),
            );
        }
        if total > MAX_MATCHES {
            return bad(
                "matches-per-week",
                format!(
                    "{} a week for {} weeks is {total} matches; at most {MAX_MATCHES} in all",
                    self.matches_per_week, self.weeks
                ),
            );
        }
        for (field, v) in [
            ("skill-sd", self.skill_sd),
            ("pairing-noise", self.pairing_noise),
        ] {
            if !(v.is_finite() && (0.0..=10_000.0).contains(&v)) {
                let v = rungs_ladder::values::number_text(v);
                return bad(field, format!("{v} is out of range; give 0 to 10000"));
            }
        }
        let last = rungs_ladder::values::Day::new(self.start)
            .ok()
            .and_then(|d| d.plus_days(7 * self.weeks as u64));
        if last.is_none() {
            return bad(
                "start",
                format!(
                    "{} with {} weeks runs outside 0001-01-01..9999-12-31",
                    self.start, self.weeks
                ),
            );
        }
        if let Err(e) = self.rules.check() {
            return bad("param", e.to_string());
        }
        Ok(())
    }
}

/// Why a simulation stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("simulation cancelled")]
    Cancelled,
}

/// How many players reached a tier, and after how many of their matches (median).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TierReach {
    pub tier: String,
    pub reached: u32,
    pub median_matches: Option<f64>,
    /// Each reaching player's match count when they first reached it, lowest first: the
    /// climb curve (players who have reached the tier against matches played).
    #[serde(skip)]
    pub first_reached_at: Vec<u32>,
}

/// What a simulation shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimReport {
    pub system: System,
    pub matches: u64,
    /// Skyweaver: for each tier from Trainee I up, the players whose tier was ever at least
    /// that tier, and the median of their match count when it first was (Grandweaver is
    /// checked at each week's end, the others after every match). Empty for other systems.
    pub matches_to_tier: Vec<TierReach>,
    /// For each week, the mean player-facing score (RP, shown rank, or rating) at the week's
    /// end, before its reset, minus the mean at the week's start, after the previous week's
    /// resets: what the matches themselves add. The resets' own cuts are left out, being
    /// deliberate deflation rather than drift.
    pub rp_inflation_per_week: Vec<f64>,
    /// The mean of `rp_inflation_per_week`.
    pub rp_inflation_mean: f64,
    /// Skyweaver: for each week, the players in each tier of `Tier::ALL` (Wanderer first,
    /// Grandweaver last) at the week's end, before its resets. Empty for other systems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tiers_per_week: Vec<[u32; 12]>,
    /// Spearman correlation of the final player-facing score with true skill, taken when play
    /// ends (before the last week's resets, which would flatten RP into reset values).
    /// `None` when every score is equal.
    pub spearman_score: Option<f64>,
    /// The same for the rating on the 1500 scale.
    pub spearman_rating: Option<f64>,
    /// The pairing rule played by.
    pub pairing: SimPairing,
    /// The mean over the matches played of |E − ½|, E side A's expected score by the
    /// ladder's own forecast when the match was paired: how close the rule makes the games
    /// (0 for even games, ½ for certain ones). `None` without a match.
    pub mean_abs_e: Option<f64>,
    /// Each player's true skill, by player id.
    pub true_skill: Vec<f64>,
}

/// A finished simulation: the log rows (in replay order, ready to commit), what they show,
/// and the ladder they replay to.
#[derive(Debug, Clone)]
pub struct Simulation {
    pub rows: Vec<(NaiveDate, Entry)>,
    pub report: SimReport,
    pub ladder: Ladder,
}

/// SplitMix64: small, fast, and the same sequence for a seed everywhere.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (the modulo bias is below 2⁻⁴⁰ for n ≤ MAX_PLAYERS).
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % n as u64) as u32
    }

    /// Standard normal by Box–Muller (one of the pair; simplicity over speed).
    fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // (0, 1]: ln stays finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// A total order on ratings as integers, so the index can be a plain `BTreeSet`.
fn sort_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// The players sorted by matchmaking rating.
struct Index {
    set: BTreeSet<(u64, PlayerId)>,
    rating: Vec<f64>,
}

impl Index {
    fn new(ladder: &Ladder) -> Index {
        let rating: Vec<f64> = ladder
            .players
            .iter()
            .map(|p| p.skill.rating_1500())
            .collect();
        let set = (0..)
            .zip(&rating)
            .map(|(id, &r)| (sort_key(r), id))
            .collect();
        Index { set, rating }
    }

    fn update(&mut self, ladder: &Ladder, id: PlayerId) {
        let Some(p) = ladder.player(id) else { return };
        let new = p.skill.rating_1500();
        let old = &mut self.rating[id as usize];
        if *old != new {
            self.set.remove(&(sort_key(*old), id));
            self.set.insert((sort_key(new), id));
            *old = new;
        }
    }

    /// The player other than `me` whose rating is nearest `target` (ties: the lower).
    fn nearest(&self, me: PlayerId, target: f64) -> Option<PlayerId> {
        let t = sort_key(target);
        let below = self.set.range(..(t, 0)).rev().find(|e| e.1 != me);
        let above = self.set.range((t, 0)..).find(|e| e.1 != me);
        let distance = |id: PlayerId| (self.rating[id as usize] - target).abs();
        match (below, above) {
            (Some(&(_, b)), Some(&(_, a))) => Some(if distance(a) < distance(b) { a } else { b }),
            (Some(&(_, x)), None) | (None, Some(&(_, x))) => Some(x),
            (None, None) => None,
        }
    }
}

/// The ladder being played, and the rows it has been given.
struct Run<'p> {
    ladder: Ladder,
    rows: Vec<(NaiveDate, Entry)>,
    scratch: Vec<rungs_ladder::state::HistoryRow>,
    progress: &'p mut dyn FnMut(u64) -> bool,
}

impl Run<'_> {
    fn emit(&mut self, date: NaiveDate, event: Event) -> Result<(), SimError> {
        let done = self.rows.len() as u64;
        if done.is_multiple_of(PROGRESS_EVERY) && !(self.progress)(done) {
            return Err(SimError::Cancelled);
        }
        // Sequence numbers as a new file gives them: 1, 2, … in this order.
        self.ladder
            .apply(date, done + 1, &event, &mut self.scratch)?;
        self.scratch.clear();
        self.rows.push((date, Entry::Add { event }));
        Ok(())
    }

    fn mean_score(&self) -> f64 {
        let n = self.ladder.players.len().max(1) as f64;
        let centre = self.ladder.centre();
        self.ladder
            .players
            .iter()
            .map(|p| p.figures_at(centre).score)
            .sum::<f64>()
            / n
    }
}

/// First-reach bookkeeping for tiers: the best tier each player has had, and the match
/// counts at which each tier was first reached.
struct Reach {
    best: Vec<usize>,
    at: Vec<Vec<u32>>,
}

impl Reach {
    fn note(&mut self, id: PlayerId, tier: Tier, matches: u32) {
        let best = &mut self.best[id as usize];
        for t in *best + 1..=tier as usize {
            self.at[t].push(matches);
        }
        *best = (*best).max(tier as usize);
    }
}

/// Plays the simulation. `progress` is told how many events are done every so often;
/// returning false stops with [`SimError::Cancelled`].
pub fn simulate(
    cfg: &SimConfig,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Simulation, SimError> {
    cfg.validate()?;
    let n = cfg.players;
    let mut rng = Rng(cfg.seed);
    let true_skill: Vec<f64> = (0..n)
        .map(|_| 1500.0 + cfg.skill_sd * rng.normal())
        .collect();
    let capacity = usize::try_from(cfg.events()).unwrap_or(0);
    let mut run = Run {
        ladder: Ladder::new(cfg.rules.clone()),
        rows: Vec::with_capacity(capacity),
        scratch: Vec::new(),
        progress,
    };
    let width = n.to_string().len();
    for id in 0..n {
        let name = format!("Player {:0width$}", id + 1);
        let name = PlayerName::parse(&name).map_err(|e| SimError::Invalid {
            field: "players",
            message: format!("name `{name}` {e}"),
        })?;
        run.emit(
            cfg.start,
            Event::Player {
                id,
                name,
                undated: false,
            },
        )?;
    }
    let skyweaver = match &cfg.rules.params {
        Params::Skyweaver(p) => Some(p.grandweaver_count),
        _ => None,
    };
    let table = cfg.rules.tier_table();
    let mut reach = Reach {
        best: vec![Tier::Wanderer as usize; n as usize],
        at: vec![Vec::new(); Tier::ALL.len()],
    };
    let mut index = Index::new(&run.ladder);
    let mut inflation = Vec::with_capacity(cfg.weeks as usize);
    let mut tiers_per_week = Vec::new();
    let mut at_end = (None, None);
    let mut week_start_mean = run.mean_score();
    let per_week = cfg.matches_per_week as u64;
    let mut matches = 0u64;
    let mut sum_abs_e = 0.0;
    let mut history = History::default();
    let mut pool: Vec<PlayerId> = (0..n).collect();
    for week in 0..cfg.weeks as u64 {
        let monday = cfg.start + Days::new(7 * week);
        let mut event = Week::default();
        // Matches go by day as before: match i of the week on day i·7/per_week.
        let mut i = 0;
        while i < per_week {
            let day = i * 7 / per_week;
            let mut j = i;
            while j < per_week && j * 7 / per_week == day {
                j += 1;
            }
            let date = monday + Days::new(day);
            if cfg.pairing.by_rounds() {
                // The day's players: as many as its matches need, drawn at random; rounds of
                // everyone present until the day's matches are played.
                let mut left = j - i;
                while left > 0 {
                    let boards = left.min(u64::from(n / 2)).max(1);
                    let k = (2 * boards) as usize;
                    for x in 0..k {
                        let y = x + rng.below(n - x as u32) as usize;
                        pool.swap(x, y);
                    }
                    let mut present = pool[..k].to_vec();
                    present.sort_unstable();
                    let paired = simulated::round(
                        &run.ladder,
                        &history,
                        &present,
                        date,
                        cfg.pairing,
                        &mut event,
                        rng.next_u64(),
                    )
                    .map_err(|e| SimError::Invalid {
                        field: "pairing",
                        message: e.to_string(),
                    })?;
                    let mut games = Vec::with_capacity(paired.len());
                    for [a, b] in paired {
                        let won =
                            play(&mut run, &mut rng, &true_skill, date, a, b, &mut sum_abs_e)?;
                        history.read(
                            date,
                            &Event::Match(Match::new(a, b, MatchResult::Played(won))),
                        );
                        games.push(([a, b], won));
                        matches += 1;
                        for id in [a, b] {
                            index.update(&run.ladder, id);
                            if skyweaver.is_some()
                                && let Some(p) = run.ladder.player(id)
                            {
                                reach.note(id, table.of_rp(p.rp), p.matches);
                            }
                        }
                    }
                    if cfg.pairing == SimPairing::Swiss {
                        event.record(&games);
                    }
                    left -= boards;
                }
            } else {
                for _ in i..j {
                    let a = rng.below(n);
                    let b = if cfg.pairing == SimPairing::Random {
                        let b = rng.below(n - 1);
                        if b >= a { b + 1 } else { b }
                    } else {
                        let target = index.rating[a as usize] + cfg.pairing_noise * rng.normal();
                        let Some(b) = index.nearest(a, target) else {
                            continue;
                        };
                        b
                    };
                    play(&mut run, &mut rng, &true_skill, date, a, b, &mut sum_abs_e)?;
                    matches += 1;
                    for id in [a, b] {
                        index.update(&run.ladder, id);
                        if skyweaver.is_some()
                            && let Some(p) = run.ladder.player(id)
                        {
                            reach.note(id, table.of_rp(p.rp), p.matches);
                        }
                    }
                }
            }
            i = j;
        }
        // The week's end, before its resets.
        if skyweaver.is_some() {
            let gw = leaderboard::grandweavers(&run.ladder);
            let mut counts = [0u32; 12];
            for (id, p) in (0..).zip(&run.ladder.players) {
                let tier = if gw.get(id as usize).copied().unwrap_or(false) {
                    reach.note(id, Tier::Grandweaver, p.matches);
                    Tier::Grandweaver
                } else {
                    table.of_rp(p.rp)
                };
                counts[tier as usize] += 1;
            }
            tiers_per_week.push(counts);
        }
        let end_mean = run.mean_score();
        inflation.push(end_mean - week_start_mean);
        if week + 1 == cfg.weeks as u64 {
            at_end = correlations(&run.ladder, &true_skill);
        }
        let sunday = monday + Days::new(6);
        run.emit(sunday, Event::SoftReset)?;
        if (week + 1).is_multiple_of(4) {
            run.emit(sunday, Event::HardReset)?;
        }
        for id in 0..n {
            index.update(&run.ladder, id);
        }
        week_start_mean = run.mean_score();
    }
    let matches_to_tier = if skyweaver.is_some() {
        Tier::ALL[1..]
            .iter()
            .map(|&t| {
                let mut at = reach.at[t as usize].clone();
                let median_matches = median(&mut at);
                TierReach {
                    tier: t.name().to_string(),
                    reached: at.len() as u32,
                    median_matches,
                    first_reached_at: at,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let rp_inflation_mean = inflation.iter().sum::<f64>() / inflation.len().max(1) as f64;
    Ok(Simulation {
        report: SimReport {
            system: cfg.rules.system(),
            matches,
            matches_to_tier,
            rp_inflation_per_week: inflation,
            rp_inflation_mean,
            tiers_per_week,
            spearman_score: at_end.0,
            spearman_rating: at_end.1,
            pairing: cfg.pairing,
            mean_abs_e: (matches > 0).then(|| sum_abs_e / matches as f64),
            true_skill,
        },
        rows: run.rows,
        ladder: run.ladder,
    })
}

/// Plays `a` against `b` on `date`: the result by the true skills, |E − ½| of the ladder's
/// forecast added to `sum_abs_e`. Returns side A's outcome.
fn play(
    run: &mut Run<'_>,
    rng: &mut Rng,
    true_skill: &[f64],
    date: NaiveDate,
    a: PlayerId,
    b: PlayerId,
    sum_abs_e: &mut f64,
) -> Result<Outcome, SimError> {
    let delta = true_skill[a as usize] - true_skill[b as usize];
    let p_a = 1.0 / (1.0 + 10f64.powf(-delta / 400.0));
    let outcome = if rng.unit() < p_a {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let game = Match::new(a, b, MatchResult::Played(outcome));
    if let Some(p) = rungs_ladder::predict::predict_match(&run.ladder, &game, date) {
        let e = p.win_a + 0.5 * p.draw;
        if e.is_finite() {
            *sum_abs_e += (e - 0.5).abs();
        }
    }
    run.emit(date, Event::Match(game))?;
    Ok(outcome)
}

/// Spearman correlations of (score, rating) with true skill.
fn correlations(ladder: &Ladder, truth: &[f64]) -> (Option<f64>, Option<f64>) {
    let centre = ladder.centre();
    let score: Vec<f64> = ladder
        .players
        .iter()
        .map(|p| p.figures_at(centre).score)
        .collect();
    // The goals system's strength as shown (from the pool's average side under pooling rules).
    let rating: Vec<f64> = ladder
        .players
        .iter()
        .map(|p| match p.skill {
            Skill::Goals(_) => p.figures_at(centre).rating,
            s => s.rating_1500(),
        })
        .collect();
    (spearman(&score, truth), spearman(&rating, truth))
}

fn median(v: &mut [u32]) -> Option<f64> {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
    }
}

/// Ranks from 1, ties sharing the mean of the ranks they span.
pub fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]].total_cmp(&v[order[i]]).is_eq() {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation (Pearson's on average ranks), or `None` for fewer than two
/// pairs, lengths that differ, or a side whose values are all equal.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    let r = sxy / (sxx * syy).sqrt();
    (sxx > 0.0 && syy > 0.0 && r.is_finite()).then(|| r.clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_with_ties_by_hand() {
        // x ranks 1, 2.5, 2.5, 4; y ranks 1, 3, 2, 4. Both mean 2.5:
        // Σdxdy = 2.25 + 0 + 0 + 2.25 = 4.5, Σdx² = 4.5, Σdy² = 5 → 4.5/√22.5 = √0.9.
        let x = [1.0, 2.0, 2.0, 3.0];
        let y = [10.0, 30.0, 20.0, 40.0];
        assert_eq!(ranks(&x), vec![1.0, 2.5, 2.5, 4.0]);
        let r = spearman(&x, &y).unwrap();
        assert!((r - 0.9f64.sqrt()).abs() < 1e-15, "{r}");
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), None);
        assert_eq!(spearman(&[3.0, 2.0, 1.0], &[1.0, 2.0, 3.0]), Some(-1.0));
    }

    #[test]
    fn the_index_finds_the_nearest_other_player() {
        let mut ladder = Ladder::new(Rules::defaults(System::Elo));
        let mut h = Vec::new();
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        for id in 0..4 {
            let name = PlayerName::parse(&format!("P{id}")).unwrap();
            ladder
                .apply(
                    day,
                    id as u64,
                    &Event::Player {
                        id,
                        name,
                        undated: false,
                    },
                    &mut h,
                )
                .unwrap();
        }
        for (id, r) in [1400.0, 1500.0, 1600.0, 1610.0].into_iter().enumerate() {
            ladder.players[id].skill =
                rungs_ladder::state::Skill::Elo(rungs_rating::elo::Rating { rating: r });
        }
        let index = Index::new(&ladder);
        assert_eq!(index.nearest(2, 1600.0), Some(3));
        // 1500 looking for 1520: 1600 is 80 away, 1400 is 120.
        assert_eq!(index.nearest(1, 1520.0), Some(2));
        assert_eq!(index.nearest(2, 1500.0), Some(1));
        assert_eq!(index.nearest(0, 1300.0), Some(1));
        assert_eq!(index.nearest(3, 9999.0), Some(2));
        assert!(sort_key(-1.0) < sort_key(0.0) && sort_key(0.0) < sort_key(1e-300));
    }

    #[test]
    fn bad_configs_name_the_field() {
        let cfg = SimConfig {
            players: 1,
            ..SimConfig::default()
        };
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.starts_with("players: 1"), "{e}");
        let cfg = SimConfig {
            weeks: 100,
            matches_per_week: 1_000_000,
            ..SimConfig::default()
        };
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("matches-per-week")
        );
        let cfg = SimConfig {
            skill_sd: f64::NAN,
            ..SimConfig::default()
        };
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("skill-sd")
        );
    }
}
