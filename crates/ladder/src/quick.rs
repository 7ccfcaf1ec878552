//! The prediction-only replay that `evaluate` and `fit` score with, for speed: every match
//! predicted from the skills that rate it and then rated, as [`crate::replay`] does,
//! but holding only what feeds back into a rating — each player's skill and the day they last
//! played, the Memoir '44 scenario book, and the played and drawn counts AllegSkill's observed
//! draw rate reads. Rank Points, tiers, streaks, the Grandweaver slots, names and history rows
//! never change a prediction, so none is kept.
//!
//! A log is indexed once ([`Log::index`]: players checked as joined, days counted) and
//! replayed under as many rules as wanted. What this replay does not cover it refuses, and
//! the caller replays in full: a log with soft or hard resets, migrations or rules changes
//! (each moves ratings relative to the whole ladder), one the full replay would stop with an
//! error (so the error is the full replay's own), and rules with a season calendar
//! ([`Replayer::new`]). The per-match glue below mirrors `Ladder::entrants`, `Ladder::rate`
//! and `Ladder::skill_going_in` around the same `rating::*` functions; the property test
//! `tests/quick_replay.rs` holds every prediction equal to the full replay's, bit for bit.

use crate::entrant::{self, Entrant};
use crate::event::{Event, Match, MatchResult, PlayerId, ScenarioOverride};
use crate::predict::predict_under;
use crate::replay::{MAX_PLAYERS, rated_sides};
use crate::rules::{Params, Rules};
use crate::scenarios::ScenarioBook;
use crate::state::Skill;
use chrono::{Datelike, NaiveDate};
use rungs_rating::{Outcome, Prediction, memoir44, trueskill};

/// What one indexed event does to the ratings.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    Join(PlayerId),
    Match(&'a Match),
    /// A 1v1 match with nothing but a result: `Match::new(a, b, result)`, made as it is
    /// replayed (a store keeps most matches so, 24 bytes each, and need not make them all).
    Plain(PlainMatch),
    Scenario(&'a ScenarioOverride),
}

/// A 1v1 match with nothing but its result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlainMatch {
    pub a: PlayerId,
    pub b: PlayerId,
    pub result: MatchResult,
}

impl PlainMatch {
    /// The match itself, as the log would hand it out.
    pub fn to_match(self) -> Match {
        Match::new(self.a, self.b, self.result)
    }
}

/// An event as the index reads it: one of the log's, or a plain 1v1 match not made yet.
#[derive(Debug, Clone, Copy)]
pub enum Item<'a> {
    Event(&'a Event),
    Plain(PlainMatch),
}

/// One event of the log that matters to predictions.
#[derive(Debug, Clone, Copy)]
pub struct Op<'a> {
    pub date: NaiveDate,
    /// Days from the common era: idle time is a difference of these.
    pub day: i32,
    /// The event's position in the log (for progress).
    pub at: u64,
    pub step: Step<'a>,
}

/// A log indexed for prediction-only replays: the events that matter, in replay order.
#[derive(Debug, Clone, Default)]
pub struct Log<'a> {
    pub ops: Vec<Op<'a>>,
    /// One more than the highest player id that joins.
    pub players: usize,
    /// Events in the log (up to the stop), those skipped included.
    pub events: u64,
}

impl<'a> Log<'a> {
    /// Indexes `events` (in replay order) up to the first dated `stop` or later; `None` if
    /// the log holds what this replay does not cover, or what the full replay would refuse.
    pub fn index(
        events: impl IntoIterator<Item = (NaiveDate, u64, &'a Event)>,
        stop: Option<NaiveDate>,
    ) -> Option<Log<'a>> {
        let events = events.into_iter();
        let room = events.size_hint().1.unwrap_or(0);
        Self::index_items(
            events.map(|(date, _, e)| (date, Item::Event(e))),
            room,
            stop,
        )
    }

