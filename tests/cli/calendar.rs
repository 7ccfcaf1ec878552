//! The season calendar: scheduled resets replay exactly as the buttons pressed on
//! their dates, a `rules` event turns the calendar on, off or changes it, eq. 1's RD grows by
//! the calendar weeks a player sits idle, the store's caches, previews, undo and markers
//! follow, and the command line sets the calendar and says where the ladder stands.

use chrono::{Days, NaiveDate};
use rungs_chart::{LogIndex, MarkerKind, PlayerSeries, RowKind, XMode};
use rungs_gate::{self as action, Action, Context};
use rungs_ladder::calendar::{Calendar, HardResets, SCHEDULED_SEQ, Schedule};
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, replay};
use rungs_ladder::rules::{Params, Rules, System};
use rungs_ladder::seasons;
use rungs_ladder::state::{HistoryRow, Skill};
use rungs_rating::Outcome;
use rungs_store::Store;
use std::process::Command;

use crate::support;
use support::TempDir;

/// Monday 2026-01-05, the first day of the logs below.
fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 5).unwrap() + Days::new(n)
}

fn join(id: PlayerId, name: &str) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
        undated: false,
    }
}

fn game(a: PlayerId, b: PlayerId, o: Outcome) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(o)))
}

/// Weekly soft resets on Mondays from 2026-01-05, every fourth also a hard reset.
fn four_week_seasons() -> Calendar {
    Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor: day(0),
        hard: HardResets::Every(4),
    })
}

fn with_calendar(calendar: Calendar) -> Rules {
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.assign("grandweaver_count=1").unwrap();
    rules.calendar = calendar;
    rules
}

/// Four players joining on day 0, then two matches a week for nine weeks (days 0 … 62, the
/// last week Monday 03-02 to Sunday 03-08), with results that move players across tiers.
fn nine_weeks() -> Vec<(NaiveDate, Event)> {
    let mut log: Vec<(NaiveDate, Event)> = ["Ann", "Bo", "Cy", "Di"]
        .iter()
        .zip(0..)
        .map(|(n, id)| (day(0), join(id, n)))
        .collect();
    let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)];
    for week in 0..9u64 {
        for (k, offset) in [1u64, 4].into_iter().enumerate() {
            let (a, b) = pairs[(2 * week as usize + k) % pairs.len()];
            let o = if (week + k as u64) % 3 == 2 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            log.push((day(7 * week + offset), game(a, b, o)));
        }
    }
    log
}

/// The reset days the calendar passes in [`nine_weeks`]: the Mondays of weeks 2 … 9, the
/// fourth and eighth (02-02, 03-02) also ending a season.
fn boundaries() -> Vec<(NaiveDate, bool)> {
    (1..=8u64).map(|k| (day(7 * k), k % 4 == 0)).collect()
}

/// `log` with sequence numbers 1, 2, … in its order (already by date).
fn numbered(log: &[(NaiveDate, Event)]) -> Vec<(NaiveDate, u64, Event)> {
    (1..)
        .zip(log)
        .map(|(s, (d, e))| (*d, s, e.clone()))
        .collect()
}

fn run(rules: &Rules, log: &[(NaiveDate, u64, Event)]) -> (Ladder, Vec<HistoryRow>) {
    replay(rules, log.iter().map(|(d, s, e)| (*d, *s, e))).unwrap()
}

/// The same log with the buttons pressed on the boundary days, first thing that day (soft,
/// then hard); returns it and the sequence numbers of the presses.
fn pressed(log: &[(NaiveDate, Event)], days: &[(NaiveDate, bool)]) -> Vec<(NaiveDate, Event)> {
    let mut out: Vec<(NaiveDate, Event)> = Vec::new();
    let mut pending = days.iter().peekable();
    for (d, e) in log {
        while let Some((b, hard)) = pending.next_if(|(b, _)| b <= d) {
            out.push((*b, Event::SoftReset));
            if *hard {
                out.push((*b, Event::HardReset));
            }
        }
        out.push((*d, e.clone()));
    }
    out
}

