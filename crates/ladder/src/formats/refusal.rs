//! What a format refuses, as data: which players (by id, for each door to name), which
//! places, which dates. The gate wraps these in its own error; the CLI and the app say them
//! in their own words.

use super::settings::PlayerId;
use chrono::NaiveDate;

/// A challenge or box action the format's rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The ladder runs no challenge ladder yet.
    NoChallengeLadder,
    /// A player challenged themselves.
    ToSelf { player: PlayerId },
    /// A player is retired, or otherwise holds no position.
    NotOnLadder { player: PlayerId },
    /// The defender is further above than the challenger's reach.
    BeyondReach {
        challenger: PlayerId,
        defender: PlayerId,
        challenger_position: u32,
        defender_position: u32,
        reach: u32,
    },
    /// The defender is not above the challenger.
    NotAbove {
        challenger: PlayerId,
        defender: PlayerId,
        challenger_position: u32,
        defender_position: u32,
    },
    /// The challenger has a challenge open already.
    AlreadyOpen {
        challenger: PlayerId,
        number: u32,
        defender: PlayerId,
    },
    /// The defender accepted a challenge within `defend_days`: free again from `from`.
    DefenderCooldown {
        defender: PlayerId,
        last: NaiveDate,
        from: NaiveDate,
    },
    /// The pair met within `rematch_days`: free again from `from`.
    Rematch {
        a: PlayerId,
        b: PlayerId,
        last: NaiveDate,
        from: NaiveDate,
    },
    /// No challenge has this number.
    NoSuchChallenge { number: u32 },
    /// The challenge is closed already (played, lapsed, forfeited or withdrawn) on `closed`.
    ChallengeClosed {
        number: u32,
        challenger: PlayerId,
        defender: PlayerId,
        closed: NaiveDate,
    },
    /// A result for a challenge dated outside its days.
    OutsideChallenge {
        number: u32,
        date: NaiveDate,
        made: NaiveDate,
        deadline: NaiveDate,
    },
    /// A box match of a player against themselves.
    PlaysSelf { player: PlayerId },
    /// The ladder runs no box period yet.
    NoBoxPeriod,
    /// A player is in none of the period's boxes (or withdrew from it).
    NotInABox { player: PlayerId },
    /// A box result between players of different boxes (boxes numbered from 1, top first).
    DifferentBoxes {
        a: PlayerId,
        a_box: u32,
        b: PlayerId,
        b_box: u32,
    },
    /// The pair's box match is already in the table.
    AlreadyPlayed { a: PlayerId, b: PlayerId },
    /// A box result dated outside the period.
    OutsidePeriod {
        date: NaiveDate,
        start: NaiveDate,
        end: NaiveDate,
    },
}

impl Refusal {
    /// The refusal in plain words, with `name` giving each player's name.
    pub fn describe(&self, name: &dyn Fn(PlayerId) -> String) -> String {
        match self {
            Refusal::NoChallengeLadder => {
                "this ladder runs no challenge ladder yet: start one first".into()
            }
            Refusal::ToSelf { player } => format!("{} cannot challenge themselves", name(*player)),
            Refusal::NotOnLadder { player } => format!(
                "{} holds no position on the challenge ladder (retired?)",
                name(*player)
            ),
            Refusal::BeyondReach {
                challenger,
                defender,
                challenger_position,
                defender_position,
                reach,
            } => format!(
                "{} (place {challenger_position}) may challenge at most {reach} places up, to \
                 place {}; {} is at place {defender_position}",
                name(*challenger),
                challenger_position.saturating_sub(*reach).max(1),
                name(*defender)
            ),
            Refusal::NotAbove {
                challenger,
                defender,
                challenger_position,
                defender_position,
            } => format!(
                "{} (place {challenger_position}) may only challenge players above; {} is at \
                 place {defender_position}",
                name(*challenger),
                name(*defender)
            ),
            Refusal::AlreadyOpen {
                challenger,
                number,
                defender,
            } => format!(
                "{} already has challenge {number} open against {}: play it first",
                name(*challenger),
                name(*defender)
            ),
            Refusal::DefenderCooldown {
                defender,
                last,
                from,
            } => format!(
                "{} was challenged on {last} and may be challenged again from {from}",
                name(*defender)
            ),
            Refusal::Rematch { a, b, last, from } => format!(
                "{} and {} met in a challenge on {last} and may meet again from {from}",
                name(*a),
                name(*b)
            ),
            Refusal::NoSuchChallenge { number } => format!("there is no challenge {number}"),
            Refusal::ChallengeClosed {
                number,
                challenger,
                defender,
                closed,
            } => format!(
                "challenge {number} ({} v {}) closed on {closed}: enter the match on its own",
                name(*challenger),
                name(*defender)
            ),
            Refusal::OutsideChallenge {
                number,
                date,
                made,
                deadline,
            } => format!("challenge {number} runs from {made} to {deadline}; {date} is outside it"),
            Refusal::PlaysSelf { player } => format!("{} cannot play themselves", name(*player)),
            Refusal::NoBoxPeriod => "this ladder runs no box period yet: start one first".into(),
            Refusal::NotInABox { player } => {
                format!("{} is in none of this period's boxes", name(*player))
            }
            Refusal::DifferentBoxes { a, a_box, b, b_box } => format!(
                "{} is in box {a_box} and {} in box {b_box}: a box match is between players \
                 of one box",
                name(*a),
                name(*b)
            ),
            Refusal::AlreadyPlayed { a, b } => format!(
                "{} and {} have played their box match this period",
                name(*a),
                name(*b)
            ),
            Refusal::OutsidePeriod { date, start, end } => {
                format!("the period runs from {start} to {end}; {date} is outside it")
            }
        }
    }

    /// The players the refusal names.
    pub fn players(&self) -> Vec<PlayerId> {
        match self {
            Refusal::ToSelf { player }
            | Refusal::NotOnLadder { player }
            | Refusal::NotInABox { player }
            | Refusal::PlaysSelf { player } => vec![*player],
            Refusal::BeyondReach {
                challenger,
                defender,
                ..
            }
            | Refusal::NotAbove {
                challenger,
                defender,
                ..
            }
            | Refusal::AlreadyOpen {
                challenger,
                defender,
                ..
            }
            | Refusal::ChallengeClosed {
                challenger,
                defender,
                ..
            } => vec![*challenger, *defender],
            Refusal::DefenderCooldown { defender, .. } => vec![*defender],
            Refusal::Rematch { a, b, .. }
            | Refusal::DifferentBoxes { a, b, .. }
            | Refusal::AlreadyPlayed { a, b } => vec![*a, *b],
            Refusal::NoChallengeLadder
            | Refusal::NoSuchChallenge { .. }
            | Refusal::OutsideChallenge { .. }
            | Refusal::NoBoxPeriod
            | Refusal::OutsidePeriod { .. } => Vec::new(),
        }
    }
}
