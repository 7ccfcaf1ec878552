//! The full log as JSON Lines (SPEC §4): lossless, so that importing an export replays to
//! identical standings.
//!
//! Line 1 is a header, `{"rungs_log": 1, "rules": …}` with the rules the ladder was created
//! with. Every later line is either a log row, `{"action": 3, "action_kind": "do", "label":
//! "added Portugal beat Spain", "seq": 17, "date": "2026-11-20", "op": "add", "event": {…}}`, or an undo or
//! redo, `{"action": 4, "action_kind": "undo", "label": "added Portugal beat Spain"}`.

use crate::ladder::event::{Entry, Event, LogRow, PlayerId};
use crate::ladder::rules::Rules;
use crate::ladder::values::{self, PlayerName};
use crate::store::export::{ActionKind, Log, LogAction, LogItem, UndoFold};
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

/// Writes a log as JSON Lines piece by piece, as [`Store::stream_log`] hands it out: one
/// line at a time, whatever the log's size.
///
/// [`Store::stream_log`]: crate::store::Store::stream_log
pub struct Writer<W: Write> {
    out: W,
    /// The action whose rows are being written: id, kind, label.
    action: Option<(i64, ActionKind, String)>,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Writer<W> {
        Writer { out, action: None }
    }

    fn base(&self, m: &mut Map<String, Value>) {
        if let Some((id, kind, label)) = &self.action {
            m.insert("action".into(), json!(id));
            m.insert("action_kind".into(), json!(kind.as_str()));
            m.insert("label".into(), json!(label));
        }
    }

