//! Matches: enter, edit, delete; and undo and redo of any change.

use super::common::{context, open, shown};
use super::output;
use anyhow::{Result, bail};
use rungs_gate::matches::{MatchEdit, MatchInput};
use rungs_gate::{self as action, Action, ActionError, Place};
use rungs_ladder::event::{Entry, Event};
use rungs_store::Store;
use std::path::Path;

/// `A B SCORE`, or `SCORE` with --team-a and --team-b, as a match to check.
pub fn input(
    args: &[String],
    team_a: Option<String>,
    team_b: Option<String>,
    date: Option<String>,
    medals: Option<String>,
    scenario: Option<String>,
    side_a: Option<String>,
) -> Result<MatchInput> {
    let (a, b, result) = match (args, team_a, team_b) {
        ([score], Some(ta), Some(tb)) => (ta, tb, score.clone()),
        ([a, b, score], None, None) => (a.clone(), b.clone(), score.clone()),
        _ => bail!("give `A B SCORE`, or `SCORE` with --team-a and --team-b"),
    };
    Ok(MatchInput {
        date,
        a,
        b,
        result,
        medals,
        scenario,
        side_a,
        home: None,
        score: None,
        class: None,
    })
}

pub fn add(file: &Path, input: &MatchInput, json: bool) -> Result<()> {
    let (mut store, before) = open(file)?;
    let act = Action::add_match(&context(file, &before), input)?;
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

/// Event `seq` as it stands, or the error that names it.
fn event(store: &Store, file: &Path, seq: u64) -> Result<rungs_ladder::log::Effective> {
    store.event(seq)?.ok_or_else(|| {
        ActionError::NoEvent {
            at: Place::file(shown(file)),
            seq,
        }
        .into()
    })
}

pub fn edit(file: &Path, seq: u64, edit: &MatchEdit) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let current = event(&store, file, seq)?;
    let act = Action::edit_match(&context(file, &ladder), &current, edit)?;
    action::apply(&mut store, &act)?;
    say!("event {seq}: {}", act.label());
    Ok(())
}

pub fn delete(file: &Path, seq: u64) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let current = event(&store, file, seq)?;
    let act = Action::delete_event(&context(file, &ladder), &current)?;
    action::apply(&mut store, &act)?;
    say!("event {seq}: {}", act.label());
    Ok(())
}

pub fn undo(file: &Path, undo: bool) -> Result<()> {
    let mut store = Store::open(file)?;
    let label = action::undo(&mut store, !undo)?;
    say!("{} {label}", if undo { "undid:" } else { "redid:" });
    Ok(())
}
