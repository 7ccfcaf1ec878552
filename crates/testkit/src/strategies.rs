//! proptest strategies shared by the property tests: rules and match results.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
use rungs_ladder::event::MatchResult;
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;

/// Each system at its defaults or with one parameter changed (and a season calendar: see
/// [`calendar`]).
const TWEAKS: &[(System, &str)] = &[
    (System::Skyweaver, ""),
    (System::Skyweaver, "grandweaver_count=2"),
    (System::Skyweaver, "a=10"),
    (System::Inversus, ""),
    (System::Inversus, "days_per_period=3"),
    (System::Allegskill, ""),
    (System::Allegskill, "beta=3"),
    (System::Memoir44, ""),
    (System::Memoir44, "points=20"),
    (System::Elo, ""),
    (System::Elo, "k=16"),
    (System::Elo, "advantage=100"),
    (System::Skyweaver, "advantage=-80"),
    (System::Skyweaver, "c_per_day=3"),
    (System::Inversus, "advantage=120"),
    (System::Allegskill, "advantage=60"),
    (System::Memoir44, "advantage=50"),
];

/// Season calendars over the properties' windows of a few weeks in 2026: manual, weekly (the
/// Skyweaver white paper's: Mondays, monthly seasons), and short ones that pass many resets
/// and whole idle seasons.
fn calendar() -> impl Strategy<Value = Calendar> {
    let anchor = NaiveDate::from_ymd_opt(2026, 1, 3).expect("a date");
    let every = |soft_days, m| {
        Calendar::Scheduled(Schedule {
            soft_days,
            anchor,
            hard: HardResets::Every(m),
        })
    };
    prop_oneof![
        4 => Just(Calendar::Manual),
        1 => Just(Calendar::Scheduled(Schedule::default())),
        1 => Just(every(3, 2)),
        1 => Just(every(1, 5)),
        1 => Just(every(10, 1)),
        1 => Just(Calendar::Scheduled(Schedule {
            soft_days: 2,
            anchor,
            hard: HardResets::Monthly,
        })),
    ]
}

pub fn rules() -> impl Strategy<Value = Rules> {
    (prop::sample::select(TWEAKS), calendar()).prop_map(|((system, param), calendar)| {
        let mut rules = Rules::defaults(system);
        if !param.is_empty() {
            rules.assign(param).expect("a known parameter");
        }
        rules.calendar = calendar;
        rules
    })
}

/// Any result, wins and losses likeliest.
pub fn result() -> impl Strategy<Value = MatchResult> {
    prop_oneof![
        3 => Just(MatchResult::Played(Outcome::Win)),
        2 => Just(MatchResult::Played(Outcome::Draw)),
        3 => Just(MatchResult::Played(Outcome::Loss)),
        1 => Just(MatchResult::ForfeitA),
        1 => Just(MatchResult::ForfeitB),
        1 => Just(MatchResult::Cancelled),
    ]
}
