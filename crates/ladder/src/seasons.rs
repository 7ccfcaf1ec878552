//! Seasons (the Skyweaver white paper's sections 4, "Season Structure", and 5, "Migration"):
//! the weekly soft reset, the monthly hard reset, the season archive, and migration from an Elo
//! list.

use crate::calendar::{Calendar, Reset, SCHEDULED_SEQ, Status};
use crate::event::{Event, PlayerId};
pub use crate::event::{Migration, MigrationEntry, OldRank};
use crate::leaderboard;
use crate::log::Effective;
use crate::rules::{Params, Rules};
use crate::skyweaver::Tier;
use crate::state::Ladder;
use crate::state::{HistoryRow, PlayerState, Skill};
pub use crate::state::{SeasonEntry, SeasonRanking, SeasonRecord};
use crate::tiers::TierTable;
use crate::weekly::WeeklyRp;
use chrono::NaiveDate;
use rungs_rating::{glicko, glicko2, trueskill};
use serde::{Deserialize, Serialize};

/// The weekly button (the white paper's "Weekly Soft Reset"). Skyweaver: record every player's
/// end-of-week RP and tier, cap Grandweavers above 1400 to 1400 and Masters above 1300 to 1300,
/// and grow every RD by one rating period (eq. 1). Other systems: the week rolls on, nothing
/// else changes.
///
/// A pressed button rolls one rating period however long ago the last one was (with a
/// manual calendar the organiser's weeks are the periods); a scheduled soft reset rolls the
/// calendar weeks it closes (see `run_calendar`).
pub fn soft_reset(ladder: &mut Ladder, date: NaiveDate, seq: u64, history: &mut Vec<HistoryRow>) {
    roll_week(ladder, date, seq, 1.0, history);
}

/// The season calendar's resets due before an event dated `date`: every reset
/// the plan lists between the previous event and this one applies exactly as its button would
/// — a soft reset, then on a season's end a hard reset — dated on its day with sequence
/// number [`SCHEDULED_SEQ`], so its history rows come before that day's events. A soft reset
/// by the calendar rolls N/7 rating periods: a period is a calendar week (eq. 1 with t in
/// weeks), one for the weekly default. The seasons the plan folds apply as one step
/// ([`fold_seasons`]).
pub(crate) fn run_calendar(ladder: &mut Ladder, date: NaiveDate, history: &mut Vec<HistoryRow>) {
    run_calendar_marked(ladder, date, history, None);
}

/// Where each reset's rows begin in `history`, and whether it is a hard reset
/// ([`catch_up_marked`]).
pub type ResetMarks = Vec<(usize, bool)>;

/// [`run_calendar`], noting in `marks` where each reset's rows begin.
fn run_calendar_marked(
    ladder: &mut Ladder,
    date: NaiveDate,
    history: &mut Vec<HistoryRow>,
    mut marks: Option<&mut ResetMarks>,
) {
    let (Some(last), Calendar::Scheduled(schedule)) = (ladder.last_date, ladder.rules.calendar)
    else {
        return;
    };
    let plan = schedule.plan(last, date);
    let fold = plan.folded();
    let periods = schedule.periods_per_reset();
    let mut mark = |history: &Vec<HistoryRow>, hard: bool| {
        if let Some(m) = marks.as_deref_mut() {
            m.push((history.len(), hard));
        }
    };
    for reset in plan {
        mark(history, false);
        roll_week(ladder, reset.date, SCHEDULED_SEQ, periods, history);
        if reset.hard {
            let rows = history.len();
            mark(history, true);
            hard_reset(ladder, reset.date, SCHEDULED_SEQ, history);
            if let Some(f) = fold.filter(|f| f.after == reset.date) {
                // The empty season just ended changed nobody: each season of the run would
                // do the same. Otherwise (no ladder seen so far) they apply one by one.
                if history.len() == rows {
                    fold_seasons(ladder, &f);
                } else {
                    let mut day = schedule.next_after(f.after);
                    while let Some(d) = day.filter(|d| *d <= f.last) {
                        mark(history, false);
                        roll_week(ladder, d, SCHEDULED_SEQ, periods, history);
                        if schedule.is_hard(d) {
                            mark(history, true);
                            hard_reset(ladder, d, SCHEDULED_SEQ, history);
                        }
                        day = schedule.next_after(d);
                    }
                }
            }
        }
    }
}

