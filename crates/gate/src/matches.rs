//! Matches: entered, corrected, deleted. Every rule about who may play when lives here.

use super::{Action, ActionError, Context, Kind, Place};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, EventClass, Home, Match, MatchResult, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::score::{self, POINTS_MAX, WEIGHT_MAX, WEIGHT_MIN, parse_score};
use rungs_ladder::values::{self, parse_medals};

/// A match as typed on the command line or in the form: every field as text. A side is one
/// name, or a team of names joined by commas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchInput {
    /// `YYYY-MM-DD`; none or empty is today.
    pub date: Option<String>,
    pub a: String,
    pub b: String,
    /// From A's view: 1, 0.5, 0, A, B, draw, forfeit-a, forfeit-b, cancelled.
    pub result: String,
    /// Medals `A,B` (Memoir '44); none or empty is no medals.
    pub medals: Option<String>,
    pub scenario: Option<String>,
    /// The scenario side A played.
    pub side_a: Option<String>,
    /// Which side is at home or moves first: `a`, `b` or `neutral`; none or empty is no flag
    /// (no side advantage).
    pub home: Option<String>,
    /// Each side's points, `3-1`; none or empty is no score. A score decides the
    /// result: the result may then be left empty, and one given must agree with it.
    pub score: Option<String>,
    /// The event's class: friendly, league, cup, championship, or a weight in (0, 10].
    pub class: Option<String>,
}

/// What an edit changes; `None` keeps the match's value. For medals, scenario and side an
/// empty text removes the value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchEdit {
    pub date: Option<String>,
    pub a: Option<String>,
    pub b: Option<String>,
    pub result: Option<String>,
    pub medals: Option<String>,
    pub scenario: Option<String>,
    pub side_a: Option<String>,
    /// `a`, `b` or `neutral`; empty removes the flag.
    pub home: Option<String>,
    /// `3-1`; empty removes the score. A new score sets the result it decides.
    pub score: Option<String>,
    /// A class word or weight; empty removes the class.
    pub class: Option<String>,
}

/// The words the score field accepts, for messages.
pub const ACCEPTED_RESULTS: &str = "1, 0.5 or 0 from A's view (also A, B, draw, forfeit-a, \
    forfeit-b, cancelled)";

pub fn parse_result(at: &Place, text: &str) -> Result<MatchResult, ActionError> {
    MatchResult::parse(text).ok_or_else(|| {
        ActionError::invalid(
            at,
            "score",
            text,
            format!("is not a result; use {ACCEPTED_RESULTS}"),
        )
    })
}

fn optional_label(
    at: &Place,
    field: &str,
    text: Option<&str>,
) -> Result<Option<String>, ActionError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => values::label(t)
            .map(Some)
            .map_err(|e| ActionError::invalid(at, field, t, format!("is not usable: it {e}"))),
    }
}

/// A side-advantage flag as typed: `a`, `b` or `neutral`; none or empty is no flag.
pub fn optional_home(at: &Place, text: Option<&str>) -> Result<Option<Home>, ActionError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => Home::parse(t).map(Some).ok_or_else(|| {
            ActionError::invalid(
                at,
                "home",
                t,
                "is not a side; use a (side A at home or moving first), b, or neutral",
            )
        }),
    }
}

/// A score as typed (`3-1`), none or empty for no score.
pub fn optional_score(at: &Place, text: Option<&str>) -> Result<Option<[u32; 2]>, ActionError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => parse_score(t)
            .map(Some)
            .map_err(|e| ActionError::invalid(at, "goals", t, format!("is not a score: {e}"))),
    }
}

/// An event class as typed, none or empty for no class.
pub fn optional_class(at: &Place, text: Option<&str>) -> Result<Option<EventClass>, ActionError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => EventClass::parse(t).map(Some).ok_or_else(|| {
            ActionError::invalid(
                at,
                "class",
                t,
                format!(
                    "is not a class; use friendly, league, cup, championship, or a weight \
                     above {WEIGHT_MIN} and at most {WEIGHT_MAX}"
                ),
            )
        }),
    }
}

