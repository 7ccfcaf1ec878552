//! The app's follow-ups to the gate: the status bar says where the season
//! calendar stands; switching systems keeps the ladder's calendar and side advantage; an
//! older demo is rebuilt, a current one opened as it is; the same bad input gives the same
//! refusal from the app as from the command line, each in its own words.

use chrono::NaiveDate;
use eframe::egui::{self, accesskit::Role};
use egui_kittest::kittest::Queryable;
use rungs_app::command::Command;
use rungs_gate as action;
use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::seasons::calendar_status;
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::{Path, PathBuf};

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// A soft reset every Monday from 2026-01-05, a hard one every fourth.
fn weekly() -> Calendar {
    Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor: day(2026, 1, 5),
        hard: HardResets::Every(4),
    })
}

/// A ladder file at `path` under `rules`: Ann and Bo, and Ann beating Bo on 2026-01-06.
fn ladder_file(path: &Path, rules: &Rules) {
    let mut store = Store::create(path, rules).unwrap();
    let join = |id: u32, name: &str| Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    };
    let rows = [
        (day(2026, 1, 5), join(0, "Ann")),
        (day(2026, 1, 5), join(1, "Bo")),
        (
            day(2026, 1, 6),
            Entry::Add {
                event: Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win))),
            },
        ),
    ];
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
}

const WIDE: egui::Vec2 = egui::vec2(1400.0, 900.0);

#[test]
fn the_status_bar_says_where_the_season_calendar_stands() {
    let dir = Temp::new("status-calendar");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: weekly(),
        ..Rules::default()
    };
    ladder_file(&path, &rules);
    let ladder = Store::open(&path).unwrap().ladder().unwrap();
    let line = calendar_status(&ladder, action::today()).line();
    assert!(line.contains("next reset Monday"), "{line}");
    let h = app_support::open(&path, WIDE);
    let status = format!("club.rungs · Skyweaver · {line} · 3 events · 2 players · saved");
    assert!(
        h.query_by_label(&status).is_some(),
        "the status bar reads `{status}`"
    );
    // At 560×420 the whole line took more than two lines and was cut, hiding the counts and
    // "saved": the calendar says its season and week only (the rest on hover), in two lines.
    let h = app_support::open(&path, egui::vec2(560.0, 420.0));
    let status = calendar_status(&ladder, action::today());
    let short = match status.pending {
        0 => format!("season {}, week {}", status.season, status.week),
        n => format!(
            "season {}, week {} ({n} reset{} due)",
            status.season,
            status.week,
            if n == 1 { "" } else { "s" }
        ),
    };
    let text = format!("club.rungs · Skyweaver · {short} · 3 events · 2 players · saved");
    let bar = h
        .query_by_label(&text)
        .unwrap_or_else(|| panic!("at 560×420 the status bar reads `{text}`"));
    assert!(
        bar.rect().height() <= 40.0,
        "two lines at most: {:?}",
        bar.rect()
    );
}

/// Settings and What-if start another system from its defaults, but the calendar and the side
/// advantage are the ladder's: both stay.
#[test]
fn switching_systems_keeps_the_calendar_and_the_side_advantage() {
    let dir = Temp::new("switch-system");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: weekly(),
        advantage: 60.0,
        ..Rules::default()
    };
    ladder_file(&path, &rules);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "What-if");
    click(&mut h, "Replay under B");
    h.state_mut().wait_for_job();
    h.run();
    let cmp = h.state().state.tools.comparison.as_ref().expect("compared");
    assert_eq!(cmp.rules.system(), System::Elo, "B is Elo at its defaults");
    assert_eq!((cmp.rules.calendar, cmp.rules.advantage), (weekly(), 60.0));
    click(&mut h, "Settings");
    h.get_by_role_and_label(Role::ComboBox, "System:").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "Elo").click();
    h.run();
    click(&mut h, "Preview change");
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let now = &s.ladder.rules;
    assert_eq!(now.system(), System::Elo);
    assert_eq!((now.calendar, now.advantage), (weekly(), 60.0));
}

/// A demo as an older rungs built it: under other rules (Elo), its whole log one import of
/// `international_results.csv` (here two matches of it).
fn older_demo(path: &Path) {
    use rungs_interchange::csv_matches::{Mapping, MatchReader};
    let mut store = action::files::create(path, &Rules::defaults(System::Elo)).unwrap();
    let csv = "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n\
               1872-11-30,Scotland,England,0,0,Friendly,Glasgow,Scotland,FALSE\n\
               1873-03-08,England,Scotland,4,2,Friendly,London,England,FALSE\n";
    let name = "international_results.csv";
    let reader = MatchReader::new(csv.as_bytes(), name, &Mapping::international()).unwrap();
    action::imports::import_csv(&mut store, reader, name, true, false, &mut |_| true).unwrap();
}

