//! The FIDE (Dutch) System: the next round of a Swiss event as FIDE's Handbook states it
//! (C.04.3, in force from 1 July 2025, with C.04.1 Basic Rules for Swiss Systems and C.04.2
//! General Handling Rules; <https://handbook.fide.com/chapter/C0403202507>). Pure and
//! deterministic: the players and their rounds in, the boards (white first) and the bye out.
//!
//! - `players`: the event's data, pairing numbers, scores, colour preferences and floats;
//! - `brackets`: the pairing, bracket by bracket, as weighted matchings;
//! - `criteria`: the quality criteria in their order, packed into one weight;
//! - `order`: the Handbook's order inside a bracket, for pairings equal on every criterion;
//! - `colours`: who has white, and the order of the boards.
//!
//! Why weighted matching rather than the Handbook's generation of transpositions and
//! exchanges: the absolute and completion criteria then hold by construction (no search
//! that could run out), and a bracket of hundreds costs a few polynomial matchings. The
//! criteria are packed lexicographically into one `i128` weight (`criteria`: each field is
//! given the bits its largest total over a matching needs, so a unit of a criterion
//! outweighs everything below it); `f64` could not hold them exactly, and the existing
//! `blossom` was widened to `i128` for it. Where pairings tie on every criterion the
//! Handbook's order decides (`order`): exactly (lexicographic over S1) when the weight
//! holds it, else over windows of S1 places solved one after another, else (S1 beyond 64,
//! e.g. the early rounds of 500 players) by weighted distances. The endorsed engines
//! (bbpPairings) also pair by weighted matching.

mod brackets;
mod colours;
mod criteria;
mod order;
mod players;

pub use colours::{allocate, order_boards, rank_order, ranks_above};
pub use players::{
    Availability, Colour, DutchError, Float, Half, Outcome, Player, Preference, State, Strength,
    pairing_numbers, states,
};

/// An event in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    pub players: Vec<Player>,
    /// Rounds the event will have (declared beforehand, C.04.1 a): the last round relaxes
    /// the colour rules for topscorers.
    pub total_rounds: u32,
    /// The colour drawn for pairing number 1 in round 1 (C.04.3 article 5, E.5).
    pub initial: Colour,
    /// Points for the pairing-allocated bye: 2 halves unless the event says otherwise.
    pub bye_score: Half,
    /// Pairs never to be paired (players by index), as if they had met (the organiser's
    /// rule: siblings, team mates).
    pub forbidden: Vec<(usize, usize)>,
}

/// A round: the boards, white first, in published order, and the pairing-allocated bye.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pairing {
    pub boards: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// How a board ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// Not played: white wins by forfeit.
    WhiteForfeit,
    /// Not played: black wins by forfeit.
    BlackForfeit,
    /// Neither came: both lose.
    DoubleForfeit,
}

impl Tournament {
    pub fn new(total_rounds: u32, initial: Colour) -> Tournament {
        Tournament {
            players: Vec::new(),
            total_rounds,
            initial,
            bye_score: 2,
            forbidden: Vec::new(),
        }
    }

    /// Rounds paired so far.
    pub fn rounds(&self) -> usize {
        self.players.first().map_or(0, |p| p.rounds.len())
    }

    /// A late entry (or an entry before round 1): the rounds missed count as zero-point
    /// byes. Returns the player's index.
    pub fn enter(&mut self, name: &str, rating: u32) -> usize {
        let missed = self.rounds();
        self.players.push(Player {
            name: name.to_string(),
            rating,
            rounds: vec![Outcome::Absent { score: 0 }; missed],
        });
        self.players.len() - 1
    }

    /// Pairs the next round; `available[i]` says whether player i plays (missing entries:
    /// plays).
    pub fn pair(&self, available: &[Availability]) -> Result<Pairing, DutchError> {
        pair_round(self, available)
    }

