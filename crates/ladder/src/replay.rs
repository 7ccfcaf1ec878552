//! The replay engine: (rules, events in order) → state, one event at a time, and the
//! history rows each event produces. Pure: no I/O.

use crate::entrant::{self, Entrant};
use crate::event::{Event, Match, MatchResult, PlayerId};
use crate::inversus;
use crate::leaderboard;
use crate::periods;
use crate::rules::{Params, Rules};
use crate::seasons;
use crate::skyweaver;
pub use crate::state::Ladder;
use crate::state::{HistoryRow, PlayerState, RatingPeriod, Skill};
use chrono::NaiveDate;
use rungs_rating::trace::Trace;
use rungs_rating::{Outcome, glicko, memoir44, trueskill};

/// An event that cannot apply to the ladder as it stands. It names players by id; a caller
/// that knows their names says them with [`ReplayError::describe`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error("{}", self.describe(&|_| None))]
    UnknownPlayer {
        seq: u64,
        date: NaiveDate,
        id: PlayerId,
    },
    #[error("{}", self.describe(&|_| None))]
    DuplicatePlayer {
        seq: u64,
        date: NaiveDate,
        id: PlayerId,
    },
    #[error("{}", self.describe(&|_| None))]
    EmptySide { seq: u64, date: NaiveDate },
    #[error("{}", self.describe(&|_| None))]
    PlayerTwice {
        seq: u64,
        date: NaiveDate,
        id: PlayerId,
        /// Their name at that event (the ladder knows it: they have joined).
        name: String,
    },
    /// A join or rename giving a name another player holds on that date.
    #[error("{}", self.describe(&|_| None))]
    NameTaken {
        seq: u64,
        date: NaiveDate,
        id: PlayerId,
        name: String,
        holder: PlayerId,
        /// Joining (else renamed).
        joining: bool,
    },
    /// A join with an id at or beyond [`MAX_PLAYERS`]: refused before anything is allocated
    /// for the players below it.
    #[error("{}", self.describe(&|_| None))]
    TooManyPlayers {
        seq: u64,
        date: NaiveDate,
        id: PlayerId,
        /// The name the join gives.
        name: String,
    },
}

/// The most players a ladder holds. A join's id makes room for every id below it (players
/// who join later in replay order), so an id read from a file is bounded here whatever the
/// file's readers checked: a million players, at most a few hundred megabytes.
pub const MAX_PLAYERS: usize = 1 << 20;

impl ReplayError {
    /// The event the error is about.
    pub fn seq(&self) -> u64 {
        match self {
            ReplayError::UnknownPlayer { seq, .. }
            | ReplayError::DuplicatePlayer { seq, .. }
            | ReplayError::EmptySide { seq, .. }
            | ReplayError::PlayerTwice { seq, .. }
            | ReplayError::NameTaken { seq, .. }
            | ReplayError::TooManyPlayers { seq, .. } => *seq,
        }
    }

    /// The message, with players called by `name` where it knows them.
    pub fn describe(&self, name: &dyn Fn(PlayerId) -> Option<String>) -> String {
        let who = |id: PlayerId| name(id).unwrap_or_else(|| format!("player #{id}"));
        match self {
            ReplayError::UnknownPlayer { seq, date, id } => format!(
                "event {seq} on {date}: {} has not joined the ladder by that date \
                 (a player added with a date joins on it; enter the match on or after it, \
                 or correct the join)",
                who(*id)
            ),
            ReplayError::DuplicatePlayer { seq, date, id } => {
                format!("event {seq} on {date}: {} joins a second time", who(*id))
            }
            ReplayError::EmptySide { seq, date } => {
                format!("event {seq} on {date}: a side of the match has no players")
            }
            ReplayError::PlayerTwice {
                seq,
                date,
                id,
                name: then,
            } => {
                let who = name(*id).unwrap_or_else(|| crate::values::shown(then).into_owned());
                format!("event {seq} on {date}: {who} is in the match twice")
            }
            ReplayError::NameTaken {
                seq,
                date,
                id,
                name,
                holder,
                joining,
            } => format!(
                "event {seq} on {date}: {} cannot {} `{}` then: the player now called {} \
                 holds that name on that date (names compare without regard to case, spacing \
                 or Unicode form); {}",
                who(*id),
                if *joining { "join as" } else { "be renamed" },
                crate::values::shown(name),
                who(*holder),
                if *joining {
                    "choose another name, or date the other player's rename on or before that day"
                } else {
                    "choose another name, or date this rename after the other player's"
                }
            ),
            ReplayError::TooManyPlayers {
                seq,
                date,
                id,
                name,
            } => format!(
                "event {seq} on {date}: {} joins as player number {}; a ladder holds at most \
                 {MAX_PLAYERS} players",
                crate::values::shown(name),
                u64::from(*id) + 1
            ),
        }
    }
}