/// A demo left by an older rungs began under other rules: Open the demo ladder builds it again
/// (under a temporary name, then in its place — here while the old one is the open ladder);
/// a current demo opens as it is, with no job.
#[test]
fn an_older_demo_is_rebuilt_and_a_current_one_opened_as_it_is() {
    let dir = Temp::new("demo-rebuild");
    let data = dir.0.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let demo = data.join("demo-international.rungs");
    older_demo(&demo);
    let mut h = app_support::open_in(&data, &demo, WIDE, true);
    assert_eq!(
        h.state().state.ladder.players.len(),
        2,
        "the old demo is open"
    );
    let jobs = h.state().state.jobs_started;
    h.state_mut().apply(Command::OpenDemo);
    assert_eq!(h.state().state.jobs_started, jobs + 1, "built as a job");
    h.state_mut().wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(
        s.notice(),
        Some("opened the demo: international football 1872–2026")
    );
    assert_eq!(s.path(), Some(demo.as_path()));
    assert!(s.ladder.events > 49_000, "{} events", s.ladder.events);
    let built = Store::open(&demo).unwrap();
    assert_eq!(
        built.initial_rules().unwrap(),
        action::imports::demo_rules()
    );
    assert_eq!(built.ladder().unwrap().events, s.ladder.events);
    assert!(!demo.with_extension("partial").exists());
    drop(built);
    // Now current: it opens as it is.
    let club = dir.0.join("club.rungs");
    ladder_file(&club, &Rules::default());
    h.state_mut().apply(Command::Open(club.clone()));
    h.state_mut().apply(Command::OpenDemo);
    let s = &h.state().state;
    assert_eq!(s.jobs_started, jobs + 1, "no second build");
    assert_eq!(s.path(), Some(demo.as_path()));
}

/// Audit finding: Open the demo ladder rebuilt a demo that held the user's own match and
/// player whenever it was older, changed by another program, or locked — the log went from
/// three actions to one, and `check` called the result sound. Now a demo is built again only
/// when it is an older one nobody changed; one holding changes opens as it is, and one that
/// does not open says why (offering the repair) and stays as it was.
#[test]
fn open_the_demo_never_throws_away_changes_of_the_users() {
    let dir = Temp::new("demo-keep");
    let data = dir.0.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let demo = data.join("demo-international.rungs");
    older_demo(&demo);
    {
        let mut store = Store::open(&demo).unwrap();
        let rows = [(
            day(2026, 7, 25),
            Entry::Add {
                event: Event::Player {
                    id: 2,
                    name: rungs_ladder::values::PlayerName::parse("My Club").unwrap(),
                    undated: false,
                },
            },
        )];
        store
            .commit(&rungs_store::Change::new("added My Club", rows.to_vec()).unwrap())
            .unwrap();
    }
    let club = dir.0.join("club.rungs");
    ladder_file(&club, &Rules::default());
    let mut h = app_support::open_in(&data, &club, WIDE, true);
    let jobs = h.state().state.jobs_started;
    h.state_mut().apply(Command::OpenDemo);
    let s = &h.state().state;
    assert_eq!(s.jobs_started, jobs, "not built again");
    assert_eq!(s.path(), Some(demo.as_path()));
    assert!(
        s.player_id("My Club").is_some(),
        "the user's player is there"
    );
    assert!(
        s.notice()
            .unwrap_or_default()
            .contains("holds changes of yours"),
        "{:?}",
        s.notice()
    );
    // Changed behind rungs' back: the error offers the repair; the file is left as it is.
    h.state_mut().apply(Command::Open(club.clone()));
    rusqlite::Connection::open(&demo)
        .unwrap()
        .execute_batch("UPDATE cache_players SET state = json_set(state, '$.wins', 9) WHERE id = 0")
        .unwrap();
    let bytes = std::fs::read(&demo).unwrap();
    h.state_mut().apply(Command::OpenDemo);
    let s = &h.state().state;
    assert_eq!(s.jobs_started, jobs, "not built again");
    assert!(
        s.error()
            .unwrap_or_default()
            .contains("changed outside rungs"),
        "{:?}",
        s.error()
    );
    assert!(matches!(
        s.messages.current().map(|m| &m.offer),
        Some(rungs_app::messages::Offer::Repair(_))
    ));
    assert_eq!(s.path(), Some(club.as_path()), "the club stays open");
    assert_eq!(
        std::fs::read(&demo).unwrap(),
        bytes,
        "the demo is left alone"
    );
    let actions = Store::check(&demo).map(|_| ()).and_then(|()| {
        Store::repair(&demo)?;
        Store::open(&demo)?.actions()
    });
    assert_eq!(
        actions.unwrap().len(),
        2,
        "the import and the user's player"
    );
}