/// History rows with the reset presses' sequence numbers read as the calendar's (0), and the
/// others renumbered to their place among the log's own events.
fn comparable(rows: &[HistoryRow], log: &[(NaiveDate, u64, Event)]) -> Vec<HistoryRow> {
    let resets: Vec<u64> = log
        .iter()
        .filter(|(_, _, e)| matches!(e, Event::SoftReset | Event::HardReset))
        .map(|(_, s, _)| *s)
        .collect();
    rows.iter()
        .map(|r| {
            let seq = if resets.contains(&r.seq) {
                SCHEDULED_SEQ
            } else {
                r.seq - resets.iter().filter(|s| **s < r.seq).count() as u64
            };
            HistoryRow { seq, ..*r }
        })
        .collect()
}

#[test]
fn nine_weeks_give_eight_soft_and_two_hard_resets_as_the_buttons_would() {
    let log = nine_weeks();
    let (by_calendar, history) = run(&with_calendar(four_week_seasons()), &numbered(&log));
    let buttons = numbered(&pressed(&log, &boundaries()));
    assert_eq!(
        buttons.len(),
        log.len() + 10,
        "eight soft and two hard presses"
    );
    let (by_hand, hand_history) = run(&with_calendar(Calendar::Manual), &buttons);

    // The resets happened on the right days: two seasons archived, ended on 02-02 and
    // 03-02 after four weeks each; now season 3, week 1.
    let ended: Vec<(NaiveDate, u32)> = by_calendar
        .archive
        .iter()
        .map(|s| (s.ended, s.weeks))
        .collect();
    assert_eq!(ended, [(day(28), 4), (day(56), 4)]);
    assert_eq!((by_calendar.season, by_calendar.week), (3, 1));
    // Each scheduled reset records every player, at sequence number 0 on its day: a soft
    // and (on 02-02 and 03-02) a hard row each.
    let reset_days: Vec<NaiveDate> = history
        .iter()
        .filter(|r| r.seq == SCHEDULED_SEQ && r.player == 0)
        .map(|r| r.date)
        .collect();
    let mut expected = Vec::new();
    for (d, hard) in boundaries() {
        expected.push(d);
        if hard {
            expected.push(d);
        }
    }
    assert_eq!(reset_days, expected);

    // Exactly the buttons: every player, the archive, the counters, and the history.
    assert_eq!(by_calendar.players, by_hand.players);
    assert_eq!(by_calendar.archive, by_hand.archive);
    assert_eq!(
        (by_calendar.season, by_calendar.week, by_calendar.last_date),
        (by_hand.season, by_hand.week, by_hand.last_date)
    );
    assert_eq!(history, comparable(&hand_history, &buttons));
    // And the resets did something: each soft reset grew Ann's RD, each hard reset sent it
    // back to 350, and the season's archive holds her four end-of-week RP.
    let ann: Vec<&HistoryRow> = history.iter().filter(|r| r.player == 0).collect();
    for pair in ann.windows(2) {
        let (before, after) = (pair[0].figures.deviation, pair[1].figures.deviation);
        match (pair[1].seq == SCHEDULED_SEQ, pair[0].date == pair[1].date) {
            (true, true) => assert_eq!(after, 350.0, "the hard reset after the soft one"),
            (true, false) => assert!(after > before, "{before} → {after}"),
            _ => {}
        }
    }
    assert_eq!(by_calendar.archive[0].entries[0].weekly_rp.len(), 4);
}

