//! The challenge ladder: `rungs challenge-ladder` starts it or changes its rules, `rungs
//! challenge` makes a challenge, `rungs challenge-result` enters one's result, `rungs
//! challenge-place` puts a player at a place, `rungs challenges` shows the positions and the
//! open challenges. Every change goes through the gate ([`rungs_gate::formats`]).

use super::args::ChallengeLadderArgs;
use super::common::{context, open};
use super::output;
use anyhow::Result;
use rungs_gate::formats::{Formats, formats};
use rungs_gate::{self as action, Action, ActionError, Context};
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::formats::challenge::Cause;
use rungs_ladder::formats::settings::{ChallengeSettings, Movement, Newcomers, Unplayed};
use rungs_ladder::replay::Ladder;
use serde_json::json;
use std::path::Path;

/// A whole number typed into `field`, from `low` to `high`.
pub fn whole(
    ctx: &Context<'_>,
    field: &str,
    text: &str,
    low: u32,
    high: u32,
) -> Result<u32, ActionError> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            ActionError::invalid(
                &ctx.at,
                field,
                text,
                format!("is not a whole number from {low} to {high}"),
            )
        })
}

/// Names joined by commas (names never hold one), none for empty text.
pub fn names(text: Option<&str>) -> Vec<String> {
    text.map(|t| {
        t.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

/// One of `choices` (the text each reads as) typed into `field`.
pub fn choice<T: Copy>(
    ctx: &Context<'_>,
    field: &str,
    text: &str,
    choices: &[(&str, T)],
) -> Result<T, ActionError> {
    let t = text.trim().to_ascii_lowercase().replace('_', "-");
    choices
        .iter()
        .find(|(name, _)| *name == t)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let all: Vec<&str> = choices.iter().map(|c| c.0).collect();
            ActionError::invalid(&ctx.at, field, text, format!("is not {}", all.join(", ")))
        })
}

fn name(ladder: &Ladder, id: PlayerId) -> String {
    ladder.player(id).map_or("?".to_string(), |p| {
        rungs_ladder::values::shown(&p.name).into_owned()
    })
}

/// `rungs challenge-ladder FILE [--order …] [rules]`.
pub fn challenge_ladder(args: &ChallengeLadderArgs) -> Result<()> {
    let file = &args.file;
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", args.date.as_deref())?;
    let f = formats(&store, date)?;
    let mut s = if f.challenge.started {
        f.challenge.settings.clone()
    } else {
        ChallengeSettings::default()
    };
    let days = |field, text: &Option<String>, into: &mut u32| -> Result<(), ActionError> {
        if let Some(t) = text {
            *into = whole(&ctx, field, t, 0, rungs_ladder::formats::settings::DAYS_MAX)?;
        }
        Ok(())
    };
    if let Some(t) = &args.reach {
        s.reach = whole(&ctx, "reach", t, 1, 1000)?;
    }
    days("defend_days", &args.defend_days, &mut s.defend_days)?;
    days("rematch_days", &args.rematch_days, &mut s.rematch_days)?;
    days("respond_days", &args.respond_days, &mut s.respond_days)?;
    if let Some(t) = &args.unplayed {
        s.unplayed = choice(
            &ctx,
            "unplayed",
            t,
            &[("lapse", Unplayed::Lapse), ("forfeit", Unplayed::Forfeit)],
        )?;
    }
    if let Some(t) = &args.movement {
        s.movement = choice(
            &ctx,
            "movement",
            t,
            &[("leapfrog", Movement::Leapfrog), ("swap", Movement::Swap)],
        )?;
    }
    if let Some(t) = &args.newcomers {
        s.newcomers = choice(
            &ctx,
            "newcomers",
            t,
            &[
                ("bottom", Newcomers::Bottom),
                ("free-challenge", Newcomers::FreeChallenge),
                ("by-rating", Newcomers::ByRating),
            ],
        )?;
    }
    if let Some(t) = &args.idle_days {
        s.idle_days = match t.trim() {
            "off" | "none" => None,
            t => Some(whole(&ctx, "idle_days", t, 1, 10_000)?),
        };
    }
    if let Some(t) = &args.idle_drop {
        s.idle_drop = whole(&ctx, "idle_drop", t, 0, 1000)?;
    }
    let act = Action::challenge_ladder(&ctx, &f, s, &names(args.order.as_deref()), date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

/// `rungs challenge FILE CHALLENGER DEFENDER`.
pub fn challenge(file: &Path, challenger: &str, defender: &str, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", date)?;
    let f = formats(&store, date)?;
    let act = Action::challenge(&ctx, &f, challenger, defender, date)?;
    action::apply(&mut store, &act)?;
    let deadline = date
        .checked_add_days(chrono::Days::new(u64::from(
            f.challenge.settings.respond_days,
        )))
        .unwrap_or(date);
    say!("{}: to be played by {deadline}", act.label());
    Ok(())
}

/// `rungs challenge-result FILE N [SCORE] [--goals A-B]`.
pub fn challenge_result(
    file: &Path,
    number: &str,
    score: Option<&str>,
    goals: Option<&str>,
    date: Option<&str>,
    json: bool,
) -> Result<()> {
    let (mut store, before) = open(file)?;
    let ctx = context(file, &before);
    let n = whole(&ctx, "number", number, 1, u32::MAX)?;
    let date = ctx.date("date", date)?;
    let f = formats(&store, date)?;
    let act = Action::challenge_result(&ctx, &f, n, score, goals, date)?;
    let seqs = action::apply(&mut store, &act)?;
    let after = store.ladder()?;
    if let Some((
        _,
        Entry::Add {
            event: Event::Match(m),
        },
    )) = act.rows().first()
    {
        output::match_change(&before, &after, m, seqs.first().copied().unwrap_or(0), json);
    }
    if !json {
        let now = formats(&store, date)?;
        if let Some(c) = now.challenge.challenge(n) {
            let places = |id| {
                now.challenge
                    .position(id)
                    .map_or("-".into(), |p| p.to_string())
            };
            say!(
                "Challenge {n}: {} — {} now at place {}, {} at place {}",
                c.closed.map_or("open", |(_, how)| how.as_text()),
                name(&after, c.challenger),
                places(c.challenger),
                name(&after, c.defender),
                places(c.defender)
            );
        }
    }
    Ok(())
}

/// `rungs challenge-place FILE NAME [--position N]`.
pub fn challenge_place(
    file: &Path,
    player: &str,
    position: Option<&str>,
    date: Option<&str>,
) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", date)?;
    let position = position
        .map(|p| whole(&ctx, "position", p, 1, u32::MAX))
        .transpose()?;
    let f = formats(&store, date)?;
    let act = Action::challenge_place(&ctx, &f, player, position, date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

fn cause_text(cause: Cause) -> String {
    match cause {
        Cause::Order => "the ladder's order".into(),
        Cause::Joined => "joined at the bottom".into(),
        Cause::Placed => "placed".into(),
        Cause::Challenge(n) => format!("challenge {n}"),
        Cause::Idle => "idle drop".into(),
        Cause::Retired => "a retirement".into(),
    }
}

/// `rungs challenges FILE [--date D] [--player NAME] [--json]`.
pub fn challenges(file: &Path, date: Option<&str>, player: Option<&str>, json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let today = ctx.date("date", date)?;
    let f: Formats = formats(&store, today)?;
    let c = &f.challenge;
    if !c.started {
        return Err(ActionError::refused(
            &ctx.at,
            "this ladder runs no challenge ladder yet: start one (rungs challenge-ladder)",
        )
        .into());
    }
    let who = player
        .map(|p| ctx.roster.player(&ctx.at, "player", p))
        .transpose()?;
    let n = |id| name(&ladder, id);
    let open = c.open_challenges(today);
    if json {
        let positions: Vec<_> = c
            .positions()
            .iter()
            .map(|r| {
                json!({
                    "position": r.position,
                    "player": n(r.player),
                    "open": r.open,
                    "last_match": r.last_match.map(|d| d.to_string()),
                })
            })
            .collect();
        let open: Vec<_> = open
            .iter()
            .map(|o| {
                json!({
                    "number": o.number,
                    "challenger": n(o.challenger),
                    "defender": n(o.defender),
                    "challenger_position": o.challenger_position,
                    "defender_position": o.defender_position,
                    "made": o.made.to_string(),
                    "deadline": o.deadline.to_string(),
                    "days_left": o.days_left,
                })
            })
            .collect();
        let history = who.map(|id| {
            c.history(id)
                .iter()
                .map(|p| {
                    json!({"date": p.date.to_string(), "position": p.position,
                           "cause": cause_text(p.cause)})
                })
                .collect::<Vec<_>>()
        });
        say!(
            "{}",
            json!({
                "date": today.to_string(),
                "settings": c.settings,
                "positions": positions,
                "open": open,
                "history": history,
            })
        );
        return Ok(());
    }
    let s = &c.settings;
    say!(
        "Challenge ladder on {today} · reach {}, {} days to play ({}), {}",
        s.reach,
        s.respond_days,
        match s.unplayed {
            Unplayed::Lapse => "then it lapses",
            Unplayed::Forfeit => "then the challenger wins",
        },
        match s.movement {
            Movement::Leapfrog => "leapfrog",
            Movement::Swap => "swap",
        }
    );
    for r in c.positions() {
        let note = r
            .open
            .map_or(String::new(), |k| format!("   challenge {k}"));
        say!("{:>5}  {}{note}", r.position, n(r.player));
    }
    if open.is_empty() {
        say!("No open challenges.");
    } else {
        say!("Open challenges:");
        for o in &open {
            say!(
                "  {:>3}  {} ({}) v {} ({}) · made {} · play by {} · {}",
                o.number,
                n(o.challenger),
                o.challenger_position,
                n(o.defender),
                o.defender_position,
                o.made,
                o.deadline,
                days_left(o.days_left)
            );
        }
    }
    if let Some(id) = who {
        say!("{}'s places:", n(id));
        for p in c.history(id) {
            say!(
                "  {}  {}  ({})",
                p.date,
                p.position
                    .map_or("off the ladder".into(), |k| format!("place {k}")),
                cause_text(p.cause)
            );
        }
    }
    Ok(())
}

fn days_left(days: i64) -> String {
    match days {
        0 => "last day".into(),
        1 => "1 day left".into(),
        d => format!("{d} days left"),
    }
}
