//! Saved rounds and pairing rules: `rungs round` shows a round and its results,
//! `rungs result` enters a board's result, `rungs forbid`/`unforbid`/`avoid`/`unavoid`
//! change who may be paired. Every change goes through the gate ([`rungs_gate::rounds`]).

use super::args::PairRuleArgs;
use super::common::{context, open, shown};
use super::output;
use anyhow::Result;
use rungs_gate::rounds::{board_match, book};
use rungs_gate::{self as action, Action, ActionError};
use rungs_ladder::event::{BoardRef, Entry, Event, MatchResult, PairRule};
use rungs_ladder::rules::System;
use rungs_rating::Outcome;
use serde_json::{Value, json};
use std::path::Path;

/// Each result of a board in a few words: "Ann +7 RP, Bo −7 RP" — the figure each player's
/// system shows, as `rungs predict` prints it in full.
fn short_change(system: System, changes: &[rungs_ladder::preview::Change], ids: &[u32]) -> String {
    let unit = match system {
        System::Skyweaver | System::Inversus => " RP",
        System::Allegskill => "",
        System::Memoir44 | System::Elo | System::Goals => "",
    };
    let digits = match system {
        System::Memoir44 | System::Elo | System::Goals => 1,
        _ => 0,
    };
    ids.iter()
        .filter_map(|id| changes.iter().find(|c| c.player == *id))
        .map(|c| {
            let before = c.before.unwrap_or(c.after).score;
            format!("{} {:+.digits$}{unit}", c.name, c.after.score - before)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The result `r` of a board, from its side A view, in the words of the result keys.
fn key_of(r: MatchResult) -> &'static str {
    match r {
        MatchResult::Played(Outcome::Win) => "1",
        MatchResult::Played(Outcome::Draw) => "D",
        MatchResult::Played(Outcome::Loss) => "2",
        _ => "F",
    }
}

/// `rungs round FILE N`.
pub fn round(file: &Path, number: &str, json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let book = book(&store)?;
    let n = ctx.round_number(&book, "round", number)?;
    let Some(saved) = book.rounds.get(&n) else {
        return Ok(());
    };
    let name = |id: u32| {
        ladder
            .player(id)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    let system = ladder.rules.system();
    let mut boards = Vec::new();
    for (k, (&[a, b], result)) in saved.round.boards.iter().zip(&saved.results).enumerate() {
        let at = BoardRef {
            round: n,
            board: k as u32 + 1,
        };
        let open_board = result.is_none();
        let forecast = match (open_board, board_match(&book, at, MatchResult::Cancelled)) {
            (true, Some(m)) => {
                let mut f = store.forecast(saved.date.max(today_or(&ladder)), &m)?;
                // Every system's chances with a draw.
                f.prediction = f
                    .prediction
                    .map(|p| rungs_ladder::predict::with_draws(&ladder, p));
                Some(f)
            }
            _ => None,
        };
        boards.push((k + 1, a, b, *result, forecast));
    }
    if json {
        let boards: Vec<Value> = boards
            .iter()
            .map(|(k, a, b, result, forecast)| {
                let p = forecast.as_ref().and_then(|f| f.prediction);
                json!({
                    "board": k,
                    "a": name(*a),
                    "b": name(*b),
                    "p_a": p.map(|p| p.win_a),
                    "p_draw": p.map(|p| p.draw),
                    "p_b": p.map(|p| p.win_b),
                    "result": result.map(|r| r.result.as_text()),
                    "seq": result.map(|r| r.seq),
                    "outcomes": forecast.as_ref().map(|f| f.outcomes.iter().map(|(r, changes)| json!({
                        "result": r.as_text(),
                        "players": changes.iter().map(output::change_json).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>()),
                })
            })
            .collect();
        say!(
            "{}",
            json!({
                "round": n,
                "date": saved.date.to_string(),
                "format": saved.round.format.as_text(),
                "boards": boards,
                "bye": saved.round.bye.map(name),
                "bye_scores": saved.round.bye_scores,
                "event": saved.event(),
                "requested_byes": saved.round.swiss.requested.iter().map(|r| json!({
                    "player": name(r.player),
                    "points": f64::from(r.halves) / 2.0,
                })).collect::<Vec<_>>(),
                "withdrawn": saved.round.swiss.withdrawn.iter().map(|&p| name(p)).collect::<Vec<_>>(),
            })
        );
        return Ok(());
    }
    let decided = saved.results.iter().filter(|r| r.is_some()).count();
    say!(
        "Round {n} — {} ({}{}) · {decided} of {} results in",
        saved.date,
        saved.round.format.as_text(),
        saved
            .event()
            .filter(|e| *e != n)
            .map_or(String::new(), |e| format!(", the Swiss event of round {e}")),
        saved.results.len()
    );
    for (k, a, b, result, forecast) in &boards {
        let (na, nb) = (name(*a), name(*b));
        match (result, forecast) {
            (Some(r), _) => say!(
                "  board {k:>2}  {na} – {nb}   {}  [{}] (event {})",
                r.result.sentence(&na, &nb),
                key_of(r.result),
                r.seq
            ),
            (None, Some(f)) => {
                let chances = f.prediction.map_or("no forecast".to_string(), |p| {
                    let draw = if p.draw > 0.0 {
                        format!(", draw {:.0} %", 100.0 * p.draw)
                    } else {
                        String::new()
                    };
                    format!(
                        "{na} {:.0} %{draw}, {nb} {:.0} %",
                        100.0 * p.win_a,
                        100.0 * p.win_b
                    )
                });
                say!("  board {k:>2}  {na} – {nb}   {chances}");
                for (r, changes) in &f.outcomes {
                    say!(
                        "             {}: {}",
                        key_of(*r),
                        short_change(system, changes, &[*a, *b])
                    );
                }
            }
            (None, None) => say!("  board {k:>2}  {na} – {nb}"),
        }
    }
    if let Some(bye) = saved.round.bye {
        say!(
            "  bye        {} ({})",
            name(bye),
            match saved.round.bye_scores {
                rungs_ladder::event::ByeScore::Win => "a win by forfeit: 1 point in the event",
                rungs_ladder::event::ByeScore::Nothing => "no point",
            }
        );
    }
    Ok(())
}

/// The date a forecast is made for: today, or the ladder's latest date if later.
fn today_or(ladder: &rungs_ladder::replay::Ladder) -> chrono::NaiveDate {
    let today = action::today();
    ladder.last_date.map_or(today, |d| d.max(today))
}

/// `rungs result FILE ROUND BOARD SCORE`.
pub fn result(
    file: &Path,
    round: &str,
    board: &str,
    score: &str,
    date: Option<&str>,
    json: bool,
) -> Result<()> {
    let (mut store, before) = open(file)?;
    let ctx = context(file, &before);
    let book = book(&store)?;
    let n = ctx.round_number(&book, "round", round)?;
    let boards = book.rounds.get(&n).map_or(0, |r| r.round.boards.len());
    let k: u32 = board
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|k| u32::try_from(k).ok())
        .filter(|k| (1..=boards as u32).contains(k))
        .ok_or_else(|| {
            ActionError::invalid(
                &ctx.at,
                "board",
                board,
                format!("is no board of round {n}, which has boards 1–{boards}"),
            )
        })?;
    // The keys of the Tonight screen read as they do there: 2 is side B's win.
    let score = match score.trim() {
        "2" => "0",
        "F" | "f" => "forfeit-b",
        other => other,
    };
    let act = Action::board_result(&ctx, &book, n, k, score, date)?;
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

/// `rungs forbid|unforbid|avoid|unavoid FILE A B`.
pub fn pair_rule(args: &PairRuleArgs, rule: PairRule, lift: bool) -> Result<()> {
    let file = &args.file;
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let book = book(&store)?;
    let act = if lift {
        Action::lift_pair_rule(&ctx, &book, &args.a, &args.b, rule, args.date.as_deref())?
    } else {
        Action::pair_rule(&ctx, &book, &args.a, &args.b, rule, args.date.as_deref())?
    };
    action::apply(&mut store, &act)?;
    say!("{} ({})", act.label(), shown(file));
    Ok(())
}
