//! The full log as JSON Lines (SPEC §4): lossless, so that importing an export replays to
//! identical standings.
//!
//! Line 1 is a header, `{"rungs_log": 1, "rules": …}` with the rules the ladder was created
//! with. Every later line is either a log row, `{"action": 3, "action_kind": "do", "label":
//! "add match", "seq": 17, "date": "2026-11-20", "op": "add", "event": {…}}`, or an undo or
//! redo, `{"action": 4, "action_kind": "undo", "label": "add match"}`.

use crate::ladder::event::LogRow;
use crate::ladder::rules::Rules;
use serde_json::{Map, Value, json};
use std::io::{BufRead, Write};

pub const FORMAT_VERSION: u64 = 1;

/// One action of the log, with the rows it wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub id: i64,
    pub kind: ActionKind,
    pub label: String,
    pub rows: Vec<LogRow>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    Do,
    Undo,
    Redo,
}

impl ActionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Do => "do",
            ActionKind::Undo => "undo",
            ActionKind::Redo => "redo",
        }
    }

    pub fn parse(s: &str) -> Option<ActionKind> {
        match s {
            "do" => Some(ActionKind::Do),
            "undo" => Some(ActionKind::Undo),
            "redo" => Some(ActionKind::Redo),
            _ => None,
        }
    }
}

/// A whole log: the initial rules and every action.
#[derive(Debug, Clone, PartialEq)]
pub struct Log {
    pub rules: Rules,
    pub actions: Vec<Action>,
}

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
    let mut actions: Vec<Action> = Vec::new();
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
            rules = Some(
                serde_json::from_value::<Rules>(r).map_err(|e| err(n, "rules", e.to_string()))?,
            );
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
            actions.push(Action {
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
        if chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err() {
            return Err(err(
                n,
                "date",
                format!("`{date}` is not a date (YYYY-MM-DD)"),
            ));
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
        last_seq = seq;
        if let Some(a) = actions.last_mut() {
            a.rows.push(row);
        }
    }
    let rules = rules.ok_or_else(|| err(1, "rungs_log", "the file is empty".into()))?;
    Ok(Log { rules, actions })
}
