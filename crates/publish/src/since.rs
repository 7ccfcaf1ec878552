//! Where a site's movement is measured from: the standings the club saw at the last publish
//! of this ladder into this folder, else a week before the last event, or a point the
//! organiser names. The folder's mark ([`super::folder::MARK`]) records what was published,
//! so that the next publish knows what the club last saw.
//!
//! A point is kept as the log then was — the last event shown (date, number), how many were
//! shown, and the highest event number the log held — so a match entered afterwards but dated
//! before it is counted as news, not as something the club had seen.

use chrono::NaiveDate;
use rungs_ladder::log::Effective;
use serde::{Deserialize, Serialize};

/// The events of the log as it stood at a publish, up to the last one shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub date: NaiveDate,
    pub seq: u64,
    /// How many events were shown.
    pub count: usize,
    /// The highest event number in the log then (events numbered above came later).
    pub log_end: u64,
}

impl Point {
    /// The point after `events[..cut]`, the log being `events` (`None` before any event).
    pub fn after(events: &[Effective], cut: usize) -> Option<Point> {
        let last = events[..cut].last()?;
        Some(Point {
            date: last.date,
            seq: last.seq,
            count: cut,
            log_end: events.iter().map(|e| e.seq).max().unwrap_or(0),
        })
    }

    /// Whether `e` was among the events shown at this point.
    pub fn holds(&self, e: &Effective) -> bool {
        e.seq <= self.log_end && (e.date, e.seq) <= (self.date, self.seq)
    }

    /// Whether everything shown at `self` is still in the log and shown at `later`.
    fn before(&self, later: &Point) -> bool {
        self.log_end <= later.log_end && (self.date, self.seq) <= (later.date, later.seq)
    }
}

/// Why movement is measured from where it is; the pages say it in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// A week before the last event shown (no earlier publish of this ladder here).
    Week,
    /// The last publish of this ladder into this folder.
    LastPublish,
    /// The point the organiser named.
    Chosen,
}

/// Where movement is measured from: the standings after the events `point` holds (`None`:
/// before the first event).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Since {
    pub point: Option<Point>,
    pub kind: Kind,
}

impl Since {
    /// Whether `e` counts toward the standings movement is measured from.
    pub fn holds(&self, e: &Effective) -> bool {
        self.point.is_some_and(|p| p.holds(e))
    }

    /// "movement since the last publish (2026-11-13)".
    pub fn words(&self) -> String {
        match (self.point, self.kind) {
            (None, _) => "movement since the start".to_string(),
            (Some(p), Kind::LastPublish) => {
                format!("movement since the last publish ({})", p.date)
            }
            (Some(p), _) => format!("movement since {}", p.date),
        }
    }
}

/// What a publish records in the folder's mark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Which ladder file was published: [`ladder_id`] of its path.
    pub ladder: String,
    pub shown: Option<Point>,
    pub since: Since,
}

/// A ladder file's identity in a mark: a hash of its full path, not the path itself — a site
/// is copied to web hosts and shared drives, and its folder should not tell them where the
/// organiser keeps the ladder (FNV-1a, 64 bits: the same on every machine and version).
pub fn ladder_id(path: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let hash = full
        .as_os_str()
        .as_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!("{hash:016x}")
}

const FIRST_LINE: &str = "A site published by rungs; the next publish replaces this folder.";

impl Record {
    /// The mark's text: a sentence for whoever opens it, then the record as one JSON line.
    pub fn to_mark(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        format!("{FIRST_LINE}\n{json}\n")
    }

    /// The record in a mark's text; `None` for a mark from before records, or one edited by
    /// hand into something else (movement then falls back to the week).
    pub fn from_mark(text: &str) -> Option<Record> {
        serde_json::from_str(text.lines().nth(1)?).ok()
    }
}

/// A week before the last event of `events[..cut]`: the events dated up to seven days
/// before it.
pub fn a_week_before(events: &[Effective], cut: usize) -> Since {
    let shown = &events[..cut];
    let point = shown.last().and_then(|last| {
        let before = last.date.checked_sub_days(chrono::Days::new(7))?;
        Point::after(events, shown.partition_point(|e| e.date <= before))
    });
    Since {
        point,
        kind: Kind::Week,
    }
}

