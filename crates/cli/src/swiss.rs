//! A ladder's Swiss events: `rungs crosstable` (the event's standings with FIDE's
//! tie-breaks and each round's opponent, colour and result), and the event out to and in
//! from TRF-16 (`rungs export … out.trf`, `rungs import … event.trf`).

use super::common::{open, shown};
use anyhow::Result;
use rungs_gate::{self as action, ActionError, Place};
use rungs_ladder::rounds::Book;
use rungs_pairing::crosstable::{Cell, Crosstable, crosstable};
use rungs_pairing::dutch::Colour;
use rungs_pairing::night;
use rungs_pairing::swiss_event::SwissEvent;
use rungs_pairing::tiebreaks::TieBreak;
use serde_json::{Value, json};
use std::path::Path;

/// The Swiss event asked for: `N` (the number of its first round), or by default the latest.
pub fn event_number(at: &Place, book: &Book, asked: Option<&str>) -> Result<u32, ActionError> {
    match asked.map(str::trim) {
        None => book.latest_swiss().map(|(e, _)| e).ok_or_else(|| {
            ActionError::refused(
                at,
                "the ladder holds no Swiss event (rungs pair --format swiss --save begins one)",
            )
        }),
        Some(text) => text
            .parse::<u64>()
            .ok()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| book.rounds.get(n).and_then(|r| r.event()) == Some(*n))
            .ok_or_else(|| {
                ActionError::invalid(
                    at,
                    "event",
                    text,
                    format!(
                        "is not the first round of a Swiss event of this ladder (which holds {})",
                        book.held()
                    ),
                )
            }),
    }
}

/// The tie-breaks asked for, in order: names or C.07's abbreviations joined by commas.
pub fn tiebreaks(at: &Place, asked: Option<&str>) -> Result<Vec<TieBreak>, ActionError> {
    let Some(text) = asked else {
        return Ok(TieBreak::SWISS_DEFAULT.to_vec());
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        let Some(t) = TieBreak::parse(part) else {
            let names: Vec<&str> = TieBreak::ALL.iter().map(|t| t.name()).collect();
            return Err(ActionError::invalid(
                at,
                "tiebreaks",
                part,
                format!("is not a tie-break; choose from {}", names.join(", ")),
            ));
        };
        if out.contains(&t) {
            return Err(ActionError::invalid(
                at,
                "tiebreaks",
                part,
                "is named twice",
            ));
        }
        out.push(t);
    }
    Ok(out)
}

/// The crosstable of a Swiss event's rounds with every result in.
pub fn event_crosstable(event: &SwissEvent, order: &[TieBreak]) -> Crosstable {
    crosstable(&event.complete().players, order)
}

/// `rungs crosstable FILE`.
pub fn show(file: &Path, event: Option<&str>, order: Option<&str>, as_json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let at = Place::file(shown(file));
    let book = action::rounds::book(&store)?;
    let number = event_number(&at, &book, event)?;
    let order = tiebreaks(&at, order)?;
    let event = night::read_event(&ladder, &book, number);
    let table = event_crosstable(&event, &order);
    let complete = event.complete_rounds();
    let missing: Vec<String> = event
        .missing
        .iter()
        .map(|&(r, b, w, bl)| {
            let name = |id| {
                event.index(id).map_or("?".to_string(), |i| {
                    event.tournament.players[i].name.clone()
                })
            };
            format!("round {r}, board {b} ({} – {})", name(w), name(bl))
        })
        .collect();
    if as_json {
        say!(
            "{}",
            crosstable_json(number, &complete, &event, &table, &missing)
        );
        return Ok(());
    }
    say!(
        "Swiss event of round {number} — {} of {} rounds with every result{}",
        complete.len(),
        event.rounds.len(),
        match event.tournament.total_rounds {
            0 => String::new(),
            n => format!(" ({n} declared)"),
        }
    );
    let width = table
        .rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut head = format!("{:>3}  {:<width$}  {:>4}", "#", "Name", "Rtg");
    for r in &complete {
        head.push_str(&format!("  {:>5}", format!("R{r}")));
    }
    head.push_str(&format!("  {:>4}", "Pts"));
    for t in &table.tiebreaks {
        head.push_str(&format!("  {:>5}", t.abbreviation()));
    }
    say!("{}", head.trim_end());
    for row in &table.rows {
        let mut line = format!("{:>3}  {:<width$}  {:>4}", row.place, row.name, row.rating);
        for c in &row.cells {
            line.push_str(&format!("  {:>5}", c.text()));
        }
        line.push_str(&format!("  {:>4}", points(row.points)));
        for (t, v) in table.tiebreaks.iter().zip(&row.tiebreaks) {
            line.push_str(&format!("  {:>5}", t.format(*v)));
        }
        say!("{}", line.trim_end());
    }
    say!("(a cell: the opponent's place, w or b, the result; + and − a forfeit)");
    if !missing.is_empty() {
        say!("Results still to enter: {}", missing.join("; "));
    }
    Ok(())
}

fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

