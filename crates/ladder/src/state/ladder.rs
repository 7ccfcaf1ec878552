//! The whole ladder's state: [`Ladder`], and its parts that are neither players, names nor slots.
use super::archive::SeasonRecord;
use super::names::NameBook;
use super::player::{Centre, Figures, HistoryRow, PlayerState, Skill, pools_goals};
use super::slots::{Bound, Holders, Slots};
use crate::event::PlayerId;
use crate::rules::{Params, Rules};
use crate::scenarios::ScenarioBook;
use chrono::NaiveDate;
use rungs_rating::{goals, trueskill};
use serde::{Deserialize, Serialize};

/// The ladder after some prefix of its log. Two ladders are equal when [`Ladder::same`] says
/// so: every field that is the ladder's value, named one by one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ladder {
    pub rules: Rules,
    pub players: Vec<PlayerState>,
    /// Memoir '44 scenario statistics from the ladder's own history.
    pub scenarios: ScenarioBook,
    /// The current season (from 1) and week within it (from 1).
    pub season: u32,
    pub week: u32,
    /// Finished seasons (Skyweaver), oldest first.
    #[serde(default)]
    pub archive: Vec<SeasonRecord>,
    /// Events applied so far.
    pub events: u64,
    /// The date of the latest event applied: the season calendar's resets after it wait for
    /// the next event (`seasons::run_calendar`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_date: Option<NaiveDate>,
    /// Played matches so far and how many were draws: the rate AllegSkill's
    /// `draw_rate=observed` derives ε from. `None` in caches an older rungs wrote, which did
    /// not count them: the store then replays the log at the next change instead of going on
    /// from those caches (and a check does not hold the missing count against them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Results>,
    /// Whether a match, a migration or a rules change has moved the ladder since the week
    /// began (the last soft reset, or the season's start): a hard reset then closes that
    /// final week into the season's end-of-week RP, as a soft reset would have. `None` in
    /// caches an older rungs wrote, which did not keep it: the store then replays the log at
    /// the next change, as for `results`.
    #[serde(default)]
    pub week_open: Option<bool>,
    /// Skyweaver's Grandweaver slots as the replay goes (`leaderboard.rs`).
    #[serde(default, skip_serializing_if = "Slots::is_unknown")]
    pub slots: Slots,
    /// Who holds each name as the replay goes (not stored: rebuilt when first needed).
    #[serde(skip)]
    pub names: NameBook,
    /// The players a soft reset may change (not stored: rebuilt when first needed).
    #[serde(skip)]
    pub watch: Watch,
    /// Whether only some players are loaded (the store's fast path), and whether an event
    /// needed the others (not stored).
    #[serde(skip)]
    pub partial: Partial,
    /// The goals system's sums over its rated sides, newcomers' level. Stored with the
    /// caches, so that a ladder going on from them adds to the same sums a fresh replay
    /// has (a recount adds in another order, and may differ in the last bits).
    #[serde(default, skip_serializing_if = "GoalsPool::is_unknown")]
    pub goals_pool: GoalsPool,
}

/// The goals system's [`goals::Pool`] as the replay goes, kept only while the rules start
/// newcomers at the pool's mean (`entry_pool` above 0), so that no other system pays for
/// it: counted afresh at the first match that needs it, then moved by each rated update
/// (O(1)), and forgotten when anything else changes ratings wholesale (a rules change, a
/// migration). Not part of the ladder's value: [`Ladder::same`] passes over it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GoalsPool(pub Option<goals::Pool>);

impl GoalsPool {
    fn is_unknown(&self) -> bool {
        self.0.is_none()
    }
}

/// The players a soft reset may change: under Skyweaver, those at Master or above (caps,
/// Grandweaver slots) or whose RD has not reached its ceiling; every other player's soft
/// reset changes nothing but their end-of-week list, which runs on open
/// (`ladder::weekly`). Built from the players at the first soft reset that needs it, then
/// kept by the events that change players (`Ladder::touch`); a hard reset leaves nobody in
/// it. Not part of the ladder's value: [`Ladder::same`] passes over it.
#[derive(Debug, Clone, Default)]
pub struct Watch(pub(crate) Option<std::collections::BTreeSet<PlayerId>>);

