//! Box periods that follow the ladder's season calendar, through the real binary:
//! `start-boxes --seasons` takes the season holding its day, each `close-period` the next
//! season, and a ladder whose calendar is manual is refused in words, nothing changed.

use crate::support::cli as cli_support;
use cli_support::{Dir, assert_mentions};

/// A ladder with a soft reset every Monday from Monday 5 January 2026 and a hard reset every
/// fourth, so each season is four weeks; six players from 1 January.
fn four_week_seasons(dir: &Dir) -> &'static str {
    let f = "club.rungs";
    dir.ok(&[
        "new",
        f,
        "--system",
        "elo",
        "--soft-every",
        "7",
        "--hard-every",
        "4",
        "--anchor",
        "2026-01-05",
    ]);
    dir.ok(&[
        "add-player",
        f,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "Eve",
        "Fay",
        "--date",
        "2026-01-01",
    ]);
    f
}

fn period(dir: &Dir, f: &str) -> (u64, String, String) {
    let v: serde_json::Value = serde_json::from_str(&dir.ok(&["boxes", f, "--json"])).unwrap();
    (
        v["period"].as_u64().unwrap(),
        v["start"].as_str().unwrap().to_string(),
        v["end"].as_str().unwrap().to_string(),
    )
}

#[test]
fn box_periods_follow_four_week_seasons() {
    let dir = Dir::new("box-seasons");
    let f = four_week_seasons(&dir);
    // Hard resets every 28 days from 5 January 2026: 5 Jan + 28 = 2 Feb (31 − 5 = 26 days to
    // the end of January, 2 more); 2 Feb + 28 = 2 Mar (February 2026 has 28 days); 2 Mar + 28 =
    // 30 Mar; 30 Mar + 28 = 27 Apr (1 day to the end of March, 27 more). 10 February falls in
    // the season from 2 February to the day before 2 March, 1 March.
    dir.ok(&[
        "start-boxes",
        f,
        "--seasons",
        "--start",
        "2026-02-10",
        "--box-size",
        "3",
        "--order",
        "Ann,Bo,Cy,Di,Eve,Fay",
    ]);
    assert_eq!(
        period(&dir, f),
        (1, "2026-02-02".into(), "2026-03-01".into())
    );
    // Closed: the next season, 2 March to the day before 30 March.
    let preview = dir.ok(&[
        "close-period",
        f,
        "--preview",
        "--json",
        "--date",
        "2026-03-01",
    ]);
    let p: serde_json::Value = serde_json::from_str(&preview).unwrap();
    assert_eq!(
        (&p["start"], &p["end"]),
        (&"2026-03-02".into(), &"2026-03-29".into())
    );
    dir.ok(&["close-period", f, "--date", "2026-03-01"]);
    assert_eq!(
        period(&dir, f),
        (2, "2026-03-02".into(), "2026-03-29".into())
    );
    // And again: 30 March to the day before 27 April.
    dir.ok(&["close-period", f, "--date", "2026-03-29"]);
    assert_eq!(
        period(&dir, f),
        (3, "2026-03-30".into(), "2026-04-26".into())
    );
    // The setting is in the log: exported and loaded, the next close keeps to the seasons
    // (27 April + 28 = 25 May: 3 days to the end of April, 25 more).
    dir.ok(&["check", f]);
    dir.ok(&["export", f, "log.jsonl"]);
    dir.ok(&["import-log", "copy.rungs", "log.jsonl"]);
    dir.ok(&["close-period", "copy.rungs", "--date", "2026-04-26"]);
    assert_eq!(
        period(&dir, "copy.rungs"),
        (4, "2026-04-27".into(), "2026-05-24".into())
    );
}

#[test]
fn seasons_on_a_manual_calendar_are_refused_in_words() {
    let dir = Dir::new("box-seasons-manual");
    let f = dir.ladder();
    let m = dir.fails_unchanged(f, &["start-boxes", f, "--seasons", "--start", "2026-03-01"]);
    assert_mentions(
        &m,
        &[
            f,
            "calendar is manual",
            "give --start and --end instead",
            "rungs rules club.rungs --calendar weekly",
        ],
    );
    // The season gives the last day: --end cannot come with --seasons.
    let m = dir.fails_unchanged(
        f,
        &[
            "start-boxes",
            f,
            "--seasons",
            "--start",
            "2026-03-01",
            "--end",
            "2026-03-31",
        ],
    );
    assert_mentions(&m, &[f, "2026-03-31", "cannot come with --seasons"]);
}

#[test]
fn a_season_past_the_year_9999_is_refused() {
    let dir = Dir::new("box-seasons-far");
    let f = four_week_seasons(&dir);
    // The season holding 20 December 9999 would end in the year 10000.
    let m = dir.fails_unchanged(f, &["start-boxes", f, "--seasons", "--start", "9999-12-20"]);
    assert_mentions(&m, &[f, "9999-12-20", "no whole season", "9999-12-31"]);
}
