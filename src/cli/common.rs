//! What every command group shares: opening a ladder, the gate's context for a command,
//! plural words and a spinner. A leaf: it imports no other CLI module.

use crate::action::{self, Context};
use crate::ladder::replay::Ladder;
use crate::store::Store;
use anyhow::Result;
use indicatif::ProgressBar;
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