/// The one check of a match's score against its result: a score decides a played
/// result, so "Ann beat Bo 1-3" is refused naming both; a forfeit or cancelled match has no
/// score. `words` says a match in words with the sides' names.
pub fn check_score(
    at: &Place,
    m: &Match,
    words: &dyn Fn(&Match) -> String,
) -> Result<(), ActionError> {
    let Some(goals) = m.goals else {
        return Ok(());
    };
    let text = format!("{}-{}", goals[0], goals[1]);
    if !score::goals_valid(goals) {
        return Err(ActionError::invalid(
            at,
            "goals",
            &text,
            format!("is more than {POINTS_MAX} points for a side"),
        ));
    }
    match m.result {
        MatchResult::Played(o) if o == score::outcome_of(goals) => Ok(()),
        MatchResult::Played(_) => {
            let said = Match {
                result: MatchResult::Played(score::outcome_of(goals)),
                ..m.clone()
            };
            Err(ActionError::ScoreAgainstResult {
                at: at.clone(),
                score: text,
                says: words(&said),
                given: words(m),
            })
        }
        _ => Err(ActionError::invalid(
            at,
            "goals",
            &text,
            format!(
                "is a score, but the match is not played ({}); a forfeit or cancelled match \
                 has none",
                words(m)
            ),
        )),
    }
}

/// The one check of a match's medals against its result: Memoir '44 takes s from the medals
/// (the side with more wins, equal is a draw), so a played result that says otherwise —
/// "A beat B" with medals 2,4 — is refused naming both, whatever the system (the medals
/// would rate it as B's win under Memoir '44, and mean nothing consistent under another).
/// A forfeit or a cancelled match is not held to its medals. `players` says the result in
/// words with the sides' names.
pub fn check_medals(
    at: &Place,
    m: &Match,
    players: &dyn Fn() -> String,
) -> Result<(), ActionError> {
    let (Some(medals), MatchResult::Played(o)) = (m.medals, m.result) else {
        return Ok(());
    };
    let decided = values::medals_outcome(medals);
    if o == decided {
        return Ok(());
    }
    let by_medals = match decided {
        rungs_rating::Outcome::Win => "side A's win",
        rungs_rating::Outcome::Draw => "a draw",
        rungs_rating::Outcome::Loss => "side B's win",
    };
    Err(ActionError::invalid(
        at,
        "medals",
        &values::medals_text(medals),
        format!(
            "make {by_medals}, but the result says {} (Memoir '44 takes the result from the \
             medals: the side with more wins, equal medals are a draw); correct the result or \
             the medals",
            players()
        ),
    ))
}

fn optional_medals(at: &Place, text: Option<&str>) -> Result<Option<values::Medals>, ActionError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => parse_medals(t)
            .map(Some)
            .map_err(|e| ActionError::invalid(at, "medals", t, e)),
    }
}

impl Context<'_> {
    /// A new battle's side must be one of its scenario's two, once both are known: a misspelt
    /// side ("Alies") was rated as plain Elo and left out of the scenario's record without a
    /// word. An edit is not held to it: it may be the very correction of such a side.
    pub fn check_side(&self, at: &dyn Fn() -> Place, m: &Match) -> Result<(), ActionError> {
        if let (Some(scenario), Some(side)) = (&m.scenario, &m.side_a)
            && let Some([one, two]) = self.ladder().scenarios.sides_of(scenario)
            && ![one, two]
                .iter()
                .any(|s| s.eq_ignore_ascii_case(side.trim()))
        {
            return Err(ActionError::invalid(
                &at(),
                "side_a",
                side,
                format!("is not a side of {scenario}; its sides are {one} and {two}"),
            ));
        }
        Ok(())
    }

    /// Checks a match for `date` against the ladder: nobody twice, everyone joined by then
    /// (an undated join moves to the match), and not in the future.
    /// `at` says where the match came from (made only when there is an error).
    pub fn check_match(
        &self,
        at: &dyn Fn() -> Place,
        date: NaiveDate,
        m: &Match,
    ) -> Result<(), ActionError> {
        self.played_by_today(at, date)?;
        self.check_players(at, date, m)
    }

    /// A result dated `date` is not ahead of today (this computer's local date).
    fn played_by_today(&self, at: &dyn Fn() -> Place, date: NaiveDate) -> Result<(), ActionError> {
        if date > self.today {
            return Err(ActionError::Future {
                at: at(),
                date,
                today: self.today,
                why: "a result is entered once it is played",
            });
        }
        Ok(())
    }

    /// The players of a match for `date`: nobody twice, everyone joined by then.
    fn check_players(
        &self,
        at: &dyn Fn() -> Place,
        date: NaiveDate,
        m: &Match,
    ) -> Result<(), ActionError> {
        // An import checks a million matches: no list of their players is made.
        let ids = |from: usize| m.a.iter().chain(m.b.iter()).skip(from);
        for (i, id) in ids(0).enumerate() {
            let name = || self.roster.name(*id).unwrap_or("?").to_string();
            if let Some(j) = ids(i + 1).position(|x| x == id) {
                let (a, second_on_a) = (m.a.len(), i + 1 + j < m.a.len());
                return Err(ActionError::PlayerTwice {
                    at: at(),
                    name: name(),
                    where_: match (i < a, second_on_a) {
                        (true, true) => "twice on side A",
                        (false, false) => "twice on side B",
                        _ => "on both sides",
                    },
                });
            }
            if let Some(p) = self.ladder().player(*id)
                && !p.undated
                && let Some(joined) = p.joined_on.filter(|j| *j > date)
            {
                return Err(ActionError::NotYetJoined {
                    at: at(),
                    name: name(),
                    joined,
                    date,
                });
            }
        }
        Ok(())
    }
}

