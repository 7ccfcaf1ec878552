//! The caches: the ladder's state (one row), each player's state, each finished season (one
//! row a season), each player's history (one blob a player), and the stamp of the log they
//! were made from. Read for everything shown; written by every action in the same
//! transaction as its log rows; rebuilt from the log by `rungs repair`.

use super::digest::{self, Fold, Stamp};
use super::histories::HistoryWrite;
use super::{Result, Store, StoreError};
use chrono::NaiveDate;
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use rungs_ladder::state::{PlayerState, SeasonRecord};
use rusqlite::{Connection, OptionalExtension, params};

/// The cache row of the ladder: what it was made from and where it stands.
pub(crate) struct CacheHead {
    pub stamp: Stamp,
    /// The replay key of the last event applied.
    pub last: Option<(NaiveDate, u64)>,
    /// The digest of the cached states as rungs wrote them (see [`digest::cached_state`]).
    pub caches: u64,
}

impl CacheHead {
    /// The head of a ladder with nothing cached yet.
    pub fn new(stamp: Stamp) -> CacheHead {
        CacheHead {
            stamp,
            last: None,
            caches: 0,
        }
    }
}

impl Store {
    pub(crate) fn bad_cache(&self, what: impl std::fmt::Display) -> StoreError {
        self.damaged(format!(
            "its caches: {what}; `rungs repair` rebuilds them from the log"
        ))
    }

    /// The cache row, or `None` if it is missing.
    pub(crate) fn cache_head(&self, conn: &Connection) -> Result<Option<CacheHead>> {
        type Head = (i64, i64, i64, i64, i64, Option<i32>, Option<i64>);
        let row: Option<Head> = conn
            .query_row(
                "SELECT log_action, log_seq, actions_digest, rows_digest, caches_digest,
                        last_day, last_seq
                 FROM cache_ladder WHERE id = 1",
                [],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let Some((action, seq, actions, rows, caches, day, last_seq)) = row else {
            return Ok(None);
        };
        let last = match (day, last_seq) {
            (Some(d), Some(s)) => Some((
                super::codec::date_of(d)
                    .ok_or_else(|| self.bad_cache(format!("its last day {d} is no date")))?,
                u64::try_from(s).map_err(|_| self.bad_cache("a negative row number"))?,
            )),
            _ => None,
        };
        Ok(Some(CacheHead {
            stamp: Stamp {
                last_action: action,
                last_seq: seq,
                actions: Fold(actions as u64),
                rows: Fold(rows as u64),
            },
            last,
            caches: caches as u64,
        }))
    }

    /// The cache row, which must describe the log as it is: within a transaction, compared
    /// by its last action and row (the digests were compared when the file opened). The log
    /// must also end where it did when this store last read the ladder: a change is built
    /// from what was read.
    pub(crate) fn current_head(&self, conn: &Connection) -> Result<CacheHead> {
        let head = self.cache_head(conn)?.ok_or_else(|| StoreError::Stale {
            path: self.name(),
            why: "its caches are missing".into(),
        })?;
        let action: i64 = conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM actions", [], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        let seq: i64 = conn
            .query_row(
                "SELECT COALESCE(MAX(first_seq + rows - 1), 0) FROM
                 (SELECT first_seq, rows FROM log ORDER BY first_seq DESC LIMIT 1)",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        if let Some(read) = self.seen.get()
            && read != (action, seq)
            && (action, seq) == (head.stamp.last_action, head.stamp.last_seq)
        {
            return Err(StoreError::ChangedMeanwhile {
                path: self.name(),
                read: read.0,
                now: action,
            });
        }
        if (action, seq) != (head.stamp.last_action, head.stamp.last_seq) {
            return Err(StoreError::Stale {
                path: self.name(),
                why: format!(
                    "the log ends at action {action}, row {seq}; its caches at action {}, row {}",
                    head.stamp.last_action, head.stamp.last_seq
                ),
            });
        }
        Ok(head)
    }

    /// Compares what the caches record with the log as it is, and the cached states with what
    /// rungs wrote: [`StoreError::Stale`] if another program changed either.
    pub(crate) fn verify_stamp(&self) -> Result<()> {
        self.conn.execute_batch("BEGIN").map_err(|e| self.sql(e))?;
        let found = self.staleness(&self.conn, false);
        let _ = self.conn.execute_batch("COMMIT");
        match found? {
            None => Ok(()),
            Some(why) => Err(StoreError::Stale {
                path: self.name(),
                why,
            }),
        }
    }

    /// Why the caches are not those of the log, if they are not. The log must read; with
    /// `tolerant`, caches that do not read are a reason, not an error.
    pub(crate) fn staleness(&self, conn: &Connection, tolerant: bool) -> Result<Option<String>> {
        let now = self.log_stamp(conn)?;
        let caches =
            (|| Ok::<_, StoreError>((self.cache_head(conn)?, self.caches_digest(conn)?)))();
        let (head, caches) = match caches {
            Ok(found) => found,
            Err(e) if tolerant => return Ok(Some(self.without_path(&e))),
            Err(e) => return Err(e),
        };
        Ok(match head {
            None => Some("its caches are missing".to_string()),
            Some(h) => match h.stamp.differs(&now) {
                Some(why) => Some(format!("the log was changed outside rungs: {why}")),
                None if h.caches != caches => Some(
                    "the cached standings were changed outside rungs: they are not what rungs wrote"
                        .to_string(),
                ),
                None => match self.guard_staleness(conn) {
                    Ok(why) => why,
                    Err(e) if tolerant => Some(self.without_path(&e)),
                    Err(e) => return Err(e),
                },
            },
        })
    }

    /// The digest of the cached states as they are (see [`digest::cached_state`]).
    pub(crate) fn caches_digest(&self, conn: &Connection) -> Result<u64> {
        let shell: Option<String> = conn
            .query_row("SELECT state FROM cache_ladder WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        let mut sum = shell.as_deref().map_or(0, digest::cached_ladder);
        let mut stmt = conn
            .prepare_cached("SELECT id, key, state FROM cache_players")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let id: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let key = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            let state = r
                .get_ref(2)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            sum = sum.wrapping_add(digest::cached_state(id, key, state));
        }
        if self.archive_table {
            let mut stmt = conn
                .prepare_cached("SELECT position, state FROM cache_seasons")
                .map_err(|e| self.sql(e))?;
            let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
            while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
                let position: i64 = r.get(0).map_err(|e| self.sql(e))?;
                let state = r
                    .get_ref(1)
                    .and_then(|v| Ok(v.as_str()?))
                    .map_err(|e| self.sql(e))?;
                sum = sum.wrapping_add(digest::cached_season(position, state));
            }
        }
        Ok(sum)
    }

    /// The season archive as `cache_seasons` holds it, in the order the seasons ended.
    pub(crate) fn cached_archive(&self, conn: &Connection) -> Result<Vec<SeasonRecord>> {
        let mut stmt = conn
            .prepare_cached("SELECT position, state FROM cache_seasons ORDER BY position")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut archive = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let position: i64 = r.get(0).map_err(|e| self.sql(e))?;
            if position != archive.len() as i64 {
                return Err(self.bad_cache(format!(
                    "the archive's seasons are numbered {position} where {} was due",
                    archive.len()
                )));
            }
            let text = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            archive.push(
                serde_json::from_str(text)
                    .map_err(|e| self.bad_cache(format!("archived season {position}: {e}")))?,
            );
        }
        Ok(archive)
    }

