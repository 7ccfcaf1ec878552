//! The designer's and tester's screens driven as a person would: History plots, the replay
//! timeline, what-if, prediction quality and simulation, each checked on the state
//! afterwards.

use chrono::NaiveDate;
use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_app::RungsApp;
use rungs_app::command::Command;
use rungs_app::command::ToolCommand;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Params, Rules};
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

fn game(a: u32, b: u32, o: Outcome) -> Entry {
    Entry::Add {
        event: Event::Match(Match::new(a, b, MatchResult::Played(o))),
    }
}

/// A Skyweaver ladder: Ann, Bo, Cy; six matches over two weeks with a soft reset between.
fn app(dir: &Temp) -> Harness<'static, RungsApp> {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = ["Ann", "Bo", "Cy"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let event = Event::Player {
                id: i as u32,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            };
            (day(1), Entry::Add { event })
        })
        .collect();
    rows.extend([
        (day(2), game(0, 1, Outcome::Win)),
        (day(3), game(0, 2, Outcome::Win)),
        (day(4), game(1, 2, Outcome::Draw)),
        (
            day(7),
            Entry::Add {
                event: Event::SoftReset,
            },
        ),
        (day(9), game(0, 1, Outcome::Loss)),
        (day(10), game(2, 0, Outcome::Win)),
        (day(11), game(1, 2, Outcome::Win)),
    ]);
    store
        .commit(&rungs_store::Change::new("season", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    app_support::open(&path, egui::vec2(1400.0, 900.0))
}

/// Waits for the running job, lands it, and draws.
fn settle(h: &mut Harness<'_, RungsApp>) {
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
}

#[test]
fn the_history_plot_overlays_players_and_reads_out_the_hovered_event() {
    let dir = Temp::new("history");
    let mut h = app(&dir);
    click(&mut h, "History");
    assert!(h.query_by_label_contains("Type a player's name").is_some());
    type_into(&mut h, "Plot player:", "Ann");
    h.key_press(Key::Enter);
    h.run();
    type_into(&mut h, "Plot player:", "Bo");
    click(&mut h, "Add");
    h.run();
    let s = &h.state().state;
    assert_eq!(s.tools.plotted, vec![0, 1], "Ann and Bo are plotted");
    assert!(s.tools.log_view.is_some(), "the log was read for markers");
    let markers = s.tools.log_view.as_ref().unwrap().index.markers();
    assert_eq!(markers.len(), 1, "the soft reset is a marker");
    let rect = h
        .state()
        .screens
        .history
        .plot_rect
        .expect("the plots were drawn");
    assert!(h.query_by_label_contains("■ Ann").is_some());
    // Hovering the rating plot's right end reads out each player's last event.
    let at = egui::pos2(rect.right() - 40.0, rect.top() + 60.0);
    h.input_mut().events.push(egui::Event::PointerMoved(at));
    h.run();
    assert!(
        // The axis's number first (axis and read-out agree), then the
        // date and the log's event number.
        h.query_by_label_contains("Ann: match ")
            .is_some_and(|n| format!("{:?}", n.accesskit_node()).contains(" · 2026-03-10 · event")),
        "Ann's read-out dates her last match"
    );
    assert!(h.query_by_label_contains("lost to Cy").is_some());
    // By date, and removing a player.
    click(&mut h, "date");
    assert!(h.state().screens.history.x_by_date);
    h.get_all_by_label("x").next().unwrap().click();
    h.run();
    assert_eq!(h.state().state.tools.plotted, vec![1]);
}

#[test]
fn the_timeline_shows_the_ladder_after_any_event_and_returns_to_now() {
    let dir = Temp::new("timeline");
    let mut h = app(&dir);
    let now = h.state().state.ladder.clone();
    click(&mut h, "Replay");
    click(&mut h, "Build the timeline");
    settle(&mut h);
    click(&mut h, "|<");
    let s = &h.state().state;
    assert_eq!(s.tools.position, Some(0));
    assert!(s.ladder.players.is_empty(), "before the first event");
    assert!(h.query_by_label_contains("Viewing the past").is_some());
    // Three joins and Ann's first win: four events.
    for _ in 0..4 {
        click(&mut h, ">");
    }
    let s = &h.state().state;
    assert_eq!(s.tools.position, Some(4));
    assert_eq!((s.ladder.players[0].wins, s.ladder.events), (1, 4));
    assert_eq!(s.standings[0].id, 0, "Ann leads after her first win");
    let t = s.tools.timeline.clone().unwrap();
    assert_eq!(s.ladder, t.at(4).unwrap());
    // The next rating period starts after the soft reset (event 7).
    click(&mut h, ">>");
    assert_eq!(h.state().state.tools.position, Some(7));
    assert_eq!(h.state().state.ladder.week, 2);
    // Changing the ladder waits until the present is back.
    h.state_mut().state.apply(Command::Undo);
    let s = &h.state().state;
    assert!(s.error().unwrap_or("").contains("return to now"));
    assert_eq!(s.ladder.events, 7, "nothing changed");
    h.run();
    // The error banner above the screen does not take the keyboard from its fields.
    type_into(&mut h, "Date:", "2026-03-03");
    click(&mut h, "Go");
    assert_eq!(h.state().state.tools.position, Some(5));
    click(&mut h, "Return to now");
    let s = &h.state().state;
    assert_eq!(s.tools.position, None);
    assert_eq!(s.ladder, now);
}

#[test]
fn what_if_replays_under_other_rules_side_by_side() {
    let dir = Temp::new("whatif");
    let mut h = app(&dir);
    click(&mut h, "What-if");
    type_into(&mut h, "K factor", "64");
    click(&mut h, "Replay under B");
    settle(&mut h);
    let s = &h.state().state;
    let cmp = s.tools.comparison.as_ref().expect("compared");
    assert_eq!(cmp.rows.len(), 3);
    let Params::Elo(p) = &cmp.rules.params else {
        panic!("B runs Elo")
    };
    assert_eq!(p.k, 64.0);
    // Under Elo the ratings are the sums of K-weighted surprises: they add up to 3 × 1500.
    let total: f64 = cmp.rows.iter().map(|r| r.rating_b).sum();
    assert!((total - 4500.0).abs() < 1e-9, "{total}");
    assert!(h.query_by_label_contains("change place").is_some());
    // A name in the table plots that player under both rules.
    click(&mut h, "Cy");
    let s = &h.state().state;
    assert_eq!(s.tools.plotted, vec![2]);
    assert!(
        s.tools
            .compared_history(2)
            .is_some_and(|rows| rows.len() == 5)
    );
}

#[test]
fn prediction_quality_scores_every_system() {
    let dir = Temp::new("quality");
    let mut h = app(&dir);
    click(&mut h, "Prediction quality");
    click(&mut h, "Score every system on this ladder");
    settle(&mut h);
    let scores = &h.state().state.tools.scores;
    assert_eq!(
        scores.len(),
        6,
        "each system at its defaults, the goals model included"
    );
    assert!(scores.iter().all(|s| s.matches == 6 && s.draws == 1));
    assert!(scores.windows(2).all(|w| w[0].log_loss <= w[1].log_loss));
    // Elo K=32's first prediction is ½ and so on: its log-loss is a real number above 0.
    let elo = scores.iter().find(|s| s.label.starts_with("elo")).unwrap();
    assert!(elo.log_loss > 0.5 && elo.log_loss < 1.0, "{}", elo.log_loss);
    assert!(h.query_by_label("log-loss").is_some());
}

#[test]
fn a_simulation_writes_a_ladder_the_app_opens() {
    let dir = Temp::new("simulate");
    let mut h = app(&dir);
    click(&mut h, "Simulate");
    let out = dir.0.join("sim.rungs");
    type_into(&mut h, "Players", "30");
    type_into(&mut h, "Weeks", "4");
    type_into(&mut h, "Matches per week", "120");
    type_into(&mut h, "Write to", &out.display().to_string());
    click(&mut h, "Run simulation");
    settle(&mut h);
    let sim = h.state().state.tools.simulated.as_ref().expect("simulated");
    assert_eq!(sim.report.matches, 480);
    assert!(out.exists());
    click(&mut h, "Open the simulated ladder");
    let s = &h.state().state;
    assert_eq!(s.path(), Some(out.as_path()));
    assert_eq!(s.standings.len(), 30);
    // The form moves on to a free name; the old one is refused, not overwritten.
    let next = dir.0.join("sim-2.rungs");
    assert_eq!(h.state().screens.simulate.out, next.display().to_string());
    let cfg = rungs_app::simulate::config(&h.state().screens.simulate).unwrap();
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Simulate(
            Box::new(cfg),
            out.clone(),
        )));
    assert!(
        h.state()
            .state
            .error()
            .unwrap_or("")
            .contains("already exists")
    );
}

