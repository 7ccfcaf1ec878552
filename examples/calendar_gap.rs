//! A 9,000-year ladder under the weekly season calendar (a benchmark for seasons in which
//! nothing is entered): `players` join in 1000, then one match every `step` years to 9999,
//! replayed with its history. Every season's reset applies, the empty ones folded after the
//! first few of each gap, so the work and memory follow the events, not the 108,000 monthly
//! seasons. Run under `/usr/bin/time -v cargo run --release --example calendar_gap -- 1000 10`.

use chrono::NaiveDate;
use rungs_ladder::calendar::{Calendar, Schedule};
use rungs_ladder::event::{Event, Match, MatchResult};
use rungs_ladder::replay::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().unwrap_or(0));
    let players = args.next().filter(|p| *p >= 2).unwrap_or(1000);
    let step = args.next().filter(|s| *s >= 1).unwrap_or(10);
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.calendar = Calendar::Scheduled(Schedule::default());
    let mut events = Vec::new();
    let start = NaiveDate::from_ymd_opt(1000, 1, 6).unwrap_or_default();
    for id in 0..players {
        events.push((
            start,
            Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
                undated: false,
            },
        ));
    }
    let mut year = 1000;
    let mut k: u64 = 0;
    while year <= 9999 {
        let a = (k * 7919 % u64::from(players)) as u32;
        let b = (a + 1 + (k % u64::from(players - 1)) as u32) % players;
        let date = NaiveDate::from_ymd_opt(year, 6, 15).unwrap_or_default();
        let result = MatchResult::Played(if k.is_multiple_of(3) {
            Outcome::Loss
        } else {
            Outcome::Win
        });
        events.push((date, Event::Match(Match::new(a, b, result))));
        year += step as i32;
        k += 1;
    }
    let timer = std::time::Instant::now();
    let (ladder, history) = replay(
        &rules,
        events.iter().zip(1u64..).map(|((d, e), s)| (*d, s, e)),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let entries: usize = ladder.archive.iter().map(|s| s.entries.len()).sum();
    println!(
        "{} events, {} seasons ({} archive rows, {} entries), {} history rows, replayed in {:.2} s",
        events.len(),
        ladder.season - 1,
        ladder.archive.len(),
        entries,
        history.len(),
        timer.elapsed().as_secs_f64()
    );
}
