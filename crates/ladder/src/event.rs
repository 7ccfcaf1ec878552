//! The events a ladder's log is made of, from which every figure is replayed: plain data. This
//! module knows no rule of the ladder (replay, seasons and scenarios import it, never the other
//! way round); a `rules` event carries the rules as data.

use crate::formats::settings::{BoxPeriodRecord, ChallengeSettings};
use crate::rules::Rules;
pub use crate::score::EventClass;
use crate::values::{Medals, PlayerName};
use chrono::NaiveDate;
use rungs_rating::Outcome;
use serde::{Deserialize, Serialize};

/// A player's id: the order in which players joined the ladder, from 0. Stable across renames.
pub type PlayerId = u32;

/// A match result from side A's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    /// 1 for a win of A, 0.5 for a draw, 0 for a loss, as an [`Outcome`].
    Played(Outcome),
    /// Side A abandoned the match: A takes a rated loss; for B the match is cancelled
    /// (the INVERSUS ranking notes: no automatic win, no change).
    ForfeitA,
    /// Side B abandoned: B takes a rated loss; A's record is unchanged.
    ForfeitB,
    /// Kept in the log; changes no rating.
    Cancelled,
}

impl MatchResult {
    /// Parses a score as written in a CSV file or on the command line: `1`, `0.5`, `0`, `A`,
    /// `B`, `draw` (also `D`, `1-0`, `0-1`, `½`), `forfeit-a`, `forfeit-b`, `cancelled`.
    pub fn parse(text: &str) -> Option<MatchResult> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "1" | "1.0" | "a" | "1-0" | "win" => MatchResult::Played(Outcome::Win),
            "0.5" | ".5" | "½" | "d" | "draw" | "0.5-0.5" | "=" => {
                MatchResult::Played(Outcome::Draw)
            }
            "0" | "0.0" | "b" | "0-1" | "loss" => MatchResult::Played(Outcome::Loss),
            "forfeit-a" | "forfeit_a" | "fa" => MatchResult::ForfeitA,
            "forfeit-b" | "forfeit_b" | "fb" => MatchResult::ForfeitB,
            "cancelled" | "canceled" | "c" => MatchResult::Cancelled,
            // 0.50 or 1.00 as a spreadsheet writes them: plain decimals that are exactly a
            // score (not 1e0, +1, or 0.99999999999999999, which a float would round to 1).
            number => {
                let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
                let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
                if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
                    return None;
                }
                let whole = whole.trim_start_matches('0');
                match (whole, fraction.trim_end_matches('0')) {
                    ("1", "") => MatchResult::Played(Outcome::Win),
                    ("", "5") => MatchResult::Played(Outcome::Draw),
                    ("", "") => MatchResult::Played(Outcome::Loss),
                    _ => return None,
                }
            }
        })
    }

    /// The same result seen from side B.
    pub fn flipped(self) -> MatchResult {
        match self {
            MatchResult::Played(o) => MatchResult::Played(o.flipped()),
            MatchResult::ForfeitA => MatchResult::ForfeitB,
            MatchResult::ForfeitB => MatchResult::ForfeitA,
            MatchResult::Cancelled => MatchResult::Cancelled,
        }
    }

    /// What side A did, as a verb before side B: "A beat B", "A won by forfeit against B".
    pub fn verb(self) -> &'static str {
        match self {
            MatchResult::Played(Outcome::Win) => "beat",
            MatchResult::Played(Outcome::Draw) => "drew with",
            MatchResult::Played(Outcome::Loss) => "lost to",
            MatchResult::ForfeitA => "forfeited to",
            MatchResult::ForfeitB => "won by forfeit against",
            MatchResult::Cancelled => "(cancelled) vs",
        }
    }

    /// The match in words with the winner first: "Portugal beat Spain" whichever side
    /// Portugal was entered on; "Spain drew with Portugal"; "Spain won by forfeit against
    /// Portugal"; "Spain v Portugal (cancelled)".
    pub fn sentence(self, a: &str, b: &str) -> String {
        match self {
            MatchResult::Played(Outcome::Win) => format!("{a} beat {b}"),
            MatchResult::Played(Outcome::Loss) => format!("{b} beat {a}"),
            MatchResult::Played(Outcome::Draw) => format!("{a} drew with {b}"),
            MatchResult::ForfeitB => format!("{a} won by forfeit against {b}"),
            MatchResult::ForfeitA => format!("{b} won by forfeit against {a}"),
            MatchResult::Cancelled => format!("{a} v {b} (cancelled)"),
        }
    }

    /// The canonical text [`MatchResult::parse`] reads back.
    pub fn as_text(self) -> &'static str {
        match self {
            MatchResult::Played(Outcome::Win) => "1",
            MatchResult::Played(Outcome::Draw) => "0.5",
            MatchResult::Played(Outcome::Loss) => "0",
            MatchResult::ForfeitA => "forfeit-a",
            MatchResult::ForfeitB => "forfeit-b",
            MatchResult::Cancelled => "cancelled",
        }
    }
}

