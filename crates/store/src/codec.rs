//! How log rows lie on disk. The rows an action writes are packed, in entry order, into
//! blocks of up to [`BLOCK_ROWS`] rows: one row of table `log` holds a block's first sequence
//! number, its action, its row count and the bytes below. Sequence numbers within a block are
//! consecutive, so a row does not repeat its own.
//!
//! Each row is, byte by byte:
//! - a header byte: bits 0–1 the operation (0 add, 1 edit, 2 delete), bits 2–4 the shape of
//!   what follows: 0–5 a plain 1v1 match whose result is 1, 0.5, 0, forfeit-a, forfeit-b or
//!   cancelled; 6 an event as JSON; 7 nothing (a deletion);
//! - the date: a LEB128 varint of the zigzagged difference in days from the previous row's
//!   date (from day 0 for the first row), days counted from 0001-01-01 as day 1;
//! - for an edit or a deletion, the sequence number of the row it corrects (varint);
//! - a plain match: the ids of players A and B (varints); a JSON event: its length in bytes
//!   (varint) and the UTF-8 JSON of the event, as `rungs export` writes an event.
//!
//! A plain 1v1 match takes about 7 bytes, so a million-match log is a few megabytes: read,
//! hashed and decoded in milliseconds. Decoding checks everything and never trusts a length
//! beyond the bytes there are.

use super::varint::{self, Reader, unzigzag, zigzag};
use chrono::{Datelike, NaiveDate};
use rungs_ladder::event::{Entry, Event, LogRow, Match, MatchResult, PlayerId};
use rungs_ladder::values::{FIRST_DAY, LAST_DAY};
use rungs_rating::Outcome;

/// What is wrong with a row of a block: the file is damaged there. Each names the row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    #[error("row {seq}: the block ends inside the row")]
    Cut { seq: u64 },
    #[error("row {seq}: unknown operation code {op}")]
    UnknownOperation { seq: u64, op: u8 },
    #[error("row {seq}: its date is outside 0001-01-01..9999-12-31")]
    DateOutOfRange { seq: u64 },
    #[error("row {seq}: it corrects row {target}, which is not an earlier row")]
    NotEarlier { seq: u64, target: u64 },
    #[error("row {seq}: player id {id} is too large")]
    IdTooLarge { seq: u64, id: u64 },
    #[error("row {seq}: a deletion that carries an event")]
    DeletionWithEvent { seq: u64 },
    #[error("row {seq}: an addition or edit without an event")]
    WithoutEvent { seq: u64 },
    #[error("row {seq}: the block ends early")]
    EndsEarly { seq: u64 },
    #[error("row {seq}: {bytes} bytes follow the block's last row")]
    Trailing { seq: u64, bytes: usize },
    /// The event's JSON does not read as an event: a name or medals the checks refuse, a
    /// field missing, or no JSON at all. `kind` is the event's tag, where it has one.
    #[error("row {seq}: its {}event does not read: {message}", tagged(.kind))]
    Event {
        seq: u64,
        kind: Option<String>,
        message: String,
    },
    #[error("row {seq}: malformed")]
    Malformed { seq: u64 },
}

/// An event's tag as a message names it: "`player` ", or nothing when it has none.
fn tagged(kind: &Option<String>) -> String {
    kind.as_deref()
        .map(|k| format!("`{k}` "))
        .unwrap_or_default()
}

/// The most rows a block holds.
pub const BLOCK_ROWS: u64 = 4096;
/// A block closes once it holds this many bytes (a JSON event may take it past).
const BLOCK_BYTES: usize = 256 * 1024;

const OP_ADD: u8 = 0;
const OP_EDIT: u8 = 1;
const OP_DELETE: u8 = 2;
const SHAPE_JSON: u8 = 6;
const SHAPE_NONE: u8 = 7;

/// What a row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Edit,
    Delete,
}

/// What a row carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Body<'a> {
    /// A 1v1 match with nothing but a result.
    Plain {
        a: PlayerId,
        b: PlayerId,
        result: MatchResult,
    },
    /// Any other event, as JSON.
    Json(&'a [u8]),
    /// A deletion carries no event.
    Nothing,
}