impl Action {
    /// A new match.
    pub fn add_match(ctx: &Context<'_>, input: &MatchInput) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let date = ctx.date("date", input.date.as_deref())?;
        let a = ctx.roster.side(at, "player_a", &input.a)?;
        let b = ctx.roster.side(at, "player_b", &input.b)?;
        let goals = optional_score(at, input.score.as_deref())?;
        // A score decides the result when none is typed.
        let result = match (goals, input.result.trim()) {
            (Some(g), "") => MatchResult::Played(score::outcome_of(g)),
            _ => parse_result(at, &input.result)?,
        };
        let m = Match {
            a: a.into(),
            b: b.into(),
            result,
            medals: optional_medals(at, input.medals.as_deref())?,
            scenario: optional_label(at, "scenario", input.scenario.as_deref())?,
            side_a: optional_label(at, "side_a", input.side_a.as_deref())?,
            home: optional_home(at, input.home.as_deref())?,
            goals,
            class: optional_class(at, input.class.as_deref())?,
            board: None,
        };
        check_score(at, &m, &|m| ctx.words(&Event::Match(m.clone())))?;
        check_medals(at, &m, &|| ctx.words(&Event::Match(m.clone())))?;
        ctx.check_match(&|| ctx.at.clone(), date, &m)?;
        ctx.check_side(&|| ctx.at.clone(), &m)?;
        let label = format!("added {}", ctx.words(&Event::Match(m.clone())));
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

    /// Moves player join `current` to the date `edit` gives (nothing else of a join is
    /// edited): a join typed with the wrong date otherwise blocked the player's earlier
    /// matches for good. The replay refuses a date after the player's first match.
    fn redate_join(
        ctx: &Context<'_>,
        current: &Effective,
        edit: &MatchEdit,
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let others = [
            &edit.a,
            &edit.b,
            &edit.result,
            &edit.medals,
            &edit.scenario,
            &edit.side_a,
            &edit.home,
            &edit.score,
            &edit.class,
        ]
        .iter()
        .any(|field| field.is_some());
        let (Event::Player { id, name, .. }, Some(text), false) =
            (&current.event, edit.date.as_deref(), others)
        else {
            return Err(ActionError::JoinDateOnly {
                at: at.clone(),
                seq: current.seq,
            });
        };
        // Given, not defaulted: an empty date is not "today" in an edit.
        let date = ctx.not_ahead(super::parse_day(at, "date", text.trim())?)?;
        if date == current.date {
            return Err(ActionError::refused(
                at,
                format!("event {} already reads so; nothing to change", current.seq),
            ));
        }
        let event = Event::Player {
            id: *id,
            name: name.clone(),
            undated: false,
        };
        Action::new(
            Kind::EditMatch,
            format!("moved {name}'s join from {} to {date}", current.date),
            vec![(
                date,
                Entry::Edit {
                    target: current.seq,
                    event,
                },
            )],
        )
    }

    /// Corrects match `current` (as it stands now): date, players, result, medals, scenario.
    pub fn edit_match(
        ctx: &Context<'_>,
        current: &Effective,
        edit: &MatchEdit,
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        if let Event::Player { .. } = &current.event {
            return Self::redate_join(ctx, current, edit);
        }
        let Event::Match(old) = &current.event else {
            return Err(ActionError::refused(
                at,
                format!(
                    "event {} is not a match; only matches (and a join's date) are edited \
                     (delete the event and enter it again)",
                    current.seq
                ),
            ));
        };
        let mut m = old.clone();
        let date = match edit.date.as_deref() {
            Some(d) => super::parse_day(at, "date", d)?,
            None => current.date,
        };
        if let Some(a) = &edit.a {
            m.a = ctx.roster.side(at, "player_a", a)?.into();
        }
        if let Some(b) = &edit.b {
            m.b = ctx.roster.side(at, "player_b", b)?.into();
        }
        if let Some(r) = &edit.result {
            m.result = parse_result(at, r)?;
        }
        if edit.medals.is_some() {
            m.medals = optional_medals(at, edit.medals.as_deref())?;
        }
        if edit.scenario.is_some() {
            m.scenario = optional_label(at, "scenario", edit.scenario.as_deref())?;
        }
        if edit.side_a.is_some() {
            m.side_a = optional_label(at, "side_a", edit.side_a.as_deref())?;
        }
        if edit.home.is_some() {
            m.home = optional_home(at, edit.home.as_deref())?;
        }
        if edit.score.is_some() {
            m.goals = optional_score(at, edit.score.as_deref())?;
            // A new score sets its result unless the edit names one.
            if let (Some(g), None) = (m.goals, &edit.result) {
                m.result = MatchResult::Played(score::outcome_of(g));
            }
        }
        if edit.class.is_some() {
            m.class = optional_class(at, edit.class.as_deref())?;
        }
        check_score(at, &m, &|m| ctx.words(&Event::Match(m.clone())))?;
        check_medals(at, &m, &|| ctx.words(&Event::Match(m.clone())))?;
        // A board's result given other players is no longer that board's.
        let players = |m: &Match| -> Vec<PlayerId> {
            let mut v: Vec<PlayerId> = m.a.iter().chain(m.b.iter()).copied().collect();
            v.sort_unstable();
            v
        };
        if players(&m) != players(old) {
            m.board = None;
        }
        // A date left as it was is not checked against today: a match entered where the day
        // had begun (UTC+14) stays editable where it has not yet (UTC−12).
        if date != current.date {
            ctx.played_by_today(&|| ctx.at.clone(), date)?;
        }
        ctx.check_players(&|| ctx.at.clone(), date, &m)?;
        if m == *old && date == current.date {
            return Err(ActionError::refused(
                at,
                format!("event {} already reads so; nothing to change", current.seq),
            ));
        }
        // "changed Spain beat Portugal to Spain drew with Portugal"; "edited …" when the
        // sentence stays (a date, medals, sides).
        let (was, now) = (
            ctx.words(&current.event),
            ctx.words(&Event::Match(m.clone())),
        );
        let label = if was == now {
            format!("edited {was}")
        } else {
            format!("changed {was} to {now}")
        };
        Action::new(
            Kind::EditMatch,
            label,
            vec![(
                date,
                Entry::Edit {
                    target: current.seq,
                    event: Event::Match(m),
                },
            )],
        )
    }

    /// Deletes event `current`. A join is never deleted (matches name the player): retire
    /// the player instead.
    pub fn delete_event(ctx: &Context<'_>, current: &Effective) -> Result<Action, ActionError> {
        if let Event::Player { id, .. } = &current.event {
            let name = ctx.roster.name(*id).unwrap_or("the player");
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "event {} is {name} joining; a player is not deleted (their matches would \
                     name nobody): retire them instead",
                    current.seq
                ),
            ));
        }
        let label = match &current.event {
            Event::Match(_) => format!("deleted {}", ctx.words(&current.event)),
            other => format!("deleted {} ({})", ctx.words(other), current.date),
        };
        Action::new(
            Kind::DeleteEvent,
            label,
            vec![(
                current.date,
                Entry::Delete {
                    target: current.seq,
                },
            )],
        )
    }
}
