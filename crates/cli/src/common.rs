//! What every command group shares: opening a ladder, the gate's context for a command,
//! plural words and a spinner. A leaf: it imports no other CLI module.

use anyhow::Result;
use indicatif::ProgressBar;
use rungs_gate::{self as action, Context};
use rungs_ladder::replay::Ladder;
use rungs_store::Store;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// The file's name as messages show it.
pub fn shown(file: &Path) -> String {
    file.display().to_string()
}

/// Opens a ladder with its cached state.
pub fn open(file: &Path) -> Result<(Store, Ladder)> {
    let store = Store::open(file)?;
    let ladder = store.ladder()?;
    Ok((store, ladder))
}

/// What the gate checks a command's change against.
pub fn context<'a>(file: &Path, ladder: &'a Ladder) -> Context<'a> {
    Context::new(ladder, shown(file), action::today())
}

pub fn plural(n: usize, what: &str) -> String {
    match (n, what.ends_with("ch")) {
        (1, _) => format!("1 {what}"),
        (_, true) => format!("{n} {what}es"),
        _ => format!("{n} {what}s"),
    }
}

/// A spinner on stderr when `show` and stdout is a terminal; hidden otherwise.
pub fn spinner(show: bool, message: &'static str) -> ProgressBar {
    if !show || !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_message(message);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// The rules a command's `--system`, `--param` and calendar flags ask for, on `base`,
/// through the gate's checks.
pub fn rules_of(
    at: &action::Place,
    args: &super::args::RulesArgs,
    base: Option<&rungs_ladder::rules::Rules>,
) -> Result<rungs_ladder::rules::Rules> {
    Ok(action::seasons::rules_with_calendar(
        at,
        args.system.as_deref(),
        &args.params,
        &calendar_input(&args.calendar),
        base,
    )?)
}

/// The calendar flags as typed.
pub fn calendar_input(args: &super::args::CalendarArgs) -> action::seasons::CalendarInput<'_> {
    action::seasons::CalendarInput {
        calendar: args.calendar.as_deref(),
        soft_every: args.soft_every.as_deref(),
        hard_every: args.hard_every.as_deref(),
        anchor: args.anchor.as_deref(),
    }
}

/// A rules change made from a figure the command worked out (a fit, tier minimums): the
/// players it moves previewed (unless `json`), then applied, then said with the event it
/// became and how to take it back. The changes and the event's number.
pub fn rules_change_applied(
    store: &mut Store,
    file: &Path,
    act: &action::Action,
    json: bool,
) -> Result<(Vec<rungs_ladder::preview::Change>, u64), action::ActionError> {
    let (before, after) = action::preview(store, act)?;
    let changes = rungs_ladder::preview::changes(&before, &after);
    if !json {
        say!("");
        super::output::changes(
            &format!("Preview — {} (what the change does)", act.label()),
            &changes,
            false,
        );
    }
    let seq = action::apply(store, act)?.first().copied().unwrap_or(0);
    if !json {
        let from = act.rows().first().map(|(day, _)| day.to_string());
        say!(
            "Done — {} recorded as event {seq}, from {}; `rungs undo {}` takes it back",
            act.label(),
            from.unwrap_or_default(),
            file.display()
        );
    }
    Ok((changes, seq))
}