#[test]
fn a_rules_event_turns_the_calendar_on_and_off() {
    // Manual until Wednesday 01-21, four-week seasons from then to Wednesday 02-18, manual
    // again after: the resets of 01-26, 02-02 (season end), 02-09 and 02-16 happen, and
    // no other.
    let log = nine_weeks();
    let mut on = with_calendar(four_week_seasons());
    let mut with_rules = log.clone();
    let at = |d: NaiveDate, v: &Vec<(NaiveDate, Event)>| v.partition_point(|(x, _)| *x <= d);
    let i = at(day(16), &with_rules);
    with_rules.insert(
        i,
        (
            day(16),
            Event::Rules {
                rules: Box::new(on.clone()),
            },
        ),
    );
    on.calendar = Calendar::Manual;
    let j = at(day(44), &with_rules);
    with_rules.insert(
        j,
        (
            day(44),
            Event::Rules {
                rules: Box::new(on.clone()),
            },
        ),
    );
    let (changed, _) = run(&with_calendar(Calendar::Manual), &numbered(&with_rules));
    let days = [
        (day(21), false),
        (day(28), true),
        (day(35), false),
        (day(42), false),
    ];
    let (by_hand, _) = run(
        &with_calendar(Calendar::Manual),
        &numbered(&pressed(&log, &days)),
    );
    assert_eq!(changed.players, by_hand.players);
    assert_eq!(changed.archive, by_hand.archive);
    assert_eq!(changed.archive.len(), 1);
    assert_eq!((changed.season, changed.week), (2, 3));
    assert!(changed.rules.calendar.is_manual());

    // The markers of the same log: the four scheduled resets (soft, soft, hard, soft, soft)
    // between the two rules changes.
    let events: Vec<Effective> = numbered(&with_rules)
        .into_iter()
        .map(|(date, seq, event)| Effective { date, seq, event })
        .collect();
    let index = LogIndex::new(&with_calendar(Calendar::Manual), &events);
    let scheduled: Vec<(NaiveDate, MarkerKind)> = index
        .markers()
        .iter()
        .filter(|m| m.scheduled)
        .map(|m| (m.date, m.kind))
        .collect();
    use MarkerKind::{HardReset as H, SoftReset as S};
    assert_eq!(
        scheduled,
        [
            (day(21), S),
            (day(28), S),
            (day(28), H),
            (day(35), S),
            (day(42), S)
        ]
    );
    assert_eq!(
        index.markers_at((day(28), SCHEDULED_SEQ))[1].label,
        "hard reset (season 1 ends) by the calendar"
    );
}

/// Ann's RD after her only match, by hand (Glickman's eq. 2–3 for two newcomers, r = 1500,
/// RD = 350, a win): q = ln 10/400; g(350) = 1/√(1 + 3q²·350²/π²) = 0.66907; E = ½;
/// d² = 1/(q²·g²·E·(1 − E)) = 269,650; RD' = √(1/(1/350² + 1/d²)) = 290.23.
fn rd_after_one_match() -> f64 {
    let q = 10f64.ln() / 400.0;
    let g = 1.0 / (1.0 + 3.0 * q * q * 350f64.powi(2) / std::f64::consts::PI.powi(2)).sqrt();
    let d2 = 1.0 / (q * q * g * g * 0.25);
    (1.0 / (1.0 / 350f64.powi(2) + 1.0 / d2)).sqrt()
}

fn deviation(ladder: &Ladder, id: PlayerId) -> f64 {
    match ladder.players[id as usize].skill {
        Skill::Glicko(r) => r.deviation,
        other => panic!("{other:?}"),
    }
}

#[test]
fn rd_grows_by_the_idle_calendar_weeks_as_eq_one_says() {
    let rd0 = rd_after_one_match();
    assert!((rd0 - 290.2305).abs() < 1e-4, "{rd0}");
    let c2 = 34.6f64 * 34.6; // c² = 1197.16
    // Ann and Bo play on Tuesday 01-06; Cy joins t weeks later (an event that passes the
    // resets, touching neither). Year-long seasons (every 52 resets), so no hard reset.
    let check = |soft_days: u32, weeks: u64, want: f64| {
        let calendar = Calendar::Scheduled(Schedule {
            soft_days,
            anchor: day(0),
            hard: HardResets::Every(52),
        });
        let log = numbered(&[
            (day(0), join(0, "Ann")),
            (day(0), join(1, "Bo")),
            (day(1), game(0, 1, Outcome::Win)),
            (day(1 + 7 * weeks), join(2, "Cy")),
        ]);
        let (ladder, _) = run(&with_calendar(calendar), &log);
        let rd = deviation(&ladder, 0);
        assert!((rd - want).abs() < 1e-9, "{soft_days} {weeks}: {rd} {want}");
        rd
    };
    // Weekly: t idle weeks are t periods. RD = √(290.2305² + 1197.16·t):
    // t = 1: √(84,233.7 + 1,197.2) = 292.29; t = 5: √(90,219.5) = 300.37;
    // t = 9: √(95,008.2) = 308.23.
    for (t, approx) in [(1u64, 292.29), (5, 300.37), (9, 308.23)] {
        let rd = check(7, t, (rd0 * rd0 + c2 * t as f64).sqrt());
        assert!((rd - approx).abs() < 0.01, "{t}: {rd}");
    }
    // Long enough and RD is back at its ceiling, 350 (t ≥ (350² − 84,233.7)/1,197.2 = 32.0).
    check(7, 40, 350.0);
    // A reset every 14 days rolls two weeks at a time: after 4 weeks (resets on 01-19 and
    // 02-02), t = 4; after 3 weeks only the 01-19 reset has passed, t = 2.
    check(14, 4, (rd0 * rd0 + c2 * 4.0).sqrt());
    check(14, 3, (rd0 * rd0 + c2 * 2.0).sqrt());
    // Manual: a pressed soft reset is one rating period, however long the wait (here 5
    // weeks): √(84,233.7 + 1,197.2) = 292.29.
    let log = numbered(&[
        (day(0), join(0, "Ann")),
        (day(0), join(1, "Bo")),
        (day(1), game(0, 1, Outcome::Win)),
        (day(36), Event::SoftReset),
    ]);
    let (ladder, _) = run(&with_calendar(Calendar::Manual), &log);
    assert!((deviation(&ladder, 0) - (rd0 * rd0 + c2).sqrt()).abs() < 1e-9);
}

