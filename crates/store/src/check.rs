//! `rungs check` and `rungs repair`. A check reads everything and changes nothing: SQLite's
//! integrity check, the log well formed (actions and rows numbered as rungs numbers them,
//! every row readable, every correction and player id pointing at something before it), the
//! caches stamped with this log, and every cache equal to a fresh replay. A repair rebuilds
//! every cache from the log in one transaction and never touches the log.

use super::histories::Histories;
use super::history_blob;
use super::{Result, Store, StoreError};
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use serde_json::Value;
use std::path::Path;

/// How many differences a check lists (it counts them all).
const LISTED: usize = 12;

/// What `rungs check` found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckReport {
    /// Actions and log rows read.
    pub actions: i64,
    pub rows: i64,
    /// Events that count, and players, in a fresh replay (0 if the log does not replay).
    pub events: usize,
    pub players: usize,
    /// Each problem found, in words (at most a dozen listed; `more` counts the rest).
    pub problems: Vec<String>,
    pub more: usize,
}

impl CheckReport {
    pub fn is_sound(&self) -> bool {
        self.problems.is_empty()
    }

    fn found(&mut self, what: impl Into<String>) {
        if self.problems.len() < LISTED {
            self.problems.push(what.into());
        } else {
            self.more += 1;
        }
    }

    /// A finding made later that belongs where the report then held `at` problems: listed
    /// there, as if found then (a finding it pushes past the dozen is counted instead).
    fn found_at(&mut self, at: usize, what: impl Into<String>) {
        if at >= LISTED {
            self.more += 1;
            return;
        }
        if self.problems.len() >= LISTED {
            self.problems.pop();
            self.more += 1;
        }
        self.problems
            .insert(at.min(self.problems.len()), what.into());
    }
}

/// What SQLite's integrity check says of the file `conn` reads ("ok" when sound).
fn integrity_lines(conn: &rusqlite::Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("PRAGMA integrity_check")?;
    stmt.query_map([], |r| r.get(0))?.collect()
}

/// `rest` with the integrity check's findings (`lines`) before its own, as a check lists them.
fn with_integrity(lines: &[String], rest: CheckReport) -> CheckReport {
    let mut report = CheckReport {
        problems: Vec::new(),
        more: 0,
        ..rest
    };
    for line in lines.iter().filter(|l| *l != "ok") {
        report.found(format!("SQLite's integrity check: {line}"));
    }
    for problem in rest.problems {
        report.found(problem);
    }
    report.more += rest.more;
    report
}

/// What a check finds when the histories are not the ones rungs wrote.
const HISTORIES_CHANGED: &str =
    "the players' histories are not what rungs wrote (changed outside rungs)";

/// The histories' digest the guard holds (`None`: a file from before the guard, or a guard
/// that does not read, found so already) and where in the report a finding about it goes.
struct HistoriesGuard {
    at: usize,
    want: Option<u64>,
}

/// What `rungs repair` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    /// Why the caches were not those of the log, if the stamp said so.
    pub was_stale: Option<String>,
    pub events: usize,
    pub players: usize,
}

/// The fields in which two JSON objects differ, as `field cached → replayed`.
/// Names a ladder from an older rungs may hold and this one would refuse: one that is not a
/// name by today's rule, or two that compare equal (case, spacing and Unicode form aside).
/// Each is still found by its exact name, so it can be renamed.
fn names_in_use(ladder: &Ladder, report: &mut CheckReport) {
    use rungs_ladder::values::{self, PlayerName};
    let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for p in ladder.players.iter().filter(|p| p.joined) {
        let shown = values::shown(&p.name);
        if let Err(e) = PlayerName::parse(&p.name) {
            report.found(format!(
                "player `{shown}`: the name is not one rungs accepts now (it {e}); rename them"
            ));
        }
        match seen.entry(values::name_key(&p.name)) {
            std::collections::hash_map::Entry::Occupied(first) => report.found(format!(
                "players `{}` and `{shown}` have names that compare equal (case, spacing and \
                 Unicode form aside); rename one, typing its name exactly",
                values::shown(first.get())
            )),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(&p.name);
            }
        }
    }
}

fn field_differences(cached: &Value, fresh: &Value) -> Vec<String> {
    match (cached, fresh) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .map(|k| {
                    let show =
                        |v: Option<&Value>| v.map_or("nothing".to_string(), |v| v.to_string());
                    format!(
                        "{k} {} where a replay gives {}",
                        show(a.get(k)),
                        show(b.get(k))
                    )
                })
                .collect()
        }
        _ => vec![format!("{cached} where a replay gives {fresh}")],
    }
}

