//! The designer's tools through the library: simulation, its file, forecasts, evaluation.

use chrono::NaiveDate;
use rungs_analysis::evaluate::evaluate;
use rungs_analysis::simulate::{SimConfig, SimError, simulate};
use rungs_gate::files::simulate_into;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::predict::predict_match;
use rungs_ladder::replay::replay_state;
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;

use rungs_testkit::TempDir;

fn small(system: System, seed: u64) -> SimConfig {
    SimConfig {
        players: 200,
        weeks: 12,
        matches_per_week: 2000,
        rules: Rules::defaults(system),
        seed,
        ..SimConfig::default()
    }
}

#[test]
fn a_seed_gives_the_same_simulation_and_another_seed_another() {
    let cfg = SimConfig {
        players: 50,
        weeks: 5,
        matches_per_week: 300,
        ..SimConfig::default()
    };
    let (x, y) = (
        simulate(&cfg, &mut |_| true).unwrap(),
        simulate(&cfg, &mut |_| true).unwrap(),
    );
    assert_eq!(x.rows, y.rows);
    assert_eq!(x.report, y.report);
    // 50 joins, 5 weeks of 300 matches and a soft reset, one hard reset after week 4.
    assert_eq!(x.rows.len() as u64, cfg.events());
    assert_eq!(x.rows.len(), 50 + 5 * 301 + 1);
    assert_eq!(x.report.matches, 1500);
    let hard: Vec<NaiveDate> = x
        .rows
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                Entry::Add {
                    event: Event::HardReset
                }
            )
        })
        .map(|(d, _)| *d)
        .collect();
    assert_eq!(hard, [cfg.start + chrono::Days::new(27)]);
    assert!(
        x.rows.windows(2).all(|w| w[0].0 <= w[1].0),
        "dates in order"
    );
    let other = simulate(&SimConfig { seed: 2, ..cfg }, &mut |_| true).unwrap();
    assert_ne!(other.rows, x.rows);
    assert_ne!(other.report.true_skill, x.report.true_skill);
}