fn crosstable_json(
    number: u32,
    complete: &[u32],
    event: &SwissEvent,
    table: &Crosstable,
    missing: &[String],
) -> Value {
    let names: Vec<&str> = event
        .tournament
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    json!({
        "event": number,
        "rounds": complete,
        "declared_rounds": match event.tournament.total_rounds { 0 => None, n => Some(n) },
        "tiebreaks": table.tiebreaks.iter().map(|t| t.abbreviation()).collect::<Vec<_>>(),
        "missing": missing,
        "rows": table.rows.iter().map(|row| json!({
            "place": row.place,
            "name": row.name,
            "rating": row.rating,
            "points": row.points,
            "tiebreaks": table.tiebreaks.iter().zip(&row.tiebreaks)
                .map(|(t, v)| (t.abbreviation().to_string(), json!(finite(*v))))
                .collect::<serde_json::Map<_, _>>(),
            "rounds": row.cells.iter().zip(complete).map(|(c, r)| cell_json(*r, c, &names)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn cell_json(round: u32, c: &Cell, names: &[&str]) -> Value {
    let half = |h: u32| f64::from(h) / 2.0;
    match *c {
        Cell::Game {
            opponent,
            place,
            colour,
            points,
            forfeit,
        } => json!({
            "round": round,
            "opponent": names[opponent],
            "opponent_place": place,
            "colour": if colour == Colour::White { "white" } else { "black" },
            "points": half(points),
            "forfeit": forfeit,
            "text": c.text(),
        }),
        Cell::PairingBye { points } => json!({
            "round": round, "bye": true, "points": half(points), "text": c.text(),
        }),
        Cell::Absent { points } => json!({
            "round": round, "absent": true, "points": half(points), "text": c.text(),
        }),
    }
}

/// The most bytes a TRF may hold: a thousand players over fifty rounds is under 1 MiB.
const MAX_TRF_BYTES: u64 = 16 << 20;

/// `rungs export FILE OUT.trf`: the event's rounds with every result in, as TRF-16.
pub fn export_trf(file: &Path, out: &Path, event: Option<&str>) -> Result<()> {
    use rungs_interchange::out_file::OutFile;
    use rungs_interchange::trf::{self, TrfEvent};
    let (store, ladder) = open(file)?;
    let at = Place::file(shown(file));
    let book = action::rounds::book(&store)?;
    let number = event_number(&at, &book, event)?;
    let event = night::read_event(&ladder, &book, number);
    let stem = file
        .file_stem()
        .map_or("rungs".into(), |s| s.to_string_lossy().into_owned());
    let text = trf::write(&TrfEvent {
        name: event
            .name
            .clone()
            .unwrap_or_else(|| format!("{stem}, Swiss event of round {number}")),
        tournament: event.complete(),
        next_round: Vec::new(),
    })
    .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    let name = out.display().to_string();
    let mut w = OutFile::create(out, file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    std::io::Write::write_all(&mut w, text.as_bytes())
        .and_then(|()| w.commit())
        .map_err(|e| anyhow::anyhow!("{name}: cannot write: {e}"))?;
    let complete = event.complete_rounds().len();
    match event.rounds.len() - complete {
        0 => say!(
            "wrote {name} ({} players, {complete} rounds)",
            event.ids.len()
        ),
        waiting => say!(
            "wrote {name} ({} players, {complete} rounds; {waiting} more await results and \
             are left out)",
            event.ids.len()
        ),
    }
    Ok(())
}

/// `rungs import FILE EVENT.trf`: the event into the ladder, one undoable step.
pub fn import_trf(file: &Path, input: &Path, allow_new: bool, as_json: bool) -> Result<()> {
    let name = input.display().to_string();
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(
            std::fs::File::open(input).map_err(|e| anyhow::anyhow!("{name}: cannot read: {e}"))?,
            MAX_TRF_BYTES + 1,
        ),
        &mut text,
    )
    .map_err(|e| anyhow::anyhow!("{name}: cannot read (a TRF is text, as UTF-8): {e}"))?;
    if text.len() as u64 > MAX_TRF_BYTES {
        anyhow::bail!(
            "{name}: larger than {} MiB; a TRF of an event is far smaller",
            MAX_TRF_BYTES >> 20
        );
    }
    let trf = rungs_interchange::trf::read(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let (mut store, ladder) = open(file)?;
    let book = action::rounds::book(&store)?;
    let mut ctx = super::common::context(file, &ladder);
    ctx.at = Place::file(name.clone());
    let (act, summary) =
        action::Action::import_event(&mut ctx, &book, &trf, action::today(), allow_new)?;
    action::apply(&mut store, &act)?;
    if as_json {
        say!(
            "{}",
            json!({
                "event": summary.first_round,
                "name": summary.name,
                "players": summary.players,
                "new_players": summary.new_players,
                "rounds": summary.rounds,
                "results": summary.results,
            })
        );
    } else {
        say!(
            "imported {} as the Swiss event of round {}: {} players ({} new), {} rounds, {} \
             results; `rungs undo` takes it back",
            summary.name,
            summary.first_round,
            summary.players,
            summary.new_players,
            summary.rounds,
            summary.results
        );
    }
    Ok(())
}
