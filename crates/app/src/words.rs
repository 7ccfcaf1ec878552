//! The app's own words for what went wrong. The gate's [`ActionError`] is data (what, which
//! field, which players, what to do); the command line prints it as `rungs` always has, and
//! the app says it here: the field by its label on the screen, the fix as a button where
//! there is one (see [`fix`]), a file's path only where a file is the subject, and never a
//! `rungs …` command.

use super::command::Screen;
use super::error::AppError;
use rungs_gate::error::Unknown;
use rungs_gate::{ActionError, Fix, Place};
use rungs_interchange::csv_matches::{CsvError, CsvProblem};
use rungs_ladder::rules::{ParamError, Rules};
use rungs_ladder::systems::System;
use rungs_store::StoreError;

/// Where a field was typed: a screen's own form, or the edit window (opened from Enter match
/// or from Matches), whose fields say "Match date", "Side A" and "Side B".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Screen(Screen),
    EditWindow,
}

impl From<Screen> for Form {
    fn from(screen: Screen) -> Form {
        match screen {
            // Matches has no form of its own that the gate checks: it edits in the window.
            Screen::Matches => Form::EditWindow,
            other => Form::Screen(other),
        }
    }
}

/// A field's label where it was typed (`player_a` is "Player A" on Enter match, "Side A" in
/// the edit window).
pub fn field_label(field: &str, form: impl Into<Form>) -> &str {
    use Form::EditWindow;
    let screen = match form.into() {
        Form::Screen(screen) => Some(screen),
        EditWindow => None,
    };
    match (field, screen) {
        ("player_a", None) => "Side A",
        ("player_b", None) => "Side B",
        ("date", None) => "Match date",
        ("player_a", _) => "Player A",
        ("player_b", _) => "Player B",
        ("date", Some(Screen::EnterMatch)) => "Date",
        ("date", Some(Screen::Settings)) => "From",
        ("date", _) => "Date",
        ("score", _) => "Result",
        ("goals", _) => "Score",
        ("medals", _) => "Medals",
        ("scenario", _) => "Scenario",
        ("side_a", _) => "A's side",
        ("home", _) => "Home",
        ("name", Some(Screen::Players)) => "New player",
        ("name", _) => "Name",
        ("cutoffs", _) => "Cutoffs",
        ("elo", _) => "Elo list",
        ("calendar", _) => "Calendar",
        ("soft-every", _) => "Soft reset every",
        ("hard-every", _) => "Season ends every",
        ("anchor", _) => "Counted from",
        ("challenger", _) => "Challenger",
        ("defender", _) => "Defender",
        (other, _) => other,
    }
}

/// A ladder's rules as the screens name them: "Elo, K factor 24" or "Skyweaver (defaults)" —
/// the system by its name and each parameter that differs from the default by its label
/// (Elo's K always), where the log and the command line write `Elo K=24`.
pub fn rules(rules: &Rules) -> String {
    let system = rules.system();
    let defaults = Rules::defaults(system);
    let elo = system == System::Elo;
    let parts: Vec<String> = rules
        .param_values()
        .into_iter()
        .filter(|(p, v)| (elo && p.name == "k") || defaults.param(p.name) != Some(*v))
        .map(|(p, v)| format!("{} {}", p.label, p.value_text(v)))
        .collect();
    let base = if parts.is_empty() {
        format!("{} (defaults)", system.label())
    } else {
        format!("{}, {}", system.label(), parts.join(", "))
    };
    match rules.calendar.schedule() {
        None => base,
        Some(_) => format!("{base}, calendar {}", rules.calendar.brief()),
    }
}

/// Text quoted in a message: control characters escaped, cut at 60 characters.
fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(60).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("“{}{more}”", head.escape_debug())
}

/// "matches.csv, line 12: " where the problem is in an input file's line; nothing where it
/// is in the ladder itself (the window's title names that file).
fn place(at: &Place) -> String {
    match at.line {
        Some(n) => format!("{}, line {n}: ", file_name(&at.file)),
        None => String::new(),
    }
}

/// A file's name without its folder (the title bar and the hover give the whole path).
fn file_name(path: &str) -> String {
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned());
    rungs_ladder::values::shown(&name).into_owned()
}