/// The ladder brought to `date`: the season calendar's resets due before an event on that
/// day applied now, as the event would apply them first (`run_calendar`), and the ladder
/// then standing on that day, so that the event applies none of them again. A match is
/// rated after its due resets, so it is forecast after them too: what a forecast, a
/// pairing or prediction quality reads before the match is applied.
pub fn catch_up(ladder: &mut Ladder, date: NaiveDate, history: &mut Vec<HistoryRow>) {
    catch_up_marked(ladder, date, history, None);
}

/// [`catch_up`], noting in `marks` where each reset's rows begin in `history` and whether it
/// is a hard reset: what an explanation of the event shows first.
pub fn catch_up_marked(
    ladder: &mut Ladder,
    date: NaiveDate,
    history: &mut Vec<HistoryRow>,
    marks: Option<&mut ResetMarks>,
) {
    run_calendar_marked(ladder, date, history, marks);
    if let Some(last) = ladder.last_date {
        ladder.last_date = Some(last.max(date));
    }
}

/// The ladder as a match on `date` would find it: `ladder` itself when no reset of the season
/// calendar is due by then, else a copy with them applied ([`catch_up`]).
pub fn as_of(ladder: &Ladder, date: NaiveDate) -> std::borrow::Cow<'_, Ladder> {
    if resets_due(ladder, date) {
        let mut at = ladder.clone();
        catch_up(&mut at, date, &mut Vec::new());
        std::borrow::Cow::Owned(at)
    } else {
        std::borrow::Cow::Borrowed(ladder)
    }
}

/// The seasons of `fold` at once, on a ladder that an empty season leaves as it is: one
/// archive record for the run (each season's entries, every week of the run at the player's
/// RP), and the season counter moved on. Nothing else changes: no player, no history row.
fn fold_seasons(ladder: &mut Ladder, fold: &crate::calendar::Fold) {
    let weeks = u32::try_from(fold.weeks).unwrap_or(u32::MAX);
    let seasons = u32::try_from(fold.seasons).unwrap_or(u32::MAX);
    let skyweaver = matches!(ladder.rules.params, Params::Skyweaver(_));
    let mut entries = season_entries(ladder);
    for e in &mut entries {
        if skyweaver {
            let rp = ladder.players[e.player as usize].rp;
            e.weekly_rp = WeeklyRp::repeat(rp, weeks);
        }
    }
    ladder.archive.push(SeasonRecord {
        number: ladder.season,
        ended: fold.last,
        weeks,
        entries,
        folded: seasons.saturating_sub(1),
        tiers_kept: crate::state::TiersKept(true),
    });
    ladder.season = ladder.season.saturating_add(seasons);
    ladder.week = 1;
}

/// The season calendar's resets in a log, as replay applies them to `events` (in replay
/// order, starting under `initial`, its `rules` events changing the calendar): each with the
/// index of the event it applies before. For the log's listing and the charts' markers,
/// without replaying.
pub fn scheduled_resets(initial: &Rules, events: &[Effective]) -> Vec<(usize, Reset)> {
    let mut calendar = initial.calendar;
    let mut out = Vec::new();
    for (i, pair) in events.windows(2).enumerate() {
        if let Event::Rules { rules } = &pair[0].event {
            calendar = rules.calendar;
        }
        if let Some(s) = calendar.schedule() {
            out.extend(s.plan(pair[0].date, pair[1].date).map(|r| (i + 1, r)));
        }
    }
    out
}

/// Whether an event dated `date` would first apply scheduled resets: then it reads and
/// changes every player, not only its own (the store's append path loads them all).
pub fn resets_due(ladder: &Ladder, date: NaiveDate) -> bool {
    match (ladder.last_date, ladder.rules.calendar) {
        (Some(last), Calendar::Scheduled(s)) => s.plan(last, date).next().is_some(),
        _ => false,
    }
}

