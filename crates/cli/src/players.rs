//! Players: add, rename, retire and bring back.

use super::common::{context, open, plural};
use anyhow::Result;
use rungs_gate::{self as action, Action};
use std::path::Path;

pub fn add(file: &Path, names: &[String], date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let act = Action::add_players(&mut context(file, &ladder), &names, date)?;
    action::apply(&mut store, &act)?;
    say!("added {}", plural(names.len(), "player"));
    Ok(())
}

pub fn rename(file: &Path, old: &str, new: &str, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let act = Action::rename(&context(file, &ladder), old, new, date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}

pub fn retire(file: &Path, player: &str, retired: bool, date: Option<&str>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let act = Action::retire(&context(file, &ladder), player, retired, date)?;
    action::apply(&mut store, &act)?;
    say!("{}", act.label());
    Ok(())
}
