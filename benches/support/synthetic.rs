//! A seeded synthetic ladder for benchmarks: `players` players with hidden strengths and
//! `matches` random pairings over 1,000 days, results drawn from the strengths (10 % draws).

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_rating::Outcome;

/// SplitMix64: small, fast, and the same everywhere for a given seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The log entries of the synthetic ladder, in replay order, dated from 2020-01-01.
pub fn entries(players: u32, matches: u32, seed: u64) -> Vec<(NaiveDate, Entry)> {
    let mut rng = Rng::new(seed);
    let start = NaiveDate::from_ymd_opt(2020, 1, 1).expect("a valid date");
    let strength: Vec<f64> = (0..players).map(|_| rng.unit() * 800.0).collect();
    let mut out = Vec::with_capacity((players + matches) as usize);
    for id in 0..players {
        out.push((
            start,
            Entry::Add {
                event: Event::Player {
                    id,
                    name: rungs_ladder::values::PlayerName::parse(&format!("Player {id:05}"))
                        .unwrap(),
                    undated: false,
                },
            },
        ));
    }
    let per_day = (matches / 1000).max(1);
    for i in 0..matches {
        let date = start + chrono::Days::new(1 + (i / per_day) as u64);
        let a = rng.below(players as u64) as u32;
        let mut b = rng.below(players as u64 - 1) as u32;
        if b >= a {
            b += 1;
        }
        let p_a = 1.0 / (1.0 + 10f64.powf((strength[b as usize] - strength[a as usize]) / 400.0));
        let roll = rng.unit();
        let outcome = if roll < 0.1 {
            Outcome::Draw
        } else if roll < 0.1 + 0.9 * p_a {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        out.push((
            date,
            Entry::Add {
                event: Event::Match(Match::new(a, b, MatchResult::Played(outcome))),
            },
        ));
    }
    out
}
