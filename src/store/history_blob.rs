//! A player's history as the cache keeps it: one blob per player, 44 bytes a row (day i32,
//! seq u64, then rating, deviation, extra, score as f64; little-endian). One row per player
//! instead of one per event makes imports and rebuilds write hundreds of rows, not
//! hundreds of thousands.

use crate::ladder::event::PlayerId;
use crate::ladder::state::{Figures, HistoryRow};
use chrono::{Datelike, NaiveDate};

pub const ROW_BYTES: usize = 44;

/// Days from 0001-01-01 (day 1).
pub fn day_of(date: NaiveDate) -> i32 {
    date.num_days_from_ce()
}

pub fn encode_into(rows: impl IntoIterator<Item = HistoryRow>, out: &mut Vec<u8>) {
    for r in rows {
        encode_row(&r, out);
    }
}

/// Appends one row.
pub fn encode_row(r: &HistoryRow, out: &mut Vec<u8>) {
    let mut row = [0u8; ROW_BYTES];
    row[0..4].copy_from_slice(&day_of(r.date).to_le_bytes());
    row[4..12].copy_from_slice(&r.seq.to_le_bytes());
    let figures = [
        r.figures.rating,
        r.figures.deviation,
        r.figures.extra,
        r.figures.score,
    ];
    for (i, v) in figures.iter().enumerate() {
        row[12 + 8 * i..20 + 8 * i].copy_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&row);
}

fn f64_at(b: &[u8], at: usize) -> Option<f64> {
    Some(f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The rows of a blob, or `None` if it is not a whole number of valid rows.
pub fn decode(player: PlayerId, bytes: &[u8]) -> Option<Vec<HistoryRow>> {
    if !bytes.len().is_multiple_of(ROW_BYTES) {
        return None;
    }
    bytes
        .chunks_exact(ROW_BYTES)
        .map(|b| {
            let day = i32::from_le_bytes(b.get(0..4)?.try_into().ok()?);
            let seq = u64::from_le_bytes(b.get(4..12)?.try_into().ok()?);
            Some(HistoryRow {
                seq,
                date: NaiveDate::from_num_days_from_ce_opt(day)?,
                player,
                figures: Figures {
                    rating: f64_at(b, 12)?,
                    deviation: f64_at(b, 20)?,
                    extra: f64_at(b, 28)?,
                    score: f64_at(b, 36)?,
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let row = |seq, d| HistoryRow {
            seq,
            date: NaiveDate::from_ymd_opt(2026, 11, d).unwrap(),
            player: 3,
            figures: Figures {
                rating: 1500.5,
                deviation: -0.0,
                extra: 1e-300,
                score: f64::MAX,
            },
        };
        let rows = vec![row(1, 1), row(99, 30)];
        let mut blob = Vec::new();
        encode_into(rows.clone(), &mut blob);
        assert_eq!(blob.len(), 2 * ROW_BYTES);
        assert_eq!(decode(3, &blob), Some(rows));
        assert_eq!(decode(3, &blob[..43]), None);
    }
}