    /// Writes the season archive: with `whole`, `archive` is all of it and the rows that
    /// differ are rewritten (most seasons do not change); otherwise it holds only seasons
    /// that ended after the rows written, which are appended. Returns the change to the
    /// caches' digest.
    pub(super) fn write_archive(
        &self,
        tx: &Connection,
        archive: &[SeasonRecord],
        whole: bool,
    ) -> Result<u64> {
        let sql = |e| self.sql(e);
        let stored: i64 = tx
            .query_row("SELECT COUNT(*) FROM cache_seasons", [], |r| r.get(0))
            .map_err(sql)?;
        let first = if whole { 0 } else { stored };
        let mut get = tx
            .prepare_cached("SELECT state FROM cache_seasons WHERE position = ?1")
            .map_err(sql)?;
        let mut put = tx
            .prepare_cached("INSERT OR REPLACE INTO cache_seasons(position, state) VALUES (?1, ?2)")
            .map_err(sql)?;
        let mut sum = 0u64;
        for (i, season) in archive.iter().enumerate() {
            let position = first + i as i64;
            let text = serde_json::to_string(season)
                .map_err(|e| StoreError::Invalid(format!("{}: {e}", self.name())))?;
            sum = sum.wrapping_add(digest::cached_season(position, &text));
            let same: Option<bool> = get
                .query_row([position], |r| Ok(r.get_ref(0)?.as_str()? == text))
                .optional()
                .map_err(sql)?;
            if same != Some(true) {
                put.execute(params![position, text]).map_err(sql)?;
            }
        }
        if whole {
            tx.execute(
                "DELETE FROM cache_seasons WHERE position >= ?1",
                [archive.len() as i64],
            )
            .map_err(sql)?;
        }
        Ok(sum)
    }