/// A store, its directory, and the gate's context for actions dated by hand.
struct Club {
    store: Store,
    _dir: TempDir,
}

impl Club {
    fn new(tag: &str, rules: &Rules) -> Club {
        let _dir = TempDir::new(tag);
        let store = action::files::create(&_dir.0.join("club.rungs"), rules).unwrap();
        Club { store, _dir }
    }

    fn act(&mut self, build: impl FnOnce(&mut Context<'_>) -> Action) {
        let ladder = self.store.ladder().unwrap();
        let mut ctx = Context::new(&ladder, "club.rungs", day(400));
        let act = build(&mut ctx);
        // What the preview shows is what lands.
        let (_, previewed) = action::preview(&self.store, &act).unwrap();
        action::apply(&mut self.store, &act).unwrap();
        assert_eq!(self.store.ladder().unwrap(), previewed);
    }

    /// The caches equal a replay from scratch.
    fn fresh(&self) -> Ladder {
        let (ladder, mut history) = self.store.replay(None).unwrap();
        history.sort_by_key(|r| (r.date, r.seq, r.player));
        assert_eq!(self.store.ladder().unwrap(), ladder);
        assert_eq!(self.store.cached_history().unwrap(), history);
        ladder
    }
}

fn add_match(ctx: &mut Context<'_>, a: &str, b: &str, d: NaiveDate) -> Action {
    let input = action::matches::MatchInput {
        a: a.into(),
        b: b.into(),
        result: "1".into(),
        date: Some(d.to_string()),
        ..Default::default()
    };
    Action::add_match(ctx, &input).unwrap()
}

#[test]
fn the_store_previews_applies_and_undoes_scheduled_resets() {
    let mut club = Club::new("store", &with_calendar(four_week_seasons()));
    club.act(|ctx| {
        Action::add_players(ctx, &["Ann", "Bo", "Cy", "Di"], Some(&day(0).to_string())).unwrap()
    });
    club.act(|ctx| add_match(ctx, "Ann", "Bo", day(1)));
    club.act(|ctx| add_match(ctx, "Cy", "Di", day(2)));
    // Three weeks on, a match between two players passes three resets: the append path
    // must rewrite every player (Cy and Di's RD grew too), exactly as a replay does.
    club.act(|ctx| add_match(ctx, "Ann", "Bo", day(22)));
    let ladder = club.fresh();
    assert_eq!(ladder.week, 4);
    let di = club.store.history(3).unwrap();
    assert_eq!(di.iter().filter(|r| r.seq == SCHEDULED_SEQ).count(), 3);
    // A match passing the season's end archives it.
    club.act(|ctx| add_match(ctx, "Cy", "Di", day(29)));
    assert_eq!(club.fresh().archive.len(), 1);
    // Undo takes the match back, and with it the resets it brought about.
    club.store.undo().unwrap();
    let ladder = club.fresh();
    assert_eq!(
        (ladder.archive.len(), ladder.season, ladder.week),
        (0, 1, 4)
    );
    // A match backdated before the others' resets: the rebuild rewrites them.
    club.act(|ctx| add_match(ctx, "Di", "Ann", day(9)));
    club.fresh();
    // Deleting the last match removes the resets only it had passed (and their rows, for
    // players whose last row is such a reset).
    let last = club.store.latest_events(1).unwrap().remove(0);
    club.act(|ctx| Action::delete_event(ctx, &last).unwrap());
    let ladder = club.fresh();
    assert_eq!(
        ladder.week, 2,
        "only the reset of 01-12, which the day-9 match passed"
    );
    // A rules event changes the calendar from its date on; undone, the old one is back.
    let mut fortnightly = with_calendar(Calendar::Manual);
    fortnightly.calendar = Calendar::Scheduled(Schedule {
        soft_days: 14,
        anchor: day(0),
        hard: HardResets::Monthly,
    });
    let in_force = club.store.rules_on(day(10)).unwrap();
    club.act(|ctx| {
        Action::change_rules(ctx, fortnightly, &in_force, Some(&day(10).to_string())).unwrap()
    });
    club.act(|ctx| add_match(ctx, "Bo", "Cy", day(30)));
    // From day 10: resets on 01-19 (day 14) and 02-02 (day 28, February's first: hard).
    let ladder = club.fresh();
    assert_eq!(
        (ladder.season, ladder.week, ladder.archive.len()),
        (2, 1, 1)
    );
    club.store.undo().unwrap();
    club.store.undo().unwrap();
    assert_eq!(club.fresh().rules.calendar, four_week_seasons());
}

#[test]
fn history_plots_mark_scheduled_resets_on_each_row() {
    let log = numbered(&nine_weeks());
    let rules = with_calendar(four_week_seasons());
    let (_, history) = run(&rules, &log);
    let events: Vec<Effective> = log
        .into_iter()
        .map(|(date, seq, event)| Effective { date, seq, event })
        .collect();
    let index = LogIndex::new(&rules, &events);
    assert_eq!(index.markers().len(), 10);
    let ann: Vec<HistoryRow> = history.iter().filter(|r| r.player == 0).copied().collect();
    let series = PlayerSeries::new(&ann, &index, XMode::Date);
    let kinds: Vec<RowKind> = series
        .points
        .iter()
        .filter(|p| p.row.date == day(28))
        .map(|p| p.kind)
        .collect();
    // On 02-02: the soft reset's row, the hard reset's, then Ann's match that day (none).
    assert_eq!(
        kinds,
        [
            RowKind::Marked(MarkerKind::SoftReset),
            RowKind::Marked(MarkerKind::HardReset)
        ]
    );
    let i = series
        .points
        .iter()
        .position(|p| p.row.date == day(28))
        .unwrap();
    let text = series.readout(i + 1, None).unwrap();
    assert!(
        text.starts_with("2026-02-02 · by the calendar · hard reset · RP "),
        "{text}"
    );
}

/// `rungs ARGS`: (success, stdout, stderr).
fn rungs(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, out, err) = rungs(args);
    assert!(success, "rungs {args:?}: {err}");
    out
}