#[test]
fn the_ladder_orders_true_skill_under_skyweaver_and_elo() {
    for system in [System::Skyweaver, System::Elo] {
        let r = simulate(&small(system, 7), &mut |_| true).unwrap().report;
        let rating = r.spearman_rating.unwrap();
        let score = r.spearman_score.unwrap();
        assert!(rating > 0.5 && score > 0.5, "{system}: {rating} {score}");
        assert_eq!(r.rp_inflation_per_week.len(), 12);
        let mean = r.rp_inflation_per_week.iter().sum::<f64>() / 12.0;
        assert!((mean - r.rp_inflation_mean).abs() < 1e-9);
        match system {
            System::Elo => {
                assert!(r.matches_to_tier.is_empty());
                // Zero-sum: the mean rating does not drift.
                assert!(r.rp_inflation_mean.abs() < 1e-9, "{}", r.rp_inflation_mean);
            }
            _ => {
                assert_eq!(r.matches_to_tier.len(), 11);
                assert_eq!(r.matches_to_tier[0].tier, "Trainee I");
                // Winning adds RP (the win bias), so RP inflates.
                assert!(r.rp_inflation_mean > 0.0);
                // Higher tiers take at least as many matches and no more players reach them.
                for w in r.matches_to_tier[..10].windows(2) {
                    assert!(w[0].reached >= w[1].reached, "{w:?}");
                    if let (Some(a), Some(b)) = (w[0].median_matches, w[1].median_matches) {
                        assert!(a <= b, "{w:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_rows_replay_to_the_simulated_ladder_and_cancelling_stops() {
    let sim = simulate(&small(System::Inversus, 3), &mut |_| true).unwrap();
    let events: Vec<(NaiveDate, u64, &Event)> = (1..)
        .zip(&sim.rows)
        .map(|(seq, (d, e))| match e {
            Entry::Add { event } => (*d, seq, event),
            _ => unreachable!("a simulation only adds"),
        })
        .collect();
    let replayed = replay_state(&sim.ladder.rules, events).unwrap();
    assert_eq!(replayed, sim.ladder);
    let mut asked = Vec::new();
    let out = simulate(&small(System::Elo, 3), &mut |done| {
        asked.push(done);
        done < 8192
    });
    assert_eq!(out.unwrap_err(), SimError::Cancelled);
    assert_eq!(asked, [0, 4096, 8192]);
}

#[test]
fn a_written_simulation_opens_and_matches_and_is_never_overwritten() {
    let dir = TempDir::new("write");
    let path = dir.0.join("sim.rungs");
    let cfg = SimConfig {
        players: 40,
        weeks: 3,
        matches_per_week: 200,
        ..SimConfig::default()
    };
    let report = simulate_into(&path, &cfg, &mut |_| true).unwrap();
    let expected = simulate(&cfg, &mut |_| true).unwrap();
    assert_eq!(report, expected.report);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.ladder().unwrap().players, expected.ladder.players);
    let actions = store.actions().unwrap();
    assert_eq!(actions.len(), 1);
    assert!(
        actions[0].2.starts_with("simulate 40 players"),
        "{actions:?}"
    );
    drop(store);
    let before = std::fs::read(&path).unwrap();
    let e = simulate_into(&path, &cfg, &mut |_| true).unwrap_err();

    assert!(e.to_string().contains("already exists"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // A bad config or a cancel leaves no file behind.
    let fresh = dir.0.join("none.rungs");
    let bad = SimConfig {
        players: 1,
        ..cfg.clone()
    };
    assert!(simulate_into(&fresh, &bad, &mut |_| true).is_err());
    assert!(simulate_into(&fresh, &cfg, &mut |_| false).is_err());
    assert!(!fresh.exists());
}

fn club(dir: &TempDir, rules: &Rules) -> Store {
    let mut store = Store::create(&dir.0.join("club.rungs"), rules).unwrap();
    let d = |day| NaiveDate::from_ymd_opt(2026, 1, day).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = ["Ann", "Bo", "Cy"]
        .iter()
        .zip(0..)
        .map(|(n, id)| {
            let event = Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            };
            (d(1), Entry::Add { event })
        })
        .collect();
    for (day, a, b, o) in [(2, 0, 1, Outcome::Win), (3, 1, 2, Outcome::Draw)] {
        let event = Event::Match(Match::new(a, b, MatchResult::Played(o)));
        rows.push((d(day), Entry::Add { event }));
    }
    store
        .commit(&rungs_store::Change::new("setup", rows.to_vec()).unwrap())
        .unwrap();
    store
}

#[test]
fn a_forecast_is_what_committing_each_result_does() {
    for system in System::ALL {
        let dir = TempDir::new(&format!("forecast-{system}"));
        let mut store = club(&dir, &Rules::defaults(system));
        let date = NaiveDate::from_ymd_opt(2026, 1, 9).unwrap();
        let m = Match {
            a: 2.into(),
            b: 0.into(),
            result: MatchResult::Cancelled, // ignored
            medals: None,
            scenario: None,
            side_a: None,
            home: None,
            goals: None,
            class: None,
            board: None,
        };
        let ladder = store.ladder().unwrap();
        let f = store.forecast(date, &m).unwrap();
        // The chances the match would be rated by: INVERSUS grows each player's φ for the
        // days idle before the match, so they are those of `predict_match`, not of the
        // ladder's figures as they stand.
        assert_eq!(f.prediction, predict_match(&ladder, &m, date), "{system}");
        let p = f.prediction.unwrap();
        assert!((p.win_a + p.draw + p.win_b - 1.0).abs() < 1e-12);
        let results: Vec<MatchResult> = f.outcomes.iter().map(|o| o.0).collect();
        assert_eq!(
            results,
            [Outcome::Win, Outcome::Draw, Outcome::Loss].map(MatchResult::Played)
        );
        for (result, changes) in &f.outcomes {
            assert_eq!(changes.len(), 2, "only the match's players");
            let event = Event::Match(Match {
                result: *result,
                ..m.clone()
            });
            store
                .commit(
                    &rungs_store::Change::new("try", vec![(date, Entry::Add { event })]).unwrap(),
                )
                .unwrap();
            let after = store.ladder().unwrap();
            for c in changes {
                assert_eq!(
                    c.after,
                    after.players[c.player as usize].figures(),
                    "{system}"
                );
                assert_eq!(c.before, Some(ladder.players[c.player as usize].figures()));
            }
            store.undo().unwrap();
        }
    }
}

#[test]
fn evaluating_a_file_uses_its_effective_events() {
    let dir = TempDir::new("evaluate");
    let store = club(&dir, &Rules::defaults(System::Elo));
    let events = store.effective().unwrap();
    let s = evaluate(
        &Rules::defaults(System::Elo),
        events.iter().map(|e| (e.date, e.seq, &e.event)),
        &mut |_| true,
    )
    .unwrap();
    // Ann v Bo at 1500 each: E = ½, s = 1; Bo (1484) v Cy (1500): E = 1/(1 + 10^0.04), s = ½.
    let e2 = 1.0 / (1.0 + 10f64.powf(16.0 / 400.0));
    let ll = (2f64.ln() - (0.5 * e2.ln() + 0.5 * (1.0 - e2).ln())) / 2.0;
    assert_eq!((s.matches, s.draws, s.decisive), (2, 1, 1));
    assert!((s.log_loss - ll).abs() < 1e-12, "{s:?}");
    assert!((s.brier - (0.25 + (e2 - 0.5).powi(2)) / 2.0).abs() < 1e-12);
    assert_eq!(s.accuracy, Some(0.5), "a coin flip counts half");
}