/// What `rungs ARGS…` on `file` says on stderr after `rungs: ` (it must refuse).
fn cli_error(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .output()
        .expect("the rungs binary runs");
    assert_eq!(out.status.code(), Some(1), "{args:?} is refused");
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    err.trim_end()
        .strip_prefix("rungs: ")
        .unwrap_or_else(|| panic!("`{err}` starts with `rungs: `"))
        .to_string()
}

/// The same bad input is refused by the app as by the command line, each in its own words:
/// the command line names the file and the field's code name, the app the field's label on
/// screen, and neither the file nor a `rungs` command.
#[test]
fn a_bad_name_or_date_is_refused_alike_in_each_doors_words() {
    let dir = Temp::new("same-message");
    let path = dir.0.join("club.rungs");
    ladder_file(&path, &Rules::default());
    let file: PathBuf = path.clone();
    let file = file.to_str().unwrap();
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Players");
    for name in ["Ann\u{200b}", "Korea, Republic"] {
        type_into(&mut h, "New player:", name);
        click(&mut h, "Add player");
        let cli = cli_error(&["add-player", file, name]);
        // "FILE: field `name`: `Korea, Republic` is not a name: it …"
        let (_, reason) = cli.split_once("` is not a name").expect("the reason");
        let app = h.state().state.error().expect("refused").to_string();
        assert!(
            app.starts_with("New player: “") && app.ends_with(reason),
            "app: {app}\ncli: {cli}"
        );
        assert!(!app.contains(file) && !app.contains("field `"), "{app}");
        assert!(
            h.query_by_label(&format!("Error: {app}")).is_some(),
            "the strip shows it"
        );
        assert_eq!(h.state().state.ladder.players.len(), 2, "nobody joined");
    }
    click(&mut h, "Enter match");
    type_into(&mut h, "Player A", "Ann");
    type_into(&mut h, "Player B", "Bo");
    click(&mut h, "Ann wins (1)");
    for date in ["2026-13-45", "10000-01-01"] {
        type_into(&mut h, "Date", date);
        let cli = cli_error(&["add-match", file, "Ann", "Bo", "1", "--date", date]);
        assert!(cli.contains("field `date`"), "{cli}");
        let (_, reason) = cli.split_once(&format!("`{date}` ")).expect("the reason");
        let app = format!("Date: “{date}” {reason}");
        assert!(
            h.query_by_label(&app).is_some(),
            "the form says `{app}` beside its disabled Save (cli: {cli})"
        );
    }
    assert_eq!(Store::open(&path).unwrap().ladder().unwrap().events, 3);
}

/// The command line switches systems by the same rule: `rungs rules --system` keeps the
/// ladder's calendar and side advantage.
#[test]
fn the_command_line_switches_systems_by_the_same_rule() {
    let dir = Temp::new("switch-cli");
    let path = dir.0.join("club.rungs");
    let file = path.to_str().unwrap();
    let rungs = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
            .args(args)
            .output()
            .expect("the rungs binary runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    rungs(&[
        "new",
        file,
        "--param",
        "advantage=60",
        "--soft-every",
        "7",
        "--anchor",
        "2026-01-05",
        "--hard-every",
        "4",
    ]);
    rungs(&["rules", file, "--system", "elo", "--date", "2026-01-10"]);
    let rules = Store::open(&path).unwrap().ladder().unwrap().rules;
    assert_eq!(rules.system(), System::Elo);
    assert_eq!((rules.calendar, rules.advantage), (weekly(), 60.0));
}

/// A ladder whose cached standings another program changed (Ann's wins set to 1000): the app
/// does not show them; its message offers the repair, and Repair rebuilds the caches from the
/// log and opens the ladder with Ann's one win.
#[test]
fn a_tampered_ladder_is_not_shown_and_the_repair_is_offered() {
    let dir = Temp::new("repair-offer");
    let tampered = dir.0.join("tampered.rungs");
    ladder_file(&tampered, &Rules::defaults(System::Elo));
    rusqlite::Connection::open(&tampered)
        .unwrap()
        .execute_batch("UPDATE cache_players SET state = json_set(state, '$.wins', 1000)")
        .unwrap();
    let other = dir.0.join("other.rungs");
    ladder_file(&other, &Rules::defaults(System::Elo));
    let mut h = app_support::open(&other, egui::vec2(1280.0, 860.0));
    h.state_mut().apply(Command::Open(tampered.clone()));
    h.run();
    let shown = h.state().state.path().map(Path::to_path_buf);
    assert_eq!(shown, Some(other.clone()), "the tampered ladder was opened");
    let error = h.state().state.error().unwrap_or_default().to_string();
    // The app's words: the file by name, the fix as the button beside it, no command.
    assert!(
        error.starts_with("tampered.rungs: ")
            && error.contains("Repair rebuilds them")
            && !error.contains("`rungs"),
        "{error}"
    );
    click(&mut h, "Repair");
    let s = &h.state().state;
    assert_eq!(s.path(), Some(tampered.as_path()), "{:?}", s.error());
    assert!(s.error().is_none(), "{:?}", s.error());
    let ann = s.ladder.players.iter().find(|p| p.name == "Ann").unwrap();
    assert_eq!((ann.wins, ann.matches), (1, 1));
    // The file itself checks clean now.
    assert!(rungs_store::Store::check(&tampered).unwrap().is_sound());
}

