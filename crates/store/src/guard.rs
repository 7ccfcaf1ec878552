//! What the stamp and the caches' digest (`digest.rs`) do not cover, guarded on its own: every
//! action's label (what undo says it takes back), the replay key of the last event the caches
//! applied (which decides whether a change is an append), and every player's history blob.
//! An edit of any of these by another program went unnoticed but by `check`: undo named one
//! change and took back another, a backdated match was applied on top of the end state, and a
//! history showed another player's past.
//!
//! The guard lies in `meta` as `guard`, written with the caches in every change. Labels and
//! the last key are compared whenever the ladder opens (a few thousand labels at most); the
//! histories, which may be tens of megabytes, when a history is first read. A file from before
//! the guard gets one the first time it is opened writable, once its caches are found sound.

use super::Store;
use super::digest::{Fold, hash};
use super::{Result, StoreError};
use rusqlite::{Connection, OptionalExtension};

/// The guard as written: the labels' digest, the last key, the histories' digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Guard {
    pub labels: u64,
    pub last: Option<(i64, i64)>,
    pub histories: u64,
}

impl Guard {
    fn text(&self) -> String {
        let last = self
            .last
            .map_or_else(|| "-".to_string(), |(d, s)| format!("{d}:{s}"));
        format!("1 {} {last} {}", self.labels, self.histories)
    }

    fn parse(text: &str) -> Option<Guard> {
        let mut parts = text.split(' ');
        if parts.next()? != "1" {
            return None;
        }
        let labels = parts.next()?.parse().ok()?;
        let last = match parts.next()? {
            "-" => None,
            pair => {
                let (d, s) = pair.split_once(':')?;
                Some((d.parse().ok()?, s.parse().ok()?))
            }
        };
        let histories = parts.next()?.parse().ok()?;
        parts.next().is_none().then_some(Guard {
            labels,
            last,
            histories,
        })
    }
}

/// One player's history row of `cache_history` as the guard counts it.
pub(crate) fn history_term(player: i64, last_day: i64, last_seq: i64, blob: &[u8]) -> u64 {
    let mut f = Fold::new(0x6869_7374 ^ player as u64);
    f.add(last_day as u64);
    f.add(last_seq as u64);
    f.add(hash(blob));
    f.0
}

impl Store {
    /// The guard `meta` holds: `None` for a file from before it; an error if it does not read.
    pub(crate) fn guard(&self, conn: &Connection) -> Result<Option<Guard>> {
        let text: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'guard'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        match text {
            None => Ok(None),
            Some(t) => Guard::parse(&t)
                .map(Some)
                .ok_or_else(|| self.bad_cache("its guard (meta `guard`) does not read")),
        }
    }

