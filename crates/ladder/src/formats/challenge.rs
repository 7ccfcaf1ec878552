//! The challenge ladder as a pure reading of the log in replay order: positions 1..N,
//! challenges and their deadlines, idle drops, and each player's places over time.
//!
//! A challenge is closed by the pair's next match in the log (entered however: the CLI's
//! challenge result, `add-match`, the app, an import), so the match rates under the ladder's
//! system like any other and the ladder's own table follows it. Things fall due by the date:
//! before an event on day D, every challenge whose deadline is before D lapses (or is
//! forfeited to the challenger), and every player whose last match is more than `idle_days`
//! before D drops — deadlines first, by challenge number, then idle drops, top place first.
//! An idle player drops once for each spell without a match.

use super::refusal::Refusal;
use super::settings::{ChallengeSettings, Movement, Newcomers, PlayerId, Unplayed};
use crate::event::{Event, MatchResult};
use chrono::{Days, NaiveDate};
use rungs_rating::Outcome;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};

/// How a challenge closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Closure {
    /// The challenger won the match (or the defender forfeited it).
    ChallengerWon,
    /// The defender won or drew: they keep the place.
    DefenderHeld,
    /// Unplayed by the deadline, under `unplayed: lapse`: nobody moves.
    Lapsed,
    /// Unplayed by the deadline, under `unplayed: forfeit`: the challenger moves as a winner.
    Forfeited,
    /// One of the pair retired.
    Withdrawn,
}

impl Closure {
    pub fn as_text(self) -> &'static str {
        match self {
            Closure::ChallengerWon => "challenger won",
            Closure::DefenderHeld => "defender held",
            Closure::Lapsed => "lapsed",
            Closure::Forfeited => "forfeited to the challenger",
            Closure::Withdrawn => "withdrawn",
        }
    }
}

/// A challenge, open or closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Numbered across the ladder from 1, in log order.
    pub number: u32,
    pub challenger: PlayerId,
    pub defender: PlayerId,
    pub made: NaiveDate,
    /// The last day it may be played on.
    pub deadline: NaiveDate,
    /// The pair's positions when it was made, challenger first.
    pub positions: [u32; 2],
    pub closed: Option<(NaiveDate, Closure)>,
}

/// Why a player's place changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// The ladder started, or the organiser set the order.
    Order,
    /// Joined at the bottom (a newcomer, or back from retirement).
    Joined,
    /// Placed by the organiser or by rating.
    Placed,
    /// The result of challenge `n` (their own, or one that leapfrogged them).
    Challenge(u32),
    /// Dropped for idleness (their own, or someone's dropping past them).
    Idle,
    /// Someone retired above them, or they retired (no position).
    Retired,
}

/// One change of a player's place: from `date`, `position` (none: off the ladder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub date: NaiveDate,
    pub position: Option<u32>,
    pub cause: Cause,
}

/// One row of the positions table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionRow {
    pub position: u32,
    pub player: PlayerId,
    /// The open challenge the player is in, either side.
    pub open: Option<u32>,
    /// The day of their last match, if any.
    pub last_match: Option<NaiveDate>,
}

/// An open challenge as a screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenChallenge {
    pub number: u32,
    pub challenger: PlayerId,
    pub defender: PlayerId,
    pub challenger_position: u32,
    pub defender_position: u32,
    pub made: NaiveDate,
    pub deadline: NaiveDate,
    /// Days from today to the deadline: 0 on the last day.
    pub days_left: i64,
}

/// Something that falls due: a challenge's deadline (before any idle drop of the day), or a
/// player's idle drop (top place first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Deadline(u32),
    Idle(u32, PlayerId),
}

