//! Each player's history as the cache keeps it: built as a replay runs (one packed blob a
//! player, sized before it fills), read back for charts and checks, and written after an
//! action — appended after the rows already cached, or replaced from the first row an action
//! changed.

use super::guard::history_term;
use super::history_blob;
use super::{Result, Store};
use chrono::NaiveDate;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::state::{HistoryRow, PlayerState};
use rusqlite::{Connection, OptionalExtension, params};

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

/// Counts the history rows a run of events gives each player by name (a join, a match, a
/// migration's entries), so that [`Histories`] holds those without growing (and doubling) as
/// they come. Rows an event may give every player (a reset, a change of system) are not
/// reserved: a reset writes rows only for the players it changes, often none, and reserving
/// one a player for each reset asked players × resets of memory the log never used (an
/// import of 100,000 joins and 20,000 soft resets reserved 64 GB). Those rows
/// grow their blobs as they come.
#[derive(Clone, Default)]
pub(crate) struct RowCounter {
    counts: Vec<u32>,
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
            Event::Migration { migration } => migration.entries.iter().for_each(|e| one(e.player)),
            Event::SoftReset
            | Event::HardReset
            | Event::DueResets
            | Event::Rules { .. }
            | Event::Rename { .. }
            | Event::Retire { .. }
            | Event::Scenario { .. }
            | Event::Round { .. }
            | Event::PairRule { .. }
            | Event::ChallengeLadder { .. }
            | Event::Challenge { .. }
            | Event::ChallengePlace { .. }
            | Event::BoxPeriod { .. }
            | Event::BoxWithdraw { .. }
            | Event::BoxJoin { .. } => {}
        }
    }

    /// Empty histories with room for the rows counted, for `players` players.
    pub fn histories(self, players: usize) -> Histories {
        let n = players.max(self.counts.len());
        let blobs = (0..n)
            .map(|p| {
                let rows = self.counts.get(p).copied().unwrap_or(0);
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
    /// Empty histories with room for `bytes[p]` packed bytes for player `p`: what a check
    /// replays beside the cache, sized by the cached blobs (a sound cache holds exactly what
    /// the replay packs), without a pass over the log to count the rows. A blob that turns
    /// out short grows as rows come.
    pub fn with_room(bytes: &[usize]) -> Histories {
        let n = bytes.len();
        Histories {
            blobs: bytes.iter().map(|&b| Vec::with_capacity(b)).collect(),
            packers: vec![history_blob::Packer::default(); n],
            last: vec![None; n],
        }
    }

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

    /// Runs `work`, which hands over history rows in replay order through its argument, and
    /// packs them: when `large` (a replay of many events, where packing is about half as
    /// much work again as the replay) on a second thread while `work` goes on, in batches
    /// through a bounded channel, so that at most a few batches wait; else as they come.
    pub fn packed_beside<T>(
        mut self,
        large: bool,
        work: impl FnOnce(&mut dyn FnMut(&[HistoryRow])) -> T,
    ) -> (Histories, T) {
        if !large {
            let out = work(&mut |rows| self.add(rows));
            return (self, out);
        }
        const BATCH: usize = 1 << 13;
        std::thread::scope(|s| {
            let (full_tx, full_rx) = std::sync::mpsc::sync_channel::<Vec<HistoryRow>>(4);
            // Packed batches come back to be filled again.
            let (empty_tx, empty_rx) = std::sync::mpsc::sync_channel::<Vec<HistoryRow>>(8);
            let packer = s.spawn(move || {
                for mut batch in full_rx {
                    self.add(&batch);
                    batch.clear();
                    let _ = empty_tx.try_send(batch);
                }
                self
            });
            let mut batch = Vec::with_capacity(BATCH);
            let out = {
                let mut add = |rows: &[HistoryRow]| {
                    batch.extend_from_slice(rows);
                    if batch.len() >= BATCH {
                        let next = empty_rx
                            .try_recv()
                            .unwrap_or_else(|_| Vec::with_capacity(BATCH));
                        // A packer gone (it panicked) is reported by the join below.
                        let _ = full_tx.send(std::mem::replace(&mut batch, next));
                    }
                };
                work(&mut add)
            };
            let _ = full_tx.send(batch);
            drop(full_tx);
            let packed = packer
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (packed, out)
        })
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
#[derive(Clone, Copy)]
pub(crate) enum HistoryWrite<'a> {
    /// Rows that come after everything cached.
    Append(&'a Histories),
    /// The full history of a replay; rows from this key on may differ from the cache's.
    Replace(&'a Histories, (NaiveDate, u64)),
}

/// A player's cached history row as it lay before a change.
struct OldHistory {
    day: i64,
    seq: i64,
    rows: Vec<u8>,
}

impl Store {
    /// The history blobs are the ones rungs wrote (see `guard.rs`): asked once per state of
    /// the caches this store reads.
    fn verify_histories(&self) -> Result<()> {
        let head = self
            .cache_head(&self.conn)?
            .map(|h| (h.stamp.last_action, h.stamp.last_seq));
        if head.is_some() && self.histories_verified.get() == head {
            return Ok(());
        }
        if !self.histories_sound(&self.conn)? {
            return Err(self.histories_changed());
        }
        self.histories_verified.set(head);
        Ok(())
    }

    /// A player's history: their figures after every event that touched them.
    pub fn history(&self, player: PlayerId) -> Result<Vec<HistoryRow>> {
        self.verify_histories()?;
        self.history_as_it_lies(player)
    }

    /// A player's history as the cache holds it, checked only to end at their standing.
    pub(crate) fn history_as_it_lies(&self, player: PlayerId) -> Result<Vec<HistoryRow>> {
        let blob: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT rows FROM cache_history WHERE player = ?1",
                [i64::from(player)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let rows = match blob {
            None => Vec::new(),
            Some(b) => history_blob::decode(player, &b)
                .ok_or_else(|| self.bad_cache(format!("the history of player {player}")))?,
        };
        // The history cache is not in the digest checked when the file opened (hashing every
        // blob would read them all); the player's standing is. Its last row must be that
        // standing: a history copied from another player, or emptied, is found here.
        let state: Option<String> = self
            .conn
            .query_row(
                "SELECT state FROM cache_players WHERE id = ?1",
                [i64::from(player)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        if let Some(text) = state {
            let standing = self.player_state(i64::from(player), &text)?;
            let pooled = self.ladder_shell(&self.conn)?.pools_goals();
            let ends_at = |r: &HistoryRow| ends_at_standing(r, &standing, pooled);
            if standing.joined && !rows.last().is_some_and(ends_at) {
                return Err(self.bad_cache(format!(
                    "the history of {} does not end at their standing",
                    rungs_ladder::values::shown(&standing.name)
                )));
            }
        }
        Ok(rows)
    }

    /// The history of every player as the cache holds it, in (date, seq, player) order.
    pub fn cached_history(&self) -> Result<Vec<HistoryRow>> {
        self.verify_histories()?;
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

    /// Writes the history rows of an action or a replay. Returns how the histories' guard
    /// moves: the terms of the rows written less those of the rows they replaced.
    pub(crate) fn write_history(&self, tx: &Connection, history: HistoryWrite<'_>) -> Result<u64> {
        match history {
            HistoryWrite::Append(h) => self.append_history(tx, h),
            HistoryWrite::Replace(h, from) => self.replace_history(tx, h, from),
        }
    }

    /// Writes a player's history (none: removes it). Returns the guard's move (see
    /// [`Store::write_history`]), given the row it replaces as read (`None` when absent).
    fn put_history(
        &self,
        tx: &Connection,
        player: PlayerId,
        old: Option<&OldHistory>,
        blob: &[u8],
        last: Option<(NaiveDate, u64)>,
    ) -> Result<u64> {
        let id = i64::from(player);
        let was = old.map_or(0, |o| history_term(id, o.day, o.seq, &o.rows));
        let now = last.map_or(0, |(date, seq)| {
            history_term(id, i64::from(history_blob::day_of(date)), seq as i64, blob)
        });
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
        done.map_err(|e| self.sql(e))?;
        Ok(now.wrapping_sub(was))
    }

    /// A player's cached history row as it lies, before a change replaces it.
    fn old_history(&self, tx: &Connection, player: PlayerId) -> Result<Option<OldHistory>> {
        tx.prepare_cached("SELECT last_day, last_seq, rows FROM cache_history WHERE player = ?1")
            .and_then(|mut s| {
                s.query_row([i64::from(player)], |r| {
                    Ok(OldHistory {
                        day: r.get(0)?,
                        seq: r.get(1)?,
                        rows: r.get(2)?,
                    })
                })
                .optional()
            })
            .map_err(|e| self.sql(e))
    }

    /// New rows after everything cached: each touched player's blob grows at its end.
    fn append_history(&self, tx: &Connection, h: &Histories) -> Result<u64> {
        let mut delta = 0u64;
        let mut blob = Vec::new();
        // A ladder with no history yet (an import into a new one) has no row to look up.
        let any: bool = tx
            .query_row("SELECT EXISTS (SELECT 1 FROM cache_history)", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
        for (player, new, last) in h.players() {
            let old = match any {
                true => self.old_history(tx, player)?,
                false => None,
            };
            // A player new to the history (every player of an import into a new ladder)
            // writes the packed rows as they are, not a copy.
            let whole = match &old {
                Some(old) => {
                    blob.clear();
                    blob.extend_from_slice(&old.rows);
                    blob.extend_from_slice(new);
                    blob.as_slice()
                }
                None => new,
            };
            delta = delta.wrapping_add(self.put_history(
                tx,
                player,
                old.as_ref(),
                whole,
                Some(last),
            )?);
        }
        Ok(delta)
    }

    /// After a replay: every player with a row at or after `from`, in the cache or in the
    /// new history, gets their blob rewritten from the new history; the rest keep theirs.
    fn replace_history(
        &self,
        tx: &Connection,
        h: &Histories,
        from: (NaiveDate, u64),
    ) -> Result<u64> {
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
        let mut delta = 0u64;
        for player in stale {
            let old = self.old_history(tx, player)?;
            let moved = match h.of(player) {
                Some((blob, last)) => {
                    self.put_history(tx, player, old.as_ref(), blob, Some(last))?
                }
                None => self.put_history(tx, player, old.as_ref(), &[], None)?,
            };
            delta = delta.wrapping_add(moved);
        }
        Ok(delta)
    }
}

/// Whether `row`, a player's last history row, is their `standing`. Under rules that measure
/// the goals system's strength from the pool's mean (`pooled`), the row was measured from
/// the pool as it was after the player's last event, and the pool has moved with every match
/// since: only what does not depend on it — the deviation, and a score that is the rating —
/// can be held against the standing. Every other rule set compares all four, to the bit.
fn ends_at_standing(row: &HistoryRow, standing: &PlayerState, pooled: bool) -> bool {
    let now = standing.figures();
    if !pooled {
        return row.figures.same_bits(&now);
    }
    let f = &row.figures;
    f.rating.is_finite()
        && f.score.to_bits() == f.rating.to_bits()
        && f.deviation.to_bits() == now.deviation.to_bits()
        && f.extra.to_bits() == now.extra.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::state::Figures;

    /// Rows packed on a second thread, in batches, are the bytes packed as they come: each
    /// player's rows in replay order, across batch boundaries (20,000 rows, batches of 8,192).
    #[test]
    fn packing_beside_a_replay_is_packing_as_rows_come() {
        let day = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        // Player i % 3 after event i, on day i / 7; the figures move with i.
        let rows: Vec<HistoryRow> = (0..20_000u64)
            .map(|i| HistoryRow {
                seq: i + 1,
                date: day + chrono::Days::new(i / 7),
                player: (i % 3) as PlayerId,
                figures: Figures {
                    rating: 1500.0 + i as f64,
                    deviation: 350.0 - (i / 100) as f64,
                    extra: 0.0,
                    score: (i % 11) as f64,
                },
            })
            .collect();
        let pack = |large: bool| {
            Histories::default().packed_beside(large, |add| {
                for r in &rows {
                    add(std::slice::from_ref(r));
                }
                rows.len()
            })
        };
        let (here, n_here) = pack(false);
        let (beside, n_beside) = pack(true);
        assert_eq!((n_here, n_beside), (20_000, 20_000));
        assert_eq!(here.blobs, beside.blobs);
        assert_eq!(here.last, beside.last);
        // Player 2's rows are events 3, 6, …, 19,998 (i = 2, 5, …, 19,997): 6,666 of them.
        let back = history_blob::decode(2, &beside.blobs[2]).unwrap();
        assert_eq!(back.len(), 6_666);
        assert_eq!(back[0], rows[2]);
        assert_eq!(back[6_665], rows[19_997]);
        assert_eq!(back[6_665].figures.rating, 1500.0 + 19_997.0);
        assert_eq!(
            beside.last[2],
            Some((day + chrono::Days::new(19_997 / 7), 19_998))
        );
    }
}
