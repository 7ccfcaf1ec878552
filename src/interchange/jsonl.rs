//! The full log as JSON Lines (SPEC §4): lossless, so that importing an export replays to
//! identical standings.
//!
//! Line 1 is a header, `{"rungs_log": 1, "rules": …}` with the rules the ladder was created
//! with. Every later line is either a log row, `{"action": 3, "action_kind": "do", "label":
//! "add match", "seq": 17, "date": "2026-11-20", "op": "add", "event": {…}}`, or an undo or
//! redo, `{"action": 4, "action_kind": "undo", "label": "add match"}`.

use crate::ladder::event::{Entry, Event, LogRow, PlayerId};
use crate::ladder::rules::Rules;
use crate::ladder::values::{self, PlayerName};
use crate::store::export::{ActionKind, Log, LogAction};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};

pub const FORMAT_VERSION: u64 = 1;

/// A bad line of a JSONL log.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: line {line}, field `{field}`: {message}")]
pub struct JsonlError {
    pub file: String,
    pub line: u64,
    pub field: String,
    pub message: String,
}

/// Writes `log` as JSON Lines.
pub fn write(log: &Log, out: &mut impl Write) -> std::io::Result<()> {
    let header = json!({ "rungs_log": FORMAT_VERSION, "rules": log.rules });
    writeln!(out, "{header}")?;
    for action in &log.actions {
        let base = |m: &mut Map<String, Value>| {
            m.insert("action".into(), json!(action.id));
            m.insert("action_kind".into(), json!(action.kind.as_str()));
            m.insert("label".into(), json!(action.label));
        };
        if action.rows.is_empty() {
            let mut m = Map::new();
            base(&mut m);
            writeln!(out, "{}", Value::Object(m))?;
        }
        for row in &action.rows {
            let mut value = serde_json::to_value(row).map_err(std::io::Error::other)?;
            if let Value::Object(m) = &mut value {
                base(m);
            }
            writeln!(out, "{value}")?;
        }
    }
    Ok(())
}

