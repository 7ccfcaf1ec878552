//! The club formats through the gate: a challenge ladder started or its rules changed, a
//! challenge made, a challenge's result, a player placed; a box league started, a box result,
//! a withdrawal, a newcomer, a period closed into the next. Each is one undoable action; the
//! formats as the log holds them come in as [`Formats`] ([`formats`] reads them).
//!
//! A challenge's or a box's result is a plain match (it rates under the ladder's system); the
//! format's table takes it as the pair's next match, so these actions check that it will.

use super::{Action, ActionError, Context, Kind};
use chrono::{Days, NaiveDate};
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::formats::boxes::{BoxLeague, NextPeriod, fill_boxes};
use rungs_ladder::formats::challenge::ChallengeLadder;
use rungs_ladder::formats::refusal::Refusal;
use rungs_ladder::formats::settings::{BoxPeriodRecord, BoxSettings, ChallengeSettings};
use rungs_ladder::replay::Ladder;
use rungs_rating::Outcome;
use rungs_store::Store;

/// The challenge ladder and the box league as the log holds them on a day.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Formats {
    pub challenge: ChallengeLadder,
    pub boxes: BoxLeague,
    /// The day they were read up to.
    pub on: Option<NaiveDate>,
}

/// The formats of the ladder in `store` from the events dated up to `on` (what an action dated
/// `on` is checked against), with the deadlines and idle drops due by then applied.
pub fn formats(store: &Store, on: NaiveDate) -> Result<Formats, ActionError> {
    let mut f = Formats {
        on: Some(on),
        ..Formats::default()
    };
    // Events come in date order: the first one after `on` ends the reading.
    let _stopped_at_on = store
        .for_each_event(|date, _, event| {
            if date > on {
                return Err(());
            }
            f.challenge.read(date, event);
            f.boxes.read(date, event);
            Ok(())
        })
        .map_err(ActionError::Store)?;
    f.challenge.advance_to(on);
    Ok(f)
}

/// The last day of the period after one from `from` to `to`, starting `start`: whole calendar
/// months when the period was whole months (March → April, not 31 days), else as many days.
fn following_end(from: NaiveDate, to: NaiveDate, start: NaiveDate) -> NaiveDate {
    use chrono::{Datelike, Months};
    let day_after = to.checked_add_days(Days::new(1));
    let months = (to.year() - from.year()) * 12 + to.month() as i32 - from.month() as i32 + 1;
    if from.day() == 1 && day_after.is_some_and(|d| d.day() == 1) && start.day() == 1 {
        let end = start
            .checked_add_months(Months::new(months.max(1) as u32))
            .and_then(|d| d.checked_sub_days(Days::new(1)));
        if let Some(end) = end {
            return end;
        }
    }
    let days = (to - from).num_days().max(0) as u64;
    start.checked_add_days(Days::new(days)).unwrap_or(start)
}

/// The season of the ladder's calendar that `on` falls in, first and last day: refused in
/// words when the calendar is manual (it has no seasons to follow).
pub fn season_dates(
    ctx: &Context<'_>,
    on: NaiveDate,
) -> Result<(NaiveDate, NaiveDate), ActionError> {
    let schedule = ctx.ladder().rules.calendar.schedule().ok_or_else(|| {
        ActionError::refused(
            &ctx.at,
            "box periods can follow the ladder's seasons only when its calendar schedules \
             them, and this ladder's calendar is manual (resets by hand only): give the \
             period's first and last days instead, or give the ladder a season calendar first",
        )
    })?;
    use rungs_ladder::values::Day;
    schedule
        .season_of(on)
        .filter(|(first, last)| Day::new(*first).is_ok() && Day::new(*last).is_ok())
        .ok_or_else(|| {
            ActionError::invalid(
                &ctx.at,
                "start",
                &on.to_string(),
                "has no whole season of the ladder's calendar between 0001-01-01 and 9999-12-31",
            )
        })
}

/// The ladder's rating of a player on the 1500 scale, for the rating tie-break and placing by
/// rating; none for a player not (or no longer) on it.
pub fn rating(ladder: &Ladder, id: PlayerId) -> Option<f64> {
    ladder
        .player(id)
        .filter(|p| p.joined)
        .map(|p| p.skill.rating_1500())
        .filter(|r| r.is_finite())
}