/// The season calendar's resets an event dated `date` would apply first, and what they do to
/// some players (a forecast says so: "a hard reset is due first: Spain 1394 → 1066").
#[derive(Debug, Clone, PartialEq)]
pub struct DueFirst {
    /// Soft resets due (every hard reset comes with one).
    pub soft: u64,
    /// Hard resets (season ends) among them.
    pub hard: u64,
    /// Each player asked about: id, shown score (RP, or the rating) before and after.
    pub players: Vec<(PlayerId, f64, f64)>,
}

/// What `run_calendar` would do before an event dated `date`, for `players`; `None` when no
/// reset is due. Works on a copy: the ladder is not changed.
pub fn due_first(ladder: &Ladder, date: NaiveDate, players: &[PlayerId]) -> Option<DueFirst> {
    let (Some(last), Calendar::Scheduled(schedule)) = (ladder.last_date, ladder.rules.calendar)
    else {
        return None;
    };
    let plan = schedule.plan(last, date);
    let (mut soft, mut hard) = plan.folded().map_or((0, 0), |f| (f.weeks, f.seasons));
    for reset in plan {
        soft += 1;
        hard += u64::from(reset.hard);
    }
    if soft == 0 {
        return None;
    }
    let mut after = ladder.clone();
    run_calendar(&mut after, date, &mut Vec::new());
    let score = |l: &Ladder, id: PlayerId| l.figures_of(id).map(|f| f.score);
    let players = players
        .iter()
        .filter_map(|&id| Some((id, score(ladder, id)?, score(&after, id)?)))
        .collect();
    Some(DueFirst {
        soft,
        hard,
        players,
    })
}

/// Where the ladder stands on the calendar on `today`: season, week, the next reset and the
/// season's end, and resets due since its last event (which replay applies with the next
/// one). What the status bar and `rungs standings` say.
pub fn calendar_status(ladder: &Ladder, today: NaiveDate) -> Status {
    Status::at(
        &ladder.rules.calendar,
        ladder.season,
        ladder.week,
        ladder.last_date,
        today,
    )
}

/// A soft reset that grows every RD by `periods` rating periods. It visits only the players
/// it may change ([`Watch`](crate::state::Watch)); every other player's end-of-week
/// RP runs on unchanged (`ladder::weekly`) and gets no history row, so a soft reset costs
/// the players active this season, not the ladder's.
fn roll_week(
    ladder: &mut Ladder,
    date: NaiveDate,
    seq: u64,
    periods: f64,
    history: &mut Vec<HistoryRow>,
) {
    if let Params::Skyweaver(params) = &ladder.rules.params {
        let params = *params;
        let watched = watched(ladder, &params);
        // Every contender for a slot is at Master or above, so among the watched: the slots are
        // decided among them alone (`leaderboard.rs`), not over every player at every reset.
        let holders = leaderboard::grandweavers_among(ladder, &watched);
        let grandweavers: Vec<bool> = watched.iter().map(|id| holders.contains(id)).collect();
        let last = leaderboard::last_slot(ladder);
        let cfg = params.glicko();
        let week = ladder.week;
        let centre = ladder.centre();
        for (&id, gw) in watched.iter().zip(grandweavers) {
            let p = &mut ladder.players[id as usize];
            let before = p.figures_at(centre);
            let tier = if gw {
                Tier::Grandweaver
            } else {
                params.tier_minimums.of_rp(p.rp)
            };
            p.season_weekly.push_tier(p.rp, tier);
            if tier == Tier::Grandweaver {
                p.season_grandweaver = true;
                p.rp = p.rp.min(1400.0);
            } else if tier == Tier::Master {
                p.rp = p.rp.min(1300.0);
            }
            if let Skill::Glicko(r) = p.skill {
                p.skill = Skill::Glicko(glicko::grow_deviation(&r, periods, &cfg));
            }
            if !soft_reset_may_change(p, &params) {
                p.season_weekly.open(p.rp, week + 1);
                if let Some(set) = &mut ladder.watch.0 {
                    set.remove(&id);
                }
            }
            ladder.record_if_changed(date, seq, id, before, history);
        }
        // The caps may reorder the holders; only the watched players moved.
        leaderboard::track(ladder, &watched, last);
    }
    ladder.week += 1;
    ladder.week_open = Some(false);
}