#[test]
fn the_command_line_sets_the_calendar_and_says_where_the_ladder_stands() {
    let dir = TempDir::new("cli");
    let f = dir.0.join("club.rungs").display().to_string();
    let out = ok(&["new", &f, "--calendar", "weekly"]);
    assert!(out.contains("a soft reset every Monday"), "{out}");
    ok(&["add-player", &f, "Ann", "Bo", "--date", "2026-11-02"]);
    // Monday 11-02 … a match on Friday 11-06 and one on Wednesday 11-18 pass the resets of
    // 11-09 and 11-16; December's first Monday (12-07) ends the season.
    ok(&["add-match", &f, "Ann", "Bo", "1", "--date", "2026-11-06"]);
    ok(&["add-match", &f, "Bo", "Ann", "1", "--date", "2026-11-18"]);
    let text = ok(&["standings", &f, "--at", "2026-11-20"]);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with(
            "season 1, week 3 · next reset Monday 2026-11-23 (soft); the season ends 2026-12-07"
        ),
        "{first}"
    );
    let events = ok(&["events", &f]);
    assert!(
        events.contains("       —  2026-11-09  soft reset, by the calendar"),
        "{events}"
    );
    // Fortnightly from a Wednesday, seasons of three resets counted from it (the anchor's
    // own reset ends a season).
    ok(&[
        "rules",
        &f,
        "--soft-every",
        "14",
        "--hard-every",
        "3",
        "--anchor",
        "2026-11-25",
        "--date",
        "2026-11-20",
    ]);
    let seasons = ok(&["standings", &f, "--at", "2026-11-20"]);
    assert!(
        seasons.contains("next reset Wednesday 2026-11-25 (soft and hard) · calendar: a soft reset every 14 days from 2026-11-25, a hard reset every 3 soft resets"),
        "{seasons}"
    );
    // Back to the buttons.
    ok(&["rules", &f, "--calendar", "manual", "--date", "2026-11-21"]);
    let manual = ok(&["standings", &f]);
    assert!(
        manual.lines().next().unwrap().contains("buttons only"),
        "{manual}"
    );

    // Bad values are refused, naming the field and the range; nothing changes.
    let before = ok(&["standings", &f, "--json"]);
    for (args, needle) in [
        (
            &["--soft-every", "0"][..],
            "`soft-every`: `0` is not a whole number from 1 to 366",
        ),
        (&["--soft-every", "367"], "from 1 to 366"),
        (&["--soft-every", "1e308"], "soft-every"),
        (
            &["--hard-every", "53"],
            "`hard-every`: `53` is not a whole number from 1 to 52",
        ),
        (&["--hard-every", "-1"], "hard-every"),
        (&["--anchor", "10000-01-01"], "`anchor`"),
        (&["--anchor", "2026-02-30"], "`anchor`"),
        (
            &["--calendar", "yearly"],
            "`calendar`: `yearly` is not a calendar",
        ),
        (
            &["--calendar", "manual", "--soft-every", "7"],
            "`soft-every`",
        ),
    ] {
        let mut full = vec!["rules", f.as_str()];
        full.extend_from_slice(args);
        let (success, _, err) = rungs(&full);
        assert!(!success && err.contains(needle), "{args:?}: {err}");
        assert!(err.contains("club.rungs"), "{err}");
    }
    assert_eq!(ok(&["standings", &f, "--json"]), before);
    let (success, _, err) = rungs(&[
        "new",
        &dir.0.join("x.rungs").display().to_string(),
        "--soft-every",
        "0",
    ]);
    assert!(!success && err.contains("soft-every"), "{err}");
}

