//! Tiers cut to a target distribution: given the share of players each tier should hold at
//! season end, the tier minimums that put them there on the ladder's own history.
//!
//! The shares are counted as `ladder::tier_flow` counts them: the players who played in a
//! season, at its end, pooled over every finished season (a designer's tiers apply to every
//! season, and one season of a small ladder has too few players to cut finely). Master's
//! target counts the Grandweavers, who are the top N of Master: their own share is whatever
//! N gives.
//!
//! Moving a cut moves the players' RP too (the hard floors sit on the cut tiers' minimums,
//! and a floor held is RP kept), so the search iterates: cut at the quantiles of season-end
//! RP under the current proposal, replay the whole log under the proposed minimums, and
//! again, until every share is within [`TOLERANCE`] of its target or [`MAX_ROUNDS`] replays;
//! the best proposal seen is kept. The proposal is a rules change dated on the log's first
//! day, after that day's events, as `rungs tiers --apply` records it, and each replay is the
//! log with that change in it, so the shares reached are those the ladder will show.

use chrono::NaiveDate;
use rungs_ladder::event::Event;
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, ReplayError, replay_state};
use rungs_ladder::rules::{Params, Rules};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::tier_flow::{self, SeasonEnd, SeasonFlow, TIERS};
use rungs_ladder::tiers::{CUT_TIERS, MASTER_CAP, TierTable};

/// A share within this many percentage points of its target is reached.
pub const TOLERANCE: f64 = 0.5;
/// Replays under proposed minimums at most.
pub const MAX_ROUNDS: usize = 30;

/// The share of players each tier should hold at season end, in percent, Wanderer to Master
/// (Master's with the Grandweavers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Targets(pub [f64; CUT_TIERS]);

/// A target refused: which tier (or the sum), the value, and what to give.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{subject}: {value} {why}")]
pub struct TargetError {
    pub subject: String,
    pub value: String,
    pub why: String,
}

/// A tier named as people type it: "Trainee I", "trainee-i", "trainee_i", "TRAINEEI".
pub fn tier_named(name: &str) -> Option<Tier> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    // Spaces, hyphens and underscores join words as people type them ("trainee-i"); anything
    // else, a zero-width or direction mark above all, makes it some other name.
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
    {
        return None;
    }
    let wanted = key(name);
    Tier::ALL.into_iter().find(|t| key(t.name()) == wanted)
}

impl Targets {
    /// `wanderer=5,trainee-i=10,…`: each tier at most once, a tier not named holds 0 %, the
    /// shares sum to 100 (within 0.5 for rounding). Grandweaver is no target of its own.
    pub fn parse(text: &str) -> Result<Targets, TargetError> {
        let mut shares = [0.0; CUT_TIERS];
        let mut named = [false; CUT_TIERS];
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let shown = rungs_ladder::values::shown(part.trim()).into_owned();
            let (name, value) = part.split_once('=').ok_or_else(|| TargetError {
                subject: shown.clone(),
                value: String::new(),
                why: "is not TIER=PERCENT".into(),
            })?;
            let tier = tier_named(name.trim()).ok_or_else(|| TargetError {
                subject: rungs_ladder::values::shown(name.trim()).into_owned(),
                value: String::new(),
                why: "is no tier; give Wanderer, Trainee I … III, Apprentice I … III, \
                      Expert I … III or Master"
                    .into(),
            })?;
            let subject = format!("{}'s share", tier.name());
            if tier == Tier::Grandweaver {
                return Err(TargetError {
                    subject: "Grandweaver".into(),
                    value: String::new(),
                    why: "takes no share: it is the top N Masters (grandweaver_count); \
                          Master's share counts them"
                        .into(),
                });
            }
            let i = tier as usize;
            if named[i] {
                return Err(TargetError {
                    subject,
                    value: String::new(),
                    why: "is given twice".into(),
                });
            }
            let value_text = value.trim();
            let share = value_text
                .trim_end_matches('%')
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && (0.0..=100.0).contains(s))
                .ok_or_else(|| TargetError {
                    subject: subject.clone(),
                    value: rungs_ladder::values::shown(value_text).into_owned(),
                    why: "is not a percentage from 0 to 100".into(),
                })?;
            named[i] = true;
            shares[i] = share;
        }
        Targets::new(shares)
    }

    /// Shares Wanderer first; they must each lie in 0 … 100 and sum to 100 within 0.5.
    pub fn new(shares: [f64; CUT_TIERS]) -> Result<Targets, TargetError> {
        for (i, s) in shares.iter().enumerate() {
            if !(s.is_finite() && (0.0..=100.0).contains(s)) {
                return Err(TargetError {
                    subject: format!("{}'s share", Tier::ALL[i].name()),
                    value: rungs_ladder::values::number_text(*s),
                    why: "is not a percentage from 0 to 100".into(),
                });
            }
        }
        let sum: f64 = shares.iter().sum();
        if (sum - 100.0).abs() > 0.5 {
            return Err(TargetError {
                subject: "the shares".into(),
                value: format!("sum to {}", rungs_ladder::values::number_text(sum)),
                why: "and must sum to 100".into(),
            });
        }
        Ok(Targets(shares))
    }
}

