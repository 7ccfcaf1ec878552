//! The caches: the ladder's state (one row), each player's state, each player's history (one
//! blob a player), and the stamp of the log they were made from. Read for everything shown;
//! written by every action in the same transaction as its log rows; rebuilt from the log by
//! `rungs repair`.

use super::digest::{self, Fold, Stamp};
use super::history_blob;
use super::{Result, Store, StoreError};
use crate::ladder::event::{Event, PlayerId};
use crate::ladder::replay::Ladder;
use crate::ladder::state::{HistoryRow, PlayerState};
use chrono::NaiveDate;
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

/// Every player's history rows as a replay produces them, packed as the cache keeps them.
#[derive(Default)]
pub(crate) struct Histories {
    blobs: Vec<Vec<u8>>,
    packers: Vec<history_blob::Packer>,
    /// The replay key of each player's last row.
    last: Vec<Option<(NaiveDate, u64)>>,
}

/// Room a history row takes, packed, on average (a little over, so blobs rarely grow).
const PACKED_ROW: usize = 32;

/// Counts the history rows a run of events will give each player, at most, so that
/// [`Histories`] holds each player's rows without growing (and doubling) as they come.
#[derive(Default)]
pub(crate) struct RowCounter {
    counts: Vec<u32>,
    /// Rows every player gets (resets, rules changes, migrations record everyone).
    everyone: u32,
}

impl RowCounter {
    /// Counts `event`, whose player ids were checked to be within the ladder's.
    pub fn add(&mut self, event: &Event) {
        let mut one = |id: PlayerId| {
            let i = id as usize;
            if i >= self.counts.len() {
                self.counts.resize(i + 1, 0);
            }
            self.counts[i] = self.counts[i].saturating_add(1);
        };
        match event {
            Event::Player { id, .. } => one(*id),
            Event::Match(m) => m.a.iter().chain(m.b.iter()).for_each(|&id| one(id)),
            Event::SoftReset | Event::HardReset | Event::Rules { .. } | Event::Migration { .. } => {
                self.everyone = self.everyone.saturating_add(1)
            }
            Event::Rename { .. } | Event::Retire { .. } | Event::Scenario { .. } => {}
        }
    }

    /// Empty histories with room for the rows counted, for `players` players.
    pub fn histories(self, players: usize) -> Histories {
        let n = players.max(self.counts.len());
        let blobs = (0..n)
            .map(|p| {
                let rows = self
                    .counts
                    .get(p)
                    .copied()
                    .unwrap_or(0)
                    .saturating_add(self.everyone);
                Vec::with_capacity(rows as usize * PACKED_ROW)
            })
            .collect();
        Histories {
            blobs,
            packers: vec![history_blob::Packer::default(); n],
            last: vec![None; n],
        }
    }
}

impl Histories {
    /// Takes rows in replay order (a player id indexes the ladder's players: no row names a
    /// player the ladder does not hold).
    pub fn add(&mut self, rows: &[HistoryRow]) {
        for r in rows {
            let p = r.player as usize;
            if p >= self.blobs.len() {
                self.blobs.resize_with(p + 1, Vec::new);
                self.packers.resize_with(p + 1, Default::default);
                self.last.resize(p + 1, None);
            }
            self.packers[p].push(r, &mut self.blobs[p]);
            self.last[p] = Some((r.date, r.seq));
        }
    }

    fn players(&self) -> impl Iterator<Item = (PlayerId, &[u8], (NaiveDate, u64))> {
        self.blobs
            .iter()
            .zip(&self.last)
            .enumerate()
            .filter_map(|(p, (b, l))| l.map(|l| (p as PlayerId, b.as_slice(), l)))
    }

    /// Player `p`'s packed rows and last key.
    pub fn of(&self, p: PlayerId) -> Option<(&[u8], (NaiveDate, u64))> {
        let i = p as usize;
        Some((self.blobs.get(i)?.as_slice(), (*self.last.get(i)?)?))
    }
}