impl Store {
    /// Checks the ladder at `path` without changing it. An error means it could not be
    /// checked at all (not a ladder, a schema of someone else's, locked); problems found in a
    /// ladder that opens are in the report.
    pub fn check(path: &Path) -> Result<CheckReport> {
        let store = Store::open_unchecked(path)?;
        store
            .conn
            .execute_batch("BEGIN")
            .map_err(|e| store.sql(e))?;
        // SQLite's integrity check reads every page, a quarter of a large check: it runs on a
        // second connection beside the rest where the file is read with SQLite's locks. Each
        // connection reads from one moment of the file (its read begins straight after the
        // first's); were a change committed between the two, each part would still find only
        // what is so of the file as it read it.
        let second = match store.unlocked_reads.get() {
            None => store.second_reader(),
            Some(_) => None,
        };
        let report = match second {
            Some(second) => std::thread::scope(|s| {
                let integrity = s.spawn(move || {
                    let lines = integrity_lines(&second);
                    let _ = second.execute_batch("COMMIT");
                    lines
                });
                let rest = store.check_rest(CheckReport::default());
                let lines = integrity.join().unwrap_or_else(|_| Ok(Vec::new()));
                match (lines, rest) {
                    (Ok(lines), Ok(rest)) => Ok(with_integrity(&lines, rest)),
                    (Err(e), _) => Err(store.sql(e)),
                    (_, Err(e)) => Err(e),
                }
            }),
            None => store.check_open(),
        };
        let _ = store.conn.execute_batch("COMMIT");
        // Read without SQLite's locks (this process may not write the file), what another
        // program wrote meanwhile may look like damage: found so, the check is made again.
        match (report, store.unlocked_reads.get()) {
            (Ok(r), Some(before))
                if !r.is_sound() && super::torn::Fingerprint::of(path) != before =>
            {
                Err(StoreError::ChangedWhileRead {
                    path: path.display().to_string(),
                })
            }
            (report, _) => report,
        }
    }

    fn check_open(&self) -> Result<CheckReport> {
        let lines = integrity_lines(&self.conn).map_err(|e| self.sql(e))?;
        let report = with_integrity(&lines, CheckReport::default());
        self.check_rest(report)
    }

    /// A second connection to this store's file with a read begun, for a part of a check
    /// to read beside this one's; `None` where none opens or reads.
    fn second_reader(&self) -> Option<rusqlite::Connection> {
        // This connection's read begins first (a read transaction starts at its first read).
        self.conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
            .ok()?;
        let second = super::schema::second_connection(&self.path).ok()?;
        second.execute_batch("BEGIN").ok()?;
        second
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
            .ok()?;
        Some(second)
    }

    /// Everything a check reads but SQLite's integrity check, added to `report`.
    fn check_rest(&self, mut report: CheckReport) -> Result<CheckReport> {
        let conn = &self.conn;
        let stamp = match self.log_stamp(conn) {
            Ok(s) => s,
            Err(e) => {
                report.found(format!("the log: {}", self.without_path(&e)));
                return Ok(report);
            }
        };
        report.actions = stamp.last_action;
        report.rows = stamp.last_seq;
        match self.cache_head(conn) {
            Ok(Some(head)) => {
                if let Some(why) = head.stamp.differs(&stamp) {
                    report.found(format!(
                        "the caches were not made from the log as it is: {why}"
                    ));
                }
                if self.caches_digest(conn)? != head.caches {
                    report.found("the cached states are not what rungs wrote (they were changed outside rungs)");
                }
                match self.guard_staleness(conn) {
                    Ok(Some(why)) => report.found(why),
                    Ok(None) => {}
                    Err(e) => report.found(self.without_path(&e)),
                }
                // The histories' digest is taken in the pass that compares them with the
                // replay's (one read of tens of megabytes, not two); its finding keeps this
                // place in the report.
                let histories = HistoriesGuard {
                    at: report.problems.len(),
                    want: match self.guard(conn) {
                        Ok(g) => g.map(|g| g.histories),
                        Err(e) => {
                            report.found(self.without_path(&e));
                            None
                        }
                    },
                };
                // Room for each player's rows as the cache holds them packed, rather than a
                // pass over the log counting them (no ladder has more players than events).
                // (A log that does not say is found so as it is read.)
                let most = self.log_rows_bound(conn).unwrap_or(0);
                let room = self.cached_history_sizes(conn, most);
                // The log is replayed as it is read: the findings keep their order all the
                // same (the read's, the last event's, then the replay's).
                let (events, replay) = match self.events_replayed(&room, most > 1 << 14) {
                    Ok(read) => read,
                    Err(e) => {
                        report.found(format!("the log: {}", self.without_path(&e)));
                        self.histories_apart(&histories, &mut report);
                        return Ok(report);
                    }
                };
                drop(room);
                if head.last != events.last_key() {
                    report.found("the caches' last event is not the log's".to_string());
                }
                report.events = events.len();
                let (fresh, replayed) = replay?;
                let ladder = match replayed {
                    Ok(l) => l,
                    Err(e) => {
                        report.found(format!(
                            "the log does not replay: {}",
                            self.without_path(&e)
                        ));
                        self.histories_apart(&histories, &mut report);
                        return Ok(report);
                    }
                };
                report.players = ladder.players.iter().filter(|p| p.joined).count();
                names_in_use(&ladder, &mut report);
                match self.compare_caches(&ladder, &fresh, &mut report)? {
                    Some(sum) => {
                        if histories.want.is_some_and(|want| want != sum) {
                            report.found_at(histories.at, HISTORIES_CHANGED);
                        }
                    }
                    None => self.histories_apart(&histories, &mut report),
                }
            }
            Ok(None) => report.found("the caches are missing"),
            Err(e) => report.found(format!("the caches: {}", self.without_path(&e))),
        }
        Ok(report)
    }