/// A season ended by the button while its last week runs (no soft reset closed it): that
/// week's end is the season's end, so every player's RP now is recorded as its end-of-week
/// RP, as a soft reset records it, before the season is ranked (the white paper's "End of
/// Season": Master+ players are ranked on the mean of their end-of-week RP scores, the final
/// week's among them). Nothing else of a soft reset applies: no cap, no RD growth.
fn close_final_week(ladder: &mut Ladder) {
    let Params::Skyweaver(params) = &ladder.rules.params else {
        return;
    };
    let params = *params;
    // The others run on open at their RP, which the week's closing counts.
    let watched = watched(ladder, &params);
    let holders = leaderboard::grandweavers_among(ladder, &watched);
    for id in watched {
        let p = &mut ladder.players[id as usize];
        let tier = if holders.contains(&id) {
            Tier::Grandweaver
        } else {
            params.tier_minimums.of_rp(p.rp)
        };
        p.season_weekly.push_tier(p.rp, tier);
    }
    ladder.week += 1;
    ladder.week_open = Some(false);
}

/// Whether a soft reset may change a player: at Master or above (the caps, a Grandweaver
/// slot), or an RD not at its ceiling (a soft reset grows it, or brings it down to a lower
/// ceiling). Any other player's soft reset records their RP for the week and nothing else.
fn soft_reset_may_change(p: &PlayerState, params: &crate::rules::SkyweaverParams) -> bool {
    p.joined
        && (p.rp >= params.tier_minimums.min_rp(Tier::Master)
            || matches!(p.skill, Skill::Glicko(r)
                if r.deviation.to_bits() != params.initial_deviation.to_bits()))
}

/// The players a soft reset may change, in id order, building the watch list from every
/// player the first time (after a ladder is read, a rules change or a hard reset): the others
/// get an open end-of-week run from this week on.
fn watched(ladder: &mut Ladder, params: &crate::rules::SkyweaverParams) -> Vec<PlayerId> {
    if ladder.watch.0.is_none() {
        let week = ladder.week;
        let mut set = std::collections::BTreeSet::new();
        for (i, p) in ladder.players.iter_mut().enumerate() {
            if soft_reset_may_change(p, params) {
                p.season_weekly.close(week);
                set.insert(i as PlayerId);
            } else if p.joined && !p.season_weekly.is_open() {
                p.season_weekly.open(p.rp, week);
            }
        }
        ladder.watch.0 = Some(set);
    }
    ladder.watch.0.iter().flatten().copied().collect()
}

/// Where an archived season ranks a player, higher first: Master and above by weekly mean
/// above every tier below (`rungs seasons` and the published archive sort by it).
pub fn archive_key(e: &SeasonEntry) -> f64 {
    match e.ranking {
        SeasonRanking::Tier(t) => t as u8 as f64,
        SeasonRanking::AverageRp(rp) => 100.0 + rp,
        SeasonRanking::Score(s) => s,
    }
}

/// The season's archive entries, as the season stands now.
pub fn season_entries(ladder: &Ladder) -> Vec<SeasonEntry> {
    let grandweavers = leaderboard::grandweavers(ladder);
    let centre = ladder.centre();
    let table = ladder.rules.tier_table();
    ladder
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.joined)
        .map(|(i, p)| {
            let skyweaver = matches!(ladder.rules.params, Params::Skyweaver(_));
            let gw_now = grandweavers.get(i).copied().unwrap_or(false);
            let tier_now = if gw_now {
                Tier::Grandweaver
            } else {
                table.of_rp(p.rp)
            };
            let peak = if p.season_grandweaver || gw_now {
                Tier::Grandweaver
            } else {
                table.of_rp(p.season_peak_rp)
            };
            let weekly_rp = p.season_weekly.closed_at(ladder.week);
            let ranking = if !skyweaver {
                SeasonRanking::Score(p.figures_at(centre).score)
            } else if tier_now < Tier::Master {
                SeasonRanking::Tier(tier_now)
            } else {
                SeasonRanking::AverageRp(weekly_rp.mean().unwrap_or(p.rp))
            };
            SeasonEntry {
                player: i as PlayerId,
                name: p.name.clone(),
                ranking,
                peak_tier: skyweaver.then_some(peak),
                matches: p.season_matches,
                weekly_rp,
            }
        })
        .collect()
}