/// How a match result rates each side: side A's outcome, and whether side A and side B are
/// rated. `None` for a cancelled match, which rates nobody.
///
/// A played match rates both sides. A forfeit follows the INVERSUS ranking notes on abandoned
/// matches, for every system: the side that quit takes a rated loss, rated against its
/// opponent exactly as a played loss would be; for the side left behind the match is
/// cancelled ("you do not get an automatic win"): no rating change, no Rank Points, and no
/// match, win or streak on its record. In a team match every member of the quitting side
/// takes the loss.
pub fn rated_sides(result: MatchResult) -> Option<(Outcome, [bool; 2])> {
    match result {
        MatchResult::Played(o) => Some((o, [true, true])),
        MatchResult::ForfeitA => Some((Outcome::Loss, [true, false])),
        MatchResult::ForfeitB => Some((Outcome::Win, [false, true])),
        MatchResult::Cancelled => None,
    }
}

impl Ladder {
    /// Applies one event dated `date` with sequence number `seq`, appending a history row for
    /// every player it touches. The season calendar's resets that fall since the previous
    /// event apply first.
    pub fn apply(
        &mut self,
        date: NaiveDate,
        seq: u64,
        event: &Event,
        history: &mut Vec<HistoryRow>,
    ) -> Result<(), ReplayError> {
        // The shown figures of a ladder with pooling rules are measured from the pool
        // (`Ladder::centre`): kept from the first event on, so that no row or view counts it.
        self.keep_goals_pool();
        seasons::run_calendar(self, date, history);
        let last_slot = leaderboard::last_slot(self);
        match event {
            Event::Player { id, name, undated } => {
                let i = *id as usize;
                if i >= MAX_PLAYERS {
                    return Err(ReplayError::TooManyPlayers {
                        seq,
                        date,
                        id: *id,
                        name: name.to_string(),
                    });
                }
                if self.players.get(i).is_some_and(|p| p.joined) {
                    return Err(ReplayError::DuplicatePlayer { seq, date, id: *id });
                }
                while self.players.len() <= i {
                    let mut placeholder = PlayerState::new(String::new(), &self.rules);
                    placeholder.joined = false;
                    self.players.push(placeholder);
                }
                self.claim_name(date, seq, *id, name, true)?;
                let mut player = PlayerState::new(name.to_string(), &self.rules);
                player.joined_on = Some(date);
                player.undated = *undated;
                self.players[i] = player;
                self.touch(*id);
                self.record(date, seq, *id, history);
            }
            Event::Rename { id, name } => {
                if !self.players.get(*id as usize).is_some_and(|p| p.joined) {
                    return Err(ReplayError::UnknownPlayer { seq, date, id: *id });
                }
                self.claim_name(date, seq, *id, name, false)?;
                let p = self
                    .players
                    .get_mut(*id as usize)
                    .filter(|p| p.joined)
                    .ok_or(ReplayError::UnknownPlayer { seq, date, id: *id })?;
                p.name = name.to_string();
            }
            Event::Retire { id, retired } => {
                let p = self
                    .players
                    .get_mut(*id as usize)
                    .filter(|p| p.joined)
                    .ok_or(ReplayError::UnknownPlayer { seq, date, id: *id })?;
                p.retired = *retired;
            }
            Event::Match(m) => self.apply_match(date, seq, m, history)?,
            Event::SoftReset => seasons::soft_reset(self, date, seq, history),
            Event::HardReset => seasons::hard_reset(self, date, seq, history),
            Event::Scenario { figures } => self.scenarios.set_override(figures),
            Event::Migration { migration } => {
                for e in &migration.entries {
                    if !self.player(e.player).is_some_and(|p| p.joined) {
                        return Err(ReplayError::UnknownPlayer {
                            seq,
                            date,
                            id: e.player,
                        });
                    }
                }
                for e in &migration.entries {
                    self.touch(e.player);
                }
                seasons::migrate(self, migration, date, seq, history)
            }
            Event::Rules { rules } => self.change_rules((**rules).clone(), date, seq, history),
            // Pairings rate nobody: `ladder::rounds` reads them from the log.
            Event::Round { .. } | Event::PairRule { .. } => {}
            // The club formats rate nobody: `ladder::formats` reads them from the log.
            Event::ChallengeLadder { .. }
            | Event::Challenge { .. }
            | Event::ChallengePlace { .. }
            | Event::BoxPeriod { .. }
            | Event::BoxWithdraw { .. }
            | Event::BoxJoin { .. } => {}
            // The calendar's resets due by its date ran above; it does nothing more.
            Event::DueResets => {}
        }
        // Grandweaver slots as they stand after the event (a reset finds them itself).
        match event {
            Event::Match(m) => match (&*m.a, &*m.b) {
                // A 1v1 match, the common event, names its two players without a list.
                ([a], [b]) => leaderboard::track(self, &[*a, *b], last_slot),
                _ => {
                    let ids: Vec<PlayerId> = m.a.iter().chain(m.b.iter()).copied().collect();
                    leaderboard::track(self, &ids, last_slot);
                }
            },
            Event::Player { id, .. } | Event::Retire { id, .. } => {
                leaderboard::track(self, &[*id], last_slot)
            }
            Event::Migration { .. } | Event::Rules { .. } => {
                // (Ratings changed wholesale: the goals pool was counted afresh before the
                // event's rows were written.)
                leaderboard::rescan(self);
            }
            Event::Rename { .. }
            | Event::Scenario { .. }
            | Event::SoftReset
            | Event::HardReset
            | Event::DueResets
            | Event::Round { .. }
            | Event::PairRule { .. }
            | Event::ChallengeLadder { .. }
            | Event::Challenge { .. }
            | Event::ChallengePlace { .. }
            | Event::BoxPeriod { .. }
            | Event::BoxWithdraw { .. }
            | Event::BoxJoin { .. } => {}
        }
        // What moves RP opens the week a hard reset then closes (a soft reset closed it, a
        // hard reset starts a new one).
        match event {
            Event::Match(m) if rated_sides(m.result).is_some() => self.week_open = Some(true),
            Event::Migration { .. } | Event::Rules { .. } => self.week_open = Some(true),
            Event::SoftReset | Event::HardReset => self.week_open = Some(false),
            _ => {}
        }
        self.events += 1;
        self.last_date = Some(self.last_date.map_or(date, |last| last.max(date)));
        Ok(())
    }

