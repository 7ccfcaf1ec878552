//! Looking after a ladder file: `rungs check` reads everything and changes nothing; `rungs
//! repair` rebuilds the caches from the log.

use super::common::shown;
use anyhow::{Result, bail};
use rungs_store::Store;
use serde_json::json;
use std::path::Path;

fn plural(n: u64, what: &str) -> String {
    super::common::plural(n as usize, what)
}

pub fn check(file: &Path, json: bool) -> Result<()> {
    let name = shown(file);
    let report = Store::check(file)?;
    let problems = report.problems.len() + report.more;
    if json {
        say!(
            "{}",
            json!({
                "file": name,
                "sound": report.is_sound(),
                "actions": report.actions,
                "rows": report.rows,
                "events": report.events,
                "players": report.players,
                "problems": report.problems,
                "more_problems": report.more,
            })
        );
    } else if report.is_sound() {
        say!(
            "{name}: sound — SQLite's integrity check passed; {} and {} read, every row well \
             formed; the caches were made from this log and equal a fresh replay of it ({}, {})",
            plural(report.actions as u64, "action"),
            plural(report.rows as u64, "log row"),
            plural(report.events as u64, "event"),
            plural(report.players as u64, "player")
        );
    } else {
        say!("{name}: {}:", plural(problems as u64, "problem"));
        for p in &report.problems {
            say!("  {}", super::output::shown(p));
        }
        if report.more > 0 {
            say!("  … and {} more", report.more);
        }
    }
    if !report.is_sound() {
        bail!(
            "{name}: {} found (listed above); `rungs repair {name}` rebuilds the caches from the \
             log (it cannot mend the log itself)",
            plural(problems as u64, "problem")
        );
    }
    Ok(())
}

pub fn repair(file: &Path) -> Result<()> {
    let name = shown(file);
    let done = Store::repair(file)?;
    let what = format!(
        "{} and {} replayed",
        plural(done.events as u64, "event"),
        plural(done.players as u64, "player")
    );
    match done.was_stale {
        Some(why) => say!(
            "repaired {name}: its caches were not those of its log ({why}); rebuilt them from \
             the log ({what}); the log was not changed"
        ),
        None => say!("rebuilt the caches of {name} from its log ({what}); the log was not changed"),
    }
    Ok(())
}