/// A ladder loaded with only some of its players, and whether an event applied to it
/// needed the others (then its caller applies the change to the whole ladder).
/// How the ladder was loaded, not what it is: [`Ladder::same`] passes over it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Partial {
    pub only_some: bool,
    pub needs_all: bool,
}

/// Played matches and draws counted over a whole ladder (a forfeit or a cancelled match is
/// not a played one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub played: u64,
    pub drawn: u64,
}

impl PartialEq for Ladder {
    fn eq(&self, other: &Ladder) -> bool {
        self.same(other)
    }
}

impl Ladder {
    pub fn new(rules: Rules) -> Ladder {
        // Nobody holds a slot on an empty Skyweaver ladder; other systems have none. The
        // empty list holds every contender (there is none), so the replay keeps the slots
        // by their list from the first event: with no bound it found the top N among the
        // holders and the players each event named, after every event, until the first
        // rescan (on a large ladder, for the first 400,000 matches).
        let slots = match rules.params {
            Params::Skyweaver(_) => Slots(Some(Holders {
                bound: Some(Bound::All),
                ..Holders::default()
            })),
            _ => Slots(None),
        };
        Ladder {
            rules,
            players: Vec::new(),
            scenarios: ScenarioBook::default(),
            season: 1,
            week: 1,
            archive: Vec::new(),
            events: 0,
            last_date: None,
            results: Some(Results::default()),
            week_open: Some(false),
            slots,
            names: NameBook::default(),
            watch: Watch::default(),
            partial: Partial::default(),
            goals_pool: GoalsPool::default(),
        }
    }

    /// Whether two ladders are the same ladder: the same players and everything else
    /// [`Ladder::same_but_players`] compares.
    pub fn same(&self, other: &Ladder) -> bool {
        self.players == other.players && self.same_but_players(other)
    }

    /// Whether everything but the players is equal (without copying the season archive).
    /// What is not the ladder's value is named and passed over: the name book, the soft
    /// reset's watch list, how the ladder was loaded, and the goals pool (kept so that sums
    /// go on in one order; a recount may differ in the last bits). A count or a slot list
    /// that one side does not know (caches an older rungs wrote) is not held against it.
    pub fn same_but_players(&self, other: &Ladder) -> bool {
        // Spelled out field by field so that a new field cannot be forgotten here.
        let Ladder {
            rules,
            players: _,
            scenarios,
            season,
            week,
            archive,
            events,
            last_date,
            results,
            week_open,
            slots,
            names: _,
            watch: _,
            partial: _,
            goals_pool: _,
        } = self;
        *rules == other.rules
            && *scenarios == other.scenarios
            && *season == other.season
            && *week == other.week
            // An older rungs' caches (no `week_open`) archived a season the button ended
            // without its final week: their archive is the log's by the rule they kept.
            && (week_open.is_none() || other.week_open.is_none() || *archive == other.archive)
            && *events == other.events
            && *last_date == other.last_date
            && (results.is_none() || other.results.is_none() || *results == other.results)
            && (week_open.is_none() || other.week_open.is_none() || *week_open == other.week_open)
            && slots.same_stored(&other.slots)
    }

    /// A copy of everything but the players and the season archive (what the cache keeps in
    /// the ladder's row).
    pub fn shell(&self) -> Ladder {
        Ladder {
            rules: self.rules.clone(),
            players: Vec::new(),
            scenarios: self.scenarios.clone(),
            season: self.season,
            week: self.week,
            archive: Vec::new(),
            events: self.events,
            last_date: self.last_date,
            results: self.results,
            week_open: self.week_open,
            slots: self.slots.clone(),
            names: NameBook::default(),
            watch: Watch::default(),
            partial: Partial::default(),
            goals_pool: self.goals_pool.clone(),
        }
    }

