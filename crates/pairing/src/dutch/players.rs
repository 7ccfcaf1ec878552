//! The event as the FIDE (Dutch) System reads it: players, what each had in every round so
//! far, and what follows from that — pairing numbers, scores, colour histories and
//! preferences, floats, who may take the pairing-allocated bye.
//!
//! Sources: FIDE Handbook C.04.1 (Basic Rules for Swiss Systems), C.04.2 (General Handling
//! Rules: initial order, unplayed games) and C.04.3 (the Dutch System: article 1 and its
//! colour preferences), <https://handbook.fide.com/chapter/C0403202507>.

use std::fmt;

/// Points in half-points: a win is 2, a draw 1, a loss 0 (exact, unlike `f64`).
pub type Half = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What a player had in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A game played over the board: the opponent (index into the players), the colour and
    /// the points scored (0, 1 or 2 halves).
    Played {
        opponent: usize,
        colour: Colour,
        score: Half,
    },
    /// Paired, but the game was not played: won or lost by forfeit. It counts neither as a
    /// meeting nor for colours, so the two may be paired again (FIDE C.04.2: unplayed games).
    Forfeit {
        opponent: usize,
        colour: Colour,
        won: bool,
    },
    /// The pairing-allocated bye (C.04.1), with the points the event gives for it.
    PairingBye { score: Half },
    /// Not paired: a bye the player asked for (a half or zero point), absence, or a round
    /// before a late entry (zero).
    Absent { score: Half },
}

impl Outcome {
    pub fn score(self) -> Half {
        match self {
            Outcome::Played { score, .. } => score,
            Outcome::Forfeit { won, .. } => 2 * Half::from(won),
            Outcome::PairingBye { score } | Outcome::Absent { score } => score,
        }
    }
}

/// One entrant of the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// The rating at the event's start (0 for unrated): the initial order (C.04.2).
    pub rating: u32,
    /// One outcome per round already paired; a late entrant's missed rounds are `Absent`.
    pub rounds: Vec<Outcome>,
}

impl Player {
    /// Whether the player has been paired in some round so far: a game, a forfeit or the
    /// pairing-allocated bye (not a bye asked for, nor an absence).
    pub fn has_been_paired(&self) -> bool {
        self.rounds
            .iter()
            .any(|o| !matches!(o, Outcome::Absent { .. }))
    }
}

/// What a player does in the round to be paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    Plays,
    /// A bye the player asked for, with its points (0 or 1 halves, as the event allows).
    RequestedBye(Half),
    /// Withdrawn (or absent without a point): not paired, scores 0.
    Out,
}

/// A float (C.04.3 article 1.4): down to a lower score, or up to a higher one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
}

/// How strongly a player wants a colour (C.04.3 article 1.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// Colour difference 0: the player alternates from the last game.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the two latest games.
    Absolute,
}

/// A colour preference: the colour and how strongly; `None` before any game is played.
pub type Preference = Option<(Colour, Strength)>;

/// Why no pairing came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DutchError {
    /// The input does not describe an event (the reason is said).
    Invalid(String),
    /// No pairing meets the absolute criteria (C.04.3 C1–C3).
    NoPairing,
}

impl fmt::Display for DutchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DutchError::Invalid(why) => f.write_str(why),
            DutchError::NoPairing => f.write_str(
                "no pairing avoids every rematch, second bye and colour clash the FIDE rules forbid",
            ),
        }
    }
}

impl std::error::Error for DutchError {}

/// Pairing numbers: the initial order of C.04.2 — rating at the start, highest first, then
/// name — recomputed over everyone entered so far, so a late entry takes its place in it.
/// `numbers[i]` is player i's pairing number, from 1.
pub fn pairing_numbers(players: &[Player]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .rating
            .cmp(&players[a].rating)
            .then_with(|| players[a].name.cmp(&players[b].name))
            .then(a.cmp(&b))
    });
    let mut numbers = vec![0; players.len()];
    for (k, &i) in order.iter().enumerate() {
        numbers[i] = k + 1;
    }
    numbers
}

/// What the pairing needs to know of one player, derived from the rounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub number: usize,
    pub score: Half,
    /// Colours of the games actually played, oldest first (C.04.2: unplayed games do not
    /// count, so W B – W is read as – W B W).
    pub colours: Vec<Colour>,
    /// The float each round gave, oldest first (None: no float).
    pub floats: Vec<Option<Float>>,
    /// Opponents met over the board.
    pub met: Vec<usize>,
    /// Had the pairing-allocated bye or a forfeit win: may not have the bye (C.04.1 d).
    pub no_bye: bool,
    /// Rounds without a game played over the board.
    pub unplayed: u32,
}

