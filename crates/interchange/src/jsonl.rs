//! The full log as JSON Lines: lossless, so that importing an export replays to
//! identical standings.
//!
//! Line 1 is a header, `{"rungs_log": 1, "rules": …}` with the rules the ladder was created
//! with. Every later line is either a log row, `{"action": 3, "action_kind": "do", "label":
//! "added Portugal beat Spain", "seq": 17, "date": "2026-11-20", "op": "add", "event": {…}}`, or an undo or
//! redo, `{"action": 4, "action_kind": "undo", "label": "added Portugal beat Spain"}`.

use rungs_ladder::event::{Entry, Event, LogRow, PlayerId};
use rungs_ladder::rules::Rules;
use rungs_ladder::values::{self, PlayerName};
use rungs_store::export::{ActionKind, Log, LogAction, LogItem, UndoFold};
use rungs_store::import::LogPiece;
use rungs_store::runs::Runs;
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
/// [`Store::stream_log`]: rungs_store::Store::stream_log
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

/// Why a line of a log could not be taken.
#[derive(Debug, thiserror::Error)]
enum LineError {
    #[error("cannot be read: {0}")]
    Read(std::io::Error),
    #[error(
        "runs on for more than {} MiB without ending; a rungs log has shorter lines (is this \
         the right file?)",
        MAX_LINE_BYTES >> 20
    )]
    TooLong,
}

/// The next line of `input` without its line end into `buf`: `Ok(false)` at the end of the
/// input, an error for a line past [`MAX_LINE_BYTES`].
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Result<bool, LineError> {
    buf.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let n = std::io::Read::take(&mut *input, limit)
        .read_until(b'\n', buf)
        .map_err(LineError::Read)?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE_BYTES {
        return Err(LineError::TooLong);
    }
    Ok(true)
}

/// Reads a JSONL log, checking every line; the first bad line is the error.
pub fn read(input: impl BufRead, file: &str) -> Result<Log, JsonlError> {
    let mut reader = LogReader::open(input, file)?;
    let mut actions: Vec<LogAction> = Vec::new();
    while let Some(piece) = reader.next_piece()? {
        match piece {
            LogPiece::Action { kind, label } => actions.push(LogAction {
                id: reader.action_id,
                kind,
                label,
                rows: Vec::new(),
            }),
            LogPiece::Row(row) => {
                if let Some(a) = actions.last_mut() {
                    a.rows.push(row);
                }
            }
        }
    }
    Ok(Log {
        rules: reader.rules,
        actions,
    })
}

/// Where a log file's rows were, kept as it is read so that a problem found only when the
/// log is replayed (a match before a player's join) is shown at its line: row numbers and
/// lines as runs, the first row of each action, and the corrections.
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// The file's name as messages show it.
    pub file: String,
    /// Each row's number in the log, by its place among the rows.
    seqs: Runs,
    /// Each row's line, likewise.
    lines: Runs,
    /// Each action's kind, and the place of its first row (or of the next action's).
    kinds: Vec<ActionKind>,
    first_rows: Vec<u64>,
    /// Each edit or deletion: the log's number of the row it corrects, and its own place.
    corrections: Vec<(u64, u64)>,
}

impl Places {
    /// The line that last set event `seq` of the ladder made from this log: its edit, else the
    /// row that added it. The ladder numbers the log's rows 1, 2, 3, … in order, whatever
    /// numbers the log gave them (it may skip some).
    pub fn line_of(&self, seq: u64) -> Option<u64> {
        let place = seq.checked_sub(1)?;
        let log_seq = self.seqs.at(place)?;
        let mut fold = UndoFold::default();
        for &kind in &self.kinds {
            fold.push(kind);
        }
        let in_force = |place: u64| {
            let action = self.first_rows.partition_point(|&f| f <= place);
            action.checked_sub(1).is_some_and(|a| fold.in_force(a))
        };
        let mut found = in_force(place).then(|| self.lines.at(place)).flatten();
        for &(target, at) in &self.corrections {
            if target == log_seq && in_force(at) {
                found = self.lines.at(at);
            }
        }
        found
    }

    /// The line of the row numbered `seq` in the log.
    pub fn line_of_row(&self, seq: u64) -> Option<u64> {
        self.lines.at(self.seqs.place_of(seq)?)
    }
}

/// A JSONL log read piece by piece, each line checked as it comes: memory stays bounded by
/// the players the log names, whatever its length.
pub struct LogReader<R> {
    input: R,
    buf: Vec<u8>,
    /// The line last read.
    line: u64,
    rules: Rules,
    checks: Checks,
    last_seq: u64,
    /// The id the log gave the action being read.
    action_id: i64,
    /// A row whose line also began a new action: given out after that action.
    pending: Option<LogRow>,
    places: Places,
}