    /// The histories' digest, read on its own where the check stopped before comparing the
    /// histories (the log does not read or replay, the cached players do not read).
    fn histories_apart(&self, guard: &HistoriesGuard, report: &mut CheckReport) {
        let Some(want) = guard.want else {
            return;
        };
        match self.histories_digest(&self.conn) {
            Ok(sum) if sum == want => {}
            Ok(_) => report.found_at(guard.at, HISTORIES_CHANGED),
            Err(e) => report.found_at(guard.at, self.without_path(&e)),
        }
    }

    /// Each player's cached history's size in bytes, by player id, for ids below `events`
    /// (no ladder has more players than events or log rows; a damaged row's id is left out). Empty if
    /// the table does not read: the check finds that on its own.
    fn cached_history_sizes(&self, conn: &rusqlite::Connection, events: usize) -> Vec<usize> {
        let mut room = Vec::new();
        let Ok(mut stmt) = conn.prepare("SELECT player, length(rows) FROM cache_history") else {
            return room;
        };
        let Ok(rows) = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
        else {
            return room;
        };
        for (player, bytes) in rows.flatten() {
            let (Ok(p), Ok(bytes)) = (usize::try_from(player), usize::try_from(bytes)) else {
                continue;
            };
            if p < events {
                if p >= room.len() {
                    room.resize(p + 1, 0);
                }
                room[p] = bytes;
            }
        }
        room
    }

    /// An error's message without the file's name in front (a report names the file once).
    pub(crate) fn without_path(&self, e: &StoreError) -> String {
        let text = e.to_string();
        let prefix = format!("{}: ", self.name());
        text.strip_prefix(&prefix).unwrap_or(&text).to_string()
    }