/// An action's refusal in the app's words, as said where it was typed.
pub fn action(e: &ActionError, screen: impl Into<Form>) -> String {
    let screen = screen.into();
    let at = e.place().map(place).unwrap_or_default();
    let label = e.field().map(|f| field_label(f, screen)).unwrap_or("");
    let said = match e {
        ActionError::Invalid { text, reason, .. } => format!("{label}: {} {reason}", quoted(text)),
        ActionError::UnknownPlayer { name, why, .. } => match why {
            Unknown::Nobody => format!("{label}: no player is called {}", quoted(name)),
            Unknown::NotAllowedNew => format!(
                "{label}: no player is called {}; add them first, or allow new players",
                quoted(name)
            ),
            Unknown::Alike(names) => {
                let names: Vec<String> = names.iter().map(|n| quoted(n)).collect();
                format!(
                    "{label}: {} players have names that look the same as {} ({}, from an \
                     older rungs); type one exactly as written, and rename it on Players",
                    names.len(),
                    quoted(name),
                    names.join(", ")
                )
            }
        },
        ActionError::NameTaken { name, existing, .. } => format!(
            "{label}: {} is taken by {} (names are compared without regard to case or accents)",
            quoted(name),
            quoted(existing)
        ),
        ActionError::PlayerTwice { name, where_, .. } => {
            format!("{name} is {where_} of the match")
        }
        ActionError::NotYetJoined {
            name, joined, date, ..
        } => format!(
            "{label}: {name} joined the ladder on {joined}, after {date}; date the match \
             {joined} or later"
        ),
        ActionError::Future {
            date, today, why, ..
        } => format!("{label}: {date} is in the future (today is {today}); {why}"),
        ActionError::NoEvent { .. } => {
            "that entry is no longer in the ladder (undone, or removed by another program)"
                .to_string()
        }
        ActionError::RenamedAgain {
            name, date, later, ..
        } => format!(
            "{name} is renamed again after {date}, so the ladder would still call them {later}; \
             date this rename after that one"
        ),
        ActionError::JoinDateOnly { .. } => {
            "this is a player joining: only its date can be changed".to_string()
        }
        ActionError::Refused { reason, .. } => reason.clone(),
        ActionError::ScoreAgainstResult {
            score, says, given, ..
        } => format!(
            "{label} {} says {says}, but the result says {given}: clear the score, or change \
             the score or the result so that they agree",
            quoted(score)
        ),
        ActionError::Param { error, .. } => param(error),
        ActionError::Csv(e) => return csv(e),
        ActionError::Replay { message, .. } => message.clone(),
        ActionError::Store(s) => return store(s),
        // An input file is the subject: its own message names it, its line and field.
        other => return other.to_string(),
    };
    format!("{at}{said}")
}

/// A parameter's label ("Starting RD"), whichever system declares `name`; the name itself
/// where none does.
fn param_label(name: &str) -> &str {
    System::ALL
        .iter()
        .find_map(|s| s.param(name))
        .map_or(name, |p| p.label)
}

/// A rating parameter that could not be set, by its label: "Starting RD: 9999 is outside its
/// range; give 30 to 500". An unknown one is said in one short line (the parameters are
/// listed where they are typed).
pub fn param(e: &ParamError) -> String {
    match e {
        ParamError::Syntax(text) => {
            format!(
                "{} is not a setting: write name=value, e.g. k=24",
                quoted(text)
            )
        }
        ParamError::Unknown { system, name, .. } => format!(
            "{} has no parameter called {}",
            system.label(),
            quoted(name)
        ),
        ParamError::Value { name, value } => {
            format!("{}: {} is not a number", param_label(name), quoted(value))
        }
        ParamError::Range {
            label,
            value,
            range,
            ..
        } => format!("{label}: {value} is outside its range; give {range}"),
        ParamError::Calendar(c) => c.to_string(),
    }
}