/// The challenge ladder read from the log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChallengeLadder {
    /// Whether the log has started a challenge ladder.
    pub started: bool,
    pub settings: ChallengeSettings,
    /// The players by place: `order[0]` holds place 1.
    order: Vec<PlayerId>,
    challenges: Vec<Challenge>,
    /// The open challenge (its index) of each challenger.
    open_as_challenger: HashMap<PlayerId, usize>,
    /// The day each player was last challenged.
    last_defended: HashMap<PlayerId, NaiveDate>,
    /// The day each pair's last challenge closed, lower id first.
    last_pair: HashMap<(PlayerId, PlayerId), NaiveDate>,
    /// The day each player's idle clock started: their last match or their joining; none
    /// after an idle drop, until their next match.
    idle_since: HashMap<PlayerId, NaiveDate>,
    last_match: HashMap<PlayerId, NaiveDate>,
    /// Newcomers (under `free_challenge`) who have used their challenge to anyone.
    free_used: BTreeSet<PlayerId>,
    known: BTreeSet<PlayerId>,
    retired: BTreeSet<PlayerId>,
    history: BTreeMap<PlayerId, Vec<Place>>,
    /// The day the ladder has been brought up to.
    today: Option<NaiveDate>,
}

fn pair(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    (a.min(b), a.max(b))
}

fn plus(date: NaiveDate, days: u32) -> NaiveDate {
    date.checked_add_days(Days::new(u64::from(days)))
        .unwrap_or(NaiveDate::MAX)
}

impl ChallengeLadder {
    /// The ladder from the log's events in replay order, brought up to `today` (deadlines and
    /// idle drops due by then applied).
    pub fn from_log<'a>(
        events: impl IntoIterator<Item = (NaiveDate, &'a Event)>,
        today: NaiveDate,
    ) -> ChallengeLadder {
        let mut ladder = ChallengeLadder::default();
        for (date, event) in events {
            ladder.read(date, event);
        }
        ladder.advance_to(today);
        ladder
    }

    /// Reads one event on `date`; events come in replay order.
    pub fn read(&mut self, date: NaiveDate, event: &Event) {
        self.advance_to(date);
        match event {
            Event::Player { id, .. } => {
                self.known.insert(*id);
                if self.started && !self.retired.contains(id) {
                    self.join_bottom(*id, date);
                }
            }
            Event::Retire { id, retired } => {
                if *retired {
                    self.retired.insert(*id);
                    self.retire(*id, date);
                } else if self.retired.remove(id) && self.started && self.known.contains(id) {
                    self.join_bottom(*id, date);
                }
            }
            Event::ChallengeLadder { settings, order } => {
                self.settings = (**settings).clone();
                if !self.started || !order.is_empty() {
                    self.start(order, date);
                }
            }
            Event::Challenge {
                challenger,
                defender,
            } if self.check_challenge(*challenger, *defender, date).is_ok() => {
                self.open(*challenger, *defender, date);
            }
            Event::ChallengePlace { player, position }
                if self.started
                    && self.known.contains(player)
                    && !self.retired.contains(player) =>
            {
                self.place(*player, *position, date);
            }
            Event::Match(m) => {
                for id in m.a.iter().chain(m.b.iter()) {
                    // A match brings a retired player back, as it does on the rating ladder.
                    if self.retired.remove(id) && self.started && self.known.contains(id) {
                        self.join_bottom(*id, date);
                    }
                    self.last_match.insert(*id, date);
                    if self.position(*id).is_some() {
                        self.idle_since.insert(*id, date);
                    }
                }
                if let ([a], [b]) = (&m.a[..], &m.b[..]) {
                    self.result(*a, *b, m.result, date);
                }
            }
            _ => {}
        }
    }

    /// Applies what falls due before `date`: lapsed or forfeited challenges, idle drops.
    pub fn advance_to(&mut self, date: NaiveDate) {
        if self.today.is_some_and(|t| t >= date) {
            return;
        }
        self.today = Some(date);
        if !self.started {
            return;
        }
        let mut due: BinaryHeap<Reverse<(NaiveDate, Due)>> = BinaryHeap::new();
        for c in self.challenges.iter().filter(|c| c.closed.is_none()) {
            let at = plus(c.deadline, 1);
            if at <= date {
                due.push(Reverse((at, Due::Deadline(c.number))));
            }
        }
        if let Some(days) = self.settings.idle_days {
            for (i, id) in self.order.iter().enumerate() {
                if let Some(since) = self.idle_since.get(id) {
                    let at = plus(*since, days.saturating_add(1));
                    if at <= date {
                        due.push(Reverse((at, Due::Idle(i as u32, *id))));
                    }
                }
            }
        }
        while let Some(Reverse((at, what))) = due.pop() {
            match what {
                Due::Deadline(number) => self.expire(number, at),
                Due::Idle(_, id) => {
                    let Some(days) = self.settings.idle_days else {
                        continue;
                    };
                    let Some(since) = self.idle_since.get(&id).copied() else {
                        continue;
                    };
                    if plus(since, days.saturating_add(1)) != at || self.position(id).is_none() {
                        continue;
                    }
                    // Once a spell: the clock starts again at the player's next match, so
                    // that a long gap drops each idle player once, not once every few days.
                    self.idle_drop(id, at);
                }
            }
        }
    }