    /// Compares the caches with a fresh replay (`fresh`, its histories `history`), and
    /// returns the digest of the cached histories as the guard takes it, read in the same
    /// pass (`None` if the cached players did not read, and the histories were not reached).
    fn compare_caches(
        &self,
        fresh: &Ladder,
        history: &Histories,
        report: &mut CheckReport,
    ) -> Result<Option<u64>> {
        let conn = &self.conn;
        let cached = match self.cached_beside(conn, fresh) {
            Ok(c) => c,
            Err(e) => {
                report.found(self.without_path(&e));
                return Ok(None);
            }
        };
        // Compared as values first: a JSON tree of a long season archive takes gigabytes, so
        // it is built only to name what differs.
        if !cached.shell.same_but_players(fresh) {
            let (a, b) = (
                serde_json::to_value(cached.shell.clone_without_players()).unwrap_or(Value::Null),
                serde_json::to_value(fresh.clone_without_players()).unwrap_or(Value::Null),
            );
            for d in field_differences(&a, &b) {
                report.found(format!("the cached ladder: {d}"));
            }
        }
        if cached.players != fresh.players.len() {
            report.found(format!(
                "the caches hold {} players where a replay gives {}",
                cached.players,
                fresh.players.len()
            ));
        }
        for (id, c) in &cached.differing {
            let Some(f) = fresh.players.get(*id) else {
                continue;
            };
            if c != f {
                let who = if f.joined {
                    f.name.clone()
                } else {
                    format!("player #{id}")
                };
                let diffs = field_differences(
                    &serde_json::to_value(c).unwrap_or(Value::Null),
                    &serde_json::to_value(f).unwrap_or(Value::Null),
                );
                report.found(format!("{who}: the cache says {}", diffs.join(", ")));
            }
        }
        {
            let mut stmt = conn
                .prepare("SELECT id, key FROM cache_players ORDER BY id")
                .map_err(|e| self.sql(e))?;
            let keys: Vec<(i64, String)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .and_then(|rows| rows.collect())
                .map_err(|e| self.sql(e))?;
            for (id, key) in keys {
                let want = usize::try_from(id)
                    .ok()
                    .and_then(|i| fresh.players.get(i))
                    .map(|p| rungs_ladder::values::name_key(&p.name));
                if want.as_deref() != Some(key.as_str()) {
                    report.found(format!(
                        "player #{id}: the cached name key `{key}` is not the name's"
                    ));
                }
            }
        }
        // Histories, byte for byte; a file from before the guard (an older rungs, which wrote a
        // row at every reset for every player) row for row, less rows that repeat the one
        // before (what a reset that changed nobody's figures left).
        let older = self.guard(conn)?.is_none();
        let mut stmt = conn
            .prepare("SELECT player, last_day, last_seq, rows FROM cache_history ORDER BY player")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut seen = 0usize;
        let mut sum = 0u64;
        let name = |p: PlayerId| {
            fresh
                .player(p)
                .filter(|p| p.joined)
                .map_or_else(|| format!("player #{p}"), |p| p.name.clone())
        };
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let player: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let day: i64 = r.get(1).map_err(|e| self.sql(e))?;
            let seq: i64 = r.get(2).map_err(|e| self.sql(e))?;
            let blob = r
                .get_ref(3)
                .and_then(|v| Ok(v.as_blob()?))
                .map_err(|e| self.sql(e))?;
            sum = sum.wrapping_add(super::guard::history_term(player, day, seq, blob));
            let Ok(p) = PlayerId::try_from(player) else {
                report.found(format!(
                    "the cached history of player #{player}, who does not exist"
                ));
                continue;
            };
            seen += 1;
            match history.of(p) {
                None => report.found(format!(
                    "{}: the cache holds a history where a replay gives none",
                    name(p)
                )),
                Some((want, last)) => {
                    let key = (i64::from(history_blob::day_of(last.0)), last.1 as i64);
                    // Rows appended in batches pack differently from one replay's: compare
                    // the rows, bit for bit, by packing the cached ones as one batch.
                    let same = blob == want || {
                        let mut packed = Vec::with_capacity(want.len());
                        if let Some(rows) = history_blob::decode(p, blob) {
                            history_blob::encode_into(rows, &mut packed);
                        }
                        packed == want
                    };
                    let same_as_older = older
                        && !same
                        && match (history_blob::decode(p, blob), history_blob::decode(p, want)) {
                            (Some(a), Some(b)) => without_repeats(a) == without_repeats(b),
                            _ => false,
                        };
                    if same_as_older {
                        continue;
                    }
                    if !same || (day, seq) != key {
                        let cached = history_blob::decode(p, blob);
                        let have = cached
                            .map_or_else(|| "unreadable".into(), |r| format!("{} rows", r.len()));
                        let should = history_blob::decode(p, want).map_or(0, |r| r.len());
                        report.found(format!(
                            "{}: the cached history differs from a replay ({have} cached, {should} replayed)",
                            name(p)
                        ));
                    }
                }
            }
        }
        let replayed = (0..fresh.players.len() as PlayerId)
            .filter(|&p| history.of(p).is_some())
            .count();
        if replayed != seen {
            report.found(format!(
                "the caches hold the history of {seen} players where a replay gives {replayed}"
            ));
        }
        Ok(Some(sum))
    }

    /// The cached ladder beside `fresh`: its shell (everything but the players) and season
    /// archive, and each cached player compared as the cache writes them, the fresh player's
    /// JSON beside the cached text. Only a text that differs is read back, to name what
    /// differs (or to find the same value written otherwise, by an older rungs): reading
    /// ten thousand players' JSON cost a check more than writing them.
    fn cached_beside(&self, conn: &rusqlite::Connection, fresh: &Ladder) -> Result<Cached> {
        let mut shell = self.ladder_shell(conn)?;
        if self.archive_table {
            shell.archive = self.cached_archive(conn)?;
        }
        shell.players.clear();
        let mut stmt = conn
            .prepare_cached("SELECT id, state FROM cache_players ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut players = 0usize;
        let mut differing = Vec::new();
        let mut written = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let id: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let text = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            // Players are cached 0, 1, 2, …: an id is never a number to allocate by.
            if id != players as i64 {
                return Err(
                    self.bad_cache(format!("players are numbered {id} where {players} was due"))
                );
            }
            players += 1;
            if let Some(f) = fresh.players.get(id as usize) {
                written.clear();
                if serde_json::to_writer(&mut written, f).is_ok() && written == text.as_bytes() {
                    continue;
                }
            }
            differing.push((id as usize, self.player_state(id, text)?));
        }
        Ok(Cached {
            shell,
            players,
            differing,
        })
    }

    /// Rebuilds every cache of the ladder at `path` from its log, in one transaction; the log
    /// is not touched. What the app offers, and `rungs repair` runs, when [`Store::open`]
    /// says [`StoreError::Stale`]. A log that does not read or replay is an error, and
    /// nothing changes.
    pub fn repair(path: &Path) -> Result<Repaired> {
        let store = Store::open_unchecked(path)?;
        // The log must read; the caches may be in any state.
        let was_stale = store.staleness(&store.conn, true)?;
        let events = store.rebuild_all()?;
        let players = store.ladder()?.players.iter().filter(|p| p.joined).count();
        Ok(Repaired {
            was_stale,
            events: events.len(),
            players,
        })
    }
}