    /// The cached ladder without its players (rules, seasons, scenarios, counters).
    pub(crate) fn ladder_shell(&self, conn: &Connection) -> Result<Ladder> {
        let state: Option<String> = conn
            .query_row("SELECT state FROM cache_ladder WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        let state = state.ok_or_else(|| self.bad_cache("the ladder's row is missing"))?;
        let mut ladder: Ladder = serde_json::from_str(&state)
            .map_err(|e| self.bad_cache(format!("the ladder's row: {e}")))?;
        if self.archive_table && !ladder.archive.is_empty() {
            return Err(self.bad_cache(
                "the ladder's row holds a season archive, which belongs in `cache_seasons`",
            ));
        }
        ladder.names.tolerated_through = self.names_shared_through(conn)?;
        Ok(ladder)
    }

    pub(crate) fn player_state(&self, id: i64, text: &str) -> Result<PlayerState> {
        serde_json::from_str(text).map_err(|e| self.bad_cache(format!("player {id}: {e}")))
    }

    /// The ladder as the caches hold it.
    pub(crate) fn cached_ladder(&self, conn: &Connection) -> Result<Ladder> {
        let mut ladder = self.ladder_shell(conn)?;
        if self.archive_table {
            ladder.archive = self.cached_archive(conn)?;
        }
        let mut stmt = conn
            .prepare_cached("SELECT id, state FROM cache_players ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        ladder.players.clear();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let id: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let text = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            // Players are cached 0, 1, 2, …: an id is never a number to allocate by.
            if id != ladder.players.len() as i64 {
                return Err(self.bad_cache(format!(
                    "players are numbered {id} where {} was due",
                    ladder.players.len()
                )));
            }
            ladder.players.push(self.player_state(id, text)?);
        }
        // Caches an older rungs wrote may not keep the goals pool its figures are measured
        // from: counted once here, not at every figure shown.
        ladder.keep_goals_pool();
        Ok(ladder)
    }

    /// The cached ladder with only players `ids` loaded; every other id below the largest is
    /// a placeholder that has not joined, and the season archive is left unread. Enough to
    /// apply matches, joins and renames among those players, and cheap whatever the ladder's
    /// size: appending a match must not read ten thousand players or thirteen seasons. `ids`
    /// are the ladder's own or the next new ones (see `actions.rs`), so the placeholders are
    /// bounded by the players it holds.
    pub(crate) fn ladder_with(&self, conn: &Connection, ids: &[PlayerId]) -> Result<Ladder> {
        let mut ladder = self.ladder_shell(conn)?;
        // The Grandweaver slots' holders come too: an event that moves a player among them
        // compares them (`leaderboard::track`); they are at most N, and already held.
        let mut ids = ids.to_vec();
        if let Some(h) = &ladder.slots.0 {
            let held = self.cached_players(conn)?;
            ids.extend(h.holders.iter().filter(|&&i| u64::from(i) < held));
            ids.sort_unstable();
            ids.dedup();
        }
        let ids = ids.as_slice();
        ladder.partial.only_some = true;
        let size = ids.iter().map(|&i| i as usize + 1).max().unwrap_or(0);
        let mut placeholder = PlayerState::new(String::new(), &ladder.rules);
        placeholder.joined = false;
        ladder.players = vec![placeholder; size];
        let mut stmt = conn
            .prepare_cached("SELECT state FROM cache_players WHERE id = ?1")
            .map_err(|e| self.sql(e))?;
        for &id in ids {
            let text: Option<String> = stmt
                .query_row([i64::from(id)], |r| r.get(0))
                .optional()
                .map_err(|e| self.sql(e))?;
            if let Some(text) = text {
                ladder.players[id as usize] = self.player_state(i64::from(id), &text)?;
            }
        }
        Ok(ladder)
    }

    /// How many players the caches hold (joined or placeholders): the next new player's id.
    pub(crate) fn cached_players(&self, conn: &Connection) -> Result<u64> {
        conn.query_row(
            "SELECT COALESCE(MAX(id) + 1, 0) FROM cache_players",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n.max(0) as u64)
        .map_err(|e| self.sql(e))
    }

    /// Writes the ladder's row (state, stamp, last key, digest of the cached states), its
    /// players (all, or only `touched`), its season archive and the history. With `touched`,
    /// the ladder is [`Store::ladder_with`]'s: its archive holds only seasons these events
    /// ended; without, it is the whole ladder.
    pub(crate) fn write_cache(
        &self,
        tx: &Connection,
        ladder: &Ladder,
        touched: Option<&[PlayerId]>,
        history: HistoryWrite<'_>,
        head: &CacheHead,
    ) -> Result<()> {
        let sql = |e| self.sql(e);
        let json = |v: &dyn erased::Json| {
            v.to_json()
                .map_err(|e| StoreError::Invalid(format!("{}: {e}", self.name())))
        };
        if !self.archive_table {
            return Err(StoreError::ReadOnly(self.name()));
        }
        let state = json(&ladder.shell())?;
        // The cached states' digest: rewritten whole, or the touched players taken out and
        // put back in.
        let mut caches = match touched {
            None => 0u64,
            Some(_) => {
                let old: Option<String> = tx
                    .query_row("SELECT state FROM cache_ladder WHERE id = 1", [], |r| {
                        r.get(0)
                    })
                    .optional()
                    .map_err(sql)?;
                head.caches
                    .wrapping_sub(old.as_deref().map_or(0, digest::cached_ladder))
            }
        };
        caches = caches.wrapping_add(digest::cached_ladder(&state));
        caches = caches.wrapping_add(self.write_archive(tx, &ladder.archive, touched.is_none())?);
        // An append moves the histories' digest by exactly what it wrote, whoever it
        // touched; a replacement after the rebuild emptied the table is counted afresh.
        let exact = touched.is_some() || matches!(history, HistoryWrite::Append(_));
        // Every player of a large ladder rewritten (an import, a rebuild): their keys and
        // texts are made on a second thread while the histories are written, first.
        let (words, delta) = match touched {
            None if ladder.players.len() >= 1 << 12 => {
                let (words, delta) = std::thread::scope(|s| {
                    let words = s.spawn(|| words_of(&ladder.players));
                    let delta = self.write_history(tx, history);
                    let words = words
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    (words, delta)
                });
                let words =
                    words.map_err(|e| StoreError::Invalid(format!("{}: {e}", self.name())))?;
                (Some(words), Some(delta?))
            }
            _ => (None, None),
        };
        {
            let mut get = tx
                .prepare_cached("SELECT key, state FROM cache_players WHERE id = ?1")
                .map_err(sql)?;
            let mut put = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO cache_players(id, key, state) VALUES (?1, ?2, ?3)",
                )
                .map_err(sql)?;
            let all: Vec<PlayerId>;
            let ids = match touched {
                Some(t) => t,
                None => {
                    tx.execute("DELETE FROM cache_players", []).map_err(sql)?;
                    all = (0..ladder.players.len() as PlayerId).collect();
                    &all
                }
            };
            for &id in ids {
                let Some(p) = ladder.players.get(id as usize) else {
                    continue;
                };
                let id = i64::from(id);
                if touched.is_some() {
                    let old: Option<(String, String)> = get
                        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                        .optional()
                        .map_err(sql)?;
                    if let Some((key, state)) = old {
                        caches = caches.wrapping_sub(digest::cached_state(id, &key, &state));
                    }
                }
                let made;
                let (key, text) = match words.as_ref().and_then(|w| w.get(id as usize)) {
                    Some((key, text)) => (key, text),
                    None => {
                        made = (rungs_ladder::values::name_key(&p.name), json(p)?);
                        (&made.0, &made.1)
                    }
                };
                caches = caches.wrapping_add(digest::cached_state(id, key, text));
                put.execute(params![id, key, text]).map_err(sql)?;
            }
        }
        let (day, seq) = match head.last {
            Some((d, s)) => (Some(super::codec::day_number(d)), Some(s as i64)),
            None => (None, None),
        };
        let s = &head.stamp;
        tx.execute(
            "INSERT OR REPLACE INTO cache_ladder
             (id, log_action, log_seq, actions_digest, rows_digest, caches_digest,
              last_day, last_seq, state)
             VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                s.last_action,
                s.last_seq,
                s.actions.0 as i64,
                s.rows.0 as i64,
                caches as i64,
                day,
                seq,
                state
            ],
        )
        .map_err(sql)?;
        let delta = match delta {
            Some(delta) => delta,
            None => self.write_history(tx, history)?,
        };
        self.guard_after(tx, exact.then_some(delta))
    }
}

/// Each player's comparison key and cached text, in id order.
fn words_of(players: &[PlayerState]) -> serde_json::Result<Vec<(String, String)>> {
    players
        .iter()
        .map(|p| {
            Ok((
                rungs_ladder::values::name_key(&p.name),
                serde_json::to_string(p)?,
            ))
        })
        .collect()
}

/// Serialising a value to JSON through a trait object (the cache writes mixed types).
mod erased {
    pub trait Json {
        fn to_json(&self) -> serde_json::Result<String>;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> serde_json::Result<String> {
            serde_json::to_string(self)
        }
    }
}