/// A match CSV's problem in the app's words: the file by its name, the line, the column,
/// and a date as an example rather than a strftime format; a file that is not text says so.
pub fn csv(e: &CsvError) -> String {
    let file = file_name(&e.file);
    let at = match e.line {
        0 => file.clone(),
        n => format!("{file}, line {n}"),
    };
    match e.problem.as_deref() {
        Some(CsvProblem::NotText) => format!(
            "{file} is not a text file, so it cannot be a list of matches: choose the CSV \
             file (text, one match a line) saved from the spreadsheet"
        ),
        Some(CsvProblem::Date { text, example }) => {
            let like = example
                .as_ref()
                .map(|x| format!("; write dates like {x}"))
                .unwrap_or_default();
            match text.as_str() {
                "" => format!("{at}: the date is missing{like}"),
                t => format!("{at}: {} is not a date{like}", quoted(t)),
            }
        }
        Some(CsvProblem::MissingColumn {
            column,
            columns,
            more,
        }) => {
            let has = if columns.is_empty() {
                "its first line names no columns".to_string()
            } else {
                let listed: Vec<String> = columns.iter().map(|c| format!("“{c}”")).collect();
                let more = match more {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                format!("its columns are {}{more}", listed.join(", "))
            };
            // The standard layout's columns are worth naming; a layout's other column
            // (the international results' "away_score") is named alone.
            let standard = ["date", "player_a", "player_b", "score"];
            let hint = if standard.contains(&column.as_str()) {
                ". A match file's first line names its columns: date, player_a, player_b, score"
            } else {
                ""
            };
            format!(
                "{file} has no column called {}; {has}{hint}",
                quoted(column)
            )
        }
        Some(CsvProblem::RepeatedColumn { column, places }) => format!(
            "{file}: the first line names the column {} twice (columns {} and {})",
            quoted(column),
            places[0],
            places[1]
        ),
        Some(CsvProblem::HalfMedals { present, absent }) => format!(
            "{file} has a column {} but none called {}: medals need both",
            quoted(present),
            quoted(absent)
        ),
        Some(CsvProblem::ShortRow {
            column,
            cells,
            header,
        }) => format!(
            "{at}: the line has {cells} cell{} where the first line names {header} columns, \
             so it has no {}",
            if *cells == 1 { "" } else { "s" },
            quoted(column)
        ),
        // A cell's problem: said with its column, by the header's name for it.
        None if e.line > 0 && e.field != "row" => {
            format!("{at}, column {}: {}", quoted(&e.field), e.message)
        }
        None => format!("{at}: {}", e.message),
    }
}

/// A store's refusal in the app's words: the open ladder is not named (the window's title
/// does), a file the app cannot use is.
pub fn store(e: &StoreError) -> String {
    match e {
        StoreError::ChangedMeanwhile { .. } => "another program changed the ladder while this \
            change was being made, so nothing was saved; the screens now show the ladder as it \
            is: make the change again if it still applies"
            .to_string(),
        // The file is the subject here: it may be one being opened, not the one open.
        StoreError::Stale { path, why } => format!(
            "{}: its saved figures are not those of its log ({why}); rungs does not show what \
             it cannot trust: Repair rebuilds them from the log",
            file_name(path)
        ),
        StoreError::Locked { waited, .. } => format!(
            "another program is using the ladder (waited {waited} s); try again when it has \
             finished"
        ),
        StoreError::ChangedWhileRead { .. } => "another program was writing the ladder while \
            rungs read it; nothing is wrong with the file — try again in a moment"
            .to_string(),
        StoreError::LeftMidChange { .. } => "a program writing the ladder stopped part way \
            through (an import killed while it wrote, most likely); rungs may not write this \
            file, so it cannot put it back: open it once with write access (as its owner) and \
            it is restored, without the unfinished change"
            .to_string(),
        StoreError::DiskFull(_) => "the disk is full; nothing was changed".to_string(),
        StoreError::Cancelled => "stopped; the ladder is unchanged".to_string(),
        other => other.to_string(),
    }
}

/// Anything the app says went wrong, in its words, on `screen`.
pub fn app(e: &AppError, screen: impl Into<Form>) -> String {
    let screen = screen.into();
    match e {
        AppError::Action(a) => action(a, screen),
        AppError::Store(s) => store(s),
        AppError::AlreadyImported { error, .. } => action(error, screen),
        other => other.to_string(),
    }
}

/// The button that fixes it, if there is one: its words and what it asks for.
pub fn fix(e: &AppError) -> Option<Fix> {
    match e {
        AppError::Action(a) => a.fix(),
        _ => None,
    }
}

/// A fix's button: "Add Portu as a player".
pub fn fix_button(fix: &Fix) -> String {
    match fix {
        Fix::AddPlayer(name) => format!("Add {} as a player", rungs_ladder::values::shown(name)),
    }
}

/// What a fix's button asks for.
pub fn fix_command(fix: &Fix) -> super::command::Command {
    match fix {
        Fix::AddPlayer(name) => super::command::Command::AddPlayer(name.clone()),
    }
}

/// An action as the app says it (a preview's title, what Apply did): its label, a rules
/// change in the screens' words (the system by its name, each changed parameter by its label,
/// new tier minimums) rather than the log's code names.
pub fn change(act: &rungs_gate::Action, before: &Rules) -> String {
    use super::widgets;
    use rungs_ladder::event::{Entry, Event};
    let Some((
        date,
        Entry::Add {
            event: Event::Rules { rules },
        },
    )) = act.rows().first()
    else {
        return act.label().to_string();
    };
    if **rules == *before {
        return act.label().to_string();
    }
    let mut parts = Vec::new();
    if rules.system() != before.system() {
        parts.push(format!(
            "{} → {}",
            before.system().label(),
            rules.system().label()
        ));
    } else {
        for (spec, value) in rules.param_values() {
            if before.param(spec.name) != Some(value) {
                parts.push(format!("{} {}", spec.label, widgets::number(value)));
            }
        }
    }
    let (minimums, were) = (rules.tier_table(), before.tier_table());
    if minimums != were {
        let numbers: Vec<String> = minimums
            .minimums()
            .iter()
            .map(|m| widgets::number(*m))
            .collect();
        parts.push(format!(
            "tier minimums {} (Wanderer to Master)",
            numbers.join(", ")
        ));
    }
    if rules.calendar != before.calendar {
        parts.push(format!("calendar {}", rules.calendar.brief()));
    }
    format!("rules from {date}: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_player_names_the_field_by_its_label_and_offers_to_add_them() {
        let e = ActionError::UnknownPlayer {
            at: Place::file("/home/ann/demo.rungs"),
            field: "player_b".into(),
            name: "Portu".into(),
            why: Unknown::Nobody,
        };
        let cli = e.to_string();
        assert_eq!(
            cli,
            "/home/ann/demo.rungs: field `player_b`: unknown player `Portu`; add them first \
             (Players, or `rungs add-player`)"
        );
        let app = action(&e, Screen::EnterMatch);
        assert_eq!(app, "Player B: no player is called “Portu”");
        assert_eq!(
            fix(&AppError::Action(e))
                .as_ref()
                .map(fix_button)
                .as_deref(),
            Some("Add Portu as a player")
        );
    }

    #[test]
    fn an_input_files_line_is_named_but_not_the_ladder() {
        let e = ActionError::invalid(
            &Place::line("/tmp/in/matches.csv", 12),
            "date",
            "x",
            "is no date",
        );
        assert_eq!(
            action(&e, Screen::EnterMatch),
            "matches.csv, line 12: Date: “x” is no date"
        );
        let e = ActionError::invalid(&Place::file("/tmp/club.rungs"), "date", "x", "is no date");
        assert_eq!(action(&e, Screen::Settings), "From: “x” is no date");
    }

    /// A score that says another result than the one chosen: the command line says its
    /// flags, the app the Score field by its label and what can be done on the form.
    #[test]
    fn a_score_against_the_result_is_said_in_each_doors_words() {
        let e = ActionError::ScoreAgainstResult {
            at: Place::file("/tmp/club.rungs"),
            score: "2-1".into(),
            says: "Scotland beat England".into(),
            given: "Scotland drew with England".into(),
        };
        assert_eq!(
            e.to_string(),
            "/tmp/club.rungs: field `goals`: `2-1` says Scotland beat England, but the result \
             says Scotland drew with England; a score decides the result: give `--goals` \
             without a result, or remove the score with `--goals ''`"
        );
        for form in [Form::Screen(Screen::EnterMatch), Form::EditWindow] {
            assert_eq!(
                action(&e, form),
                "Score “2-1” says Scotland beat England, but the result says Scotland drew with \
                 England: clear the score, or change the score or the result so that they agree"
            );
        }
    }
}
