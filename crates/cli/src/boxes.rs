//! Box leagues: `rungs start-boxes` fills the first period's boxes, `rungs box-result` enters a
//! box match, `rungs box-withdraw` and `rungs box-join` change who plays this period, `rungs
//! close-period` moves the top of each box up and the bottom down into the next period, and
//! `rungs boxes` shows the tables. Every change goes through the gate
//! ([`rungs_gate::formats`]).

use super::args::StartBoxesArgs;
use super::challenges::{choice, names, whole};
use super::common::{context, open};
use super::output;
use anyhow::Result;
use rungs_gate::formats::{formats, rating, season_dates};
use rungs_gate::{self as action, Action, ActionError, Context};
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::formats::boxes::{BoxTable, Move, StillToPlay};
use rungs_ladder::formats::settings::{
    BoxPeriodRecord, BoxSettings, COUNT_MAX, PointsScheme, ScorePoints, TieBreak,
};
use rungs_ladder::replay::Ladder;
use serde_json::{Value, json};
use std::path::Path;

fn name(ladder: &Ladder, id: PlayerId) -> String {
    ladder.player(id).map_or("?".to_string(), |p| {
        rungs_ladder::values::shown(&p.name).into_owned()
    })
}

/// `A-B` as two whole numbers up to `high`.
fn two(ctx: &Context<'_>, field: &str, text: &str, high: u32) -> Result<[u32; 2], ActionError> {
    let bad = || {
        ActionError::invalid(
            &ctx.at,
            field,
            text,
            format!("is not two whole numbers from 0 to {high} as `A-B`"),
        )
    };
    let (a, b) = text.trim().split_once('-').ok_or_else(bad)?;
    Ok([
        whole(ctx, field, a, 0, high).map_err(|_| bad())?,
        whole(ctx, field, b, 0, high).map_err(|_| bad())?,
    ])
}

/// `N,N,N` as three whole numbers up to [`COUNT_MAX`].
fn three(ctx: &Context<'_>, field: &str, text: &str) -> Result<[u32; 3], ActionError> {
    let parts: Vec<&str> = text.split(',').collect();
    let bad = || {
        ActionError::invalid(
            &ctx.at,
            field,
            text,
            format!("is not three whole numbers from 0 to {COUNT_MAX} as `N,N,N`"),
        )
    };
    let [a, b, c] = parts[..] else {
        return Err(bad());
    };
    let n = |t| whole(ctx, field, t, 0, COUNT_MAX).map_err(|_| bad());
    Ok([n(a)?, n(b)?, n(c)?])
}