#[test]
fn a_log_with_a_bad_calendar_is_refused_by_line() {
    let dir = TempDir::new("jsonl");
    let path = dir.0.join("bad.jsonl");
    let header = r#"{"rungs_log":1,"rules":{"system":"skyweaver","params":{},"calendar":{"scheduled":{"soft_days":0,"anchor":"2026-01-05","hard":"monthly"}}}}"#;
    std::fs::write(&path, format!("{header}\n")).unwrap();
    let out = dir.0.join("new.rungs").display().to_string();
    let (success, _, err) = rungs(&["import-log", &out, &path.display().to_string()]);
    assert!(!success, "{err}");
    assert!(
        err.contains("line 1") && err.contains("soft_every"),
        "{err}"
    );
}

#[test]
fn the_stored_form_of_a_calendar_reads_back() {
    let rules = with_calendar(four_week_seasons());
    let text = serde_json::to_string(&rules).unwrap();
    assert!(
        text.ends_with(
            r#""calendar":{"scheduled":{"soft_days":7,"anchor":"2026-01-05","hard":{"every":4}}}}"#
        ),
        "{text}"
    );
    assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), rules);
    // Older rules have none: manual.
    let old: Rules = serde_json::from_str(r#"{"system":"elo","params":{"k":20}}"#).unwrap();
    assert!(old.calendar.is_manual());
    assert!(matches!(old.params, Params::Elo(_)));
    // The status of a ladder nobody has played: its own counters.
    let status = seasons::calendar_status(&Ladder::new(rules), day(3));
    assert_eq!((status.season, status.week, status.pending), (1, 1, 0));
    assert_eq!(status.next.map(|r| r.date), Some(day(7)));
}