/// One row as it lies in a block, not yet turned into an [`Event`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'a> {
    pub seq: u64,
    /// Days from 0001-01-01 (day 1), within 0001-01-01..=9999-12-31.
    pub day: i32,
    pub op: Op,
    /// The row an edit or a deletion corrects (0 for an addition).
    pub target: u64,
    pub body: Body<'a>,
}

/// The day number of a date (0001-01-01 is day 1).
pub fn day_number(date: NaiveDate) -> i32 {
    date.num_days_from_ce()
}

/// The date of a day number, if it lies within the days a ladder holds.
/// The day numbers of [`FIRST_DAY`] and [`LAST_DAY`]: a row's day is checked against these
/// (a comparison, where making its date is a division of days into years, a million times).
pub const FIRST_DAY_NUMBER: i32 = 1;
pub const LAST_DAY_NUMBER: i32 = 3_652_059;

pub fn date_of(day: i32) -> Option<NaiveDate> {
    NaiveDate::from_num_days_from_ce_opt(day).filter(|d| (FIRST_DAY..=LAST_DAY).contains(d))
}

/// The shape code of a plain match's result.
pub fn result_code(r: MatchResult) -> u8 {
    match r {
        MatchResult::Played(Outcome::Win) => 0,
        MatchResult::Played(Outcome::Draw) => 1,
        MatchResult::Played(Outcome::Loss) => 2,
        MatchResult::ForfeitA => 3,
        MatchResult::ForfeitB => 4,
        MatchResult::Cancelled => 5,
    }
}

/// The result a plain match's shape code stands for.
pub fn result_of(code: u8) -> Option<MatchResult> {
    Some(match code {
        0 => MatchResult::Played(Outcome::Win),
        1 => MatchResult::Played(Outcome::Draw),
        2 => MatchResult::Played(Outcome::Loss),
        3 => MatchResult::ForfeitA,
        4 => MatchResult::ForfeitB,
        5 => MatchResult::Cancelled,
        _ => return None,
    })
}

/// Whether a match fits a plain row: 1v1 and nothing but a result (a side-advantage flag
/// goes to the JSON body with the other extras).
fn plain(m: &Match) -> bool {
    m.a.len() == 1
        && m.b.len() == 1
        && m.medals.is_none()
        && m.scenario.is_none()
        && m.side_a.is_none()
        && m.home.is_none()
        && m.goals.is_none()
        && m.class.is_none()
        && m.board.is_none()
}

/// A block of rows packed: how many rows, and their bytes.
pub type Packed = (u64, Vec<u8>);

/// Packs rows into blocks as they come: `(rows, bytes)` for each block.
#[derive(Default)]
pub struct Encoder {
    done: Vec<Packed>,
    bytes: Vec<u8>,
    rows: u64,
    prev_day: i64,
}

impl Encoder {
    pub fn push(&mut self, date: NaiveDate, entry: &Entry) -> Result<(), serde_json::Error> {
        if self.rows == BLOCK_ROWS || self.bytes.len() >= BLOCK_BYTES {
            self.close();
        }
        let (op, target, event) = match entry {
            Entry::Add { event } => (OP_ADD, None, Some(event)),
            Entry::Edit { target, event } => (OP_EDIT, Some(*target), Some(event)),
            Entry::Delete { target } => (OP_DELETE, Some(*target), None),
        };
        let (shape, json) = match event {
            Some(Event::Match(m)) if plain(m) => (result_code(m.result), None),
            Some(e) => (SHAPE_JSON, Some(serde_json::to_vec(e)?)),
            None => (SHAPE_NONE, None),
        };
        self.bytes.push(op | (shape << 2));
        let day = i64::from(day_number(date));
        varint::put(&mut self.bytes, zigzag(day - self.prev_day));
        self.prev_day = day;
        if let Some(t) = target {
            varint::put(&mut self.bytes, t);
        }
        match (event, json) {
            (Some(Event::Match(m)), None) => {
                varint::put(&mut self.bytes, u64::from(m.a[0]));
                varint::put(&mut self.bytes, u64::from(m.b[0]));
            }
            (_, Some(json)) => {
                varint::put(&mut self.bytes, json.len() as u64);
                self.bytes.extend_from_slice(&json);
            }
            _ => {}
        }
        self.rows += 1;
        Ok(())
    }

    fn close(&mut self) {
        if self.rows > 0 {
            self.done.push((self.rows, std::mem::take(&mut self.bytes)));
        }
        self.rows = 0;
        self.prev_day = 0;
    }