/// The box rules the options give, the defaults for the rest.
fn settings(ctx: &Context<'_>, args: &StartBoxesArgs) -> Result<BoxSettings, ActionError> {
    let mut s = BoxSettings::default();
    if let Some(t) = &args.box_size {
        s.box_size = whole(ctx, "box_size", t, 2, 100)?;
    }
    if let Some(t) = &args.up {
        s.up = whole(ctx, "up", t, 0, s.box_size)?;
    }
    if let Some(t) = &args.down {
        s.down = whole(ctx, "down", t, 0, s.box_size)?;
    }
    if let Some(t) = &args.min_matches {
        s.min_matches = Some(whole(ctx, "min_matches", t, 0, s.box_size)?);
    }
    #[derive(Clone, Copy)]
    enum By {
        Games,
        Parts,
        Wdl,
    }
    let by = match &args.points {
        None => By::Games,
        Some(t) => choice(
            ctx,
            "points",
            t,
            &[
                ("game-score", By::Games),
                ("parts", By::Parts),
                ("win-draw-loss", By::Wdl),
            ],
        )?,
    };
    s.points = match by {
        By::Games => match &args.table {
            None => PointsScheme::highfield(),
            Some(t) => {
                let mut table = Vec::new();
                for row in t.split(',') {
                    let (games, points) = row.split_once(':').ok_or_else(|| {
                        ActionError::invalid(
                            &ctx.at,
                            "table",
                            row,
                            "is not a score and its points as `3-1:6-2`",
                        )
                    })?;
                    table.push(ScorePoints {
                        games: two(ctx, "table", games, 99)?,
                        points: two(ctx, "table", points, COUNT_MAX)?,
                    });
                }
                PointsScheme::GameScore { table }
            }
        },
        By::Parts => {
            let [play, per_game, win_bonus] = match &args.parts {
                None => [1, 1, 1],
                Some(t) => three(ctx, "parts", t)?,
            };
            PointsScheme::Parts {
                play,
                per_game,
                win_bonus,
            }
        }
        By::Wdl => {
            let [win, draw, loss] = match &args.wdl {
                None => [3, 1, 0],
                Some(t) => three(ctx, "wdl", t)?,
            };
            PointsScheme::WinDrawLoss { win, draw, loss }
        }
    };
    if let Some(t) = &args.walkover {
        s.walkover = two(ctx, "walkover", t, COUNT_MAX)?;
    }
    if let Some(t) = &args.tie_breaks {
        s.tie_breaks = t
            .split(',')
            .map(|r| {
                TieBreak::parse(r).ok_or_else(|| {
                    let all: Vec<&str> = TieBreak::ALL.iter().map(|b| b.as_text()).collect();
                    ActionError::invalid(
                        &ctx.at,
                        "tie_breaks",
                        r,
                        format!("is not a tie-break; use {}", all.join(", ")),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
    }
    s.check()
        .map_err(|e| ActionError::invalid(&ctx.at, "settings", "", e))?;
    Ok(s)
}

/// `rungs start-boxes FILE (--start D --end D | --seasons [--start D]) [rules]`.
pub fn start_boxes(args: &StartBoxesArgs) -> Result<()> {
    let file = &args.file;
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let day = |field, t: &Option<String>| {
        t.as_deref()
            .map(|t| rungs_gate::parse_day(&ctx.at, field, t))
            .transpose()
    };
    let (start, end) = (day("start", &args.start)?, day("end", &args.end)?);
    let mut s = settings(&ctx, args)?;
    s.seasons = args.seasons;
    let (start, end) = match (start, end) {
        (_, Some(end)) if args.seasons => {
            return Err(ActionError::invalid(
                &ctx.at,
                "end",
                &end.to_string(),
                "cannot come with --seasons: the period ends with its season; leave --end out",
            )
            .into());
        }
        // The gate refuses a manual calendar too; here it is said with the commands to type.
        _ if args.seasons && ladder.rules.calendar.is_manual() => {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "--seasons follows the ladder's season calendar, and this ladder's calendar \
                     is manual (resets by hand only): give --start and --end instead, or set a \
                     calendar first (rungs rules {0} --calendar weekly, or rungs rules {0} \
                     --soft-every 7 --hard-every 4)",
                    file.display()
                ),
            )
            .into());
        }
        _ if args.seasons => season_dates(&ctx, start.unwrap_or(ctx.today))?,
        (Some(start), Some(end)) => (start, end),
        // clap asks for both unless --seasons; a caller that passes neither gets words.
        _ => {
            return Err(ActionError::refused(
                &ctx.at,
                "give the first period's --start and --end, or --seasons",
            )
            .into());
        }
    };
    let f = formats(&store, ctx.today)?;
    let act = Action::start_boxes(&ctx, &f, s, &names(args.order.as_deref()), start, end)?;
    if let Some((
        _,
        Entry::Add {
            event: Event::BoxPeriod { period },
        },
    )) = act.rows().first()
    {
        print_boxes(&ladder, period);
    }
    if args.preview {
        say!("(preview: nothing was changed)");
        return Ok(());
    }
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

fn print_boxes(ladder: &Ladder, period: &BoxPeriodRecord) {
    say!(
        "Period {} — {} to {}",
        period.number,
        period.start,
        period.end
    );
    for (i, b) in period.boxes.iter().enumerate() {
        let who: Vec<String> = b.iter().map(|id| name(ladder, *id)).collect();
        say!("  box {:>2}: {}", i + 1, who.join(", "));
    }
}

/// `rungs box-result FILE A B [SCORE] [--goals A-B]`.
pub fn box_result(
    file: &Path,
    a: &str,
    b: &str,
    score: Option<&str>,
    goals: Option<&str>,
    date: Option<&str>,
    json: bool,
) -> Result<()> {
    let (mut store, before) = open(file)?;
    let ctx = context(file, &before);
    let date = ctx.date("date", date)?;
    let f = formats(&store, date)?;
    let act = Action::box_result(&ctx, &f, a, b, score, goals, date)?;
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
    Ok(())
}

/// `rungs box-withdraw FILE NAME [--back]`.
pub fn box_withdraw(file: &Path, player: &str, back: bool, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", date)?;
    let f = formats(&store, date)?;
    let act = Action::box_withdraw(&ctx, &f, player, back, date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

/// `rungs box-join FILE NAME [--box N]`.
pub fn box_join(file: &Path, player: &str, number: Option<&str>, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", date)?;
    let number = number
        .map(|n| whole(&ctx, "box", n, 1, u32::MAX))
        .transpose()?;
    let f = formats(&store, date)?;
    let act = Action::box_join(&ctx, &f, player, number, date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

/// `rungs close-period FILE [--start D] [--end D] [--preview]`.
pub fn close_period(
    file: &Path,
    start: Option<&str>,
    end: Option<&str>,
    date: Option<&str>,
    preview: bool,
    json: bool,
) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let date = ctx.past_date("date", date)?;
    let day = |field, t: Option<&str>| t.map(|t| rungs_gate::parse_day(&ctx.at, field, t));
    let start = day("start", start).transpose()?;
    let end = day("end", end).transpose()?;
    let f = formats(&store, date)?;
    let (act, next) = Action::close_period(&ctx, &f, start, end, date)?;
    if json {
        let moves: Vec<Value> = next
            .moves
            .iter()
            .map(|(p, b, m)| json!({"player": name(&ladder, *p), "box": b, "move": move_text(*m)}))
            .collect();
        let boxes: Vec<Vec<String>> = next
            .record
            .boxes
            .iter()
            .map(|b| b.iter().map(|p| name(&ladder, *p)).collect())
            .collect();
        say!(
            "{}",
            json!({
                "period": next.record.number,
                "start": next.record.start.to_string(),
                "end": next.record.end.to_string(),
                "boxes": boxes,
                "moves": moves,
                "applied": !preview,
            })
        );
    } else {
        for (p, b, m) in &next.moves {
            if *m != Move::Stay {
                say!("  {} (box {b}) {}", name(&ladder, *p), move_text(*m));
            }
        }
        print_boxes(&ladder, &next.record);
    }
    if preview {
        if !json {
            say!("(preview: nothing was changed)");
        }
        return Ok(());
    }
    action::apply(&mut store, &act)?;
    if !json {
        say!("{}", act.label());
    }
    Ok(())
}

fn move_text(m: Move) -> &'static str {
    match m {
        Move::Up => "up",
        Move::Stay => "stays",
        Move::Down => "down",
        Move::Out => "leaves the boxes",
    }
}

/// `rungs boxes FILE [--json]`.
pub fn boxes(file: &Path, json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let f = formats(&store, ctx.today.max(ladder.last_date.unwrap_or(ctx.today)))?;
    let Some(period) = f.boxes.current() else {
        return Err(ActionError::refused(
            &ctx.at,
            "this ladder runs no box league yet: start one (rungs start-boxes)",
        )
        .into());
    };
    let tables = period.tables(&|id| rating(&ladder, id));
    let left = period.still_to_play();
    let n = |id| name(&ladder, id);
    if json {
        let boxes: Vec<Value> = tables
            .iter()
            .zip(&left)
            .map(|(t, l)| table_json(t, l, &n))
            .collect();
        say!(
            "{}",
            json!({
                "period": period.record.number,
                "start": period.record.start.to_string(),
                "end": period.record.end.to_string(),
                "settings": period.record.settings,
                "boxes": boxes,
            })
        );
        return Ok(());
    }
    say!(
        "Period {} — {} to {}",
        period.record.number,
        period.record.start,
        period.record.end
    );
    for (t, l) in tables.iter().zip(&left) {
        say!("Box {}", t.number);
        let heads: Vec<&str> = t.tie_breaks.iter().map(|b| b.as_text()).collect();
        say!(
            "  {:>2}  {:<20} {:>2} {:>2} {:>2} {:>2} {:>3} {:>3}  {}",
            "#",
            "player",
            "P",
            "W",
            "D",
            "L",
            "GW",
            "GL",
            heads.join(" | ")
        );
        for r in &t.rows {
            let values: Vec<String> = r
                .tie_values
                .iter()
                .zip(&heads)
                .map(|(v, h)| {
                    format!(
                        "{:>w$}",
                        v.map_or("·".into(), |v| v.as_text()),
                        w = h.chars().count()
                    )
                })
                .collect();
            let tl = &r.tally;
            say!(
                "  {:>2}  {:<20} {:>2} {:>2} {:>2} {:>2} {:>3} {:>3}  {}",
                r.place,
                n(r.player),
                tl.played,
                tl.won,
                tl.drawn,
                tl.lost,
                tl.games_won,
                tl.games_lost,
                values.join(" | ")
            );
        }
        for w in &t.withdrawn {
            say!("      {} (withdrawn this period)", n(*w));
        }
        if l.pairs.is_empty() {
            say!("  every match played");
        } else {
            let pairs: Vec<String> = l
                .pairs
                .iter()
                .map(|(a, b)| format!("{} v {}", n(*a), n(*b)))
                .collect();
            say!("  still to play: {}", pairs.join(", "));
        }
    }
    Ok(())
}

fn table_json(t: &BoxTable, left: &StillToPlay, n: &dyn Fn(PlayerId) -> String) -> Value {
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            let breaks: serde_json::Map<String, Value> = t
                .tie_breaks
                .iter()
                .zip(&r.tie_values)
                .map(|(b, v)| {
                    let value = match v {
                        None => Value::Null,
                        Some(rungs_ladder::formats::box_points::TieValue::Whole(x)) => json!(x),
                        Some(rungs_ladder::formats::box_points::TieValue::Rating(x)) => json!(x),
                    };
                    (b.as_text().to_string(), value)
                })
                .collect();
            json!({
                "place": r.place,
                "player": n(r.player),
                "played": r.tally.played,
                "won": r.tally.won,
                "drawn": r.tally.drawn,
                "lost": r.tally.lost,
                "games_won": r.tally.games_won,
                "games_lost": r.tally.games_lost,
                "points": r.tally.points,
                "tie_breaks": breaks,
            })
        })
        .collect();
    json!({
        "box": t.number,
        "rows": rows,
        "withdrawn": t.withdrawn.iter().map(|p| n(*p)).collect::<Vec<_>>(),
        "still_to_play": left.pairs.iter().map(|(a, b)| [n(*a), n(*b)]).collect::<Vec<_>>(),
    })
}