/// Why a cut could not reach its target.
#[derive(Debug, Clone, PartialEq)]
pub struct Unreachable {
    /// The tier whose minimum is the cut.
    pub tier: Tier,
    pub why: String,
}

/// The proposal: minimums, shares and flows before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    pub targets: Targets,
    pub before: TierTable,
    pub after: TierTable,
    /// Players per tier at season end, pooled, before and after.
    pub counts_before: [u32; TIERS],
    pub counts_after: [u32; TIERS],
    pub flows_before: Vec<SeasonFlow>,
    pub flows_after: Vec<SeasonFlow>,
    /// Replays under proposed minimums.
    pub rounds: usize,
    /// The cuts that missed their target by more than 1 point, and why.
    pub unreachable: Vec<Unreachable>,
    /// The rules the change records: those in force on the log's first day, with the
    /// proposed minimums.
    pub rules: Rules,
    /// The day the change takes effect: the log's first, after that day's events.
    pub from: NaiveDate,
}

impl Proposal {
    /// Each tier's share against its target (Master's with the Grandweavers), in points.
    pub fn misses(&self) -> [f64; CUT_TIERS] {
        misses(&self.counts_after, &self.targets)
    }
}

/// Why there is no proposal.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TiersError {
    #[error("the ladder does not run Skyweaver on its first day: only Skyweaver has tiers")]
    NotSkyweaver,
    #[error("no finished season has a player who played in it: nothing to cut by")]
    NoSeasons,
    #[error("the log has no event")]
    EmptyLog,
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("cancelled")]
    Cancelled,
}

/// The shares of `counts` in the targets' tiers: Master's with Grandweaver's.
fn target_shares(counts: &[u32; TIERS]) -> [f64; CUT_TIERS] {
    let s = tier_flow::shares(counts);
    let mut out = [0.0; CUT_TIERS];
    out.copy_from_slice(&s[..CUT_TIERS]);
    out[CUT_TIERS - 1] += s[TIERS - 1];
    out
}

fn misses(counts: &[u32; TIERS], targets: &Targets) -> [f64; CUT_TIERS] {
    let shares = target_shares(counts);
    let mut out = [0.0; CUT_TIERS];
    for i in 0..CUT_TIERS {
        out[i] = shares[i] - targets.0[i];
    }
    out
}

fn worst(counts: &[u32; TIERS], targets: &Targets) -> f64 {
    misses(counts, targets)
        .iter()
        .map(|m| m.abs())
        .fold(0.0, f64::max)
}