    /// Writes the next piece of the log.
    pub fn item(&mut self, item: LogItem<'_>) -> std::io::Result<()> {
        match item {
            LogItem::Rules(rules) => {
                let header = json!({ "rungs_log": FORMAT_VERSION, "rules": rules });
                writeln!(self.out, "{header}")
            }
            LogItem::Action {
                id,
                kind,
                label,
                has_rows,
            } => {
                self.action = Some((id, kind, label.to_string()));
                if has_rows {
                    return Ok(());
                }
                let mut m = Map::new();
                self.base(&mut m);
                writeln!(self.out, "{}", Value::Object(m))
            }
            LogItem::Row(row) => {
                let mut value = serde_json::to_value(row).map_err(std::io::Error::other)?;
                if let Value::Object(m) = &mut value {
                    self.base(m);
                }
                writeln!(self.out, "{value}")
            }
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Writes `log` as JSON Lines.
pub fn write(log: &Log, out: &mut impl Write) -> std::io::Result<()> {
    let mut w = Writer::new(out);
    w.item(LogItem::Rules(&log.rules))?;
    for action in &log.actions {
        w.item(LogItem::Action {
            id: action.id,
            kind: action.kind,
            label: &action.label,
            has_rows: !action.rows.is_empty(),
        })?;
        for row in &action.rows {
            w.item(LogItem::Row(row))?;
        }
    }
    Ok(())
}

/// The longest line a log may have: a migration of a hundred thousand players is a few
/// megabytes; a line with no end (`/dev/zero`) is refused once it passes this.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The next line of `input` without its line end into `buf`: `Ok(false)` at the end of the
/// input, an error message for a line past [`MAX_LINE_BYTES`] or not UTF-8.
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Result<bool, String> {
    buf.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let n = std::io::Read::take(&mut *input, limit)
        .read_until(b'\n', buf)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE_BYTES {
        return Err(format!(
            "runs on for more than {} MiB without ending; a rungs log has shorter lines \
             (is this the right file?)",
            MAX_LINE_BYTES >> 20
        ));
    }
    Ok(true)
}

/// Reads a JSONL log, checking every line; the first bad line is the error.
pub fn read(input: impl BufRead, file: &str) -> Result<Log, JsonlError> {
    read_file(input, file).map(|f| f.log)
}

/// A log read from a file, with the line each of its rows came from: a problem found only
/// when the log is replayed (a match before a player's join) is then shown at its line.
#[derive(Debug, Clone)]
pub struct LogFile {
    pub log: Log,
    /// The file's name as messages show it.
    pub file: String,
    /// The line of each row, action by action as in `log.actions`.
    lines: Vec<Vec<u64>>,
}

impl LogFile {
    /// The line that last set event `seq` of the ladder made from this log: its edit, else the
    /// row that added it. The ladder numbers the log's rows 1, 2, 3, … in order, whatever
    /// numbers the log gave them (it may skip some).
    pub fn line_of(&self, seq: u64) -> Option<u64> {
        let ordinal = usize::try_from(seq.checked_sub(1)?).ok()?;
        let seq = self
            .log
            .actions
            .iter()
            .flat_map(|a| &a.rows)
            .nth(ordinal)?
            .seq;
        let mut fold = UndoFold::default();
        for a in &self.log.actions {
            fold.push(a.kind);
        }
        let mut found = None;
        for (i, (action, lines)) in self.log.actions.iter().zip(&self.lines).enumerate() {
            if !fold.in_force(i) {
                continue;
            }
            for (row, &line) in action.rows.iter().zip(lines) {
                let sets = match &row.entry {
                    Entry::Add { .. } => row.seq == seq,
                    Entry::Edit { target, .. } | Entry::Delete { target } => *target == seq,
                };
                if sets {
                    found = Some(line);
                }
            }
        }
        found
    }

    /// The line of the row numbered `seq`.
    pub fn line_of_row(&self, seq: u64) -> Option<u64> {
        let rows = self.log.actions.iter().flat_map(|a| &a.rows);
        let lines = self.lines.iter().flatten();
        rows.zip(lines).find(|(r, _)| r.seq == seq).map(|(_, &l)| l)
    }
}

/// [`read`], keeping each row's line.
pub fn read_file(input: impl BufRead, file: &str) -> Result<LogFile, JsonlError> {
    let file = &values::shown(file);
    let err = |line: u64, field: &str, message: String| JsonlError {
        file: file.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut rules = None;
    let mut checks = Checks::default();
    let mut actions: Vec<LogAction> = Vec::new();
    let mut lines: Vec<Vec<u64>> = Vec::new();
    let mut last_seq = 0u64;
    let mut input = input;
    let mut buf = Vec::new();
    let mut n = 0u64;
    loop {
        n += 1;
        match next_line(&mut input, &mut buf) {
            Ok(true) => {}
            Ok(false) => break,
            Err(message) => return Err(err(n, "line", message)),
        }
        let text = std::str::from_utf8(&buf).map_err(|e| {
            err(
                n,
                "line",
                format!(
                    "cannot be read: not UTF-8 (bad byte at offset {})",
                    e.valid_up_to()
                ),
            )
        })?;
        // A byte-order mark an editor put before the header, as CSV import allows one.
        let line = if n == 1 {
            text.trim_start_matches('\u{feff}')
        } else {
            text
        };
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(line).map_err(|e| err(n, "line", format!("not JSON: {e}")))?;
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
        let label =
            values::shown(obj.get("label").and_then(Value::as_str).unwrap_or("")).into_owned();
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
            lines.push(Vec::new());
            if !checks.actions.push(kind) {
                let what = match kind {
                    ActionKind::Undo => "an undo with nothing to undo",
                    _ => "a redo with nothing to redo",
                };
                return Err(err(
                    n,
                    "action_kind",
                    format!("{what} at this line; rungs never writes one"),
                ));
            }
        }
        if !obj.contains_key("seq") && !obj.contains_key("op") {
            // An undo or redo; or a "do" whose rows are gone (deleted from the file by
            // another program, then `repair`ed): the ladder holds it so, and so does its log.
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
        let correction = match &row.entry {
            Entry::Edit { target, event } => Some((*target, Some(event))),
            Entry::Delete { target } => Some((*target, None)),
            Entry::Add { .. } => None,
        };
        if let Some((target, event)) = correction {
            checks
                .correction(target, event)
                .map_err(|(field, message)| err(n, field, message))?;
        }
        if let Entry::Add { event } | Entry::Edit { event, .. } = &mut row.entry {
            checks
                .event(event)
                .map_err(|(field, message)| err(n, field, message))?;
        }
        if let Entry::Add { event } = &row.entry {
            checks.row_kinds.push((seq, kind_of(event)));
            if let Event::Player { id, .. } = event {
                checks.join_rows.insert(seq, *id);
            }
        }
        last_seq = seq;
        if let (Some(a), Some(l)) = (actions.last_mut(), lines.last_mut()) {
            a.rows.push(row);
            l.push(n);
        }
    }
    let rules = rules.ok_or_else(|| err(1, "rungs_log", "the file is empty".into()))?;
    Ok(LogFile {
        log: Log { rules, actions },
        file: file.to_string(),
        lines,
    })
}

/// What the log's lines have said so far, for checking each event as rungs' own gate would:
/// names valid and unique (case and Unicode form aside), numbers in range, and player ids
/// bounded by the joins seen (an id cannot make replay allocate for players who do not exist).
#[derive(Default)]
struct Checks {
    joins: u64,
    /// Name key → the player holding it, the name as written, and the action (0-based) that
    /// gave it.
    names: HashMap<String, (PlayerId, String, usize)>,
    /// Player → the key of their current name (a rename frees the old one).
    keys: HashMap<PlayerId, String>,
    /// Which actions so far are in force, folded as the store folds them and as the lines
    /// come, so that a name an undone action gave is free again, as it is in the ladder the
    /// log was exported from.
    actions: UndoFold,
    /// The log rows that are players joining, and who: never deleted (players retire), and
    /// edited only to another date.
    join_rows: HashMap<u64, PlayerId>,
    /// Each added row's kind, by row number (rows come in increasing order): an edit keeps its
    /// row's kind, as the gate's edits do (a match stays a match, a join a join).
    row_kinds: Vec<(u64, &'static str)>,
}

/// What kind of event `event` is, as messages name it.
fn kind_of(event: &Event) -> &'static str {
    match event {
        Event::Player { .. } => "a player joining",
        Event::Match(_) => "a match",
        Event::Rename { .. } => "a rename",
        Event::Retire { .. } => "a retirement",
        Event::SoftReset => "a soft reset",
        Event::HardReset => "a hard reset",
        Event::Rules { .. } => "a rules change",
        Event::Migration { .. } => "a migration",
        Event::Scenario { .. } => "scenario figures",
        Event::Round { .. } => "a round",
        Event::PairRule { .. } => "a pairing rule",
    }
}

type Problem = (&'static str, String);

impl Checks {
    /// An edit (to `event`) or deletion of row `target`: a player's join is never deleted
    /// (the gate's rule: their matches would name nobody; they retire instead), and edited
    /// only to the same player joining on another date.
    fn correction(&self, target: u64, event: Option<&Event>) -> Result<(), Problem> {
        let was = self
            .row_kinds
            .binary_search_by_key(&target, |(seq, _)| *seq)
            .ok()
            .map(|i| self.row_kinds[i].1);
        if let (Some(was), Some(event)) = (was, event) {
            let now = kind_of(event);
            if !matches!(event, Event::Match(_) | Event::Player { .. }) || now != was {
                return Err((
                    "event",
                    format!(
                        "row {target} is {was}, and this edit makes it {now}; rungs edits a \
                         match into another match and moves a join's date, nothing else"
                    ),
                ));
            }
        }
        let Some(&joined) = self.join_rows.get(&target) else {
            return Ok(());
        };
        match event {
            Some(Event::Player { id, .. }) if *id == joined => Ok(()),
            Some(_) => Err((
                "target",
                format!(
                    "row {target} is {} joining; an edit of a join only moves its date",
                    self.name_of(joined)
                ),
            )),
            None => Err((
                "target",
                format!(
                    "row {target} is a player joining; a player is not deleted (their matches \
                     would name nobody): retire them instead"
                ),
            )),
        }
    }

    /// Player `id`'s name as the log has given it so far.
    fn name_of(&self, id: PlayerId) -> String {
        self.keys
            .get(&id)
            .and_then(|key| self.names.get(key))
            .filter(|(holder, _, _)| *holder == id)
            .map_or_else(|| format!("player {id}"), |(_, name, _)| name.clone())
    }

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
        // A name given by an action since undone is free (the ladder no longer holds it).
        if let Some((other, taken, given_by)) = self.names.get(&clean.key())
            && *other != id
            && self.actions.in_force(*given_by)
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
        let action = self.actions.len().saturating_sub(1);
        self.names
            .insert(clean.key(), (id, clean.to_string(), action));
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
                if let Some(at) = m.board
                    && (at.round == 0 || at.board == 0)
                {
                    return Err(("board", "round and board numbers start at 1".into()));
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
                if let Err(e) = values::win_fraction(figures.ratio) {
                    return Err(("ratio", format!("{} {e}", figures.ratio)));
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
            Event::Round { round } => {
                for id in round.players() {
                    self.player(id)?;
                }
                let name = |id| self.name_of(id);
                crate::ladder::rounds::check_round(round, &name).map_err(|e| ("round", e))
            }
            Event::PairRule { a, b, .. } => {
                self.player(*a)?;
                self.player(*b)?;
                let name = |id| self.name_of(id);
                crate::ladder::rounds::check_pair_rule(*a, *b, &name).map_err(|e| ("rule", e))
            }
        }
    }
}