/// What a hard reset does to the matchmaking ratings (the white paper's eq. 5), for a preview:
/// the range of the rated players' r now, and the range it is rescaled onto.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HardResetRange {
    /// (r_lowest, r_highest) over the rated players.
    pub from: (f64, f64),
    /// (1500, 1500 + span), or (1500, 1500) when every rated player has the same r.
    pub to: (f64, f64),
}

/// Whether a player's r counts in the hard reset's range: they have a rating of record — a
/// match played (ever, in any season) or an Elo brought in by a migration, whatever its value.
/// A player with neither has no rating to speak of, only the default 1500, and would
/// otherwise set the bottom (or the top) of everyone else's range.
fn counts_in_range(p: &PlayerState) -> bool {
    p.joined && p.has_rating_of_record()
}

/// The range a hard reset rescales r over and onto, as it would be applied to `ladder` now;
/// `None` when the ladder does not run Skyweaver (no other system's ratings change) or no
/// player counts (see [`hard_reset`]).
pub fn hard_reset_range(ladder: &Ladder) -> Option<HardResetRange> {
    let Params::Skyweaver(params) = &ladder.rules.params else {
        return None;
    };
    let (lo, hi) = ladder
        .players
        .iter()
        .filter(|p| counts_in_range(p))
        .filter_map(|p| match p.skill {
            Skill::Glicko(r) => Some(r.rating),
            _ => None,
        })
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| {
            (lo.min(r), hi.max(r))
        });
    if lo > hi {
        return None;
    }
    let top = if hi > lo {
        1500.0 + params.hard_reset_span
    } else {
        1500.0
    };
    Some(HardResetRange {
        from: (lo, hi),
        to: (1500.0, top),
    })
}

impl HardResetRange {
    /// The range in words, as a preview states it, since eq. 5's span is a parameter whose
    /// result the organiser should see: "MMR 1412–1688 → 1500–2250".
    pub fn text(&self) -> String {
        format!(
            "MMR {:.0}–{:.0} → {:.0}–{:.0}",
            self.from.0, self.from.1, self.to.0, self.to.1
        )
    }
}

/// The season button (the white paper's "Monthly Hard Reset"). The season is archived; then,
/// under Skyweaver, RP goes to the hard-reset value of the highest tier reached this season,
/// MMR is rescaled to 1500 … 1500 + span, RD returns to its initial value, and the floors
/// reached are cleared. A reset value that sits on a hard floor (Trainee I 300, Expert I 600,
/// Master 900, and Wanderer 200) counts as that floor reached in the new season, as the design
/// notes word it.
///
/// The MMR range is taken over the players who have played a match or carry a migrated
/// rating ([`hard_reset_range`]). The others, who have only a newcomer's default rating,
/// start the new season as a newcomer would join it, at the bottom of the new range:
/// r' = 1500, RD' = RD_init.
pub fn hard_reset(ladder: &mut Ladder, date: NaiveDate, seq: u64, history: &mut Vec<HistoryRow>) {
    // The record counts the soft resets of the season (a season the button ends within its
    // first week says so); the final week closed here is among its end-of-week RP.
    let soft_resets = ladder.week.saturating_sub(1);
    if ladder.week_open == Some(true) {
        close_final_week(ladder);
    }
    let record = SeasonRecord {
        number: ladder.season,
        ended: date,
        weeks: soft_resets,
        entries: season_entries(ladder),
        folded: 0,
        tiers_kept: crate::state::TiersKept(true),
    };
    if let Params::Skyweaver(params) = &ladder.rules.params {
        let range = hard_reset_range(ladder);
        let centre = ladder.centre();
        for entry in &record.entries {
            let before = ladder.players[entry.player as usize].figures_at(centre);
            let p = &mut ladder.players[entry.player as usize];
            p.rp = entry.peak_tier.unwrap_or(Tier::Wanderer).hard_reset_value();
            let rated = counts_in_range(p);
            if let Skill::Glicko(r) = p.skill {
                let rating = match range {
                    Some(HardResetRange { from: (lo, hi), .. }) if rated && hi > lo => {
                        1500.0 + (r.rating - lo) / (hi - lo) * params.hard_reset_span
                    }
                    _ => 1500.0,
                };
                p.skill = Skill::Glicko(glicko::Rating {
                    rating,
                    deviation: params.initial_deviation,
                });
            }
            p.floor = params.tier_minimums.floor_reached(p.rp);
            p.season_peak_rp = p.rp;
            ladder.record_if_changed(date, seq, entry.player, before, history);
        }
    }
    for p in &mut ladder.players {
        p.season_grandweaver = false;
        p.season_matches = 0;
        p.season_weekly.clear();
    }
    // Nobody a soft reset can change is left (RP at most 1000, RD at its ceiling); the next
    // soft reset finds out afresh.
    ladder.watch = Default::default();
    leaderboard::rescan(ladder);
    ladder.archive.push(record);
    ladder.season += 1;
    ladder.week = 1;
}