/// One side of a match: a player, or a team. A single player needs no allocation, which
/// matters with a million matches in memory. Serialised as a list of ids.
///
/// A team of one is the player alone: every constructor gives one form for one player, so
/// two sides naming the same players in the same order are equal, hash alike and store alike.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Side(Ids);

/// As the form it holds: `One(3)`, `Team([3, 4])`.
impl std::fmt::Debug for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The one form of a side: `Team` holds two players or more (or none, which the gate and the
/// store refuse, but a replay must still be able to hold while it says why).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Ids {
    One(PlayerId),
    Team(Box<[PlayerId]>),
}

impl Side {
    pub fn ids(&self) -> &[PlayerId] {
        match &self.0 {
            Ids::One(id) => std::slice::from_ref(id),
            Ids::Team(ids) => ids,
        }
    }
}

impl std::ops::Deref for Side {
    type Target = [PlayerId];
    fn deref(&self) -> &[PlayerId] {
        self.ids()
    }
}

impl From<PlayerId> for Side {
    fn from(id: PlayerId) -> Side {
        Side(Ids::One(id))
    }
}

impl From<Vec<PlayerId>> for Side {
    fn from(ids: Vec<PlayerId>) -> Side {
        match ids.as_slice() {
            [one] => Side(Ids::One(*one)),
            _ => Side(Ids::Team(ids.into_boxed_slice())),
        }
    }
}

impl Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.ids().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        // A list of ids, as `Vec<PlayerId>` reads one (its words when it does not read), but a
        // side of one player is read without a list to allocate and free.
        struct Ids;
        impl<'de> serde::de::Visitor<'de> for Ids {
            type Value = Side;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Side, A::Error> {
                let Some(first) = seq.next_element::<PlayerId>()? else {
                    return Ok(Side::from(Vec::new()));
                };
                let Some(second) = seq.next_element::<PlayerId>()? else {
                    return Ok(Side::from(first));
                };
                let mut ids = vec![first, second];
                while let Some(id) = seq.next_element::<PlayerId>()? {
                    ids.push(id);
                }
                Ok(Side::from(ids))
            }
        }
        d.deserialize_seq(Ids)
    }
}

/// Which side a match favours by its setting: the side at home, or the side that
/// moves first (chess's white); or that the ground is neutral. The favoured side's rating is
/// raised by the rules' side advantage in the expected score and in the update alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Home {
    /// Side A is at home, or moves first.
    A,
    /// Side B is at home, or moves first.
    B,
    /// Neither: the same as no flag, said out loud.
    Neutral,
}