    /// Whether `challenger` may challenge `defender` on `date` (the ladder brought up to that
    /// day), and if not, why.
    pub fn check_challenge(
        &self,
        challenger: PlayerId,
        defender: PlayerId,
        date: NaiveDate,
    ) -> Result<(), Refusal> {
        if !self.started {
            return Err(Refusal::NoChallengeLadder);
        }
        if challenger == defender {
            return Err(Refusal::ToSelf { player: challenger });
        }
        let from = self
            .position(challenger)
            .ok_or(Refusal::NotOnLadder { player: challenger })?;
        let to = self
            .position(defender)
            .ok_or(Refusal::NotOnLadder { player: defender })?;
        if let Some(&i) = self.open_as_challenger.get(&challenger) {
            let c = &self.challenges[i];
            return Err(Refusal::AlreadyOpen {
                challenger,
                number: c.number,
                defender: c.defender,
            });
        }
        if to >= from {
            return Err(Refusal::NotAbove {
                challenger,
                defender,
                challenger_position: from,
                defender_position: to,
            });
        }
        let free = self.settings.newcomers == Newcomers::FreeChallenge
            && !self.free_used.contains(&challenger)
            && !self.challenges.iter().any(|c| c.challenger == challenger);
        if from - to > self.settings.reach && !free {
            return Err(Refusal::BeyondReach {
                challenger,
                defender,
                challenger_position: from,
                defender_position: to,
                reach: self.settings.reach,
            });
        }
        if let Some(last) = self.last_defended.get(&defender).copied() {
            let again = plus(last, self.settings.defend_days);
            if date < again {
                return Err(Refusal::DefenderCooldown {
                    defender,
                    last,
                    from: again,
                });
            }
        }
        if let Some(last) = self.last_pair.get(&pair(challenger, defender)).copied() {
            let again = plus(last, self.settings.rematch_days);
            if date < again {
                return Err(Refusal::Rematch {
                    a: challenger,
                    b: defender,
                    last,
                    from: again,
                });
            }
        }
        Ok(())
    }

    /// Whether a match between `a` and `b` on `date` may be entered as challenge `number`'s
    /// result.
    pub fn check_result(
        &self,
        number: u32,
        a: PlayerId,
        b: PlayerId,
        date: NaiveDate,
    ) -> Result<&Challenge, Refusal> {
        let c = self
            .challenge(number)
            .ok_or(Refusal::NoSuchChallenge { number })?;
        if let Some((closed, _)) = c.closed {
            return Err(Refusal::ChallengeClosed {
                number,
                challenger: c.challenger,
                defender: c.defender,
                closed,
            });
        }
        if pair(a, b) != pair(c.challenger, c.defender) {
            return Err(Refusal::NoSuchChallenge { number });
        }
        if date < c.made || date > c.deadline {
            return Err(Refusal::OutsideChallenge {
                number,
                date,
                made: c.made,
                deadline: c.deadline,
            });
        }
        Ok(c)
    }

    /// The player's place (from 1), if they hold one.
    pub fn position(&self, player: PlayerId) -> Option<u32> {
        self.order
            .iter()
            .position(|p| *p == player)
            .map(|i| i as u32 + 1)
    }

    /// The players by place, first place first.
    pub fn order(&self) -> &[PlayerId] {
        &self.order
    }