/// Simulate draws its three plots under the table — the climb curves, the inflation of each
/// week and the tier distribution over the weeks — with the report's own series, and each
/// saves as SVG and as PNG (the same drawing).
#[test]
fn a_simulation_shows_its_plots_and_saves_them() {
    use rungs_chart::simulated::SimPlot;
    let dir = Temp::new("simulate-plots");
    let mut h = app(&dir);
    click(&mut h, "Simulate");
    let out = dir.0.join("sim.rungs");
    type_into(&mut h, "Players", "30");
    type_into(&mut h, "Weeks", "4");
    type_into(&mut h, "Matches per week", "120");
    type_into(&mut h, "Write to", &out.display().to_string());
    click(&mut h, "Run simulation");
    settle(&mut h);
    h.run();
    let report = h
        .state()
        .state
        .tools
        .simulated
        .as_ref()
        .unwrap()
        .report
        .clone();
    for plot in SimPlot::ALL {
        assert!(
            h.query_by_label(plot.title()).is_some(),
            "{} is drawn",
            plot.title()
        );
    }
    // The series: a climb curve for each tier someone reached (30 players, 480 matches: the
    // first tiers at least), one inflation line of four weeks, and the tiers held at a
    // week's end, their shares adding to 100 each week.
    let climb = SimPlot::Climb.curves(&report);
    let reached = report
        .matches_to_tier
        .iter()
        .filter(|t| t.reached > 0)
        .count();
    assert_eq!(climb.len(), reached);
    assert!(climb.len() >= 2, "{climb:?}");
    assert_eq!(climb[0].name, "Trainee I");
    let inflation = SimPlot::Inflation.curves(&report);
    assert_eq!(inflation[0].points.len(), 4);
    let tiers = SimPlot::Tiers.curves(&report);
    for week in 0..4 {
        let total: f64 = tiers.iter().map(|c| c.points[week][1]).sum();
        assert!((total - 100.0).abs() < 1e-9, "week {week}: {total}");
    }
    // Each legend names its series on screen.
    for c in climb.iter().chain(&tiers) {
        assert!(
            h.query_all_by_label(&c.name).next().is_some(),
            "legend entry {}",
            c.name
        );
    }
    for plot in SimPlot::ALL {
        for ending in ["svg", "png"] {
            let to = dir.0.join(format!("{}.{ending}", plot.file_stem()));
            h.state_mut()
                .state
                .apply(Command::SaveSimulatePlot(plot, to.clone()));
            assert!(
                h.state().state.error().is_none(),
                "{:?}",
                h.state().state.error()
            );
            let bytes = std::fs::read(&to).unwrap();
            if ending == "png" {
                assert_eq!(&bytes[1..4], b"PNG");
            } else {
                let svg = String::from_utf8(bytes).unwrap();
                assert!(svg.starts_with("<svg"), "{svg}");
                for c in plot.curves(&report) {
                    assert!(svg.contains(&format!(">{}<", c.name)), "{}", c.name);
                }
            }
        }
    }
}