/// The cached ladder as a check compares it (see `Store::cached_beside`).
struct Cached {
    /// Everything but the players.
    shell: Ladder,
    /// How many players the cache holds.
    players: usize,
    /// The cached players whose text is not the fresh player's, by id, as read.
    differing: Vec<(usize, rungs_ladder::state::PlayerState)>,
}

/// A history without the rows that repeat the figures of the row before.
fn without_repeats(
    mut rows: Vec<rungs_ladder::state::HistoryRow>,
) -> Vec<rungs_ladder::state::Figures> {
    rows.dedup_by(|b, a| a.figures.same_bits(&b.figures));
    rows.into_iter().map(|r| r.figures).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The integrity check read beside the rest lists its findings first, as when it ran
    /// before the rest: of 2 + 15 problems, the 2 and the rest's first 10 are listed (a dozen)
    /// and 5 counted; an "ok" adds nothing; the counts read come from the rest.
    #[test]
    fn integrity_findings_come_first_and_the_count_is_whole() {
        let mut rest = CheckReport {
            actions: 4,
            rows: 9,
            events: 8,
            players: 3,
            ..CheckReport::default()
        };
        for k in 0..15 {
            rest.found(format!("problem {k}"));
        }
        assert_eq!((rest.problems.len(), rest.more), (12, 3));
        let lines = [
            "row 3 missing from index x".to_string(),
            "wrong # of entries in index x".to_string(),
        ];
        let report = with_integrity(&lines, rest.clone());
        assert_eq!(
            report.problems[0],
            "SQLite's integrity check: row 3 missing from index x"
        );
        assert_eq!(
            report.problems[1],
            "SQLite's integrity check: wrong # of entries in index x"
        );
        assert_eq!(report.problems[2..], rest.problems[..10]);
        assert_eq!((report.problems.len(), report.more), (12, 5));
        assert_eq!(
            (report.actions, report.rows, report.events, report.players),
            (4, 9, 8, 3)
        );
        assert_eq!(with_integrity(&["ok".to_string()], rest.clone()), rest);
    }

    /// A finding placed where it would have been found: of 11 listed, one placed at 3 is
    /// the fourth (12 listed); one more placed at 2 is the third, and pushes the last out
    /// into the count; one placed past the dozen is counted.
    #[test]
    fn a_finding_placed_earlier_lists_as_if_found_then() {
        let mut r = CheckReport::default();
        for k in 0..11 {
            r.found(format!("p{k}"));
        }
        r.found_at(3, "x");
        assert_eq!(r.problems[2..5], ["p2", "x", "p3"]);
        assert_eq!((r.problems.len(), r.more), (12, 0));
        r.found_at(2, "y");
        assert_eq!(r.problems[1..5], ["p1", "y", "p2", "x"]);
        assert_eq!(r.problems.last().map(String::as_str), Some("p9"));
        assert_eq!((r.problems.len(), r.more), (12, 1));
        r.found_at(12, "z");
        assert_eq!((r.problems.len(), r.more), (12, 2));
        assert!(!r.problems.iter().any(|p| p == "z"));
    }
}