impl Home {
    /// Reads `a`, `b` or `neutral`, case and spaces aside.
    pub fn parse(text: &str) -> Option<Home> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "a" => Home::A,
            "b" => Home::B,
            "neutral" => Home::Neutral,
            _ => return None,
        })
    }

    /// The text [`Home::parse`] reads back: `a`, `b`, `neutral`.
    pub fn as_text(self) -> &'static str {
        match self {
            Home::A => "a",
            Home::B => "b",
            Home::Neutral => "neutral",
        }
    }

    /// +1 when side A is favoured, −1 when side B is, 0 on neutral ground.
    pub fn sign(self) -> f64 {
        match self {
            Home::A => 1.0,
            Home::B => -1.0,
            Home::Neutral => 0.0,
        }
    }

    /// The same setting seen from side B.
    pub fn flipped(self) -> Home {
        match self {
            Home::A => Home::B,
            Home::B => Home::A,
            Home::Neutral => Home::Neutral,
        }
    }
}

/// A match between two sides, each one player or a team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Match {
    pub a: Side,
    pub b: Side,
    pub result: MatchResult,
    /// Medal scores (Memoir '44), A then B.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medals: Option<Medals>,
    /// The scenario played (Memoir '44).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The scenario side A played, e.g. "Allies".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_a: Option<String>,
    /// Which side is at home or moves first, for the side advantage. No flag — what every match
    /// from before the flag reads as — gives no advantage, as does `neutral`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<Home>,
    /// Points for each side, A then B (goals, games, frames): whole numbers up to
    /// [`crate::score::POINTS_MAX`]. No score — every match from before it — rates from the result.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::score::deserialize_goals"
    )]
    pub goals: Option<[u32; 2]>,
    /// The class of the event the match belongs to (friendly … championship, or a weight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<EventClass>,
    /// The board of a saved round this is the result of; none for a match entered on its own,
    /// as every match from before rounds reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardRef>,
}

impl Match {
    /// A 1v1 (or team) match with no Memoir '44 extras and no side advantage.
    pub fn new(a: impl Into<Side>, b: impl Into<Side>, result: MatchResult) -> Match {
        Match {
            a: a.into(),
            b: b.into(),
            result,
            medals: None,
            scenario: None,
            side_a: None,
            home: None,
            goals: None,
            class: None,
            board: None,
        }
    }

    /// +1 when the match favours side A, −1 when it favours side B, 0 without a flag or on
    /// neutral ground: side A's share of the rules' side advantage.
    pub fn advantage_sign(&self) -> f64 {
        self.home.map_or(0.0, Home::sign)
    }
}

/// A rank of the old Elo ladder (the Skyweaver white paper's Table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OldRank {
    BelowApprentice,
    Apprentice,
    Scholar,
    Prophet,
    Master,
    Grandmaster,
}

impl OldRank {
    pub const ALL: [OldRank; 6] = [
        OldRank::Grandmaster,
        OldRank::Master,
        OldRank::Prophet,
        OldRank::Scholar,
        OldRank::Apprentice,
        OldRank::BelowApprentice,
    ];

    /// Table 2: the RP a player of this old rank starts with.
    pub fn rp(self) -> f64 {
        match self {
            OldRank::Grandmaster => 1200.0,
            OldRank::Master => 1100.0,
            OldRank::Prophet => 1000.0,
            OldRank::Scholar => 700.0,
            OldRank::Apprentice => 400.0,
            OldRank::BelowApprentice => 200.0,
        }
    }

    /// Table 2's "New Ranking" column: the rank the white paper names beside the RP it gives.
    /// Grandweaver is Table 1's top N Masters; Master at 1100 RP contradicts Table 1, whose
    /// Master starts at 1200 (1100 is Expert III), and rungs follows Table 1.
    pub fn table_two_rank(self) -> &'static str {
        match self {
            OldRank::Grandmaster => "Grandweaver",
            OldRank::Master => "Master",
            OldRank::Prophet => "Expert II",
            OldRank::Scholar => "Apprentice II",
            OldRank::Apprentice => "Trainee II",
            OldRank::BelowApprentice => "Wanderer",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OldRank::Grandmaster => "Grandmaster",
            OldRank::Master => "Master",
            OldRank::Prophet => "Prophet",
            OldRank::Scholar => "Scholar",
            OldRank::Apprentice => "Apprentice",
            OldRank::BelowApprentice => "below Apprentice",
        }
    }

    /// Reads a rank name, case and spacing aside (`below apprentice`, `below_apprentice`,
    /// `none`). Empty text is no rank at all.
    pub fn parse(text: &str) -> Option<OldRank> {
        let t: String = text
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        Some(match t.as_str() {
            "grandmaster" => OldRank::Grandmaster,
            "master" => OldRank::Master,
            "prophet" => OldRank::Prophet,
            "scholar" => OldRank::Scholar,
            "apprentice" => OldRank::Apprentice,
            "belowapprentice" | "none" => OldRank::BelowApprentice,
            _ => return None,
        })
    }
}