    pub(crate) fn write_guard(&self, tx: &Connection, guard: &Guard) -> Result<()> {
        tx.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('guard', ?1)",
            [guard.text()],
        )
        .map(|_| ())
        .map_err(|e| self.sql(e))
    }

    /// The digest of every action's label, in id order.
    pub(crate) fn labels_digest(&self, conn: &Connection) -> Result<u64> {
        let mut stmt = conn
            .prepare_cached("SELECT label FROM actions ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut f = Fold::new(0x6c61_6265);
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let label = r.get_ref(0).map_err(|e| self.sql(e))?;
            f.add(hash(label.as_bytes().unwrap_or_default()));
        }
        Ok(f.0)
    }

    /// The digest of every player's history as `cache_history` holds it.
    pub(crate) fn histories_digest(&self, conn: &Connection) -> Result<u64> {
        let mut stmt = conn
            .prepare_cached("SELECT player, last_day, last_seq, rows FROM cache_history")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut sum = 0u64;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let (player, day, seq): (i64, i64, i64) = (
                r.get(0).map_err(|e| self.sql(e))?,
                r.get(1).map_err(|e| self.sql(e))?,
                r.get(2).map_err(|e| self.sql(e))?,
            );
            let blob = r.get_ref(3).map_err(|e| self.sql(e))?;
            let blob = blob.as_blob().unwrap_or_default();
            sum = sum.wrapping_add(history_term(player, day, seq, blob));
        }
        Ok(sum)
    }

    /// The cached last key as `cache_ladder` holds it, in its columns' numbers.
    fn cached_last(&self, conn: &Connection) -> Result<Option<(i64, i64)>> {
        let row: Option<(Option<i64>, Option<i64>)> = conn
            .query_row(
                "SELECT last_day, last_seq FROM cache_ladder WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        Ok(match row {
            Some((Some(d), Some(s))) => Some((d, s)),
            _ => None,
        })
    }

    /// Why the labels or the last key are not what rungs wrote, if they are not (and the file
    /// has a guard). Cheap: what opening a ladder asks.
    pub(crate) fn guard_staleness(&self, conn: &Connection) -> Result<Option<String>> {
        let Some(guard) = self.guard(conn)? else {
            return Ok(None);
        };
        if self.labels_digest(conn)? != guard.labels {
            return Ok(Some(
                "the labels of its actions (what undo says it takes back) were changed outside \
                 rungs"
                    .into(),
            ));
        }
        if self.cached_last(conn)? != guard.last {
            return Ok(Some(
                "the caches' last event (`cache_ladder.last_day`, `last_seq`) was changed \
                 outside rungs"
                    .into(),
            ));
        }
        Ok(None)
    }

    /// Whether the history blobs are the ones rungs wrote (true for a file without a guard,
    /// which has nothing to compare with). Reads every blob: asked once per state read.
    pub(crate) fn histories_sound(&self, conn: &Connection) -> Result<bool> {
        match self.guard(conn)? {
            None => Ok(true),
            Some(g) => Ok(self.histories_digest(conn)? == g.histories),
        }
    }

    /// The guard of the caches as they now lie, written whole: after a full rewrite, or for a
    /// file that has none yet.
    pub(crate) fn guard_afresh(&self, tx: &Connection) -> Result<()> {
        let guard = Guard {
            labels: self.labels_digest(tx)?,
            last: self.cached_last(tx)?,
            histories: self.histories_digest(tx)?,
        };
        self.write_guard(tx, &guard)
    }

    /// After a change: the labels and last key as they now are, the histories' digest moved
    /// by `delta` (what the change wrote less what it replaced). Without a guard before (an
    /// older file), or after a full rewrite, it is computed afresh.
    pub(crate) fn guard_after(&self, tx: &Connection, delta: Option<u64>) -> Result<()> {
        match (self.guard(tx), delta) {
            (Ok(Some(old)), Some(d)) => {
                let guard = Guard {
                    labels: self.labels_digest(tx)?,
                    last: self.cached_last(tx)?,
                    histories: old.histories.wrapping_add(d),
                };
                self.write_guard(tx, &guard)
            }
            _ => self.guard_afresh(tx),
        }
    }

    /// The error a history read meets when the blobs are not what rungs wrote.
    pub(crate) fn histories_changed(&self) -> StoreError {
        StoreError::Stale {
            path: self.name(),
            why: "the players' histories were changed outside rungs (a row rewritten, dropped, \
                  or two players' histories swapped)"
                .into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guard_reads_back_and_nothing_else_does() {
        let g = Guard {
            labels: 7,
            last: Some((738_000, 42)),
            histories: u64::MAX,
        };
        assert_eq!(Guard::parse(&g.text()), Some(g));
        let none = Guard { last: None, ..g };
        assert_eq!(Guard::parse(&none.text()), Some(none));
        for bad in ["", "2 7 - 1", "1 7 - 1 extra", "1 x - 1", "1 7 5 1"] {
            assert_eq!(Guard::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_history_term_depends_on_every_part() {
        let t = history_term(1, 2, 3, b"rows");
        assert_ne!(t, history_term(2, 2, 3, b"rows"), "another player's");
        assert_ne!(t, history_term(1, 9, 3, b"rows"));
        assert_ne!(t, history_term(1, 2, 9, b"rows"));
        assert_ne!(t, history_term(1, 2, 3, b"rowz"));
    }
}