/// `rungs typo.rungs`: a file named on the command line (or by a double-click) that is not
/// there is said by name, and nothing is made (it became a new, empty Skyweaver ladder).
#[test]
fn a_named_file_that_is_not_there_is_said_not_made() {
    use rungs_app::state::AppState;
    let dir = Temp::new("typo");
    let typo = dir.0.join("clb.rungs");
    let state = AppState::open_named(dir.0.join("data"), &typo);
    assert!(state.store.is_none(), "no ladder open");
    let e = state.error().expect("an error showing");
    assert!(e.contains("clb.rungs") && e.contains("no such file"), "{e}");
    assert!(!typo.exists(), "nothing was made");
    // A file that is there opens.
    Store::create(&dir.0.join("club.rungs"), &Rules::default()).unwrap();
    let state = AppState::open_named(dir.0.join("data"), &dir.0.join("club.rungs"));
    assert!(state.store.is_some() && state.error().is_none());
}

/// A system file dialog that gives no file after a while — a person's cancel, or a portal that
/// starts and then fails — says so and offers rungs' own picker (it was taken as a cancel, and
/// nothing happened).
#[test]
fn a_dialog_that_gives_no_file_offers_the_own_picker() {
    use rungs_app::files::Purpose;
    let dir = Temp::new("slow-dialog");
    let path = dir.0.join("club.rungs");
    Store::create(&path, &Rules::default()).unwrap();
    let mut h = app_support::open_with(&path, egui::vec2(1280.0, 860.0), false);
    let (tx, rx) = std::sync::mpsc::channel();
    let started = std::time::Instant::now() - std::time::Duration::from_secs(3);
    h.state_mut()
        .state
        .picker
        .wait_on(Purpose::Open, rx, started);
    tx.send(None).unwrap();
    h.run();
    assert_eq!(h.state().state.notice(), Some("No file chosen."));
    assert_eq!(
        h.state().state.picker.in_app(),
        None,
        "nothing opened by itself"
    );
    click(&mut h, "Use rungs' own picker");
    assert_eq!(h.state().state.picker.in_app(), Some(Purpose::Open));
    assert!(h.query_by_label_contains("Open a ladder").is_some());
}

/// Without zenity, File → Export CSV… in rungs' own picker over an existing
/// file wrote it at once ("wrote …/elo.csv", the Elo list gone). The own picker now asks
/// first, as zenity does: Cancel leaves the file and goes back to the picker; Replace writes.
#[test]
fn the_own_picker_asks_before_replacing_a_file() {
    use rungs_app::files::Purpose;
    let dir = Temp::new("picker-replace");
    let path = dir.0.join("club.rungs");
    Store::create(&path, &Rules::default()).unwrap();
    let existing = dir.0.join("matches.csv");
    std::fs::write(&existing, "player,elo\nAnn,1800\n").unwrap();
    // egui_file's own fields carry no accessible names.
    let mut h = app_support::open_with(&path, egui::vec2(1280.0, 860.0), false);
    click(&mut h, "File");
    click(&mut h, "Export CSV…");
    assert_eq!(h.state().state.picker.in_app(), Some(Purpose::ExportCsv));
    // The picker opens in the ladder's folder with `matches.csv` filled in: Save.
    click(&mut h, "Save");
    assert!(
        h.query_by_label_contains("exists already. Replace it?")
            .is_some(),
        "asked before replacing"
    );
    assert_eq!(
        std::fs::read_to_string(&existing).unwrap(),
        "player,elo\nAnn,1800\n"
    );
    click(&mut h, "Cancel");
    assert_eq!(
        std::fs::read_to_string(&existing).unwrap(),
        "player,elo\nAnn,1800\n",
        "Cancel leaves the file"
    );
    assert_eq!(
        h.state().state.picker.in_app(),
        Some(Purpose::ExportCsv),
        "back in the picker"
    );
    click(&mut h, "Save");
    click(&mut h, "Replace");
    h.state_mut().wait_for_job();
    h.run();
    let written = std::fs::read_to_string(&existing).unwrap();
    assert!(
        written.starts_with("date,player_a,player_b,score"),
        "{written}"
    );
}
