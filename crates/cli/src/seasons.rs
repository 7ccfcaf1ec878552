//! Ladder-wide changes: the season buttons, rules, migration, scenario figures. Those that
//! reshape every player print the same table previewed or done.

use super::args::RulesArgs;
use super::common::{context, open, shown};
use super::output;
use anyhow::{Context as _, Result};
use rungs_gate::seasons::parse_cutoffs;
use rungs_gate::{self as action, Action, ActionError, Place};
use rungs_interchange::elo_list;
use rungs_ladder::preview;
use rungs_ladder::seasons::Cutoffs;
use rungs_store::Store;
use std::path::Path;

/// Previews `act`, or commits it and shows what it did: the same table either way.
fn previewed(store: &mut Store, act: &Action, preview: bool, json: bool) -> Result<()> {
    let (before, after) = action::preview(store, act)?;
    if !preview {
        action::apply(store, act)?;
    }
    let changes = preview::changes(&before, &after);
    let title = if preview {
        format!("Preview — {} (nothing changed)", act.label())
    } else {
        format!("Done — {}", act.label())
    };
    output::changes(&title, &changes, json);
    if let Some(note) = action::preview_note(act, &before).filter(|_| !json) {
        say!("{note}");
    }
    Ok(())
}

pub fn reset(file: &Path, hard: bool, date: Option<&str>, preview: bool, json: bool) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let act = if hard {
        Action::hard_reset(&ctx, date)?
    } else {
        Action::soft_reset(&ctx, date)?
    };
    previewed(&mut store, &act, preview, json)
}

pub fn rules(file: &Path, args: &RulesArgs, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let at = Place::file(shown(file));
    let ctx = context(file, &ladder);
    // A change dated in the past starts from the rules in force on its date.
    let in_force = store.rules_on(ctx.date("date", date)?)?;
    let rules = super::common::rules_of(&at, args, Some(&in_force))?;
    let act = Action::change_rules(&ctx, rules, &in_force, date)?;
    action::apply(&mut store, &act)?;
    let day = act.rows()[0].0;
    if ladder.last_date.is_some_and(|last| day <= last) {
        say!("rules changed from {day}, after any events already entered for that day");
    } else {
        say!("rules changed from {day}");
    }
    Ok(())
}

pub fn migrate(
    file: &Path,
    list: Option<&Path>,
    from_elo: bool,
    cutoffs: Option<&str>,
    date: Option<&str>,
    preview: bool,
    json: bool,
) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let mut ctx = context(file, &ladder);
    let cutoffs = match cutoffs {
        Some(text) => parse_cutoffs(&ctx.at, text)?,
        None => Cutoffs::default(),
    };
    let act = match (list, from_elo) {
        (Some(list), false) => {
            let name = list.display().to_string();
            let handle =
                std::fs::File::open(list).with_context(|| format!("{name}: cannot open"))?;
            let lines = elo_list::read(std::io::BufReader::new(handle), &name)
                .map_err(ActionError::from)?;
            Action::migrate_list(&mut ctx, &name, &lines, &cutoffs, date)?
        }
        (None, true) => Action::migrate_from_elo(&ctx, &cutoffs, date)?,
        _ => {
            return Err(
                ActionError::refused(&ctx.at, "give an Elo list (CSV), or --from-elo").into(),
            );
        }
    };
    previewed(&mut store, &act, preview, json)
}

pub fn scenario(
    file: &Path,
    name: &str,
    sides: &str,
    ratio: &str,
    averages: &str,
    date: Option<&str>,
) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let act = Action::set_scenario(&context(file, &ladder), name, sides, ratio, averages, date)?;
    action::apply(&mut store, &act)?;
    say!("scenario figures set from {}", act.rows()[0].0);
    Ok(())
}