#[test]
fn the_demo_spreads_over_the_tiers_and_archives_world_cup_cycles() {
    use rungs_interchange::csv_matches::{Mapping, MatchReader};
    use rungs_ladder::skyweaver::Tier;
    let dir = TempDir::new("demo");
    let rules = action::imports::demo_rules();
    assert_eq!(rules.check(), Ok(()));
    let mut store = action::files::create(&dir.0.join("demo.rungs"), &rules).unwrap();
    let gz = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/international_results.csv.gz"
    );
    let reader = MatchReader::new(
        flate2::read::MultiGzDecoder::new(std::fs::File::open(gz).unwrap()),
        "international_results.csv",
        &Mapping::international(),
    )
    .unwrap();
    let summary = action::imports::import_csv(
        &mut store,
        reader,
        "international_results.csv",
        true,
        false,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(summary.matches, 49_520);
    let ladder = store.ladder().unwrap();
    let rows = rungs_ladder::standings::standings(&ladder);
    let listed: Vec<Tier> = rows
        .iter()
        .filter(|s| s.listed())
        .filter_map(|s| s.tier)
        .collect();
    // Only the top N = 10 Masters are Grandweavers, and the teams spread over the tiers.
    let grandweavers = listed.iter().filter(|t| **t == Tier::Grandweaver).count();
    assert!((1..=10).contains(&grandweavers), "{grandweavers}");
    let mut tiers = listed.clone();
    tiers.sort();
    tiers.dedup();
    assert!(tiers.len() >= 6, "{tiers:?}");
    // Real seasons: World Cup cycles of four yearly soft resets, the last one ended on
    // 2022-08-02 (365-day steps back from 2026-08-01, one day later per leap year).
    let last = ladder.archive.last().unwrap();
    assert_eq!(
        (last.ended, last.weeks),
        (NaiveDate::from_ymd_opt(2022, 8, 2).unwrap(), 4)
    );
    assert!(ladder.archive.len() >= 30, "{}", ladder.archive.len());
    // The 2026 cycle's end is due (the last match is the final on 2026-07-19): on the
    // demo's first day, 2026-11-23, the status says so.
    let status = seasons::calendar_status(&ladder, NaiveDate::from_ymd_opt(2026, 11, 23).unwrap());
    assert_eq!(status.pending, 1);
    assert_eq!(
        status.next.map(|r| r.date),
        NaiveDate::from_ymd_opt(2027, 8, 1)
    );
}

#[test]
fn the_replay_timeline_steps_by_calendar_weeks() {
    use rungs_ladder::timeline::Timeline;
    let events: Vec<Effective> = numbered(&nine_weeks())
        .into_iter()
        .map(|(date, seq, event)| Effective { date, seq, event })
        .collect();
    let rules = with_calendar(four_week_seasons());
    let timeline = Timeline::build(&rules, events, &mut |_| true).unwrap();
    // Four joins, then two matches a week: each week's second match (events 6, 8, … 20)
    // is the last before a scheduled reset.
    let ends: Vec<usize> = (3..=10).map(|w| 2 * w).collect();
    assert_eq!(timeline.period_ends(), &ends[..]);
    // A step from the end of week 1 (event 6) lands at the end of week 2 (event 8): the
    // ladder there has had the reset between them (applied with week 2's first match).
    let after = timeline.at(timeline.next_period(6)).unwrap();
    assert_eq!((after.season, after.week), (1, 2));
}

#[test]
fn simulate_leaves_the_calendar_to_its_own_buttons() {
    let dir = TempDir::new("sim");
    let out = dir.0.join("sim.rungs").display().to_string();
    let (success, _, err) = rungs(&[
        "simulate",
        "--players",
        "4",
        "--weeks",
        "1",
        "--matches-per-week",
        "4",
        "--calendar",
        "weekly",
        &out,
    ]);
    assert!(
        !success && err.contains("presses the soft and hard reset buttons itself"),
        "{err}"
    );
    assert!(!std::path::Path::new(&out).exists());
}