/// The active players best rated first (join order between equals).
fn by_rating(ladder: &Ladder) -> Vec<PlayerId> {
    let mut ids: Vec<(PlayerId, f64)> = ladder
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.joined && !p.retired)
        .map(|(i, p)| (i as PlayerId, p.skill.rating_1500()))
        .collect();
    ids.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    ids.into_iter().map(|x| x.0).collect()
}

impl Context<'_> {
    fn name_of(&self, id: PlayerId) -> String {
        self.roster.name(id).unwrap_or("?").to_string()
    }

    /// A format's refusal in words, its players named.
    fn refusal(&self, r: Refusal) -> ActionError {
        ActionError::refused(&self.at, r.describe(&|id| self.name_of(id)))
    }

    /// Names as typed, each a player of the ladder, each once.
    fn players_in_order(
        &self,
        field: &str,
        names: &[String],
    ) -> Result<Vec<PlayerId>, ActionError> {
        let mut ids = Vec::with_capacity(names.len());
        for n in names {
            let id = self.roster.player(&self.at, field, n)?;
            if ids.contains(&id) {
                return Err(ActionError::invalid(
                    &self.at,
                    field,
                    n,
                    format!("names {} a second time", self.name_of(id)),
                ));
            }
            if self.ladder().player(id).is_some_and(|p| p.retired) {
                return Err(ActionError::refused(
                    &self.at,
                    format!("{} is retired: bring them back first", self.name_of(id)),
                ));
            }
            ids.push(id);
        }
        Ok(ids)
    }

    /// A match from side A's view: a result as typed, a score as typed, or both agreeing; a
    /// score alone decides the result.
    fn result_and_score(
        &self,
        result: Option<&str>,
        score: Option<&str>,
    ) -> Result<(MatchResult, Option<[u32; 2]>), ActionError> {
        let goals = super::matches::optional_score(&self.at, score)?;
        let result = match (result.map(str::trim).filter(|t| !t.is_empty()), goals) {
            (Some(t), _) => super::matches::parse_result(&self.at, t)?,
            (None, Some(g)) => MatchResult::Played(rungs_ladder::score::outcome_of(g)),
            (None, None) => {
                return Err(ActionError::refused(
                    &self.at,
                    format!(
                        "the result is missing: give one ({}) or the games, such as 3-1",
                        super::matches::ACCEPTED_RESULTS
                    ),
                ));
            }
        };
        Ok((result, goals))
    }

    fn result_rows(
        &self,
        a: PlayerId,
        b: PlayerId,
        result: MatchResult,
        goals: Option<[u32; 2]>,
        date: NaiveDate,
        what: &str,
    ) -> Result<Action, ActionError> {
        let mut m = Match::new(a, b, result);
        m.goals = goals;
        let words = |m: &Match| self.words(&Event::Match(m.clone()));
        super::matches::check_score(&self.at, &m, &words)?;
        self.check_match(&|| self.at.clone(), date, &m)?;
        let label = format!("added {} ({what})", self.words(&Event::Match(m.clone())));
        Action::new(
            Kind::AddMatch,
            label,
            vec![(
                date,
                Entry::Add {
                    event: Event::Match(m),
                },
            )],
        )
    }
}

impl Action {
    /// Starts the challenge ladder under `settings`, in the order `order` names (none: by
    /// rating, best first); once started, changes its rules from `date` (and with an order,
    /// sets the positions to it, everyone not named after them).
    pub fn challenge_ladder(
        ctx: &Context<'_>,
        formats: &Formats,
        settings: ChallengeSettings,
        order: &[String],
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let date = ctx.not_ahead(date)?;
        settings
            .check()
            .map_err(|e| ActionError::invalid(&ctx.at, "settings", "", e))?;
        let mut ids = ctx.players_in_order("order", order)?;
        let started = formats.challenge.started;
        if !started && ids.is_empty() {
            ids = by_rating(ctx.ladder());
        }
        let label = match (started, ids.is_empty()) {
            (false, _) => format!("started the challenge ladder ({} players)", ids.len()),
            (true, true) => "changed the challenge ladder's rules".to_string(),
            (true, false) => format!("set the challenge ladder's order ({} players)", ids.len()),
        };
        Action::new(
            Kind::ChallengeLadder,
            label,
            vec![(
                date,
                Entry::Add {
                    event: Event::ChallengeLadder {
                        settings: Box::new(settings),
                        order: ids,
                    },
                },
            )],
        )
    }

