//! A player's history as the cache keeps it: one blob per player, rows in replay order, each
//! packed against the row before it. One blob per player instead of one row per event makes
//! imports and rebuilds write thousands of rows, not millions; packing makes them a third
//! smaller than plain numbers (about 28 bytes a row where 44 would be plain).
//!
//! Each row is:
//! - a flags byte: bits 0–3 say which of rating, deviation, extra and score follow (the
//!   others equal the row before's); bit 4 marks a row that starts afresh (day and sequence
//!   number absolute, every figure 0 before it) — the first row of a blob, and of each batch
//!   appended to it; bits 5–7 are 0;
//! - the day (days from 0001-01-01, day 1): a varint, the difference from the row before's
//!   (days never go back within a history), or absolute when starting afresh;
//! - the sequence number: a zigzagged varint difference from the row before's (a backdated
//!   event has a later number on an earlier day), or absolute when starting afresh;
//! - each figure flagged, as the 8 little-endian bytes of an f64.
//!
//! Figures are compared bit for bit, so a blob reads back exactly what was written.

use super::codec::{date_of, day_number};
use super::varint::{self, Reader};
use chrono::NaiveDate;
use rungs_ladder::event::PlayerId;
use rungs_ladder::state::{Figures, HistoryRow};

const AFRESH: u8 = 1 << 4;

/// Days from 0001-01-01 (day 1).
pub fn day_of(date: NaiveDate) -> i32 {
    day_number(date)
}

fn figures(f: &Figures) -> [f64; 4] {
    [f.rating, f.deviation, f.extra, f.score]
}

/// The most bytes a packed row takes: flags, two 10-byte varints, four figures.
const MAX_ROW: usize = 1 + 2 * varint::MAX_LEN + 32;

/// Packs rows one after another.
#[derive(Debug, Clone, Default)]
pub struct Packer {
    /// The row before: day, sequence number, figures; `None` before the first.
    prev: Option<(i32, u64, [f64; 4])>,
}

impl Packer {
    /// Appends `r` to `out`, packed against the row this packer last packed.
    pub fn push(&mut self, r: &HistoryRow, out: &mut Vec<u8>) {
        let day = day_of(r.date);
        let now = figures(&r.figures);
        let (mut flags, base_day, base_seq, before) = match self.prev {
            Some((d, s, f)) if day >= d => (0, d, s, f),
            _ => (AFRESH, 0, 0, [0.0; 4]),
        };
        for (i, (a, b)) in now.iter().zip(&before).enumerate() {
            if a.to_bits() != b.to_bits() {
                flags |= 1 << i;
            }
        }
        let mut buf = [0u8; MAX_ROW];
        buf[0] = flags;
        let mut n = varint::put_at(&mut buf, 1, (day - base_day) as u64);
        let delta = r.seq.wrapping_sub(base_seq) as i64;
        n = varint::put_at(&mut buf, n, varint::zigzag(delta));
        for (i, v) in now.iter().enumerate() {
            if flags & (1 << i) != 0 {
                buf[n..n + 8].copy_from_slice(&v.to_le_bytes());
                n += 8;
            }
        }
        out.extend_from_slice(&buf[..n]);
        self.prev = Some((day, r.seq, now));
    }
}

/// Packs `rows` into `out` (a blob of their own, or a batch appended to one).
pub fn encode_into(rows: impl IntoIterator<Item = HistoryRow>, out: &mut Vec<u8>) {
    let mut p = Packer::default();
    for r in rows {
        p.push(&r, out);
    }
}

/// The rows of a blob, or `None` if it is not a whole number of well-formed rows.
pub fn decode(player: PlayerId, bytes: &[u8]) -> Option<Vec<HistoryRow>> {
    let mut r = Reader::new(bytes);
    let mut out = Vec::with_capacity(bytes.len() / 24);
    let mut prev: Option<(i32, u64, [f64; 4])> = None;
    while r.left() > 0 {
        let flags = r.byte()?;
        if flags >> 5 != 0 {
            return None;
        }
        let (base_day, base_seq, mut f) = match prev {
            Some(p) if flags & AFRESH == 0 => p,
            None if flags & AFRESH == 0 => return None,
            _ => (0, 0, [0.0; 4]),
        };
        let day = i32::try_from(r.varint()?)
            .ok()
            .and_then(|d| base_day.checked_add(d))?;
        let delta = varint::unzigzag(r.varint()?);
        let seq = base_seq.wrapping_add(delta as u64);
        for (i, v) in f.iter_mut().enumerate() {
            if flags & (1 << i) != 0 {
                *v = r.f64()?;
            }
        }
        out.push(HistoryRow {
            seq,
            date: date_of(day)?,
            player,
            figures: Figures {
                rating: f[0],
                deviation: f[1],
                extra: f[2],
                score: f[3],
            },
        });
        prev = Some((day, seq, f));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: u64, d: u32, rating: f64, extra: f64) -> HistoryRow {
        HistoryRow {
            seq,
            date: NaiveDate::from_ymd_opt(2026, 11, d).unwrap(),
            player: 3,
            figures: Figures {
                rating,
                deviation: -0.0,
                extra,
                score: f64::MAX,
            },
        }
    }

    #[test]
    fn rows_round_trip_bit_for_bit() {
        // A backdated event's later number on an earlier day; −0.0 and 0.0 kept apart.
        let rows = vec![
            row(1, 1, 1500.5, 0.0),
            row(99, 30, 1512.25, 0.0),
            row(7, 30, 1512.25, 1e-300),
            row(100, 30, 1490.0, -0.0),
        ];
        let mut blob = Vec::new();
        encode_into(rows.clone(), &mut blob);
        let back = decode(3, &blob).unwrap();
        assert_eq!(back, rows);
        for (a, b) in back.iter().zip(&rows) {
            assert_eq!(a.figures.extra.to_bits(), b.figures.extra.to_bits());
            assert_eq!(a.figures.deviation.to_bits(), b.figures.deviation.to_bits());
        }
        // Row 2: flags, day +29, seq +98, rating only (deviation, extra, score unchanged).
        let first = blob.len();
        let mut one = Vec::new();
        encode_into(rows[..1].iter().copied(), &mut one);
        let mut two = Vec::new();
        encode_into(rows[..2].iter().copied(), &mut two);
        assert_eq!(two.len() - one.len(), 1 + 1 + 2 + 8, "{first}");
        // A batch appended afresh reads on from the rows before it.
        let mut appended = one.clone();
        encode_into(rows[1..].iter().copied(), &mut appended);
        assert_eq!(decode(3, &appended).unwrap(), rows);
        // Cut anywhere but at a row's end: refused.
        for cut in 1..blob.len() {
            if let Some(rows) = decode(3, &blob[..cut]) {
                assert!(rows.len() < 4, "cut {cut}");
            }
        }
        assert_eq!(decode(3, &blob[..blob.len() - 1]), None);
        assert_eq!(decode(3, &[0x00, 1, 2]), None, "a first row not afresh");
        assert_eq!(decode(3, &[0xff]), None);
    }
}