impl<R: BufRead> LogReader<R> {
    /// Reads the header line: the format and the rules.
    pub fn open(input: R, file: &str) -> Result<LogReader<R>, JsonlError> {
        let mut reader = LogReader {
            input,
            buf: Vec::new(),
            line: 0,
            rules: Rules::default(),
            checks: Checks::default(),
            last_seq: 0,
            action_id: 0,
            pending: None,
            places: Places {
                file: values::shown(file).into_owned(),
                ..Places::default()
            },
        };
        let Some(obj) = reader.next_object()? else {
            return Err(reader.err(1, "rungs_log", "the file is empty".into()));
        };
        let n = reader.line;
        match obj.get("rungs_log").and_then(Value::as_u64) {
            Some(FORMAT_VERSION) => {}
            Some(v) => {
                return Err(reader.err(
                    n,
                    "rungs_log",
                    format!("format {v} is newer than this rungs reads ({FORMAT_VERSION})"),
                ));
            }
            None => {
                return Err(reader.err(
                    n,
                    "rungs_log",
                    "the first line must be the rungs log header".into(),
                ));
            }
        }
        let r = obj
            .get("rules")
            .cloned()
            .ok_or_else(|| reader.err(n, "rules", "missing".into()))?;
        let header: Rules =
            serde_json::from_value(r).map_err(|e| reader.err(n, "rules", e.to_string()))?;
        header
            .check()
            .map_err(|e| reader.err(n, "rules", e.to_string()))?;
        reader.rules = header;
        Ok(reader)
    }

    /// The rules the log's header gives.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The line of the piece last given out.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Where the rows read so far were.
    pub fn places(&self) -> &Places {
        &self.places
    }

    fn err(&self, line: u64, field: &str, message: String) -> JsonlError {
        JsonlError {
            file: self.places.file.clone(),
            line,
            field: field.to_string(),
            message,
        }
    }