    /// `challenger` challenges `defender` (names as typed) on `date`: refused, naming them,
    /// beyond reach, to oneself, to a retired player, while the challenger has one open, within
    /// a cooldown (with the day it ends). `formats` is the ladder read up to `date`.
    pub fn challenge(
        ctx: &Context<'_>,
        formats: &Formats,
        challenger: &str,
        defender: &str,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let date = ctx.not_ahead(date)?;
        let c = ctx.roster.player(&ctx.at, "challenger", challenger)?;
        let d = ctx.roster.player(&ctx.at, "defender", defender)?;
        formats
            .challenge
            .check_challenge(c, d, date)
            .map_err(|r| ctx.refusal(r))?;
        let event = Event::Challenge {
            challenger: c,
            defender: d,
        };
        let label = format!(
            "{} (challenge {})",
            ctx.words(&event),
            formats.challenge.next_number()
        );
        Action::new(Kind::Challenge, label, vec![(date, Entry::Add { event })])
    }

    /// The result of challenge `number`, from the challenger's view, on `date`: a match
    /// between the pair, refused for a challenge closed already or dated outside its days.
    pub fn challenge_result(
        ctx: &Context<'_>,
        formats: &Formats,
        number: u32,
        result: Option<&str>,
        score: Option<&str>,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let c = formats
            .challenge
            .challenge(number)
            .ok_or_else(|| ctx.refusal(Refusal::NoSuchChallenge { number }))?;
        let (a, b) = (c.challenger, c.defender);
        formats
            .challenge
            .check_result(number, a, b, date)
            .map_err(|r| ctx.refusal(r))?;
        let (result, goals) = ctx.result_and_score(result, score)?;
        if result == MatchResult::Cancelled {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "a cancelled match does not settle challenge {number}; let it lapse, or \
                     enter the result when it is played"
                ),
            ));
        }
        ctx.result_rows(a, b, result, goals, date, &format!("challenge {number}"))
    }

    /// A player put at `position` of the challenge ladder, or where their rating places them
    /// (one below everyone rated higher) when none is given.
    pub fn challenge_place(
        ctx: &Context<'_>,
        formats: &Formats,
        player: &str,
        position: Option<u32>,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let date = ctx.not_ahead(date)?;
        if !formats.challenge.started {
            return Err(ctx.refusal(Refusal::NoChallengeLadder));
        }
        let id = ctx.players_in_order("player", &[player.to_string()])?[0];
        let others = formats.challenge.order().iter().filter(|p| **p != id);
        let count = others.clone().count() as u32;
        let position = match position {
            Some(p) if p == 0 || p > count + 1 => {
                return Err(ActionError::invalid(
                    &ctx.at,
                    "position",
                    &p.to_string(),
                    format!("is not a place from 1 to {}", count + 1),
                ));
            }
            Some(p) => p,
            None => {
                let mine = rating(ctx.ladder(), id).unwrap_or(f64::NEG_INFINITY);
                let above = others
                    .filter(|p| rating(ctx.ladder(), **p).is_some_and(|r| r > mine))
                    .count();
                above as u32 + 1
            }
        };
        let event = Event::ChallengePlace {
            player: id,
            position,
        };
        Action::new(
            Kind::ChallengeLadder,
            ctx.words(&event),
            vec![(date, Entry::Add { event })],
        )
    }

    /// Starts the box league: the first period from `start` to `end`, boxes filled from the
    /// order `order` names (none: by rating, best first). Refused while a period is under way.
    pub fn start_boxes(
        ctx: &Context<'_>,
        formats: &Formats,
        settings: BoxSettings,
        order: &[String],
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Action, ActionError> {
        if formats.boxes.current().is_some() {
            return Err(ActionError::refused(
                &ctx.at,
                "a box period is under way already; close it to start the next",
            ));
        }
        let mut ids = ctx.players_in_order("order", order)?;
        if ids.is_empty() {
            ids = by_rating(ctx.ladder());
        }
        if ids.len() < 2 {
            return Err(ActionError::refused(
                &ctx.at,
                "a box league needs two players at least",
            ));
        }
        if settings.seasons {
            let (first, last) = season_dates(ctx, start)?;
            if (start, end) != (first, last) {
                return Err(ActionError::invalid(
                    &ctx.at,
                    "start",
                    &start.to_string(),
                    format!(
                        "does not start a season: periods that follow the ladder's seasons \
                         run from a season's first day to its last, here {first} to {last}"
                    ),
                ));
            }
        }
        let boxes = fill_boxes(&ids, settings.box_size);
        let record = BoxPeriodRecord {
            number: 1,
            start,
            end,
            settings,
            boxes,
        };
        Self::box_period(ctx, record, start.min(ctx.today), "started the box league")
    }

    fn box_period(
        ctx: &Context<'_>,
        record: BoxPeriodRecord,
        date: NaiveDate,
        what: &str,
    ) -> Result<Action, ActionError> {
        record
            .check()
            .map_err(|e| ActionError::invalid(&ctx.at, "period", "", e))?;
        let label = format!(
            "{what}: period {} ({} to {}, {} boxes)",
            record.number,
            record.start,
            record.end,
            record.boxes.len()
        );
        Action::new(
            Kind::BoxLeague,
            label,
            vec![(
                date,
                Entry::Add {
                    event: Event::BoxPeriod {
                        period: Box::new(record),
                    },
                },
            )],
        )
    }

    /// The next period's boxes (see [`rungs_ladder::formats::boxes::BoxLeague::next_period`])
    /// from `start` (none: the day after the period ends) to `end` (none: as long as this
    /// one), recorded on `date`. A league that follows the ladder's seasons takes the next
    /// season instead: from the first hard reset after this period ends (or `start`) to the
    /// day before the hard reset after that (or `end`).
    pub fn close_period(
        ctx: &Context<'_>,
        formats: &Formats,
        start: Option<NaiveDate>,
        end: Option<NaiveDate>,
        date: NaiveDate,
    ) -> Result<(Action, NextPeriod), ActionError> {
        let date = ctx.not_ahead(date)?;
        let current = formats
            .boxes
            .current()
            .ok_or_else(|| ctx.refusal(Refusal::NoBoxPeriod))?;
        let (from, to) = (current.record.start, current.record.end);
        let (start, end) = match (start, end) {
            (Some(s), Some(e)) => (s, e),
            _ if current.record.settings.seasons => {
                let after = to.checked_add_days(Days::new(1)).unwrap_or(to);
                let first = match start {
                    Some(s) => s,
                    // The season after the one this period held: it starts at the first hard
                    // reset after this period's last day (the day after, unless the calendar
                    // changed since).
                    None => season_dates(ctx, after).map(|(f, l)| {
                        if f > to {
                            f
                        } else {
                            l.checked_add_days(Days::new(1)).unwrap_or(l)
                        }
                    })?,
                };
                let last = match end {
                    Some(e) => e,
                    None => season_dates(ctx, first)?.1,
                };
                (first, last)
            }
            _ => {
                let start =
                    start.unwrap_or_else(|| to.checked_add_days(Days::new(1)).unwrap_or(to));
                (start, end.unwrap_or_else(|| following_end(from, to, start)))
            }
        };
        if start <= current.record.start {
            return Err(ActionError::invalid(
                &ctx.at,
                "start",
                &start.to_string(),
                format!(
                    "is not after period {}'s start, {from}",
                    current.record.number
                ),
            ));
        }
        let ladder = ctx.ladder();
        let next = formats
            .boxes
            .next_period(&|id| rating(ladder, id), start, end, None)
            .map_err(|r| ctx.refusal(r))?;
        if next.record.boxes.is_empty() {
            return Err(ActionError::refused(
                &ctx.at,
                "nobody is left for the next period's boxes",
            ));
        }
        let what = format!("closed period {}", current.record.number);
        let action = Self::box_period(ctx, next.record.clone(), date, &what)?;
        Ok((action, next))
    }

    /// A box match between `a` and `b` (names as typed), from A's view, on `date`: refused
    /// between players of different boxes, for a pair that has played, outside the period; a
    /// league scored by games wants the score.
    pub fn box_result(
        ctx: &Context<'_>,
        formats: &Formats,
        a: &str,
        b: &str,
        result: Option<&str>,
        score: Option<&str>,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let ia = ctx.roster.player(&ctx.at, "player_a", a)?;
        let ib = ctx.roster.player(&ctx.at, "player_b", b)?;
        let period = formats
            .boxes
            .current()
            .ok_or_else(|| ctx.refusal(Refusal::NoBoxPeriod))?;
        period
            .check_result(ia, ib, date)
            .map_err(|r| ctx.refusal(r))?;
        let (result, goals) = ctx.result_and_score(result, score)?;
        let played = matches!(result, MatchResult::Played(o) if o != Outcome::Draw);
        if played && goals.is_none() && period.record.settings.points.needs_games() {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "this league scores by games: give {} v {}'s games, such as 3-1",
                    ctx.name_of(ia),
                    ctx.name_of(ib)
                ),
            ));
        }
        let number = period.box_index(ia).map_or(0, |i| i + 1);
        ctx.result_rows(ia, ib, result, goals, date, &format!("box {number}"))
    }

    /// A player withdraws from the period under way (`back`: comes back to it).
    pub fn box_withdraw(
        ctx: &Context<'_>,
        formats: &Formats,
        player: &str,
        back: bool,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let date = ctx.not_ahead(date)?;
        let id = ctx.roster.player(&ctx.at, "player", player)?;
        let period = formats
            .boxes
            .current()
            .ok_or_else(|| ctx.refusal(Refusal::NoBoxPeriod))?;
        if !period.record.players().any(|p| p == id) {
            return Err(ctx.refusal(Refusal::NotInABox { player: id }));
        }
        if period.withdrawn.contains(&id) != back {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "{} has {} this period already",
                    ctx.name_of(id),
                    if back {
                        "not withdrawn from"
                    } else {
                        "withdrawn from"
                    }
                ),
            ));
        }
        let event = Event::BoxWithdraw {
            player: id,
            withdrawn: !back,
        };
        Action::new(
            Kind::BoxLeague,
            ctx.words(&event),
            vec![(date, Entry::Add { event })],
        )
    }

    /// A newcomer joins box `number` (from 1; none: the bottom box) of the period under way.
    pub fn box_join(
        ctx: &Context<'_>,
        formats: &Formats,
        player: &str,
        number: Option<u32>,
        date: NaiveDate,
    ) -> Result<Action, ActionError> {
        let date = ctx.not_ahead(date)?;
        let id = ctx.players_in_order("player", &[player.to_string()])?[0];
        let period = formats
            .boxes
            .current()
            .ok_or_else(|| ctx.refusal(Refusal::NoBoxPeriod))?;
        if let Some(i) = period.record.boxes.iter().position(|b| b.contains(&id)) {
            return Err(ActionError::refused(
                &ctx.at,
                format!("{} is in box {} already", ctx.name_of(id), i + 1),
            ));
        }
        let count = period.record.boxes.len() as u32;
        let size = period.record.settings.box_size;
        let index = match number {
            None => count - 1,
            Some(n) if (1..=count).contains(&n) => n - 1,
            Some(n) => {
                return Err(ActionError::invalid(
                    &ctx.at,
                    "box",
                    &n.to_string(),
                    format!("is not a box of this period (1 to {count})"),
                ));
            }
        };
        if period.record.boxes[index as usize].len() >= 2 * size as usize {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "box {} is full: boxes of {size} take newcomers up to {}",
                    index + 1,
                    2 * size
                ),
            ));
        }
        let event = Event::BoxJoin { player: id, index };
        Action::new(
            Kind::BoxLeague,
            ctx.words(&event),
            vec![(date, Entry::Add { event })],
        )
    }
}