    /// [`Log::index`] of events (`room` of them, or about) as the store may hold them: a plain
    /// match without a `Match` made for it.
    pub fn index_items(
        events: impl IntoIterator<Item = (NaiveDate, Item<'a>)>,
        room: usize,
        stop: Option<NaiveDate>,
    ) -> Option<Log<'a>> {
        let mut joined: Vec<bool> = Vec::new();
        let is_in = |joined: &[bool], id: PlayerId| joined.get(id as usize).copied() == Some(true);
        // Room for every event at once (most of a log is matches, each an op), rather than
        // the vector's doublings, each a copy of what it holds.
        let room = room.min(1 << 26);
        let mut log = Log {
            ops: Vec::with_capacity(room),
            ..Log::default()
        };
        for (at, (date, item)) in (0u64..).zip(events) {
            if stop.is_some_and(|s| date >= s) {
                break;
            }
            log.events = at + 1;
            let event = match item {
                Item::Plain(p) => {
                    if p.a == p.b || !is_in(&joined, p.a) || !is_in(&joined, p.b) {
                        return None;
                    }
                    log.ops.push(Op {
                        date,
                        day: date.num_days_from_ce(),
                        at,
                        step: Step::Plain(p),
                    });
                    continue;
                }
                Item::Event(event) => event,
            };
            let step = match event {
                Event::Player { id, .. } => {
                    let i = *id as usize;
                    if i >= MAX_PLAYERS || is_in(&joined, *id) {
                        return None;
                    }
                    if joined.len() <= i {
                        joined.resize(i + 1, false);
                    }
                    joined[i] = true;
                    log.players = log.players.max(i + 1);
                    Step::Join(*id)
                }
                Event::Rename { id, .. } | Event::Retire { id, .. } => {
                    if !is_in(&joined, *id) {
                        return None;
                    }
                    continue;
                }
                Event::Match(m) => {
                    if m.a.is_empty() || m.b.is_empty() {
                        return None;
                    }
                    let sound = match (&m.a[..], &m.b[..]) {
                        ([a], [b]) => a != b && is_in(&joined, *a) && is_in(&joined, *b),
                        _ => {
                            let ids: Vec<PlayerId> =
                                m.a.iter().chain(m.b.iter()).copied().collect();
                            ids.iter()
                                .enumerate()
                                .all(|(k, id)| is_in(&joined, *id) && !ids[k + 1..].contains(id))
                        }
                    };
                    if !sound {
                        return None;
                    }
                    Step::Match(m)
                }
                Event::Scenario { figures } => Step::Scenario(figures),
                Event::Round { .. } | Event::PairRule { .. } => continue,
                // The club formats keep their own tables; they rate nobody.
                Event::ChallengeLadder { .. }
                | Event::Challenge { .. }
                | Event::ChallengePlace { .. }
                | Event::BoxPeriod { .. }
                | Event::BoxWithdraw { .. }
                | Event::BoxJoin { .. } => continue,
                Event::SoftReset
                | Event::HardReset
                | Event::DueResets
                | Event::Migration { .. }
                | Event::Rules { .. } => return None,
            };
            log.ops.push(Op {
                date,
                day: date.num_days_from_ce(),
                at,
                step,
            });
        }
        Some(log)
    }
}

/// No match played yet.
const NEVER: i32 = i32::MIN;

/// The ratings as a prediction-only replay goes.
pub struct Replayer<'r> {
    rules: &'r Rules,
    skills: Vec<Skill>,
    last: Vec<i32>,
    scenarios: ScenarioBook,
    played: u64,
    drawn: u64,
    /// AllegSkill's constants for the next match (they follow the observed draw rate):
    /// worked out once a played match, not once for the prediction and again for the update.
    trueskill: Option<trueskill::Config>,
    /// Side A's advantage at home, in the system's units.
    advantage: f64,
    /// Whether the rules rate by the scenario book (Memoir '44 only): no other system reads
    /// it, so no other keeps it.
    by_scenario: bool,
}