/// Where movement is measured from for a publish of `events[..cut]` of the ladder `ladder`:
/// the point the organiser `chosen`; else the previous publish's record in this folder, when
/// it was of this ladder and showed less than this one (a publish of the same point again
/// measures from where that one did, so a title changed twice keeps its arrows); else a week.
pub fn choose(
    events: &[Effective],
    cut: usize,
    ladder: &str,
    previous: Option<&Record>,
    chosen: Option<usize>,
) -> Since {
    if let Some(c) = chosen {
        return Since {
            point: Point::after(events, c.min(cut)),
            kind: Kind::Chosen,
        };
    }
    let shown = Point::after(events, cut);
    match previous.filter(|r| r.ladder == ladder) {
        Some(r) if r.shown == shown => r.since,
        Some(Record {
            shown: Some(was), ..
        }) if shown.is_some_and(|now| was.before(&now)) => Since {
            point: Some(*was),
            kind: Kind::LastPublish,
        },
        _ => a_week_before(events, cut),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::Event;

    fn ev(day: u32, seq: u64) -> Effective {
        Effective {
            date: NaiveDate::from_ymd_opt(2026, 1, day).unwrap(),
            seq,
            event: Event::Player {
                id: seq as u32,
                name: rungs_ladder::values::PlayerName::parse(&format!("P{seq}")).unwrap(),
                undated: false,
            },
        }
    }

    /// Events numbered 1..=4 on 1, 2, 10 and 12 January; then 5, entered later but dated
    /// the 3rd (it sorts before 3 and 4).
    fn log() -> Vec<Effective> {
        vec![ev(1, 1), ev(2, 2), ev(3, 5), ev(10, 3), ev(12, 4)]
    }

    #[test]
    fn a_week_before_is_the_events_dated_seven_days_before_the_last() {
        let events = log();
        // Last shown: 12 January; seven days before is the 5th: events 1, 2 and 5.
        let s = a_week_before(&events, 5);
        let p = s.point.unwrap();
        assert_eq!(
            (p.date.to_string(), p.seq, p.count),
            ("2026-01-03".into(), 5, 3)
        );
        assert_eq!(s.words(), "movement since 2026-01-03");
        // Only the first event shown: nothing a week before it.
        assert_eq!(a_week_before(&events, 1).point, None);
        assert_eq!(
            a_week_before(&events, 1).words(),
            "movement since the start"
        );
    }

    /// The last publish showed events 1..=4 (the log ended at 4); event 5, dated the 3rd,
    /// came afterwards: it is not among what the club saw.
    #[test]
    fn the_last_publish_is_what_the_club_saw_not_a_prefix_of_the_log_now() {
        let then = vec![ev(1, 1), ev(2, 2), ev(10, 3), ev(12, 4)];
        let was = Point::after(&then, 4).unwrap();
        let record = Record {
            ladder: "/c.rungs".into(),
            shown: Some(was),
            since: a_week_before(&then, 4),
        };
        let events = log();
        let s = choose(&events, 5, "/c.rungs", Some(&record), None);
        assert_eq!(s.kind, Kind::LastPublish);
        let held: Vec<u64> = events
            .iter()
            .filter(|e| s.holds(e))
            .map(|e| e.seq)
            .collect();
        assert_eq!(held, vec![1, 2, 3, 4]);
        assert_eq!(s.words(), "movement since the last publish (2026-01-12)");
        // Another ladder's record, or none, is a week.
        assert_eq!(
            choose(&events, 5, "/d.rungs", Some(&record), None).kind,
            Kind::Week
        );
        assert_eq!(choose(&events, 5, "/c.rungs", None, None).kind, Kind::Week);
        // Publishing the same point again measures from where that publish did.
        assert_eq!(
            choose(&then, 4, "/c.rungs", Some(&record), None),
            record.since
        );
        // An earlier point than the last publish's: a week before it.
        assert_eq!(
            choose(&events, 2, "/c.rungs", Some(&record), None).kind,
            Kind::Week
        );
        // A point named by the organiser wins: after the first two events.
        let c = choose(&events, 5, "/c.rungs", Some(&record), Some(2));
        assert_eq!((c.kind, c.point.unwrap().seq), (Kind::Chosen, 2));
    }

    /// FNV-1a of "/a": (0xcbf29ce484222325 ^ 0x2f) × 0x100000001b3, then ^ 0x61 and × again.
    #[test]
    fn a_ladder_is_named_by_a_hash_of_its_path() {
        let h1 = (0xcbf2_9ce4_8422_2325_u64 ^ 0x2f).wrapping_mul(0x100_0000_01b3);
        let h2 = (h1 ^ 0x61).wrapping_mul(0x100_0000_01b3);
        assert_eq!(ladder_id(std::path::Path::new("/a")), format!("{h2:016x}"));
        assert_eq!(ladder_id(std::path::Path::new("/a")).len(), 16);
        assert_ne!(
            ladder_id(std::path::Path::new("/a")),
            ladder_id(std::path::Path::new("/b"))
        );
    }

    #[test]
    fn a_mark_round_trips_and_a_foreign_one_is_ignored() {
        let events = log();
        let r = Record {
            ladder: "/a b\n\"c\".rungs".into(),
            shown: Point::after(&events, 5),
            since: a_week_before(&events, 5),
        };
        let text = r.to_mark();
        assert!(text.starts_with(FIRST_LINE));
        assert_eq!(text.lines().count(), 2);
        assert_eq!(Record::from_mark(&text), Some(r));
        assert_eq!(Record::from_mark(FIRST_LINE), None);
        assert_eq!(Record::from_mark("x\n{\"ladder\": 1}\n"), None);
        assert_eq!(Record::from_mark(""), None);
    }
}