/// Reads a JSONL log, checking every line; the first bad line is the error.
pub fn read(input: impl BufRead, file: &str) -> Result<Log, JsonlError> {
    let err = |line: u64, field: &str, message: String| JsonlError {
        file: file.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut rules = None;
    let mut checks = Checks::default();
    let mut actions: Vec<LogAction> = Vec::new();
    let mut last_seq = 0u64;
    for (i, line) in input.lines().enumerate() {
        let n = i as u64 + 1;
        let line = line.map_err(|e| err(n, "line", format!("cannot be read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(&line).map_err(|e| err(n, "line", format!("not JSON: {e}")))?;
        let Value::Object(obj) = value else {
            return Err(err(n, "line", "not a JSON object".into()));
        };
        if rules.is_none() {
            match obj.get("rungs_log").and_then(Value::as_u64) {
                Some(FORMAT_VERSION) => {}
                Some(v) => {
                    return Err(err(
                        n,
                        "rungs_log",
                        format!("format {v} is newer than this rungs reads ({FORMAT_VERSION})"),
                    ));
                }
                None => {
                    return Err(err(
                        n,
                        "rungs_log",
                        "the first line must be the rungs log header".into(),
                    ));
                }
            }
            let r = obj
                .get("rules")
                .cloned()
                .ok_or_else(|| err(n, "rules", "missing".into()))?;
            let header: Rules =
                serde_json::from_value(r).map_err(|e| err(n, "rules", e.to_string()))?;
            header.check().map_err(|e| err(n, "rules", e.to_string()))?;
            rules = Some(header);
            continue;
        }
        let id = obj
            .get("action")
            .and_then(Value::as_i64)
            .filter(|&a| a > 0)
            .ok_or_else(|| err(n, "action", "missing or not a positive whole number".into()))?;
        let kind = obj
            .get("action_kind")
            .and_then(Value::as_str)
            .and_then(ActionKind::parse)
            .ok_or_else(|| {
                err(
                    n,
                    "action_kind",
                    "must be \"do\", \"undo\" or \"redo\"".into(),
                )
            })?;
        let label = obj
            .get("label")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let same_action = actions.last().is_some_and(|a| a.id == id);
        if !same_action {
            if actions.last().is_some_and(|a| a.id >= id) {
                return Err(err(n, "action", format!("{id} is out of order")));
            }
            actions.push(LogAction {
                id,
                kind,
                label,
                rows: Vec::new(),
            });
        }
        if !obj.contains_key("seq") && !obj.contains_key("op") {
            if kind == ActionKind::Do {
                return Err(err(n, "op", "a \"do\" action must carry a log row".into()));
            }
            continue;
        }
        if kind != ActionKind::Do {
            return Err(err(
                n,
                "action_kind",
                "undo and redo carry no log rows".into(),
            ));
        }
        let seq = obj
            .get("seq")
            .and_then(Value::as_u64)
            .filter(|&s| s > last_seq)
            .ok_or_else(|| {
                err(
                    n,
                    "seq",
                    format!("missing, or not a whole number above {last_seq}"),
                )
            })?;
        let date = obj.get("date").and_then(Value::as_str).unwrap_or("");
        if let Err(e) = crate::ladder::values::Day::parse(date) {
            return Err(err(n, "date", format!("`{}` {e}", date.escape_debug())));
        }
        let row: LogRow = serde_json::from_value(Value::Object(obj)).map_err(|e| {
            let text = e.to_string();
            let field = text
                .split('`')
                .nth(1)
                .filter(|_| text.contains("field"))
                .unwrap_or("event")
                .to_string();
            err(n, &field, text)
        })?;
        let mut row = row;
        if let Entry::Add { event } | Entry::Edit { event, .. } = &mut row.entry {
            checks
                .event(event)
                .map_err(|(field, message)| err(n, field, message))?;
        }
        last_seq = seq;
        if let Some(a) = actions.last_mut() {
            a.rows.push(row);
        }
    }
    let rules = rules.ok_or_else(|| err(1, "rungs_log", "the file is empty".into()))?;
    Ok(Log { rules, actions })
}

/// What the log's lines have said so far, for checking each event as rungs' own gate would:
/// names valid and unique (case and Unicode form aside), numbers in range, and player ids
/// bounded by the joins seen (an id cannot make replay allocate for players who do not exist).
#[derive(Default)]
struct Checks {
    joins: u64,
    /// Name key → the player holding it and the name as written.
    names: HashMap<String, (PlayerId, String)>,
    /// Player → the key of their current name (a rename frees the old one).
    keys: HashMap<PlayerId, String>,
}

type Problem = (&'static str, String);

impl Checks {
    fn player(&self, id: PlayerId) -> Result<(), Problem> {
        if u64::from(id) < self.joins {
            Ok(())
        } else {
            Err((
                "event",
                format!(
                    "player id {id} has not joined by this line ({} joins so far)",
                    self.joins
                ),
            ))
        }
    }

    fn name(&mut self, id: PlayerId, name: &mut String) -> Result<(), Problem> {
        let clean = PlayerName::parse(name).map_err(|e| {
            (
                "name",
                format!("`{}` is not a name: it {e}", name.escape_debug()),
            )
        })?;
        if let Some((other, taken)) = self.names.get(&clean.key())
            && *other != id
        {
            return Err((
                "name",
                format!(
                    "`{clean}` is already the name `{taken}` of another player; names are \
                     compared without regard to case or Unicode form"
                ),
            ));
        }
        if let Some(old) = self.keys.insert(id, clean.key()) {
            self.names.remove(&old);
        }
        self.names.insert(clean.key(), (id, clean.to_string()));
        *name = clean.into_string();
        Ok(())
    }

    fn event(&mut self, event: &mut Event) -> Result<(), Problem> {
        let label = |field: &'static str, text: &mut String| -> Result<(), Problem> {
            *text = values::label(text).map_err(|e| {
                (
                    field,
                    format!("`{}` is not usable: it {e}", text.escape_debug()),
                )
            })?;
            Ok(())
        };
        match event {
            Event::Player { id, name, .. } => {
                if u64::from(*id) > self.joins {
                    return Err((
                        "event",
                        format!("player id {id} skips ids: the next join is {}", self.joins),
                    ));
                }
                self.joins = self.joins.max(u64::from(*id) + 1);
                self.name(*id, name)
            }
            Event::Rename { id, name } => {
                self.player(*id)?;
                self.name(*id, name)
            }
            Event::Retire { id, .. } => self.player(*id),
            Event::Match(m) => {
                for id in m.a.iter().chain(m.b.iter()) {
                    self.player(*id)?;
                }
                if let Some(medals) = m.medals
                    && medals.iter().any(|&x| values::medal_count(x).is_err())
                {
                    return Err((
                        "medals",
                        format!(
                            "{medals:?} must be numbers from 0 to {}",
                            values::MEDALS_MAX
                        ),
                    ));
                }
                if let Some(s) = &mut m.scenario {
                    label("scenario", s)?;
                }
                if let Some(s) = &mut m.side_a {
                    label("side_a", s)?;
                }
                Ok(())
            }
            Event::Rules { rules } => rules.check().map_err(|e| ("rules", e.to_string())),
            Event::Migration { migration } => {
                for e in &migration.entries {
                    self.player(e.player)?;
                    if !(e.elo.is_finite() && (0.0..=4000.0).contains(&e.elo)) {
                        return Err(("elo", format!("{} is outside 0 to 4000", e.elo)));
                    }
                }
                Ok(())
            }
            Event::Scenario { figures } => {
                label("scenario", &mut figures.scenario)?;
                for side in &mut figures.sides {
                    label("sides", side)?;
                }
                if !(0.0..=1.0).contains(&figures.ratio) {
                    return Err(("ratio", format!("{} is outside 0 to 1", figures.ratio)));
                }
                if figures
                    .averages
                    .iter()
                    .any(|&x| values::medal_count(x).is_err())
                {
                    return Err((
                        "averages",
                        format!(
                            "{:?} must be numbers from 0 to {}",
                            figures.averages,
                            values::MEDALS_MAX
                        ),
                    ));
                }
                Ok(())
            }
            Event::SoftReset | Event::HardReset => Ok(()),
        }
    }
}