    /// The positions table, first place first.
    pub fn positions(&self) -> Vec<PositionRow> {
        let mut open: HashMap<PlayerId, u32> = HashMap::new();
        for c in self.challenges.iter().filter(|c| c.closed.is_none()) {
            open.insert(c.challenger, c.number);
            open.entry(c.defender).or_insert(c.number);
        }
        self.order
            .iter()
            .enumerate()
            .map(|(i, p)| PositionRow {
                position: i as u32 + 1,
                player: *p,
                open: open.get(p).copied(),
                last_match: self.last_match.get(p).copied(),
            })
            .collect()
    }

    /// The open challenges with their days left as of `today`, oldest first.
    pub fn open_challenges(&self, today: NaiveDate) -> Vec<OpenChallenge> {
        self.challenges
            .iter()
            .filter(|c| c.closed.is_none())
            .map(|c| OpenChallenge {
                number: c.number,
                challenger: c.challenger,
                defender: c.defender,
                challenger_position: self.position(c.challenger).unwrap_or(0),
                defender_position: self.position(c.defender).unwrap_or(0),
                made: c.made,
                deadline: c.deadline,
                days_left: (c.deadline - today).num_days(),
            })
            .collect()
    }

    /// Every challenge, open or closed, by number.
    pub fn challenges(&self) -> &[Challenge] {
        &self.challenges
    }

    pub fn challenge(&self, number: u32) -> Option<&Challenge> {
        let i = usize::try_from(number).ok()?.checked_sub(1)?;
        self.challenges.get(i)
    }

    /// The number the next challenge takes.
    pub fn next_number(&self) -> u32 {
        self.challenges.len() as u32 + 1
    }

    /// The player's places over time, oldest first.
    pub fn history(&self, player: PlayerId) -> &[Place] {
        self.history.get(&player).map_or(&[], Vec::as_slice)
    }

    fn record(&mut self, player: PlayerId, date: NaiveDate, cause: Cause) {
        let position = self.position(player);
        self.history.entry(player).or_default().push(Place {
            date,
            position,
            cause,
        });
    }

    /// Records the places from index `from` to `to` (inclusive), after a move among them.
    fn record_range(&mut self, from: usize, to: usize, date: NaiveDate, cause: Cause) {
        for i in from..=to.min(self.order.len().saturating_sub(1)) {
            let player = self.order[i];
            self.history.entry(player).or_default().push(Place {
                date,
                position: Some(i as u32 + 1),
                cause,
            });
        }
    }

    fn start(&mut self, order: &[PlayerId], date: NaiveDate) {
        self.started = true;
        let mut seen = BTreeSet::new();
        let mut new: Vec<PlayerId> = Vec::new();
        for p in order {
            if self.known.contains(p) && !self.retired.contains(p) && seen.insert(*p) {
                new.push(*p);
            }
        }
        for p in self.order.iter().chain(self.known.iter()) {
            if !self.retired.contains(p) && seen.insert(*p) {
                new.push(*p);
            }
        }
        self.order = new;
        for p in self.order.clone() {
            self.idle_since.entry(p).or_insert(date);
        }
        self.record_range(0, self.order.len().saturating_sub(1), date, Cause::Order);
    }

    fn join_bottom(&mut self, player: PlayerId, date: NaiveDate) {
        if self.position(player).is_some() {
            return;
        }
        self.order.push(player);
        self.idle_since.insert(player, date);
        self.record(player, date, Cause::Joined);
    }

    fn place(&mut self, player: PlayerId, position: u32, date: NaiveDate) {
        let from = self.order.iter().position(|p| *p == player);
        if let Some(i) = from {
            self.order.remove(i);
        }
        let to = (position.max(1) as usize - 1).min(self.order.len());
        self.order.insert(to, player);
        self.idle_since.entry(player).or_insert(date);
        let last = from.unwrap_or(self.order.len() - 1);
        self.record_range(to.min(last), to.max(last), date, Cause::Placed);
    }