    /// The blocks closed so far, taken out in order: a long action is written as it comes
    /// rather than held whole.
    pub fn take_done(&mut self) -> Vec<Packed> {
        std::mem::take(&mut self.done)
    }

    /// The blocks, in order.
    pub fn finish(mut self) -> Vec<Packed> {
        self.close();
        self.done
    }
}

/// Packs `rows` into blocks.
pub fn encode(rows: &[(NaiveDate, Entry)]) -> Result<Vec<Packed>, serde_json::Error> {
    let mut enc = Encoder::default();
    for (date, entry) in rows {
        enc.push(*date, entry)?;
    }
    Ok(enc.finish())
}

/// The rows of one block, in order. Each item is a row or what is wrong with it (after which
/// the iteration ends); [`Rows::finish`] then checks that nothing is left over.
pub struct Rows<'a> {
    bytes: Reader<'a>,
    seq: u64,
    left: u64,
    prev_day: i64,
    failed: bool,
}

impl<'a> Rows<'a> {
    pub fn new(first_seq: u64, rows: u64, data: &'a [u8]) -> Rows<'a> {
        Rows {
            bytes: Reader::new(data),
            seq: first_seq,
            left: rows,
            prev_day: 0,
            failed: false,
        }
    }

    fn row(&mut self) -> Result<Row<'a>, RowError> {
        let seq = self.seq;
        let cut = || RowError::Cut { seq };
        let header = self.bytes.byte().ok_or_else(cut)?;
        let (op, shape) = (header & 3, header >> 2);
        let op = match op {
            OP_ADD => Op::Add,
            OP_EDIT => Op::Edit,
            OP_DELETE => Op::Delete,
            _ => return Err(RowError::UnknownOperation { seq, op }),
        };
        let delta = unzigzag(self.bytes.varint().ok_or_else(cut)?);
        let day = self
            .prev_day
            .checked_add(delta)
            .and_then(|d| i32::try_from(d).ok())
            .filter(|d| (FIRST_DAY_NUMBER..=LAST_DAY_NUMBER).contains(d))
            .ok_or(RowError::DateOutOfRange { seq })?;
        self.prev_day = i64::from(day);
        let target = if op == Op::Add {
            0
        } else {
            let t = self.bytes.varint().ok_or_else(cut)?;
            if t == 0 || t >= seq {
                return Err(RowError::NotEarlier { seq, target: t });
            }
            t
        };
        let body = match shape {
            0..=5 => {
                let mut id = || -> Result<PlayerId, RowError> {
                    let v = self.bytes.varint().ok_or_else(cut)?;
                    PlayerId::try_from(v).map_err(|_| RowError::IdTooLarge { seq, id: v })
                };
                let (a, b) = (id()?, id()?);
                let result = result_of(shape).ok_or_else(cut)?;
                Body::Plain { a, b, result }
            }
            SHAPE_JSON => {
                let len = self.bytes.varint().ok_or_else(cut)?;
                Body::Json(self.bytes.take(len).ok_or_else(cut)?)
            }
            _ => Body::Nothing,
        };
        match (op, &body) {
            (Op::Delete, Body::Nothing)
            | (Op::Add | Op::Edit, Body::Plain { .. } | Body::Json(_)) => {}
            (Op::Delete, _) => return Err(RowError::DeletionWithEvent { seq }),
            _ => return Err(RowError::WithoutEvent { seq }),
        }
        Ok(Row {
            seq,
            day,
            op,
            target,
            body,
        })
    }

    /// Whether the block held exactly its rows: no bytes after the last.
    pub fn finish(&self) -> Result<(), RowError> {
        if self.failed || self.left > 0 {
            return Err(RowError::EndsEarly { seq: self.seq });
        }
        if self.bytes.left() > 0 {
            return Err(RowError::Trailing {
                seq: self.seq.saturating_sub(1),
                bytes: self.bytes.left(),
            });
        }
        Ok(())
    }
}

impl<'a> Iterator for Rows<'a> {
    type Item = Result<Row<'a>, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 || self.failed {
            return None;
        }
        let row = self.row();
        match &row {
            Ok(_) => {
                self.left -= 1;
                self.seq = self.seq.saturating_add(1);
            }
            Err(_) => self.failed = true,
        }
        Some(row)
    }
}