    /// Gives `name` to player `id` (`joining`, or renamed), unless another holds it then.
    fn claim_name(
        &mut self,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        name: &str,
        joining: bool,
    ) -> Result<(), ReplayError> {
        self.names
            .claim(&self.players, seq, id, name)
            .map_err(|holder| ReplayError::NameTaken {
                seq,
                date,
                id,
                name: name.to_string(),
                holder,
                joining,
            })
    }

    fn check_match(&self, date: NaiveDate, seq: u64, m: &Match) -> Result<(), ReplayError> {
        if m.a.is_empty() || m.b.is_empty() {
            return Err(ReplayError::EmptySide { seq, date });
        }
        for (i, id) in m.a.iter().chain(m.b.iter()).enumerate() {
            if !self.players.get(*id as usize).is_some_and(|p| p.joined) {
                return Err(ReplayError::UnknownPlayer { seq, date, id: *id });
            }
            if m.a
                .iter()
                .chain(m.b.iter())
                .skip(i + 1)
                .any(|other| other == id)
            {
                return Err(ReplayError::PlayerTwice {
                    seq,
                    date,
                    id: *id,
                    name: self
                        .players
                        .get(*id as usize)
                        .map_or_else(|| format!("player #{id}"), |p| p.name.clone()),
                });
            }
        }
        Ok(())
    }