    /// A copy of everything but the players.
    pub fn clone_without_players(&self) -> Ladder {
        Ladder {
            archive: self.archive.clone(),
            ..self.shell()
        }
    }

    /// AllegSkill's TrueSkill constants for the next match, ε derived from the draw rate
    /// the rules ask for (the ladder's own with `draw_rate=observed`); `None` under another
    /// system.
    pub fn trueskill(&self) -> Option<trueskill::Config> {
        match &self.rules.params {
            Params::Allegskill(p) => {
                let r = self.results.unwrap_or_default();
                Some(p.trueskill_after(r.played, r.drawn))
            }
            _ => None,
        }
    }

    /// The goals system's constants when they start newcomers at the pool's mean.
    fn pooling(&self) -> Option<&goals::Config> {
        match &self.rules.params {
            Params::Goals(p) if pools_goals(&self.rules) => Some(&p.goals),
            _ => None,
        }
    }

    /// Whether the shown figures are measured from the goals pool's mean ([`Centre`]): the
    /// goals system with newcomers at the pool's level.
    pub fn pools_goals(&self) -> bool {
        self.pooling().is_some()
    }

    /// The goals system's pool counted afresh from every player.
    pub fn recount_goals_pool(&self) -> Option<goals::Pool> {
        let config = self.pooling()?;
        let ratings = self.players.iter().filter_map(|p| match &p.skill {
            Skill::Goals(r) => Some(r),
            _ => None,
        });
        Some(goals::Pool::recount(ratings, config))
    }

    /// A newcomer's pool part under the goals system ([`goals::pool_level`]); `None` when
    /// the rules do not ask for it. From the kept pool, else counted afresh.
    pub fn goals_level(&self) -> Option<(f64, f64)> {
        let Params::Goals(p) = &self.rules.params else {
            return None;
        };
        self.pooling()?;
        let pool = match self.goals_pool.0 {
            Some(pool) => pool,
            None => self.recount_goals_pool().unwrap_or_default(),
        };
        goals::pool_level(&pool, p.entry_pool)
    }

    /// Where the shown figures are measured from now ([`Centre`]): the pool's mean under
    /// pooling rules, from the kept pool (O(1)), else counted afresh (O(n): a view that
    /// shows many players asks once).
    pub fn centre(&self) -> Centre {
        if self.pooling().is_none() {
            return Centre::ZERO;
        }
        let pool = match self.goals_pool.0 {
            Some(pool) => pool,
            None => self.recount_goals_pool().unwrap_or_default(),
        };
        let (a, d) = pool.mean();
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        Centre(Some((finite(a), finite(d))))
    }

    /// The figures the ladder shows for `p`, one of its players ([`Ladder::centre`]).
    pub fn figures(&self, p: &PlayerState) -> Figures {
        p.figures_at(self.centre())
    }

    /// The figures the ladder shows for player `id`.
    pub fn figures_of(&self, id: PlayerId) -> Option<Figures> {
        self.player(id).map(|p| self.figures(p))
    }

    /// Ratings changed wholesale (a rules change, a migration): the pool is counted afresh
    /// now, so that the rows the event writes are measured from the pool after it.
    pub(crate) fn recount_goals_pool_now(&mut self) {
        self.goals_pool = GoalsPool::default();
        self.keep_goals_pool();
    }

    /// Before an event or a match: the pool is counted if the rules need it and it is not
    /// kept (a ladder with only some players loaded needs the others for it).
    pub fn keep_goals_pool(&mut self) {
        if self.goals_pool.0.is_some() || self.pooling().is_none() {
            return;
        }
        if self.partial.only_some {
            self.partial.needs_all = true;
        }
        self.goals_pool.0 = self.recount_goals_pool();
    }