/// Prediction quality on a calendar ladder scores each match from the ratings that rate it:
/// the resets due before a match apply before it is predicted, exactly as on the same log
/// with the buttons pressed on the reset days. So evaluate scores both logs alike, match for
/// match, and a fit of c finds the same value on both. (Before, the calendar ladder's
/// matches after each reset were predicted from the week before's ratings, RD not grown and
/// the season's end not applied: a different log-loss, and a different c.)
#[test]
fn evaluate_and_fit_score_a_calendar_ladder_as_its_buttons_pressed() {
    use rungs_analysis::evaluate::{Window, evaluate_in};
    use rungs_analysis::fit;
    let log = nine_weeks();
    let by_calendar = numbered(&log);
    let buttons = numbered(&pressed(&log, &boundaries()));
    let (calendar_rules, manual_rules) = (
        with_calendar(four_week_seasons()),
        with_calendar(Calendar::Manual),
    );
    let score = |rules: &Rules, log: &[(NaiveDate, u64, Event)]| {
        evaluate_in(
            rules,
            log.iter().map(|(d, s, e)| (*d, *s, e)),
            Window::ALL,
            &mut |_| true,
        )
        .unwrap()
    };
    let (a, b) = (
        score(&calendar_rules, &by_calendar),
        score(&manual_rules, &buttons),
    );
    assert_eq!((a.matches, b.matches), (18, 18));
    assert!(
        (a.log_loss - b.log_loss).abs() < 1e-12,
        "log-loss {} by the calendar, {} by the buttons",
        a.log_loss,
        b.log_loss
    );
    assert!((a.brier - b.brier).abs() < 1e-12);
    assert_eq!(a.calibration, b.calibration);
    let effective = |log: &[(NaiveDate, u64, Event)]| -> Vec<Effective> {
        log.iter()
            .map(|(date, seq, event)| Effective {
                date: *date,
                seq: *seq,
                event: event.clone(),
            })
            .collect()
    };
    let until = day(50);
    let fit_c = |rules: &Rules, log: &[(NaiveDate, u64, Event)]| {
        fit::fit(rules, &["c"], &effective(log), until, &mut |_, _| true).unwrap()
    };
    let (fa, fb) = (
        fit_c(&calendar_rules, &by_calendar),
        fit_c(&manual_rules, &buttons),
    );
    assert_eq!(fa.params[0].fitted, fb.params[0].fitted);
    assert!((fa.fitted.train.log_loss - fb.fitted.train.log_loss).abs() < 1e-12);
}

/// A fit's "defaults" are the system's default parameters on this ladder: its season
/// calendar and side advantage kept, as a change of system keeps them. On a calendar ladder
/// the defaults are scored with the resets (before, `Rules::defaults` dropped the calendar
/// and the defaults looked better or worse only for having no resets).
#[test]
fn a_fits_defaults_keep_the_ladders_calendar_and_side_advantage() {
    use rungs_analysis::evaluate::{Window, evaluate_in};
    use rungs_analysis::fit;
    let log = numbered(&nine_weeks());
    let mut start = Rules::defaults(System::Skyweaver);
    start.calendar = four_week_seasons();
    start.assign("advantage=40").unwrap();
    let effective: Vec<Effective> = log
        .iter()
        .map(|(date, seq, event)| Effective {
            date: *date,
            seq: *seq,
            event: event.clone(),
        })
        .collect();
    let until = day(50);
    let f = fit::fit(&start, &["c"], &effective, until, &mut |_, _| true).unwrap();
    let train = |rules: &Rules| {
        evaluate_in(
            rules,
            log.iter().map(|(d, s, e)| (*d, *s, e)),
            Window::until(until),
            &mut |_| true,
        )
        .unwrap()
        .log_loss
    };
    let kept = start.defaults_for(System::Skyweaver);
    assert_eq!(kept.calendar, start.calendar);
    assert_eq!(f.defaults.train.log_loss, train(&kept));
    assert_ne!(
        f.defaults.train.log_loss,
        train(&Rules::defaults(System::Skyweaver)),
        "the calendar and advantage change the score, so the comparison can tell"
    );
}