impl State {
    /// Whites minus blacks (C.04.3 article 1.6).
    pub fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }

    /// C.04.3 article 1.6: absolute beyond ±1 or after two same colours in a row, strong at
    /// ±1, mild at 0 (alternating from the last game); none before the first game.
    pub fn preference(&self) -> Preference {
        let last = *self.colours.last()?;
        let cd = self.colour_difference();
        let n = self.colours.len();
        let twice = n >= 2 && self.colours[n - 2] == last;
        Some(if cd < -1 {
            (Colour::White, Strength::Absolute)
        } else if cd > 1 {
            (Colour::Black, Strength::Absolute)
        } else if twice {
            (last.other(), Strength::Absolute)
        } else if cd == -1 {
            (Colour::White, Strength::Strong)
        } else if cd == 1 {
            (Colour::Black, Strength::Strong)
        } else {
            (last.other(), Strength::Mild)
        })
    }

    /// The float of `back` rounds ago (1: the last round).
    pub fn float_ago(&self, back: usize) -> Option<Float> {
        let n = self.floats.len();
        if back == 0 || back > n {
            None
        } else {
            self.floats[n - back]
        }
    }

    pub fn has_met(&self, other: usize) -> bool {
        self.met.contains(&other)
    }
}

/// Every player's state after the rounds so far. Refuses rounds of unequal length and
/// outcomes that name a missing or mismatched opponent.
pub fn states(players: &[Player]) -> Result<Vec<State>, DutchError> {
    let n = players.len();
    let rounds = players.first().map_or(0, |p| p.rounds.len());
    if let Some(p) = players.iter().find(|p| p.rounds.len() != rounds) {
        return Err(DutchError::Invalid(format!(
            "{} has {} rounds where the others have {rounds}",
            p.name,
            p.rounds.len()
        )));
    }
    let numbers = pairing_numbers(players);
    let mut out: Vec<State> = (0..n)
        .map(|i| State {
            number: numbers[i],
            score: 0,
            colours: Vec::new(),
            floats: Vec::new(),
            met: Vec::new(),
            no_bye: false,
            unplayed: 0,
        })
        .collect();
    for r in 0..rounds {
        let before: Vec<Half> = out.iter().map(|s| s.score).collect();
        for (i, p) in players.iter().enumerate() {
            let outcome = p.rounds[r];
            let st = &mut out[i];
            let mut float = None;
            match outcome {
                Outcome::Played {
                    opponent, colour, ..
                }
                | Outcome::Forfeit {
                    opponent, colour, ..
                } => {
                    check_opponent(players, i, r, opponent, colour)?;
                    if let Outcome::Played { .. } = outcome {
                        st.colours.push(colour);
                        st.met.push(opponent);
                        // C.04.3 article 1.4.2: the higher score floats down, the lower up.
                        float = match before[i].cmp(&before[opponent]) {
                            std::cmp::Ordering::Greater => Some(Float::Down),
                            std::cmp::Ordering::Less => Some(Float::Up),
                            std::cmp::Ordering::Equal => None,
                        };
                    } else {
                        st.unplayed += 1;
                    }
                }
                Outcome::PairingBye { .. } | Outcome::Absent { .. } => st.unplayed += 1,
            }
            match outcome {
                Outcome::PairingBye { .. } => st.no_bye = true,
                Outcome::Forfeit { won: true, .. } => st.no_bye = true,
                _ => {}
            }
            // C.04.3 article 1.4.3: points without a game, more than a loss, are a downfloat.
            if !matches!(outcome, Outcome::Played { .. }) && outcome.score() > 0 {
                float = Some(Float::Down);
            }
            st.floats.push(float);
            st.score += outcome.score();
        }
    }
    Ok(out)
}

fn check_opponent(
    players: &[Player],
    i: usize,
    r: usize,
    opponent: usize,
    colour: Colour,
) -> Result<(), DutchError> {
    let fine = opponent != i
        && players.get(opponent).is_some_and(|o| match o.rounds[r] {
            Outcome::Played {
                opponent: back,
                colour: c,
                ..
            }
            | Outcome::Forfeit {
                opponent: back,
                colour: c,
                ..
            } => back == i && c == colour.other(),
            _ => false,
        });
    if fine {
        Ok(())
    } else {
        Err(DutchError::Invalid(format!(
            "round {}: {}'s opponent does not have them as opponent with the other colour",
            r + 1,
            players[i].name
        )))
    }
}