    /// A player's stored skill goes from `old` to `new`: the kept pool follows.
    pub(crate) fn move_goals_pool(&mut self, old: &Skill, new: &Skill) {
        let Some(pool) = &mut self.goals_pool.0 else {
            return;
        };
        if let (Params::Goals(p), Skill::Goals(old), Skill::Goals(new)) =
            (&self.rules.params, old, new)
        {
            pool.remove(old, &p.goals);
            pool.add(new, &p.goals);
        }
    }

    pub fn player(&self, id: PlayerId) -> Option<&PlayerState> {
        self.players.get(id as usize)
    }

    pub(crate) fn record(
        &self,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        history: &mut Vec<HistoryRow>,
    ) {
        self.record_at(self.centre(), date, seq, id, history);
    }

    /// [`record`](Self::record) with the centre asked once for many players.
    fn record_at(
        &self,
        centre: Centre,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        history: &mut Vec<HistoryRow>,
    ) {
        if let Some(p) = self.players.get(id as usize).filter(|p| p.joined) {
            history.push(HistoryRow {
                seq,
                date,
                player: id,
                figures: p.figures_at(centre),
            });
        }
    }

    /// Records player `id` if their figures are not `before` (bit for bit): a reset writes
    /// a history row only for the players it changes, so that a history grows with what
    /// happens to its player, not with the calendar.
    pub(crate) fn record_if_changed(
        &self,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        before: Figures,
        history: &mut Vec<HistoryRow>,
    ) {
        if let Some(p) = self.players.get(id as usize)
            && !self.figures(p).same_bits(&before)
        {
            self.record(date, seq, id, history);
        }
    }

    /// Player `id` is about to change: their end-of-week list stops running on, and the next
    /// soft reset looks at them ([`Watch`]).
    pub(crate) fn touch(&mut self, id: PlayerId) {
        let week = self.week;
        if let Some(p) = self.players.get_mut(id as usize) {
            p.season_weekly.close(week);
        }
        if let Some(set) = &mut self.watch.0 {
            set.insert(id);
        }
    }

    /// Every player may change (a rules change): every list stops running on, and the next
    /// soft reset finds its players afresh.
    pub(crate) fn touch_all(&mut self) {
        let week = self.week;
        for p in &mut self.players {
            p.season_weekly.close(week);
        }
        self.watch = Watch::default();
    }

    pub(crate) fn record_all(&self, date: NaiveDate, seq: u64, history: &mut Vec<HistoryRow>) {
        let centre = self.centre();
        for id in 0..self.players.len() as PlayerId {
            self.record_at(centre, date, seq, id, history);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::System;

    /// The stored Grandweaver holders are part of the ladder's value: two ladders that differ
    /// only in who holds a slot are two ladders. What a replay keeps beside the holders (how
    /// far down it has looked) is not.
    #[test]
    fn ladders_differing_only_in_their_slots_are_unequal() {
        let with_holders = |holders: Vec<PlayerId>| {
            let mut ladder = Ladder::new(Rules::defaults(System::Skyweaver));
            if let Some(h) = ladder.slots.0.as_mut() {
                h.holders = holders;
            }
            ladder
        };
        assert_eq!(with_holders(vec![0, 1]), with_holders(vec![0, 1]));
        assert_ne!(with_holders(vec![0, 1]), with_holders(vec![1, 0]));
        assert_ne!(with_holders(vec![0]), with_holders(vec![]));
        let mut looked_further = with_holders(vec![0, 1]);
        if let Some(h) = looked_further.slots.0.as_mut() {
            h.reserve = vec![2, 3];
            h.bound = None;
        }
        assert_eq!(looked_further, with_holders(vec![0, 1]));
        let mut later = with_holders(vec![0, 1]);
        if let Some(h) = later.slots.0.as_mut() {
            h.latest = NaiveDate::from_ymd_opt(2026, 3, 1);
        }
        assert_ne!(later, with_holders(vec![0, 1]));
    }
}