    fn apply_match(
        &mut self,
        date: NaiveDate,
        seq: u64,
        m: &Match,
        history: &mut Vec<HistoryRow>,
    ) -> Result<(), ReplayError> {
        self.check_match(date, seq, m)?;
        let Some((outcome, rated)) = rated_sides(m.result) else {
            return Ok(()); // cancelled: kept in the log, changes nothing
        };
        self.keep_goals_pool();
        if let ([a], [b]) = (&*m.a, &*m.b) {
            self.apply_duel(date, seq, m, [*a, *b], outcome, rated, history);
            return Ok(());
        }
        let entrants = self.entrants(m, outcome, date);
        let scenario = self.scenarios.lookup(m);
        // AllegSkill's constants once per match: deriving ε from a draw rate inverts Φ.
        let trueskill = self.trueskill().unwrap_or_default();
        let mut periods = Vec::new();
        let updates: Vec<(PlayerId, Skill, Skill, Outcome)> = entrants
            .iter()
            .filter(|e| rated[if e.on_a { 0 } else { 1 }])
            .map(|e| {
                let after = match self.period_update(e, None, date, &mut ()) {
                    Some((after, period)) => {
                        periods.push((e.id, period));
                        after
                    }
                    None => self.rate(e, m, scenario.as_ref(), &trueskill),
                };
                (e.id, e.skill, after, e.outcome)
            })
            .collect();
        // The shown scores before and after the whole match: under pooling rules each
        // update moves the pool every figure is measured from (`Ladder::centre`).
        let centre = self.centre();
        let scores_before: Vec<f64> = updates
            .iter()
            .map(|u| self.players[u.0 as usize].figures_at(centre).score)
            .collect();
        for &(id, before, after, outcome) in &updates {
            let opponent = entrants
                .iter()
                .find(|e| e.id == id)
                .map_or(before, |e| e.opponent);
            self.settle(id, before, after, opponent, outcome, date);
        }
        self.keep_periods(periods);
        let centre = self.centre();
        for (u, score_before) in updates.iter().zip(scores_before) {
            let p = &mut self.players[u.0 as usize];
            p.last_change = p.figures_at(centre).score - score_before;
            self.record(date, seq, u.0, history);
        }
        // An abandoned battle says nothing about the scenario's balance or its medal scores,
        // nor about how often games are drawn.
        if let MatchResult::Played(o) = m.result {
            self.scenarios.record(m, outcome);
            if let Some(r) = &mut self.results {
                r.played += 1;
                r.drawn += u64::from(o == Outcome::Draw);
            }
        }
        Ok(())
    }

    /// [`apply_match`](Self::apply_match) for a checked 1v1 match that rates somebody,
    /// without its lists: the same updates in the same order (A rated, then B, each against
    /// the other's skill going in), so the same figures to the bit.
    #[allow(clippy::too_many_arguments)]
    fn apply_duel(
        &mut self,
        date: NaiveDate,
        seq: u64,
        m: &Match,
        [a, b]: [PlayerId; 2],
        outcome: Outcome,
        rated: [bool; 2],
        history: &mut Vec<HistoryRow>,
    ) {
        let (skill_a, skill_b) = (self.skill_going_in(a, date), self.skill_going_in(b, date));
        let advantage = self.rules.advantage_native() * m.advantage_sign();
        let entrants = entrant::duel([a, b], [skill_a, skill_b], outcome, advantage);
        let scenario = self.scenarios.lookup(m);
        let trueskill = self.trueskill().unwrap_or_default();
        let mut after = entrant::rate_duel(
            &self.rules,
            &entrants,
            rated,
            m,
            scenario.as_ref(),
            &trueskill,
            self.goals_level(),
        );
        // Under rating periods each side's update is its period's so far, both worked out
        // before either is stored.
        let mut periods = Vec::new();
        if self.rules.rating_period_days().is_some() {
            for (k, e) in entrants.iter().enumerate() {
                if after[k].is_none() {
                    continue;
                }
                let opponent = entrants[1 - k].id;
                if let Some((skill, period)) = self.period_update(e, Some(opponent), date, &mut ())
                {
                    after[k] = Some(skill);
                    periods.push((e.id, period));
                }
            }
        }
        // As in `apply_match`: the shown scores before and after the whole match.
        let centre = self.centre();
        let scores_before = entrants
            .each_ref()
            .map(|e| self.players[e.id as usize].figures_at(centre).score);
        for (e, after) in entrants.iter().zip(after) {
            if let Some(after) = after {
                self.settle(e.id, e.skill, after, e.opponent, e.outcome, date);
            }
        }
        self.keep_periods(periods);
        let centre = self.centre();
        for ((e, after), score_before) in entrants.iter().zip(after).zip(scores_before) {
            if after.is_none() {
                continue;
            }
            let p = &mut self.players[e.id as usize];
            p.last_change = p.figures_at(centre).score - score_before;
            self.record(date, seq, e.id, history);
        }
        if let MatchResult::Played(o) = m.result {
            self.scenarios.record(m, outcome);
            if let Some(r) = &mut self.results {
                r.played += 1;
                r.drawn += u64::from(o == Outcome::Draw);
            }
        }
    }