impl Row<'_> {
    pub fn date(&self) -> NaiveDate {
        // `day` was checked when the row was read.
        date_of(self.day).unwrap_or(FIRST_DAY)
    }

    /// The event the row carries, if any.
    pub fn event(&self) -> Result<Option<Event>, RowError> {
        match self.body {
            Body::Plain { a, b, result } => Ok(Some(Event::Match(Match::new(a, b, result)))),
            Body::Json(json) => event_of_json(json).map(Some).map_err(|e| {
                // The tag, to name the event: read loosely, since the event itself did not.
                #[derive(serde::Deserialize)]
                struct Tag {
                    kind: String,
                }
                RowError::Event {
                    seq: self.seq,
                    kind: serde_json::from_slice::<Tag>(json).ok().map(|t| t.kind),
                    message: e.to_string(),
                }
            }),
            Body::Nothing => Ok(None),
        }
    }

    /// The row as the ladder's log row.
    pub fn to_log_row(&self) -> Result<LogRow, RowError> {
        let event = self.event()?;
        let entry = match (self.op, event) {
            (Op::Add, Some(event)) => Entry::Add { event },
            (Op::Edit, Some(event)) => Entry::Edit {
                target: self.target,
                event,
            },
            (Op::Delete, None) => Entry::Delete {
                target: self.target,
            },
            _ => return Err(RowError::Malformed { seq: self.seq }),
        };
        Ok(LogRow {
            seq: self.seq,
            date: self.date(),
            entry,
        })
    }
}