/// One player brought over from an Elo ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MigrationEntry {
    pub player: PlayerId,
    pub elo: f64,
    pub old_rank: OldRank,
}

/// An Elo list brought into the ladder (the Skyweaver white paper, section 5): r = Elo,
/// RD = 350, RP by Table 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Migration {
    pub entries: Vec<MigrationEntry>,
}

/// Figures the organiser sets for a scenario, in place of its history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioOverride {
    pub scenario: String,
    /// The two sides, e.g. ["Allies", "Axis"].
    pub sides: [String; 2],
    /// The fraction of battles the first side wins.
    pub ratio: f64,
    /// The average medals of each side.
    pub averages: [f64; 2],
}

/// Something that happened on the ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A player joins. An `undated` join was entered without a date (the app, `add-player`
    /// without `--date`, a CSV import): the player joins at their first event if that comes
    /// earlier, so a backdated match never finds them "not yet joined".
    Player {
        id: PlayerId,
        name: PlayerName,
        #[serde(default, skip_serializing_if = "is_false")]
        undated: bool,
    },
    /// A player is renamed.
    Rename { id: PlayerId, name: PlayerName },
    /// A player retires from the ladder (`retired: true`) or comes back (`false`): the
    /// standings leave a retired player off; their history stays.
    Retire { id: PlayerId, retired: bool },
    /// A match.
    Match(Match),
    /// The weekly button: archive, cap, roll the rating period.
    SoftReset,
    /// The season button.
    HardReset,
    /// The rating system or its parameters change from here on.
    Rules { rules: Box<Rules> },
    /// The season calendar's resets due by this date, applied now rather than with the next
    /// event. It does nothing itself: replay runs the calendar before every event, so an
    /// event on the date is all the resets need.
    DueResets,
    /// An Elo list brought into the ladder.
    Migration { migration: Box<Migration> },
    /// The organiser's figures for a Memoir '44 scenario, replacing its history from here on.
    Scenario { figures: Box<ScenarioOverride> },
    /// A round of pairings: who plays whom on the date. Rates nobody.
    Round { round: Box<RoundRecord> },
    /// Two players' pairing rule from here on: never paired, avoided, or free again.
    PairRule {
        a: PlayerId,
        b: PlayerId,
        rule: PairRule,
    },
    /// A challenge ladder starts, or its rules change from here on. A non-empty `order` sets
    /// the positions, first place first (the start, or the organiser's own order).
    ChallengeLadder {
        settings: Box<ChallengeSettings>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        order: Vec<PlayerId>,
    },
    /// `challenger` challenges `defender`; the pair's next match closes it.
    Challenge {
        challenger: PlayerId,
        defender: PlayerId,
    },
    /// A player put at a place of the challenge ladder (a newcomer placed by rating).
    ChallengePlace { player: PlayerId, position: u32 },
    /// A box period begins: its dates, rules and boxes. Closing a period writes the next.
    BoxPeriod { period: Box<BoxPeriodRecord> },
    /// A player withdraws from the current box period (`withdrawn: true`) or comes back.
    BoxWithdraw { player: PlayerId, withdrawn: bool },
    /// A newcomer joins the current period's box `index` (from 0, the top box).
    BoxJoin { player: PlayerId, index: u32 },
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Event {
    /// The players this event names (a join, a rename, a retirement, the sides of a match,
    /// a migration's list); resets, rules and scenarios name none.
    pub fn players(&self) -> Vec<PlayerId> {
        match self {
            Event::Player { id, .. } | Event::Rename { id, .. } | Event::Retire { id, .. } => {
                vec![*id]
            }
            Event::Match(m) => m.a.iter().chain(m.b.iter()).copied().collect(),
            Event::Migration { migration } => migration.entries.iter().map(|e| e.player).collect(),
            Event::Round { round } => round.named().collect(),
            Event::PairRule { a, b, .. } => vec![*a, *b],
            Event::ChallengeLadder { order, .. } => order.clone(),
            Event::Challenge {
                challenger,
                defender,
            } => vec![*challenger, *defender],
            Event::ChallengePlace { player, .. }
            | Event::BoxWithdraw { player, .. }
            | Event::BoxJoin { player, .. } => vec![*player],
            Event::BoxPeriod { period } => period.players().collect(),
            Event::SoftReset
            | Event::HardReset
            | Event::DueResets
            | Event::Rules { .. }
            | Event::Scenario { .. } => Vec::new(),
        }
    }
}