/// How a cache write changes the history.
pub(crate) enum HistoryWrite<'a> {
    /// Rows that come after everything cached.
    Append(&'a Histories),
    /// The full history of a replay; rows from this key on may differ from the cache's.
    Replace(&'a Histories, (NaiveDate, u64)),
}

impl Store {
    fn bad_cache(&self, what: impl std::fmt::Display) -> StoreError {
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
    /// by its last action and row (the digests were compared when the file opened).
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
                None => None,
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
        Ok(sum)
    }

    /// The cached ladder without its players (rules, seasons, scenarios, counters).
    fn ladder_shell(&self, conn: &Connection) -> Result<Ladder> {
        let state: Option<String> = conn
            .query_row("SELECT state FROM cache_ladder WHERE id = 1", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        let state = state.ok_or_else(|| self.bad_cache("the ladder's row is missing"))?;
        serde_json::from_str(&state).map_err(|e| self.bad_cache(format!("the ladder's row: {e}")))
    }

    fn player_state(&self, id: i64, text: &str) -> Result<PlayerState> {
        serde_json::from_str(text).map_err(|e| self.bad_cache(format!("player {id}: {e}")))
    }

    /// The ladder as the caches hold it.
    pub(crate) fn cached_ladder(&self, conn: &Connection) -> Result<Ladder> {
        let mut ladder = self.ladder_shell(conn)?;
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
        Ok(ladder)
    }

    /// The cached ladder with only players `ids` loaded; every other id below the largest is
    /// a placeholder that has not joined. Enough to apply matches, joins and renames among
    /// those players, and cheap whatever the ladder's size: appending a match must not read
    /// ten thousand players. `ids` are the ladder's own or the next new ones (see
    /// `actions.rs`), so the placeholders are bounded by the players it holds.
    pub(crate) fn ladder_with(&self, conn: &Connection, ids: &[PlayerId]) -> Result<Ladder> {
        let mut ladder = self.ladder_shell(conn)?;
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

    /// A player's history: their figures after every event that touched them.
    pub fn history(&self, player: PlayerId) -> Result<Vec<HistoryRow>> {
        let blob: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT rows FROM cache_history WHERE player = ?1",
                [i64::from(player)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        match blob {
            None => Ok(Vec::new()),
            Some(b) => history_blob::decode(player, &b)
                .ok_or_else(|| self.bad_cache(format!("the history of player {player}"))),
        }
    }

    /// The history of every player as the cache holds it, in (date, seq, player) order.
    pub fn cached_history(&self) -> Result<Vec<HistoryRow>> {
        let mut stmt = self
            .conn
            .prepare("SELECT player, rows FROM cache_history ORDER BY player")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut all = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let player: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let blob = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_blob()?))
                .map_err(|e| self.sql(e))?;
            let decoded = PlayerId::try_from(player)
                .ok()
                .and_then(|p| history_blob::decode(p, blob))
                .ok_or_else(|| self.bad_cache(format!("the history of player {player}")))?;
            all.extend(decoded);
        }
        all.sort_by_key(|r| (r.date, r.seq, r.player));
        Ok(all)
    }

    /// Writes the ladder's row (state, stamp, last key, digest of the cached states), its
    /// players (all, or only `touched`), and the history.
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
        let state = json(&ladder.clone_without_players())?;
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
                let key = crate::ladder::values::name_key(&p.name);
                let text = json(p)?;
                caches = caches.wrapping_add(digest::cached_state(id, &key, &text));
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
        match history {
            HistoryWrite::Append(h) => self.append_history(tx, h),
            HistoryWrite::Replace(h, from) => self.replace_history(tx, h, from),
        }
    }

    fn put_history(
        &self,
        tx: &Connection,
        player: PlayerId,
        blob: &[u8],
        last: Option<(NaiveDate, u64)>,
    ) -> Result<()> {
        let done = match last {
            Some((date, seq)) => tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO cache_history(player, last_day, last_seq, rows)
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        i64::from(player),
                        history_blob::day_of(date),
                        seq as i64,
                        blob
                    ])
                }),
            None => tx
                .prepare_cached("DELETE FROM cache_history WHERE player = ?1")
                .and_then(|mut s| s.execute([i64::from(player)])),
        };
        done.map(|_| ()).map_err(|e| self.sql(e))
    }

    /// New rows after everything cached: each touched player's blob grows at its end.
    fn append_history(&self, tx: &Connection, h: &Histories) -> Result<()> {
        let mut blob = Vec::new();
        for (player, new, last) in h.players() {
            blob.clear();
            let old: Option<Vec<u8>> = tx
                .prepare_cached("SELECT rows FROM cache_history WHERE player = ?1")
                .and_then(|mut s| s.query_row([i64::from(player)], |r| r.get(0)).optional())
                .map_err(|e| self.sql(e))?;
            if let Some(old) = old {
                blob = old;
            }
            blob.extend_from_slice(new);
            self.put_history(tx, player, &blob, Some(last))?;
        }
        Ok(())
    }

    /// After a replay: every player with a row at or after `from`, in the cache or in the
    /// new history, gets their blob rewritten from the new history; the rest keep theirs.
    fn replace_history(
        &self,
        tx: &Connection,
        h: &Histories,
        from: (NaiveDate, u64),
    ) -> Result<()> {
        let mut stale: Vec<PlayerId> = {
            let mut stmt = tx
                .prepare("SELECT player FROM cache_history WHERE (last_day, last_seq) >= (?1, ?2)")
                .map_err(|e| self.sql(e))?;
            stmt.query_map(params![history_blob::day_of(from.0), from.1 as i64], |r| {
                r.get::<_, i64>(0)
            })
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<i64>>>())
            .map_err(|e| self.sql(e))?
            .into_iter()
            .map(|p| PlayerId::try_from(p).map_err(|_| self.bad_cache(format!("player {p}"))))
            .collect::<Result<_>>()?
        };
        stale.extend(
            h.players()
                .filter(|(_, _, last)| *last >= from)
                .map(|(p, _, _)| p),
        );
        stale.sort_unstable();
        stale.dedup();
        for player in stale {
            match h.of(player) {
                Some((blob, last)) => self.put_history(tx, player, blob, Some(last))?,
                None => self.put_history(tx, player, &[], None)?,
            }
        }
        Ok(())
    }
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