/// An event from its JSON. A match (nearly every row of a ladder whose matches carry a score,
/// a class or a side) is read straight into its fields, its leading tag passed over as a field
/// a match does not have: the tagged form's general reading first buffers every field of the
/// event, several times the work. Anything else takes the general reading, whose error is the
/// one reported: a match that does not read so, and one whose tag may come twice (a second
/// `"kind"`, or any escape that could spell one), which the general reading refuses.
pub fn event_of_json(json: &[u8]) -> serde_json::Result<Event> {
    const MATCH: &[u8] = b"{\"kind\":\"match\",";
    let plain = |rest: &[u8]| {
        memchr::memchr(b'\\', rest).is_none() && memchr::memmem::find(rest, b"\"kind\"").is_none()
    };
    if json.starts_with(MATCH)
        && plain(&json[MATCH.len()..])
        && let Ok(m) = serde_json::from_slice::<Match>(json)
    {
        return Ok(Event::Match(m));
    }
    serde_json::from_slice(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::Side;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn rows_of(blocks: &[Packed], first: u64) -> Vec<LogRow> {
        let mut seq = first;
        let mut out = Vec::new();
        for (n, data) in blocks {
            let mut rows = Rows::new(seq, *n, data);
            for r in rows.by_ref() {
                out.push(r.unwrap().to_log_row().unwrap());
            }
            rows.finish().unwrap();
            seq += n;
        }
        out
    }

    /// A match read straight into its fields is, to the last field, the match the tagged
    /// form's general reading gives; what that reading refuses is refused with its own words.
    #[test]
    fn a_match_read_straight_is_the_general_reading() {
        use rungs_ladder::event::{BoardRef, Home, Side};
        use rungs_ladder::score::EventClass;
        let general =
            |json: &[u8]| serde_json::from_slice::<Event>(json).map_err(|e| e.to_string());
        let straight = |json: &[u8]| event_of_json(json).map_err(|e| e.to_string());
        let mut rich = Match::new(vec![3, 4], vec![5], MatchResult::Played(Outcome::Draw));
        rich.medals = rungs_ladder::values::Medals::new([6.0, 2.5]).ok();
        rich.scenario = Some("Pegasus Bridge".into());
        rich.side_a = Some("Allies".into());
        rich.home = Some(Home::B);
        rich.goals = Some([0, 12]);
        rich.class = Some(EventClass::Weight(2.5));
        rich.board = Some(BoardRef { round: 7, board: 2 });
        let mut scored = Match::new(60, 10, MatchResult::ForfeitB);
        scored.home = Some(Home::A);
        scored.class = Some(EventClass::Championship);
        let written: Vec<Vec<u8>> = [rich, scored, Match::new(1, 2, MatchResult::Cancelled)]
            .into_iter()
            .map(|m| serde_json::to_vec(&Event::Match(m)).unwrap())
            .collect();
        for json in &written {
            assert!(json.starts_with(b"{\"kind\":\"match\","), "{json:?}");
            assert_eq!(straight(json), general(json));
            assert!(matches!(straight(json), Ok(Event::Match(_))));
        }
        // Hostile rows: a second tag, a field of the wrong type, a score past the cap, a
        // medal count past f64, a row cut short, another kind of event.
        let hostile: [&[u8]; 8] = [
            br#"{"kind":"match","a":[1],"b":[2],"result":{"played":"Win"},"kind":"rename"}"#,
            br#"{"kind":"match","a":[1],"b":[2],"result":{"played":"Win"},"\u006bind":"x"}"#,
            br#"{"kind":"match","a":[1],"b":[2],"result":"nonsense"}"#,
            br#"{"kind":"match","a":[1],"b":[2],"result":{"played":"Win"},"goals":[1,99999999]}"#,
            br#"{"kind":"match","a":[1],"b":[2],"result":{"played":"Win"},"medals":[1e400,0]}"#,
            br#"{"kind":"match","a":[1],"b":[2],"result":{"played":"W"#,
            br#"{"kind":"match","a":[1],"result":{"played":"Win"}}"#,
            r#"{"kind":"rename","id":4,"name":"Zoë"}"#.as_bytes(),
        ];
        for json in hostile {
            assert_eq!(
                straight(json),
                general(json),
                "{}",
                String::from_utf8_lossy(json)
            );
        }
        assert!(straight(hostile[0]).is_err() && straight(hostile[1]).is_err());
        assert!(straight(hostile[2]).is_err() && straight(hostile[3]).is_err());
        assert!(matches!(
            straight(hostile[7]),
            Ok(Event::Rename { id: 4, .. })
        ));
        // A side and a class read as they always did: a list of one id is that player, of
        // none or several a team; a class is a name or a number kept as its weight.
        let read = |json: &str| match straight(json.as_bytes()) {
            Ok(Event::Match(m)) => Ok((m.a, m.class)),
            other => Err(format!("{other:?}")),
        };
        let game = |a: &str, class: &str| {
            format!(
                r#"{{"kind":"match","a":{a},"b":[2],"result":{{"played":"Win"}},"class":{class}}}"#
            )
        };
        assert_eq!(
            read(&game("[7]", "3")),
            Ok((Side::from(7), Some(EventClass::Weight(3.0))))
        );
        assert_eq!(
            read(&game("[7,8,9]", "0.25")),
            Ok((Side::from(vec![7, 8, 9]), Some(EventClass::Weight(0.25))))
        );
        assert_eq!(
            read(&game("[]", r#""cup""#)),
            Ok((Side::from(vec![]), Some(EventClass::Cup)))
        );
        for (a, class, words) in [
            ("7", "1", "invalid type: integer `7`, expected a sequence"),
            (
                "[7]",
                "true",
                "expected a class (friendly, league, cup, championship) or a weight",
            ),
            (
                "[7]",
                r#""final""#,
                "class `final` is not friendly, league, cup, championship or a weight",
            ),
            ("[-1]", "1", "invalid value: integer `-1`, expected u32"),
        ] {
            let json = game(a, class);
            let said = straight(json.as_bytes()).unwrap_err();
            assert!(said.contains(words), "{json}: {said}");
            assert_eq!(Err(said), general(json.as_bytes()));
        }
    }

    /// The day numbers a row is checked against are those of the first and last day.
    #[test]
    fn the_day_numbers_are_the_first_and_last_days() {
        assert_eq!(day_number(FIRST_DAY), FIRST_DAY_NUMBER);
        assert_eq!(day_number(LAST_DAY), LAST_DAY_NUMBER);
        for d in [
            FIRST_DAY_NUMBER - 1,
            LAST_DAY_NUMBER + 1,
            0,
            i32::MIN,
            i32::MAX,
        ] {
            assert_eq!(date_of(d), None, "{d}");
        }
        assert_eq!(date_of(LAST_DAY_NUMBER), Some(LAST_DAY));
    }

    #[test]
    fn every_kind_of_row_round_trips() {
        let team = Match {
            a: Side::from(vec![1, 2]),
            b: Side::from(3),
            result: MatchResult::ForfeitB,
            medals: rungs_ladder::values::Medals::new([1.5, 0.0]).ok(),
            scenario: Some("Pegasus Bridge".into()),
            side_a: None,
            home: Some(rungs_ladder::event::Home::B),
            goals: None,
            class: None,
            board: None,
        };
        let rows = vec![
            (
                day(2026, 1, 1),
                Entry::Add {
                    event: Event::Player {
                        id: 0,
                        name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                        undated: true,
                    },
                },
            ),
            (
                day(1, 1, 1),
                Entry::Add {
                    event: Event::Match(Match::new(
                        70000,
                        4_000_000_000u32,
                        MatchResult::Cancelled,
                    )),
                },
            ),
            (
                day(9999, 12, 31),
                Entry::Add {
                    event: Event::Match(team),
                },
            ),
            (
                day(2026, 1, 2),
                Entry::Edit {
                    target: 2,
                    event: Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Draw))),
                },
            ),
            (day(2026, 1, 2), Entry::Delete { target: 1 }),
            (
                day(2026, 1, 3),
                Entry::Add {
                    event: Event::HardReset,
                },
            ),
        ];
        // The club formats' events, each kind.
        use rungs_ladder::formats::settings::{BoxPeriodRecord, BoxSettings, ChallengeSettings};
        let mut rows = rows;
        for event in [
            Event::ChallengeLadder {
                settings: Box::new(ChallengeSettings {
                    idle_days: Some(30),
                    ..ChallengeSettings::default()
                }),
                order: vec![2, 0, 1],
            },
            Event::Challenge {
                challenger: 1,
                defender: 0,
            },
            Event::ChallengePlace {
                player: 4_000_000_000,
                position: 7,
            },
            Event::BoxPeriod {
                period: Box::new(BoxPeriodRecord {
                    number: 2,
                    start: day(2026, 3, 1),
                    end: day(2026, 3, 31),
                    settings: BoxSettings::default(),
                    boxes: vec![vec![0, 1], vec![2]],
                }),
            },
            Event::BoxWithdraw {
                player: 1,
                withdrawn: true,
            },
            Event::BoxJoin {
                player: 3,
                index: 1,
            },
        ] {
            rows.push((day(2026, 1, 4), Entry::Add { event }));
        }
        let blocks = encode(&rows).unwrap();
        assert_eq!(blocks.len(), 1);
        let back = rows_of(&blocks, 3);
        assert_eq!(back.len(), rows.len());
        for (i, (r, (date, entry))) in back.iter().zip(&rows).enumerate() {
            assert_eq!(r.seq, 3 + i as u64);
            assert_eq!(r.date, *date);
            assert_eq!(&r.entry, entry);
        }
    }

    #[test]
    fn a_plain_match_takes_a_few_bytes_and_blocks_close_at_their_size() {
        let m = |i: u32| {
            (
                day(2026, 1, 1) + chrono::Days::new(u64::from(i / 1000)),
                Entry::Add {
                    event: Event::Match(Match::new(
                        i % 100,
                        100 + i % 50,
                        MatchResult::Played(Outcome::Win),
                    )),
                },
            )
        };
        let rows: Vec<_> = (0..10_000).map(m).collect();
        let blocks = encode(&rows).unwrap();
        // 4096 + 4096 + 1808 rows.
        assert_eq!(
            blocks.iter().map(|b| b.0).collect::<Vec<_>>(),
            vec![4096, 4096, 1808]
        );
        // Header 1 + date delta 1 (3 for a block's first row) + ids 1 and 1 or 2 bytes.
        let bytes: usize = blocks.iter().map(|b| b.1.len()).sum();
        assert!(bytes < 10_000 * 6, "{bytes} bytes");
        assert_eq!(rows_of(&blocks, 1).len(), 10_000);
    }

    #[test]
    fn damaged_bytes_are_errors_not_panics() {
        let rows = vec![(
            day(2026, 1, 1),
            Entry::Add {
                event: Event::Player {
                    id: 0,
                    name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                    undated: false,
                },
            },
        )];
        let (_, data) = encode(&rows).unwrap().remove(0);
        // Cut anywhere: an error naming the row, never a panic.
        for cut in 0..data.len() {
            let mut r = Rows::new(7, 1, &data[..cut]);
            let first = r.next().unwrap();
            let failed = first.is_err() || first.unwrap().event().is_err() || r.finish().is_err();
            assert!(failed, "cut at {cut}");
        }
        // A correction of itself or a later row.
        let mut bad = vec![OP_EDIT | (SHAPE_NONE << 2)];
        bad.extend([2, 9]);
        let err = Rows::new(5, 1, &bad).next().unwrap().unwrap_err();
        assert_eq!(err, RowError::NotEarlier { seq: 5, target: 9 });
        assert_eq!(
            err.to_string(),
            "row 5: it corrects row 9, which is not an earlier row"
        );
        // A length far beyond the block.
        let bad = [OP_ADD | (SHAPE_JSON << 2), 2, 0xff, 0xff, 0xff, 0xff, 0x0f];
        let err = Rows::new(1, 1, &bad).next().unwrap().unwrap_err();
        assert_eq!(err, RowError::Cut { seq: 1 });
        assert_eq!(err.to_string(), "row 1: the block ends inside the row");
        // A date past 9999-12-31.
        let mut bad = vec![OP_ADD];
        varint::put(
            &mut bad,
            zigzag(i64::from(day_number(day(9999, 12, 31))) + 1),
        );
        bad.extend([0, 1]);
        let err = Rows::new(1, 1, &bad).next().unwrap().unwrap_err();
        assert_eq!(err, RowError::DateOutOfRange { seq: 1 });
        assert_eq!(
            err.to_string(),
            "row 1: its date is outside 0001-01-01..9999-12-31"
        );
        // Bytes after the last row.
        let mut long = data.clone();
        long.push(0);
        let mut r = Rows::new(1, 1, &long);
        assert!(r.next().unwrap().is_ok());
        assert_eq!(
            r.finish().unwrap_err().to_string(),
            "row 1: 1 bytes follow the block's last row"
        );
    }

    /// One row adding `json` as its event on 2026-01-01, as an older rungs or another
    /// program may have stored it.
    fn block_of(json: &str) -> Vec<u8> {
        let mut bytes = vec![OP_ADD | (SHAPE_JSON << 2)];
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        varint::put(&mut bytes, zigzag(i64::from(day_number(day))));
        varint::put(&mut bytes, json.len() as u64);
        bytes.extend_from_slice(json.as_bytes());
        bytes
    }

    /// A stored name or medals the checks refuse are damage, said with the row and the
    /// kind of event, never read as they lie (nor a panic).
    #[test]
    fn a_stored_event_the_checks_refuse_is_damage_named_by_its_row() {
        for (json, kind, words) in [
            (
                r#"{"kind":"player","id":0,"name":""}"#,
                "player",
                "is empty",
            ),
            (
                r#"{"kind":"rename","id":0,"name":"\u001b[2J=cmd"}"#,
                "rename",
                "U+001B",
            ),
            (
                r#"{"kind":"player","id":0,"name":"Ann,Bo"}"#,
                "player",
                "comma",
            ),
            (
                r#"{"kind":"match","a":[0],"b":[1],"result":{"played":"Win"},"medals":[1,-2]}"#,
                "match",
                "numbers from 0 to 1000",
            ),
        ] {
            let bytes = block_of(json);
            let mut rows = Rows::new(9, 1, &bytes);
            let row = rows.next().unwrap().unwrap();
            let e = row.event().unwrap_err();
            assert!(
                matches!(&e, RowError::Event { seq: 9, kind: Some(k), .. } if k == kind),
                "{e:?}"
            );
            let text = e.to_string();
            assert!(
                text.starts_with(&format!("row 9: its `{kind}` event does not read: ")),
                "{text}"
            );
            assert!(text.contains(words), "{text}");
        }
        // A name the check accepts reads back as written, and writes the same bytes: one as
        // kept, and one an older rungs kept in Unicode's decomposed form (NFD).
        for json in [
            r#"{"kind":"player","id":0,"name":"Zoë Ann"}"#,
            "{\"kind\":\"player\",\"id\":0,\"name\":\"Cafe\u{301}\"}",
        ] {
            let bytes = block_of(json);
            let event = Rows::new(1, 1, &bytes).next().unwrap().unwrap().event();
            let event = event.unwrap().unwrap();
            assert_eq!(serde_json::to_string(&event).unwrap(), json);
        }
    }
}