    /// Records a paired round: the boards' results (in the pairing's board order), the bye,
    /// and everyone else as absent with the points of `available`.
    pub fn record(
        &mut self,
        pairing: &Pairing,
        results: &[GameResult],
        available: &[Availability],
    ) -> Result<(), DutchError> {
        if results.len() != pairing.boards.len() {
            return Err(DutchError::Invalid(format!(
                "{} results for {} boards",
                results.len(),
                pairing.boards.len()
            )));
        }
        let mut round: Vec<Outcome> = (0..self.players.len())
            .map(|i| match available.get(i) {
                Some(Availability::RequestedBye(score)) => Outcome::Absent { score: *score },
                _ => Outcome::Absent { score: 0 },
            })
            .collect();
        for (&(w, b), r) in pairing.boards.iter().zip(results) {
            let (sw, sb, played) = match r {
                GameResult::WhiteWins => (2, 0, true),
                GameResult::Draw => (1, 1, true),
                GameResult::BlackWins => (0, 2, true),
                GameResult::WhiteForfeit => (2, 0, false),
                GameResult::BlackForfeit => (0, 2, false),
                GameResult::DoubleForfeit => (0, 0, false),
            };
            let side = |me: Colour, opponent: usize, score: Half| {
                if played {
                    Outcome::Played {
                        opponent,
                        colour: me,
                        score,
                    }
                } else {
                    Outcome::Forfeit {
                        opponent,
                        colour: me,
                        won: score == 2,
                    }
                }
            };
            round[w] = side(Colour::White, b, sw);
            round[b] = side(Colour::Black, w, sb);
        }
        if let Some(p) = pairing.bye {
            round[p] = Outcome::PairingBye {
                score: self.bye_score,
            };
        }
        for (p, o) in self.players.iter_mut().zip(round) {
            p.rounds.push(o);
        }
        Ok(())
    }
}

/// The next round of `tournament`.
pub fn pair_round(
    tournament: &Tournament,
    available: &[Availability],
) -> Result<Pairing, DutchError> {
    let mut states = states(&tournament.players)?;
    for &(a, b) in &tournament.forbidden {
        if a != b && a < states.len() && b < states.len() {
            states[a].met.push(b);
            states[b].met.push(a);
        }
    }
    let plays = |i: usize| {
        matches!(
            available.get(i).copied().unwrap_or(Availability::Plays),
            Availability::Plays
        )
    };
    let players: Vec<usize> = (0..states.len()).filter(|&i| plays(i)).collect();
    // C.04.3 Article 5.2.5 gives the drawn colour by the parity of a pairing number, and
    // C.04.2 Article 2.4 (Initial Order and Late Entries) gives a late entry "an appropriate
    // TPN" and pairs them "only when they actually arrive": a player never paired yet (byes
    // asked for, absent) holds no number. So the numbers run over the players paired in some
    // round or now, in the entry list's order (round 1 then alternates board by board, as
    // the endorsed engines do); the others, not paired this round, come after.
    let arrived = |i: usize| plays(i) || tournament.players[i].has_been_paired();
    let mut by_number: Vec<usize> = (0..states.len()).collect();
    by_number.sort_by_key(|&i| (!arrived(i), states[i].number));
    for (k, &i) in by_number.iter().enumerate() {
        states[i].number = k + 1;
    }
    let rounds = tournament.rounds() as u32;
    // C.04.3 article 1.7: in the last round, topscorers are those with more than half the
    // points possible so far.
    let topscorers: Vec<bool> = if rounds + 1 == tournament.total_rounds {
        states.iter().map(|s| s.score > rounds).collect()
    } else {
        Vec::new()
    };
    let setup = brackets::Setup {
        preferences: states.iter().map(State::preference).collect(),
        states: &states,
        players,
        topscorers,
        initial: tournament.initial,
    };
    let (pairs, bye) = brackets::pair(&setup)?;
    let mut boards: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(a, b)| allocate(&states, a, b, tournament.initial))
        .collect();
    order_boards(&states, &mut boards);
    Ok(Pairing { boards, bye })
}
