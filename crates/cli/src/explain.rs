//! `rungs explain FILE EVENT [PLAYER]`: why an event moved each player's figures, in the
//! rating system's own terms (`rungs_analysis::explain`).

use super::common::{open, shown};
use anyhow::{Result, anyhow};
use rungs_analysis::explain::{Explanation, explain as derive};
use rungs_gate::{ActionError, Place, Roster};
use std::path::Path;

pub fn explain(file: &Path, event: &str, player: Option<&str>, json: bool) -> Result<()> {
    let seq: u64 = event.trim().parse().map_err(|_| {
        anyhow!(
            "{}: field `event`: `{}` is not an event's sequence number (a whole number, as \
             `rungs events` lists them)",
            shown(file),
            rungs_ladder::values::shown(event)
        )
    })?;
    let (store, ladder) = open(file)?;
    let place = Place::file(shown(file));
    let id = match player {
        Some(name) => Some(Roster::new(&ladder).player(&place, "player", name)?),
        None => None,
    };
    let events = store.effective()?;
    if !events.iter().any(|e| e.seq == seq) {
        return Err(ActionError::NoEvent { at: place, seq }.into());
    }
    let explanation = derive(&store.initial_rules()?, &events, seq, id)
        .map_err(|e| anyhow!("{}: {e} (see `rungs events`)", shown(file)))?;
    if json {
        say!("{}", serde_json::to_string_pretty(&explanation)?);
    } else {
        print_text(&explanation);
    }
    Ok(())
}

fn print_text(x: &Explanation) {
    say!("Event {} on {}: {} ({})", x.seq, x.date, x.event, x.system);
    for p in &x.players {
        say!("");
        say!("{}", rungs_ladder::values::shown(&p.name));
        for section in &p.sections {
            say!("  {}", section.title);
            let width = section
                .steps
                .iter()
                .map(|s| s.symbol.chars().count())
                .max()
                .unwrap_or(0);
            for s in &section.steps {
                // Every figure in full (the shortest text that reads back to the same
                // number), so that the printed figures add up to the stored ones exactly.
                let value = s.value.to_string();
                if s.formula == s.symbol {
                    say!("    {:width$} = {value:<22}  {}", s.symbol, s.name);
                } else {
                    say!(
                        "    {:width$} = {value:<22}  {}: {}",
                        s.symbol,
                        s.name,
                        s.formula
                    );
                }
            }
        }
    }
}