/// How a round was paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The closest games of the night (one minimum-cost matching).
    Balanced,
    /// A round of a Swiss event.
    Swiss,
    /// A round of a Berger round robin.
    RoundRobin,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Balanced, Format::Swiss, Format::RoundRobin];

    /// Reads `balanced`, `swiss` or `round-robin` (also `round_robin`), case aside.
    pub fn parse(text: &str) -> Option<Format> {
        Some(match text.trim().to_ascii_lowercase().as_str() {
            "balanced" => Format::Balanced,
            "swiss" => Format::Swiss,
            "round-robin" | "round_robin" | "roundrobin" => Format::RoundRobin,
            _ => return None,
        })
    }

    pub fn as_text(self) -> &'static str {
        match self {
            Format::Balanced => "balanced",
            Format::Swiss => "swiss",
            Format::RoundRobin => "round-robin",
        }
    }
}

/// What a bye scores in its event's points (a Swiss event's score groups). It rates nobody:
/// a win by forfeit leaves the side left behind unrated (as the INVERSUS ranking notes have it
/// for every forfeit in rungs), and a bye has nobody on the other side at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeScore {
    /// No point.
    #[default]
    Nothing,
    /// A win by forfeit of nobody: one point.
    Win,
}

impl ByeScore {
    /// The event points a bye gives.
    pub fn points(self) -> f64 {
        match self {
            ByeScore::Nothing => 0.0,
            ByeScore::Win => 1.0,
        }
    }
}

/// A saved round: numbered across the ladder from 1, boards in order (board 1 first), side A
/// of each at home or moving first, and at most one bye.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub number: u32,
    pub format: Format,
    pub boards: Vec<[PlayerId; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    #[serde(default)]
    pub bye_scores: ByeScore,
    /// A Swiss round: the number of its event's first round (its own for a first round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<u32>,
    /// A Swiss round: what FIDE's Dutch System reads besides the boards (entries, requested
    /// byes, withdrawals, the rounds declared).
    #[serde(default, skip_serializing_if = "SwissRecord::is_empty")]
    pub swiss: SwissRecord,
}

impl RoundRecord {
    /// Everyone the round names: the boards' players, then the bye.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.boards.iter().flatten().copied().chain(self.bye)
    }

    /// Everyone the round names, its Swiss record's players too.
    pub fn named(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.players().chain(self.swiss.players())
    }
}

/// A match's place in a saved round: round `round`, board `board` (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardRef {
    pub round: u32,
    pub board: u32,
}

/// Whether two players may be paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairRule {
    /// Never paired (siblings, team mates).
    Forbid,
    /// Paired only when the night is much better for it.
    Avoid,
    /// Neither: the rule lifted.
    Free,
}