    /// The next line holding something, as a JSON object; `None` at the end.
    fn next_object(&mut self) -> Result<Option<Map<String, Value>>, JsonlError> {
        loop {
            self.line += 1;
            let n = self.line;
            match next_line(&mut self.input, &mut self.buf) {
                Ok(true) => {}
                Ok(false) => return Ok(None),
                Err(e) => return Err(self.err(n, "line", e.to_string())),
            }
            let text = std::str::from_utf8(&self.buf).map_err(|e| {
                self.err(
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
            let value: Value = serde_json::from_str(line)
                .map_err(|e| self.err(n, "line", format!("not JSON: {e}")))?;
            let Value::Object(obj) = value else {
                return Err(self.err(n, "line", "not a JSON object".into()));
            };
            return Ok(Some(obj));
        }
    }

    /// The next action or row; `None` at the end of the log.
    pub fn next_piece(&mut self) -> Result<Option<LogPiece>, JsonlError> {
        if let Some(row) = self.pending.take() {
            return Ok(Some(LogPiece::Row(row)));
        }
        loop {
            let Some(obj) = self.next_object()? else {
                return Ok(None);
            };
            let (new_action, row) = self.piece(obj)?;
            match (new_action, row) {
                (Some(action), row) => {
                    self.pending = row;
                    return Ok(Some(action));
                }
                (None, Some(row)) => return Ok(Some(LogPiece::Row(row))),
                (None, None) => {}
            }
        }
    }

    /// What line `obj` says: the action it begins, if it begins one, and its row, if it has
    /// one.
    fn piece(
        &mut self,
        mut obj: Map<String, Value>,
    ) -> Result<(Option<LogPiece>, Option<LogRow>), JsonlError> {
        let n = self.line;
        let file = self.places.file.clone();
        let err = |field: &str, message: String| JsonlError {
            file: file.clone(),
            line: n,
            field: field.to_string(),
            message,
        };
        let id = obj
            .get("action")
            .and_then(Value::as_i64)
            .filter(|&a| a > 0)
            .ok_or_else(|| err("action", "missing or not a positive whole number".into()))?;
        let kind = obj
            .get("action_kind")
            .and_then(Value::as_str)
            .and_then(ActionKind::parse)
            .ok_or_else(|| err("action_kind", "must be \"do\", \"undo\" or \"redo\"".into()))?;
        let mut new_action = None;
        if self.places.kinds.is_empty() || self.action_id != id {
            if !self.places.kinds.is_empty() && self.action_id >= id {
                return Err(err("action", format!("{id} is out of order")));
            }
            if !self.checks.actions.push(kind) {
                let what = match kind {
                    ActionKind::Undo => "an undo with nothing to undo",
                    _ => "a redo with nothing to redo",
                };
                return Err(err(
                    "action_kind",
                    format!("{what} at this line; rungs never writes one"),
                ));
            }
            self.action_id = id;
            self.places.kinds.push(kind);
            self.places.first_rows.push(self.places.seqs.len());
            let label =
                values::shown(obj.get("label").and_then(Value::as_str).unwrap_or("")).into_owned();
            new_action = Some(LogPiece::Action { kind, label });
        }
        if !obj.contains_key("seq") && !obj.contains_key("op") {
            // An undo or redo; or a "do" whose rows are gone (deleted from the file by
            // another program, then `repair`ed): the ladder holds it so, and so does its log.
            return Ok((new_action, None));
        }
        if kind != ActionKind::Do {
            return Err(err("action_kind", "undo and redo carry no log rows".into()));
        }
        let last_seq = self.last_seq;
        let seq = obj
            .get("seq")
            .and_then(Value::as_u64)
            .filter(|&s| s > last_seq)
            .ok_or_else(|| {
                err(
                    "seq",
                    format!("missing, or not a whole number above {last_seq}"),
                )
            })?;
        let date = obj.get("date").and_then(Value::as_str).unwrap_or("");
        if let Err(e) = rungs_ladder::values::Day::parse(date) {
            return Err(err("date", format!("`{}` {e}", date.escape_debug())));
        }
        typed_fields(&mut obj).map_err(|(field, message)| err(field, message))?;
        let mut row: LogRow = serde_json::from_value(Value::Object(obj)).map_err(|e| {
            let text = e.to_string();
            let field = text
                .split('`')
                .nth(1)
                .filter(|_| text.contains("field"))
                .unwrap_or("event")
                .to_string();
            err(&field, text)
        })?;
        let correction = match &row.entry {
            Entry::Edit { target, event } => Some((*target, Some(event))),
            Entry::Delete { target } => Some((*target, None)),
            Entry::Add { .. } => None,
        };
        let corrects = correction.map(|(target, _)| target);
        if let Some((target, event)) = correction {
            self.checks
                .correction(target, event)
                .map_err(|(field, message)| err(field, message))?;
        }
        if let Entry::Add { event } | Entry::Edit { event, .. } = &mut row.entry {
            self.checks
                .event(event)
                .map_err(|(field, message)| err(field, message))?;
        }
        if let Entry::Add { event } = &row.entry {
            self.checks.added_row(seq, kind_of(event));
            if let Event::Player { id, .. } = event {
                self.checks.join_rows.insert(seq, *id);
            }
        }
        self.last_seq = seq;
        let place = self.places.seqs.len();
        if let Some(target) = corrects {
            self.places.corrections.push((target, place));
        }
        self.places.seqs.push(seq);
        self.places.lines.push(n);
        Ok((new_action, Some(row)))
    }
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
    /// Each added row's kind, by its place among the added rows (whose numbers `added` keeps
    /// as runs): an edit keeps its row's kind, as the gate's edits do (a match stays a match,
    /// a join a join). A byte a row, an index into `kind_names`.
    added: Runs,
    added_kinds: Vec<u8>,
    kind_names: Vec<&'static str>,
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
        Event::DueResets => "the season calendar's due resets",
        Event::Rules { .. } => "a rules change",
        Event::Migration { .. } => "a migration",
        Event::Scenario { .. } => "scenario figures",
        Event::Round { .. } => "a round",
        Event::PairRule { .. } => "a pairing rule",
        Event::ChallengeLadder { .. } => "challenge ladder rules",
        Event::Challenge { .. } => "a challenge",
        Event::ChallengePlace { .. } => "a challenge ladder placing",
        Event::BoxPeriod { .. } => "a box period",
        Event::BoxWithdraw { .. } => "a box withdrawal",
        Event::BoxJoin { .. } => "a box join",
    }
}

type Problem = (&'static str, String);

/// The fields of a row's event whose types check them (a player's name, a match's medals),
/// checked first in the importer's own words. A name is put as the ladder keeps it (trimmed,
/// its spaces single, NFC): a log another program wrote need not keep names so.
fn typed_fields(obj: &mut Map<String, Value>) -> Result<(), Problem> {
    let Some(Value::Object(event)) = obj.get_mut("event") else {
        return Ok(());
    };
    if let Some(Value::String(name)) = event.get_mut("name") {
        let clean = PlayerName::parse(name).map_err(|e| {
            (
                "name",
                format!("`{}` is not a name: it {e}", name.escape_debug()),
            )
        })?;
        *name = clean.into_string();
    }
    if let Some(Value::Array(pair)) = event.get("medals")
        && let [Some(a), Some(b)] = [pair.first(), pair.get(1)].map(|x| x.and_then(Value::as_f64))
        && pair.len() == 2
        && values::Medals::new([a, b]).is_err()
    {
        return Err((
            "medals",
            format!(
                "{:?} must be numbers from 0 to {}",
                [a, b],
                values::MEDALS_MAX
            ),
        ));
    }
    Ok(())
}

impl Checks {
    /// Row `seq` (above every row before it) adds an event of `kind`.
    fn added_row(&mut self, seq: u64, kind: &'static str) {
        let index = match self.kind_names.iter().position(|&k| k == kind) {
            Some(i) => i,
            None => {
                self.kind_names.push(kind);
                self.kind_names.len() - 1
            }
        };
        if self.added.push(seq) {
            self.added_kinds.push(index as u8);
        }
    }

    /// An edit (to `event`) or deletion of row `target`: a player's join is never deleted
    /// (the gate's rule: their matches would name nobody; they retire instead), and edited
    /// only to the same player joining on another date.
    fn correction(&self, target: u64, event: Option<&Event>) -> Result<(), Problem> {
        let was = self
            .added
            .place_of(target)
            .and_then(|place| self.added_kinds.get(usize::try_from(place).ok()?))
            .map(|&k| self.kind_names[usize::from(k)]);
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

    fn name(&mut self, id: PlayerId, clean: &PlayerName) -> Result<(), Problem> {
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
                // Memoir '44 takes the result from the medals: a result they contradict is
                // refused, as the gate refuses it.
                if let (Some(medals), rungs_ladder::event::MatchResult::Played(o)) =
                    (m.medals, m.result)
                    && values::medals_outcome(medals) != o
                {
                    return Err((
                        "medals",
                        format!(
                            "{} does not agree with the result {}: the side with more medals \
                             wins, equal medals are a draw",
                            values::medals_text(medals),
                            m.result.as_text()
                        ),
                    ));
                }
                if let Some(goals) = m.goals
                    && !rungs_ladder::score::goals_valid(goals)
                {
                    return Err((
                        "goals",
                        format!(
                            "{goals:?} must be whole numbers from 0 to {}",
                            rungs_ladder::score::POINTS_MAX
                        ),
                    ));
                }
                if let Some(goals) = m.goals
                    && m.result
                        != rungs_ladder::event::MatchResult::Played(
                            rungs_ladder::score::outcome_of(goals),
                        )
                {
                    return Err((
                        "goals",
                        format!(
                            "{}-{} does not agree with the result {}",
                            goals[0],
                            goals[1],
                            m.result.as_text()
                        ),
                    ));
                }
                if let Some(c) = m.class
                    && !c.is_valid()
                {
                    return Err((
                        "class",
                        format!(
                            "{} is not a weight above {} and at most {}",
                            match c {
                                rungs_ladder::score::EventClass::Weight(w) => {
                                    values::number_text(w)
                                }
                                named => named.as_text(),
                            },
                            rungs_ladder::score::WEIGHT_MIN,
                            rungs_ladder::score::WEIGHT_MAX
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
            Event::SoftReset | Event::HardReset | Event::DueResets => Ok(()),
            Event::Round { round } => {
                for id in round.players() {
                    self.player(id)?;
                }
                let name = |id| self.name_of(id);
                rungs_ladder::rounds::check_round(round, &name)
                    .map_err(|e| ("round", e.to_string()))
            }
            Event::PairRule { a, b, .. } => {
                self.player(*a)?;
                self.player(*b)?;
                let name = |id| self.name_of(id);
                rungs_ladder::rounds::check_pair_rule(*a, *b, &name)
                    .map_err(|e| ("rule", e.to_string()))
            }
            Event::ChallengeLadder { settings, order } => {
                let mut seen = std::collections::BTreeSet::new();
                for id in order.iter() {
                    self.player(*id)?;
                    if !seen.insert(*id) {
                        return Err(("order", format!("{} is named twice", self.name_of(*id))));
                    }
                }
                settings.check().map_err(|e| ("settings", e))
            }
            Event::Challenge {
                challenger,
                defender,
            } => {
                self.player(*challenger)?;
                self.player(*defender)?;
                if challenger == defender {
                    return Err((
                        "defender",
                        format!("{} cannot challenge themselves", self.name_of(*challenger)),
                    ));
                }
                Ok(())
            }
            Event::ChallengePlace { player, position } => {
                self.player(*player)?;
                if *position == 0 {
                    return Err(("position", "places start at 1".into()));
                }
                Ok(())
            }
            Event::BoxPeriod { period } => {
                let mut seen = std::collections::BTreeSet::new();
                for id in period.players() {
                    self.player(id)?;
                    if !seen.insert(id) {
                        return Err(("boxes", format!("{} is in two boxes", self.name_of(id))));
                    }
                }
                period.check().map_err(|e| ("period", e))
            }
            Event::BoxWithdraw { player, .. } | Event::BoxJoin { player, .. } => {
                self.player(*player)
            }
        }
    }
}