/// The log with the rules change to `table` after the first day's events (index `at`).
fn replay_with(
    events: &[Effective],
    initial: &Rules,
    at: usize,
    table: &TierTable,
) -> Result<(Ladder, Rules), ReplayError> {
    let mut ladder = replay_state(
        initial,
        events[..at].iter().map(|e| (e.date, e.seq, &e.event)),
    )?;
    let mut rules = ladder.rules.clone();
    if let Params::Skyweaver(p) = &mut rules.params {
        p.tier_minimums = *table;
    }
    let date = events[at - 1].date;
    let seq = events.iter().map(|e| e.seq).max().unwrap_or(0) + 1;
    let change = Event::Rules {
        rules: Box::new(rules.clone()),
    };
    ladder.apply(date, seq, &change, &mut Vec::new())?;
    let mut scratch = Vec::new();
    for e in &events[at..] {
        ladder.apply(e.date, e.seq, &e.event, &mut scratch)?;
        scratch.clear();
    }
    Ok((ladder, rules))
}

/// Every counted player's end of every finished season, and the flows, under `table`.
fn ends(ladder: &Ladder, table: &TierTable) -> (Vec<SeasonEnd>, Vec<SeasonFlow>) {
    let ends = ladder
        .archive
        .iter()
        .filter(|r| r.folded == 0)
        .flat_map(|r| r.entries.iter())
        .filter_map(|e| tier_flow::season_end(e, table))
        .collect();
    (ends, tier_flow::flows(&ladder.archive, table))
}

/// The minimums that put the targets' cumulative shares below each cut, on the season-end
/// RP `rps` (sorted): for each cut, the RP with the number of players below it nearest the
/// target's, then raised to lie above the cut below it and kept under Master's cap.
fn cut_at_quantiles(rps: &[f64], targets: &Targets, wanderer: f64) -> TierTable {
    let n = rps.len() as f64;
    let mut minimums = [wanderer; CUT_TIERS];
    let mut cumulative = 0.0;
    for k in 1..CUT_TIERS {
        cumulative += targets.0[k - 1];
        let want = cumulative / 100.0 * n;
        let mut best = (f64::INFINITY, rps.last().map_or(wanderer, |m| m + 1.0));
        let mut i = 0;
        while i < rps.len() {
            let value = rps[i];
            let gap = (i as f64 - want).abs();
            if gap < best.0 {
                best = (gap, value);
            }
            while i < rps.len() && rps[i] == value {
                i += 1;
            }
        }
        if (n - want).abs() < best.0 {
            best.1 = rps.last().map_or(wanderer, |m| m + 1.0);
        }
        let lowest = minimums[k - 1] + 1.0;
        let highest = MASTER_CAP - (CUT_TIERS - 1 - k) as f64;
        minimums[k] = best.1.round().max(lowest).min(highest);
    }
    TierTable::new(minimums)
}

/// Each minimum half-way from `from` to `to`, rounded away from `from` (so a step is never
/// lost to rounding), still strictly increasing.
fn halfway(from: &TierTable, to: &TierTable) -> TierTable {
    let (a, b) = (from.minimums(), to.minimums());
    let mut out = [0.0; CUT_TIERS];
    for k in 0..CUT_TIERS {
        let mid = (a[k] + b[k]) / 2.0;
        out[k] = if b[k] >= a[k] {
            mid.ceil()
        } else {
            mid.floor()
        };
        if k > 0 {
            out[k] = out[k].max(out[k - 1] + 1.0);
        }
    }
    TierTable::new(out)
}

/// Why cut `k` (the minimum of tier `k`) missed: a pile of players on one RP, or the cap.
fn why_missed(rps: &[f64], targets: &Targets, table: &TierTable, k: usize) -> Option<String> {
    let n = rps.len() as f64;
    let want: f64 = targets.0[..k].iter().sum();
    let cut = table.minimums()[k];
    let below = rps.partition_point(|r| *r < cut) as f64;
    if (100.0 * below / n - want).abs() <= 1.0 {
        return None;
    }
    // The pile the cut cannot split: the RP value at the target's quantile.
    let at = ((want / 100.0 * n).floor() as usize).min(rps.len().saturating_sub(1));
    let value = rps.get(at).copied()?;
    let pile = rps.iter().filter(|r| **r == value).count();
    let tier = Tier::ALL[k];
    let pile_share = 100.0 * pile as f64 / n;
    if k == CUT_TIERS - 1 && cut >= MASTER_CAP {
        return Some(format!(
            "Master's minimum can be at most {MASTER_CAP} (the weekly cap on Masters), \
             and {:.1} % end a season at or above it",
            100.0 - 100.0 * below / n
        ));
    }
    if pile_share > 1.0 {
        Some(format!(
            "{pile} season ends ({pile_share:.1} %) are at exactly {value} RP: a cut puts \
             them all below {} or all in it",
            tier.name()
        ))
    } else {
        Some(format!(
            "did not settle in {MAX_ROUNDS} replays: moving the cuts moves the hard floors \
             and the RP players end seasons on"
        ))
    }
}