    fn retire(&mut self, player: PlayerId, date: NaiveDate) {
        let open: Vec<usize> = (0..self.challenges.len())
            .filter(|i| {
                let c = &self.challenges[*i];
                c.closed.is_none() && (c.challenger == player || c.defender == player)
            })
            .collect();
        for i in open {
            self.close(i, date, Closure::Withdrawn);
        }
        if let Some(i) = self.order.iter().position(|p| *p == player) {
            self.order.remove(i);
            self.record(player, date, Cause::Retired);
            if i < self.order.len() {
                self.record_range(i, self.order.len() - 1, date, Cause::Retired);
            }
        }
    }

    fn open(&mut self, challenger: PlayerId, defender: PlayerId, date: NaiveDate) {
        let number = self.next_number();
        let positions = [
            self.position(challenger).unwrap_or(0),
            self.position(defender).unwrap_or(0),
        ];
        if self.settings.newcomers == Newcomers::FreeChallenge {
            self.free_used.insert(challenger);
        }
        self.challenges.push(Challenge {
            number,
            challenger,
            defender,
            made: date,
            deadline: plus(date, self.settings.respond_days),
            positions,
            closed: None,
        });
        self.open_as_challenger
            .insert(challenger, self.challenges.len() - 1);
        self.last_defended.insert(defender, date);
    }

    /// A match between `a` and `b`: the result of their open challenge, if they have one.
    fn result(&mut self, a: PlayerId, b: PlayerId, result: MatchResult, date: NaiveDate) {
        let found = [a, b].iter().find_map(|p| {
            let &i = self.open_as_challenger.get(p)?;
            let c = &self.challenges[i];
            (pair(c.challenger, c.defender) == pair(a, b) && date >= c.made).then_some(i)
        });
        let Some(i) = found else { return };
        let seen = if self.challenges[i].challenger == a {
            result
        } else {
            result.flipped()
        };
        let closure = match seen {
            MatchResult::Cancelled => return,
            MatchResult::Played(Outcome::Win) | MatchResult::ForfeitB => Closure::ChallengerWon,
            _ => Closure::DefenderHeld,
        };
        self.close(i, date, closure);
    }

    fn expire(&mut self, number: u32, date: NaiveDate) {
        let i = number as usize - 1;
        if self.challenges[i].closed.is_some() {
            return;
        }
        let closure = match self.settings.unplayed {
            Unplayed::Lapse => Closure::Lapsed,
            Unplayed::Forfeit => Closure::Forfeited,
        };
        self.close(i, date, closure);
    }

    fn close(&mut self, i: usize, date: NaiveDate, closure: Closure) {
        let c = &mut self.challenges[i];
        c.closed = Some((date, closure));
        let (number, challenger, defender) = (c.number, c.challenger, c.defender);
        if self.open_as_challenger.get(&challenger) == Some(&i) {
            self.open_as_challenger.remove(&challenger);
        }
        self.last_pair.insert(pair(challenger, defender), date);
        if matches!(closure, Closure::ChallengerWon | Closure::Forfeited) {
            self.promote(challenger, defender, date, number);
        }
    }

    /// The challenger beat the defender: leapfrog or swap, if the challenger is still below.
    fn promote(&mut self, challenger: PlayerId, defender: PlayerId, date: NaiveDate, n: u32) {
        let (Some(from), Some(to)) = (
            self.order.iter().position(|p| *p == challenger),
            self.order.iter().position(|p| *p == defender),
        ) else {
            return;
        };
        if from <= to {
            return;
        }
        match self.settings.movement {
            Movement::Leapfrog => {
                self.order.remove(from);
                self.order.insert(to, challenger);
                self.record_range(to, from, date, Cause::Challenge(n));
            }
            Movement::Swap => {
                self.order.swap(from, to);
                self.record(challenger, date, Cause::Challenge(n));
                self.record(defender, date, Cause::Challenge(n));
            }
        }
    }

    fn idle_drop(&mut self, player: PlayerId, date: NaiveDate) {
        self.idle_since.remove(&player);
        let Some(from) = self.order.iter().position(|p| *p == player) else {
            return;
        };
        let to = (from + self.settings.idle_drop as usize).min(self.order.len() - 1);
        if to == from {
            return;
        }
        self.order.remove(from);
        self.order.insert(to, player);
        self.record_range(from, to, date, Cause::Idle);
    }
}