    /// A player's skill going into a match on `date`: under INVERSUS, the inactivity since
    /// their previous match is applied first as a partial rating period (the INVERSUS ranking
    /// notes); under Skyweaver with a `c_per_day`, RD grows by eq. 1 over the idle days. Only a
    /// rated player keeps it (`settle` stores the new skill and the date); the player left
    /// behind by a forfeit is only looked at, so their idle time still counts at their next
    /// match. Prediction looks through here too, so a match is predicted from the skills that
    /// rate it.
    pub fn skill_going_in(&self, id: PlayerId, date: NaiveDate) -> Skill {
        let player = &self.players[id as usize];
        match player.last_played {
            Some(last) => {
                let days = (date - last).num_days().max(0) as f64;
                entrant::after_idle(&self.rules.params, player.skill, days)
            }
            None => player.skill,
        }
    }

    /// Under rules with rating periods, entrant `e`'s skill after this game of its period
    /// ([`periods::rate_game`]) and the period as it then stands; `opponent` is the player a
    /// 1v1 match faces, whose skill at the period's start the game is scored against (a team
    /// match's virtual opponent is made from the skills going in). `None` under per-match
    /// rating.
    pub(crate) fn period_update<T: Trace + ?Sized>(
        &self,
        e: &Entrant,
        opponent: Option<PlayerId>,
        date: NaiveDate,
        trace: &mut T,
    ) -> Option<(Skill, RatingPeriod)> {
        let days = self.rules.rating_period_days()?;
        let index = periods::period_index(date, days);
        let own = &self.players[e.id as usize];
        let opponent_start = match opponent.and_then(|o| self.players.get(o as usize)) {
            Some(p) => periods::start_of(p.period.as_deref(), p.skill, e.opponent, index),
            None => e.opponent,
        };
        periods::rate_game(
            &self.rules,
            own.period.as_deref(),
            own.skill,
            e.skill,
            opponent_start,
            e.outcome.score(),
            index,
            trace,
        )
    }

    /// Stores each player's rating period as their game left it.
    fn keep_periods(&mut self, periods: Vec<(PlayerId, RatingPeriod)>) {
        for (id, period) in periods {
            self.players[id as usize].period = Some(Box::new(period));
        }
    }

    /// Each player of the match with the opponent they are rated against ([`entrant::entrants`]).
    fn entrants(&self, m: &Match, outcome: Outcome, date: NaiveDate) -> Vec<Entrant> {
        let advantage = self.rules.advantage_native() * m.advantage_sign();
        entrant::entrants(&self.rules, m, outcome, advantage, |id| {
            self.skill_going_in(id, date)
        })
    }

    /// The entrant's new skill from one 1v1 update against their opponent ([`entrant::rate`]).
    fn rate(
        &self,
        e: &Entrant,
        m: &Match,
        scenario: Option<&memoir44::Scenario>,
        trueskill: &trueskill::Config,
    ) -> Skill {
        entrant::rate(&self.rules, e, m, scenario, trueskill, self.goals_level())
    }