/// Proposes the minimums for `targets` on the log `events` (in replay order) begun under
/// `initial`; `keep_going` is told the replays done so far, between replays, and stops the
/// search by answering false.
pub fn propose(
    initial: &Rules,
    events: &[Effective],
    targets: &Targets,
    keep_going: &mut dyn FnMut(usize) -> bool,
) -> Result<Proposal, TiersError> {
    let first = events.first().ok_or(TiersError::EmptyLog)?.date;
    let at = events.partition_point(|e| e.date == first);
    let ladder = replay_state(initial, events.iter().map(|e| (e.date, e.seq, &e.event)))?;
    let before = ladder.rules.tier_table();
    let (_, flows_before) = ends(&ladder, &before);
    let counts_before = tier_flow::pooled_at_end(&flows_before);
    // The proposal starts from the minimums in force on the first day.
    let day_one = replay_state(
        initial,
        events[..at].iter().map(|e| (e.date, e.seq, &e.event)),
    )?;
    let Params::Skyweaver(sky) = &day_one.rules.params else {
        return Err(TiersError::NotSkyweaver);
    };
    let wanderer = sky.tier_minimums.min_rp(Tier::Wanderer);
    let mut table = sky.tier_minimums;
    let mut best: Option<(f64, TierTable, Ladder, Rules)> = None;
    let mut rounds = 0;
    let mut seen: Vec<TierTable> = Vec::new();
    while rounds < MAX_ROUNDS {
        if !keep_going(rounds) {
            return Err(TiersError::Cancelled);
        }
        let (replayed, rules) = replay_with(events, initial, at, &table)?;
        rounds += 1;
        let (mut rps, flows) = {
            let (e, f) = ends(&replayed, &table);
            (e.into_iter().map(|e| e.rp).collect::<Vec<f64>>(), f)
        };
        if rps.is_empty() {
            return Err(TiersError::NoSeasons);
        }
        rps.sort_by(f64::total_cmp);
        let counts = tier_flow::pooled_at_end(&flows);
        let miss = worst(&counts, targets);
        if best.as_ref().is_none_or(|b| miss < b.0) {
            best = Some((miss, table, replayed, rules));
        }
        if miss <= TOLERANCE {
            break;
        }
        seen.push(table);
        let cut = cut_at_quantiles(&rps, targets, wanderer);
        // Half-way from the cuts replayed to the quantiles they gave: the RP answers the
        // cuts (a floor held is RP kept), and a full step overshoots.
        let next = if rounds == 1 {
            cut
        } else {
            halfway(&table, &cut)
        };
        // A cut seen before would only go round again.
        if seen.contains(&next) {
            break;
        }
        table = next;
    }
    let Some((_, after, replayed, rules)) = best else {
        return Err(TiersError::NoSeasons);
    };
    let (ends_after, flows_after) = ends(&replayed, &after);
    let counts_after = tier_flow::pooled_at_end(&flows_after);
    let mut rps: Vec<f64> = ends_after.iter().map(|e| e.rp).collect();
    rps.sort_by(f64::total_cmp);
    let unreachable = (1..CUT_TIERS)
        .filter_map(|k| {
            why_missed(&rps, targets, &after, k).map(|why| Unreachable {
                tier: Tier::ALL[k],
                why,
            })
        })
        .collect();
    Ok(Proposal {
        targets: *targets,
        before,
        after,
        counts_before,
        counts_after,
        flows_before,
        flows_after,
        rounds,
        unreachable,
        rules,
        from: first,
    })
}