/// One row of the append-only log: an event, or a correction of an earlier row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Entry {
    /// A new event.
    Add { event: Event },
    /// Row `target` now reads `event` on `date` (its sequence number, and so its place
    /// among events of the same date, is kept).
    Edit { target: u64, event: Event },
    /// Row `target` no longer counts.
    Delete { target: u64 },
}

/// A row of the log as stored: entry order `seq`, calendar `date`, and what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    pub seq: u64,
    pub date: NaiveDate,
    #[serde(flatten)]
    pub entry: Entry,
}

/// What a Swiss round records for FIDE's Dutch System (FIDE Handbook C.04.1–C.04.3) besides
/// its boards: who enters the event in it and at what rating (their pairing numbers come
/// from it, so the event pairs the same whatever the ladder does later), the byes asked for,
/// who withdrew before it, and, in the event's first round, the rounds declared and the
/// colour drawn for pairing number 1.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRecord {
    /// Rounds the event will have (its first round says so; 0 or none: not declared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Black drawn for pairing number 1 in round 1 (white otherwise).
    #[serde(default, skip_serializing_if = "is_false")]
    pub first_black: bool,
    /// Players entering the event in this round, with their rating at entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<SwissEntry>,
    /// Byes asked for in this round, with the half-points each scores (0, 1 or 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requested: Vec<RequestedBye>,
    /// Players who withdrew from the event before this round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<PlayerId>,
    /// The event's name (its first round says it), as a TRF's `012` line gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissEntry {
    pub player: PlayerId,
    pub rating: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestedBye {
    pub player: PlayerId,
    /// Half-points: 0 a zero-point bye, 1 a half-point bye, 2 a full-point bye.
    pub halves: u8,
}

impl SwissRecord {
    pub fn is_empty(&self) -> bool {
        *self == SwissRecord::default()
    }

    /// The players it names: entries, requested byes, withdrawals.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.entries
            .iter()
            .map(|e| e.player)
            .chain(self.requested.iter().map(|r| r.player))
            .chain(self.withdrawn.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A team of one read from the log, made from a list, or made from the id is one value:
    /// equal, hashed alike, and written alike.
    #[test]
    fn a_team_of_one_is_the_player_alone() {
        use std::hash::{BuildHasher, RandomState};
        let from_id = Side::from(3);
        let from_list = Side::from(vec![3]);
        let read: Side = serde_json::from_str("[3]").unwrap();
        let hashes = RandomState::new();
        for side in [&from_list, &read] {
            assert_eq!(side, &from_id);
            assert_eq!(hashes.hash_one(side), hashes.hash_one(&from_id));
            assert_eq!(serde_json::to_string(side).unwrap(), "[3]");
        }
        assert_ne!(Side::from(vec![3, 4]), Side::from(vec![4, 3]));
        assert_eq!(Side::from(vec![3, 4]).ids(), [3, 4]);
    }

    /// A score as a spreadsheet writes it (0.50, 1.00, 0.000) reads as that score; a number
    /// that is not exactly one, or not written as a plain decimal, is no score.
    #[test]
    fn plain_decimals_that_are_scores_read_as_scores() {
        let win = Some(MatchResult::Played(Outcome::Win));
        let draw = Some(MatchResult::Played(Outcome::Draw));
        let loss = Some(MatchResult::Played(Outcome::Loss));
        for (text, want) in [
            ("1", win),
            ("1.00", win),
            ("01", win),
            ("0.50", draw),
            (".500", draw),
            ("0", loss),
            ("0.000", loss),
            ("00", loss),
            ("0.", loss),
        ] {
            assert_eq!(MatchResult::parse(text), want, "{text}");
        }
        for text in [
            "1e0",
            "+1",
            "-0",
            "5e-1",
            "0.99999999999999999",
            "0.5000001",
            "1.5",
            "2",
            "inf",
            "NaN",
            ".",
            "",
            "1..0",
            "0.5.0",
            "١",
        ] {
            assert_eq!(MatchResult::parse(text), None, "{text}");
        }
    }
}