    /// Stores the new skill and moves the counters and Rank Points.
    fn settle(
        &mut self,
        id: PlayerId,
        before: Skill,
        after: Skill,
        opponent: Skill,
        outcome: Outcome,
        date: NaiveDate,
    ) {
        self.touch(id);
        let stored = self.players[id as usize].skill;
        self.move_goals_pool(&stored, &after);
        let rules = &self.rules;
        let p = &mut self.players[id as usize];
        let won_twice_before = p.streak >= 2;
        p.skill = after;
        // A retired player who plays again is back on the ladder.
        p.retired = false;
        p.matches += 1;
        p.season_matches += 1;
        p.last_played = Some(date);
        match outcome {
            Outcome::Win => {
                p.wins += 1;
                p.streak += 1;
            }
            Outcome::Draw => {
                p.draws += 1;
                p.streak = 0;
            }
            Outcome::Loss => {
                p.losses += 1;
                p.streak = 0;
            }
        }
        match (&rules.params, before, after) {
            (Params::Skyweaver(params), Skill::Glicko(b), Skill::Glicko(a)) => {
                // A newcomer's start is not the match's change ([`glicko::entered`]).
                let b = match opponent {
                    Skill::Glicko(o) => glicko::entered(&b, &o, &params.glicko()),
                    _ => b,
                };
                let bonus = outcome == Outcome::Win && won_twice_before;
                p.rp = skyweaver::next_rp(
                    p.rp,
                    a.rating - b.rating,
                    outcome.score(),
                    bonus,
                    p.floor,
                    params,
                );
                p.floor = p.floor.max(params.tier_minimums.floor_reached(p.rp));
                p.season_peak_rp = p.season_peak_rp.max(p.rp);
            }
            (Params::Inversus(params), Skill::Glicko2(b), Skill::Glicko2(a)) => {
                let opp_mu = match opponent {
                    Skill::Glicko2(o) => o.mu,
                    _ => b.mu,
                };
                p.rp = inversus::next_rp(p.rp, b.mu, &a, opp_mu, outcome, params);
            }
            _ => {}
        }
    }

    /// A `rules` event. Within one system only the parameters change and every figure carries
    /// on. Across systems each rating keeps its place on the 1500 scale with fresh
    /// uncertainty (see [`Skill::convert`]), and Rank Points restart from the new system's
    /// starting value, since RP scales do not correspond.
    fn change_rules(
        &mut self,
        rules: Rules,
        date: NaiveDate,
        seq: u64,
        history: &mut Vec<HistoryRow>,
    ) {
        let same_system = rules.system() == self.rules.system();
        // Within the goals system, rules that start or stop measuring from the pool, or
        // count other sides in it, change every shown strength without a rating moving:
        // the players whose figures change get a row, as a change of system gives everyone.
        let pooled = self.pools_goals() || crate::state::pools_goals(&rules);
        let shown_before: Option<Vec<_>> = (same_system && pooled).then(|| {
            let centre = self.centre();
            self.players.iter().map(|p| p.figures_at(centre)).collect()
        });
        let old_centre = self.centre();
        // The new rules may change what a soft reset does to anyone (a new RD ceiling).
        self.touch_all();
        self.rules = rules;
        if !same_system {
            for p in &mut self.players {
                let fresh = PlayerState::new(String::new(), &self.rules);
                p.skill = p.skill.convert(&self.rules, old_centre);
                p.rp = fresh.rp;
                p.floor = fresh.floor;
                p.season_peak_rp = fresh.season_peak_rp;
                p.season_grandweaver = false;
            }
        }
        // The new rules may count other sides in the pool (a newcomer's variance), or none.
        self.recount_goals_pool_now();
        if !same_system {
            self.record_all(date, seq, history);
        }
        for (id, before) in shown_before.into_iter().flatten().enumerate() {
            self.record_if_changed(date, seq, id as PlayerId, before, history);
        }
    }
}

/// Replays `events` (already in (date, seq) order) from an empty ladder, keeping only the
/// final state: what `rungs replay` and what-if comparisons need, in the least memory.
pub fn replay_state<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
) -> Result<Ladder, ReplayError> {
    let mut ladder = Ladder::new(rules.clone());
    let mut scratch = Vec::new();
    for (date, seq, event) in events {
        ladder.apply(date, seq, event, &mut scratch)?;
        scratch.clear();
    }
    Ok(ladder)
}

/// Replays `events` (already in (date, seq) order) from an empty ladder.
pub fn replay<'a>(
    rules: &Rules,
    events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
) -> Result<(Ladder, Vec<HistoryRow>), ReplayError> {
    let mut ladder = Ladder::new(rules.clone());
    let mut history = Vec::new();
    for (date, seq, event) in events {
        ladder.apply(date, seq, event, &mut history)?;
    }
    Ok((ladder, history))
}