/// Elo cut-offs the organiser sets: the lowest Elo of each old rank.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cutoffs {
    pub grandmaster: f64,
    pub master: f64,
    pub prophet: f64,
    pub scholar: f64,
    pub apprentice: f64,
}

impl Default for Cutoffs {
    fn default() -> Self {
        Cutoffs {
            grandmaster: 2200.0,
            master: 2000.0,
            prophet: 1800.0,
            scholar: 1600.0,
            apprentice: 1400.0,
        }
    }
}

impl Cutoffs {
    pub fn rank_of(&self, elo: f64) -> OldRank {
        if elo >= self.grandmaster {
            OldRank::Grandmaster
        } else if elo >= self.master {
            OldRank::Master
        } else if elo >= self.prophet {
            OldRank::Prophet
        } else if elo >= self.scholar {
            OldRank::Scholar
        } else if elo >= self.apprentice {
            OldRank::Apprentice
        } else {
            OldRank::BelowApprentice
        }
    }

    /// Reads `Grandmaster=2200,Master=2000,…`; ranks not named keep their defaults.
    pub fn parse(text: &str) -> Result<Cutoffs, CutoffsError> {
        let mut c = Cutoffs::default();
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| CutoffsError::Syntax(part.to_string()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| CutoffsError::NotANumber {
                    part: part.to_string(),
                    value: value.trim().to_string(),
                })?;
            match OldRank::parse(name) {
                Some(OldRank::Grandmaster) => c.grandmaster = value,
                Some(OldRank::Master) => c.master = value,
                Some(OldRank::Prophet) => c.prophet = value,
                Some(OldRank::Scholar) => c.scholar = value,
                Some(OldRank::Apprentice) => c.apprentice = value,
                _ => {
                    return Err(CutoffsError::NoSuchRank {
                        part: part.to_string(),
                        name: name.trim().to_string(),
                    });
                }
            }
        }
        let order = [c.grandmaster, c.master, c.prophet, c.scholar, c.apprentice];
        if order.windows(2).any(|w| w[0] < w[1]) {
            return Err(CutoffsError::NotFalling);
        }
        Ok(c)
    }
}

/// Why old-rank cut-offs were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CutoffsError {
    #[error("cut-off `{0}` is not RANK=ELO")]
    Syntax(String),
    #[error("cut-off `{part}`: `{value}` is not a number")]
    NotANumber { part: String, value: String },
    #[error("cut-off `{part}`: no rank called `{name}`")]
    NoSuchRank { part: String, name: String },
    #[error("cut-offs must fall from Grandmaster down to Apprentice")]
    NotFalling,
}