impl<'r> Replayer<'r> {
    /// A replay of `log` under `rules`; `None` for rules with a season calendar or rating
    /// periods, or goals
    /// rules whose newcomers enter at the pool's mean (the full replay keeps that pool).
    pub fn new(rules: &'r Rules, log: &Log<'_>) -> Option<Replayer<'r>> {
        // A season calendar, or rating periods (each game waits on its period's others).
        if rules.calendar.schedule().is_some() || rules.rating_period_days().is_some() {
            return None;
        }
        if matches!(&rules.params, Params::Goals(p) if p.entry_pool > 0.0) {
            return None;
        }
        Some(Replayer {
            rules,
            skills: vec![Skill::initial(rules); log.players],
            last: vec![NEVER; log.players],
            scenarios: ScenarioBook::default(),
            played: 0,
            drawn: 0,
            trueskill: Self::trueskill_after(rules, 0, 0),
            advantage: rules.advantage_native(),
            by_scenario: matches!(rules.params, Params::Memoir44(_)),
        })
    }

    /// Every player's skill as it stands (after their last match, before any idle time).
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// Applies an op that is not a match.
    pub fn apply_other(&mut self, step: Step<'_>) {
        match step {
            Step::Join(id) => {
                self.skills[id as usize] = Skill::initial(self.rules);
                self.last[id as usize] = NEVER;
            }
            Step::Scenario(figures) => self.scenarios.set_override(figures),
            Step::Match(_) | Step::Plain(_) => {}
        }
    }

    /// AllegSkill's constants after `played` matches of which `drawn` were draws.
    fn trueskill_after(rules: &Rules, played: u64, drawn: u64) -> Option<trueskill::Config> {
        match &rules.params {
            Params::Allegskill(p) => Some(p.trueskill_after(played, drawn)),
            _ => None,
        }
    }

    /// Player `id`'s skill going into a match on `day` (`Ladder::skill_going_in`).
    fn going_in(&self, id: PlayerId, day: i32) -> Skill {
        let skill = self.skills[id as usize];
        let last = self.last[id as usize];
        if last == NEVER {
            return skill;
        }
        let days = i64::from(day) - i64::from(last);
        entrant::after_idle(&self.rules.params, skill, days.max(0) as f64)
    }

    fn side(&self, ids: &[PlayerId], day: i32) -> Option<Skill> {
        match ids {
            [one] => Skill::mean(&[self.going_in(*one, day)]),
            _ => {
                let skills: Vec<Skill> = ids.iter().map(|&i| self.going_in(i, day)).collect();
                Skill::mean(&skills)
            }
        }
    }

    /// The skills going into match `m` on `day`: worked out once for the prediction and
    /// the update.
    pub fn going_into(&self, m: &Match, day: i32) -> Going {
        match (&m.a[..], &m.b[..]) {
            ([a], [b]) => Going::Pair(self.going_in(*a, day), self.going_in(*b, day)),
            _ => Going::Teams(day),
        }
    }

    /// The prediction for `m` (`predict::predict_match`).
    pub fn predict(&self, m: &Match, going: &Going) -> Option<Prediction> {
        let advantage = self.advantage * m.advantage_sign();
        let (sa, sb) = match *going {
            Going::Pair(a, b) => (Skill::mean(&[a])?, Skill::mean(&[b])?),
            Going::Teams(day) => (self.side(&m.a, day)?, self.side(&m.b, day)?),
        };
        // No pool here: rules that keep one replay in full (see `new`).
        predict_under(
            &self.rules.params,
            || self.trueskill,
            None,
            sa,
            sb,
            advantage,
        )
    }

    /// Rates match `m` on `day` (`Ladder::apply_match`, ratings only).
    pub fn apply_match(&mut self, m: &Match, day: i32, going: Going) {
        let Some((outcome, rated)) = rated_sides(m.result) else {
            return;
        };
        if let Going::Pair(a, b) = going {
            // One against one, without a list: both updates from the skills before either.
            let advantage = self.advantage * m.advantage_sign();
            let scenario = self.scenario(m);
            let trueskill = self.trueskill.unwrap_or_default();
            let duel = entrant::duel([m.a[0], m.b[0]], [a, b], outcome, advantage);
            let after = entrant::rate_duel(
                self.rules,
                &duel,
                rated,
                m,
                scenario.as_ref(),
                &trueskill,
                None,
            );
            for (e, after) in duel.iter().zip(after) {
                if let Some(after) = after {
                    self.skills[e.id as usize] = after;
                    self.last[e.id as usize] = day;
                }
            }
            self.count(m, outcome);
            return;
        }
        let entrants = self.entrants(m, outcome, day);
        let scenario = self.scenario(m);
        let trueskill = self.trueskill.unwrap_or_default();
        let updates: Vec<(PlayerId, Skill)> = entrants
            .iter()
            .filter(|e| rated[if e.on_a { 0 } else { 1 }])
            .map(|e| (e.id, self.rate(e, m, scenario.as_ref(), &trueskill)))
            .collect();
        for (id, after) in updates {
            self.skills[id as usize] = after;
            self.last[id as usize] = day;
        }
        self.count(m, outcome);
    }

    /// A played match counts for its scenario and for the observed draw rate.
    fn count(&mut self, m: &Match, outcome: Outcome) {
        if let MatchResult::Played(o) = m.result {
            if self.by_scenario {
                self.scenarios.record(m, outcome);
            }
            self.played += 1;
            self.drawn += u64::from(o == Outcome::Draw);
            if self.trueskill.is_some() {
                self.trueskill = Self::trueskill_after(self.rules, self.played, self.drawn);
            }
        }
    }

    /// The scenario `m` is rated under, where the rules rate by scenario.
    fn scenario(&self, m: &Match) -> Option<memoir44::Scenario> {
        if self.by_scenario {
            self.scenarios.lookup(m)
        } else {
            None
        }
    }

    /// Every player of a team match with the virtual opponent they are rated against.
    fn entrants(&self, m: &Match, outcome: Outcome, day: i32) -> Vec<Entrant> {
        let advantage = self.advantage * m.advantage_sign();
        entrant::entrants(self.rules, m, outcome, advantage, |id| {
            self.going_in(id, day)
        })
    }

    /// `Ladder::rate`: the entrant's new skill from one update against their opponent (no
    /// pool: rules that keep one replay in full).
    fn rate(
        &self,
        e: &Entrant,
        m: &Match,
        scenario: Option<&memoir44::Scenario>,
        trueskill: &trueskill::Config,
    ) -> Skill {
        entrant::rate(self.rules, e, m, scenario, trueskill, None)
    }
}

/// The skills going into a match: a pair one against one, else worked out per player.
#[derive(Debug, Clone, Copy)]
pub enum Going {
    Pair(Skill, Skill),
    Teams(i32),
}
