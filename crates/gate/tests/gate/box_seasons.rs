//! Box periods that follow the ladder's season calendar through the gate: the first period
//! must be a whole season, each close takes the next season, and a manual calendar is refused.

use chrono::NaiveDate;
use rungs_gate::formats::{formats, season_dates};
use rungs_gate::{Action, Context, apply};
use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
use rungs_ladder::event::{Entry, Event};
use rungs_ladder::formats::settings::BoxSettings;
use rungs_ladder::rules::{Rules, System};
use rungs_store::{Change, Store};

use rungs_testkit::TempDir;

fn date(m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, m, d).unwrap()
}

/// Six players on 1 January 2026 in a ladder under `calendar`.
fn ladder(dir: &TempDir, calendar: Calendar) -> Store {
    let mut rules = Rules::defaults(System::Elo);
    rules.calendar = calendar;
    let mut store = Store::create(&dir.0.join("club.rungs"), &rules).unwrap();
    let joins: Vec<(NaiveDate, Entry)> = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"]
        .iter()
        .enumerate()
        .map(|(id, n)| {
            let event = Event::Player {
                id: id as u32,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            };
            (date(1, 1), Entry::Add { event })
        })
        .collect();
    store.commit(&Change::new("joins", joins).unwrap()).unwrap();
    store
}

/// A soft reset every Monday from Monday 5 January 2026, a hard reset every fourth.
fn four_weeks() -> Calendar {
    Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor: date(1, 5),
        hard: HardResets::Every(4),
    })
}

fn seasons() -> BoxSettings {
    BoxSettings {
        box_size: 3,
        seasons: true,
        ..BoxSettings::default()
    }
}

#[test]
fn each_close_takes_the_next_four_week_season() {
    let dir = TempDir::new("gate-box-seasons");
    let mut store = ladder(&dir, four_weeks());
    let today = date(11, 1);
    // Hard resets 28 days apart from 5 January: 2 February (26 days left of January, then 2),
    // 2 March (February 2026 has 28 days), 30 March, 27 April (1 day left of March, then 27).
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, "club.rungs", today);
    assert_eq!(
        season_dates(&ctx, date(2, 10)).unwrap(),
        (date(2, 2), date(3, 1))
    );
    // The hard reset's own day starts its season; the day before it ends the one before.
    assert_eq!(
        season_dates(&ctx, date(3, 2)).unwrap(),
        (date(3, 2), date(3, 29))
    );
    assert_eq!(
        season_dates(&ctx, date(3, 1)).unwrap(),
        (date(2, 2), date(3, 1))
    );
    let f = formats(&store, today).unwrap();
    // Dates that are not the season's own are refused, naming the season.
    let wrong = Action::start_boxes(&ctx, &f, seasons(), &[], date(2, 10), date(3, 1));
    let words = wrong.unwrap_err().to_string();
    assert!(words.contains("2026-02-02 to 2026-03-01"), "{words}");
    let start = Action::start_boxes(&ctx, &f, seasons(), &[], date(2, 2), date(3, 1)).unwrap();
    apply(&mut store, &start).unwrap();
    let mut seen = Vec::new();
    for close_on in [date(3, 1), date(3, 29)] {
        let ladder = store.ladder().unwrap();
        let ctx = Context::new(&ladder, "club.rungs", today);
        let f = formats(&store, close_on).unwrap();
        let (act, next) = Action::close_period(&ctx, &f, None, None, close_on).unwrap();
        assert!(next.record.settings.seasons);
        seen.push((next.record.number, next.record.start, next.record.end));
        apply(&mut store, &act).unwrap();
    }
    assert_eq!(
        seen,
        [(2, date(3, 2), date(3, 29)), (3, date(3, 30), date(4, 26))]
    );
    // A first day given: the period starts on it and ends with that day's season (1 May falls
    // in 27 April's, which ends the day before 25 May: 27 April + 28 days).
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, "club.rungs", today);
    let f = formats(&store, date(4, 26)).unwrap();
    let (_, next) = Action::close_period(&ctx, &f, Some(date(5, 1)), None, date(4, 26)).unwrap();
    assert_eq!(
        (next.record.start, next.record.end),
        (date(5, 1), date(5, 24))
    );
}

#[test]
fn a_monthly_calendar_gives_seasons_from_first_monday_to_first_monday() {
    let dir = TempDir::new("gate-box-seasons-monthly");
    let store = ladder(&dir, Calendar::Scheduled(Schedule::default()));
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, "club.rungs", date(11, 1));
    // Mondays, a hard reset at each month's first: March 2026's first Monday is the 2nd (the
    // 1st is a Sunday), April's the 6th, so 10 March's season runs 2 March to 5 April.
    assert_eq!(
        season_dates(&ctx, date(3, 10)).unwrap(),
        (date(3, 2), date(4, 5))
    );
}

#[test]
fn a_manual_calendar_has_no_seasons_to_follow() {
    let dir = TempDir::new("gate-box-seasons-manual");
    let store = ladder(&dir, Calendar::Manual);
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, "club.rungs", date(11, 1));
    let words = season_dates(&ctx, date(3, 10)).unwrap_err().to_string();
    assert!(words.contains("calendar is manual"), "{words}");
    let f = formats(&store, date(11, 1)).unwrap();
    let refused = Action::start_boxes(&ctx, &f, seasons(), &[], date(3, 1), date(3, 31));
    let words = refused.unwrap_err().to_string();
    assert!(words.contains("calendar is manual"), "{words}");
}