/// Applies a migration. Skyweaver: r := Elo, RD := its initial value (350), RP := Table 2,
/// and the floor under that RP counts as reached. Other systems take the Elo as their rating
/// on the 1500 scale with fresh uncertainty; their RP is untouched.
pub fn migrate(
    ladder: &mut Ladder,
    migration: &Migration,
    date: NaiveDate,
    seq: u64,
    history: &mut Vec<HistoryRow>,
) {
    let rules = ladder.rules.params.clone();
    let pooled = ladder.pools_goals();
    for e in &migration.entries {
        let p = &mut ladder.players[e.player as usize];
        let elo = if e.elo.is_finite() { e.elo } else { 1500.0 };
        p.migrated = true;
        match &rules {
            Params::Skyweaver(params) => {
                p.skill = Skill::Glicko(glicko::Rating {
                    rating: elo,
                    deviation: params.initial_deviation,
                });
                p.rp = e.old_rank.rp();
                p.floor = params.tier_minimums.floor_reached(p.rp);
                p.season_peak_rp = p.season_peak_rp.max(p.rp);
            }
            Params::Inversus(params) => {
                let fresh = glicko2::Rating::new(&params.glicko2);
                let mu = ((elo - 1500.0) / glicko2::SCALE)
                    .max(params.glicko2.min_mu)
                    .min(params.glicko2.max_mu);
                p.skill = Skill::Glicko2(glicko2::Rating { mu, ..fresh });
            }
            Params::Allegskill(params) => {
                p.skill = Skill::TrueSkill(trueskill::Rating {
                    mu: 25.0 + (elo - 1500.0) / 42.0,
                    sigma: params.effective_trueskill().initial_sigma,
                });
            }
            Params::Memoir44(_) | Params::Elo(_) => {
                p.skill = Skill::Elo(rungs_rating::elo::Rating { rating: elo });
            }
            Params::Goals(params) => {
                p.skill = Skill::Goals(rungs_rating::goals::Rating::from_1500(elo, &params.goals));
            }
        }
        if !pooled {
            ladder.record(date, seq, e.player, history);
        }
    }
    // Under pooling rules the rows are measured from the pool after the whole migration
    // (`Ladder::centre`).
    ladder.recount_goals_pool_now();
    if pooled {
        for e in &migration.entries {
            ladder.record(date, seq, e.player, history);
        }
    }
}

/// What a migration preview says of Table 2 where the Skyweaver white paper contradicts
/// itself: Table 2 gives an old Master 1100 RP and calls the result "Master", but Table 1 puts
/// 1100 in Expert III (Master begins at 1200). rungs follows Table 1 — floor Expert I (900),
/// hard reset 800 — and says so, naming the players concerned: "Ann: Master (1100 RP, Expert
/// III by Table 1)". Grandmaster's Grandweaver is Table 1's top N Masters, which the preview's
/// tiers show. `name` says who a player is (the ladder's players, and those the migration
/// brings in). `None` when no player is concerned or the ladder does not run Skyweaver.
pub fn migration_note(
    ladder: &Ladder,
    migration: &Migration,
    name: &dyn Fn(PlayerId) -> Option<String>,
) -> Option<String> {
    if !matches!(ladder.rules.params, Params::Skyweaver(_)) {
        return None;
    }
    const SHOWN: usize = 10;
    let mut concerned = migration.entries.iter().filter(|e| {
        e.old_rank != OldRank::Grandmaster
            && TierTable::TABLE_1.of_rp(e.old_rank.rp()).name() != e.old_rank.table_two_rank()
    });
    let mut lines: Vec<String> = concerned
        .by_ref()
        .take(SHOWN)
        .map(|e| {
            let name = name(e.player).unwrap_or_else(|| "?".into());
            let rp = e.old_rank.rp();
            format!(
                "{}: {} ({rp:.0} RP, {} by Table 1)",
                crate::values::shown(&name),
                e.old_rank.table_two_rank(),
                TierTable::TABLE_1.of_rp(rp).name()
            )
        })
        .collect();
    let more = concerned.count();
    if lines.is_empty() {
        return None;
    }
    if more > 0 {
        lines.push(format!("and {more} more"));
    }
    Some(format!(
        "Table 2 calls 1100 RP Master; Table 1, which rungs follows, puts it in Expert III \
         (floor 900, hard reset 800). {}.",
        lines.join("; ")
    ))
}
