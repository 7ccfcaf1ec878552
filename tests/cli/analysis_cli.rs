//! predict, evaluate, simulate and replay --compare through the real binary: good paths with
//! real values, and bad input with one clear line and exit code 1.

use crate::support::binary;
use binary::Dir;
use binary::{fails, json, rungs};

fn club(dir: &Dir, system: &str) -> String {
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", system]);
    rungs(&["add-player", &f, "Ann", "Bo", "Cy", "--date", "2026-01-01"]);
    rungs(&["add-match", &f, "Ann", "Bo", "1", "--date", "2026-01-02"]);
    rungs(&["add-match", &f, "Bo", "Cy", "draw", "--date", "2026-01-03"]);
    rungs(&["add-match", &f, "Cy", "Ann", "B", "--date", "2026-01-04"]);
    f
}

#[test]
fn predict_shows_chances_and_each_results_exact_change() {
    let dir = Dir::new("predict");
    let f = dir.path("pair.rungs");
    rungs(&["new", &f, "--system", "elo"]);
    rungs(&["add-player", &f, "Ann", "Bo", "--date", "2026-01-01"]);
    let v = json(&["predict", &f, "ann", "BO", "--date", "2026-01-05", "--json"]);
    assert_eq!(v["date"], "2026-01-05");
    assert_eq!(
        (v["a"][0].as_str(), v["b"][0].as_str()),
        (Some("Ann"), Some("Bo"))
    );
    // Equal ratings under a new ladder's draw threshold θ = 0.5 (every system predicts
    // draws): σ(−0.5) = 0.3775407 each way, the draw 0.2449187.
    let win_a = v["prediction"]["win_a"].as_f64().unwrap();
    assert!((win_a - 0.377_540_7).abs() < 1e-7, "{v}");
    // Elo K=32 at 1500 each: ±16 for a win, nothing for a draw.
    let after = |o: usize, p: usize| v["outcomes"][o]["players"][p]["after"]["rating"].as_f64();
    assert_eq!((after(0, 0), after(0, 1)), (Some(1516.0), Some(1484.0)));
    assert_eq!((after(1, 0), after(1, 1)), (Some(1500.0), Some(1500.0)));
    assert_eq!((after(2, 0), after(2, 1)), (Some(1484.0), Some(1516.0)));
    let winners: Vec<&str> = (0..3)
        .map(|o| v["outcomes"][o]["winner"].as_str().unwrap())
        .collect();
    assert_eq!(winners, ["a", "draw", "b"]);
    let text = rungs(&["predict", &f, "Ann", "Bo"]);
    assert!(
        text.contains("Ann 37.8 %, draw 24.5 %") && text.contains("1500.0 → 1516.0 (+16.0)"),
        "{text}"
    );
    // Nothing was written.
    assert_eq!(json(&["events", &f, "--json"]).as_array().unwrap().len(), 2);
}

#[test]
fn predict_shows_skyweaver_tiers_and_teams() {
    let dir = Dir::new("predict-sky");
    let f = club(&dir, "skyweaver");
    let v = json(&["predict", &f, "Ann,Bo", "Cy", "--json"]);
    let players = v["outcomes"][0]["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bo", "Cy"]);
    assert!(players.iter().all(|p| p["tier_after"].is_string()), "{v}");
    let text = rungs(&["predict", &f, "Ann", "Cy"]);
    assert!(text.contains("RP ") && text.contains("Wanderer"), "{text}");
}

#[test]
fn predict_refuses_unknown_and_repeated_players() {
    let dir = Dir::new("predict-bad");
    let f = club(&dir, "elo");
    fails(&["predict", &f, "Ann", "Zed"], &["club.rungs", "`Zed`"]);
    fails(&["predict", &f, "Ann", "ann"], &["`Ann`", "both sides"]);
    fails(&["predict", &f, "Ann,Ann", "Bo"], &["`Ann`", "twice"]);
    fails(
        &["predict", &f, "Ann", "Bo", "--date", "2026-13-01"],
        &["2026-13-01"],
    );
}

#[test]
fn evaluate_ranks_every_system_and_marks_the_best() {
    let dir = Dir::new("evaluate");
    let f = club(&dir, "elo");
    let v = json(&["evaluate", &f, "--json"]);
    let scores = v["scores"].as_array().unwrap();
    // The ladder runs elo at its defaults: the six systems (the goals model included) and
    // nothing else.
    assert_eq!(scores.len(), 6);
    let losses: Vec<f64> = scores
        .iter()
        .map(|s| s["log_loss"].as_f64().unwrap())
        .collect();
    assert!(losses.windows(2).all(|w| w[0] <= w[1]), "{losses:?}");
    assert_eq!(v["best"], scores[0]["label"]);
    let elo = scores.iter().find(|s| s["label"] == "elo K=32").unwrap();
    assert_eq!(
        (elo["matches"].as_u64(), elo["draws"].as_u64()),
        (Some(3), Some(1))
    );
    let margin = v["log_loss_below_baseline"].as_f64().unwrap();
    assert!((margin - (elo["log_loss"].as_f64().unwrap() - losses[0])).abs() < 1e-12);
    let text = rungs(&["evaluate", &f]);
    assert!(text.lines().any(|l| l.starts_with("*  1")), "{text}");
    assert!(text.contains("best: "), "{text}");
}

#[test]
fn evaluate_named_systems_with_parameters_keeps_the_baseline() {
    let dir = Dir::new("evaluate-k");
    let f = club(&dir, "skyweaver");
    rungs(&["rules", &f, "--system", "elo", "--date", "2026-01-03"]);
    let v = json(&[
        "evaluate", &f, "--system", "elo", "--param", "k=16", "--json",
    ]);
    let labels: Vec<&str> = v["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels.len(), 2);
    assert!(
        labels.contains(&"elo K=16") && labels.contains(&"elo K=32"),
        "{labels:?}"
    );
    // Without --system the ladder's own rules, with their rules change, are scored too.
    let v = json(&["evaluate", &f, "--json"]);
    let own = v["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["label"].as_str().unwrap().starts_with("this ladder"))
        .unwrap()
        .clone();
    assert_eq!(
        own["label"],
        "this ladder: skyweaver (defaults) + 1 rules change"
    );
    fails(
        &["evaluate", &f, "--param", "k=16"],
        &["--param", "--system"],
    );
    fails(
        &["evaluate", &f, "--system", "elo", "--param", "q=1"],
        &["`q=1`"],
    );
    fails(
        &["evaluate", &f, "--system", "elo", "--param", "k=x"],
        &["`k`", "`x`"],
    );
    fails(
        &["evaluate", &f, "--system", "chess"],
        &["`chess`", "skyweaver"],
    );
    let empty = dir.path("empty.rungs");
    rungs(&["new", &empty]);
    fails(&["evaluate", &empty], &["no played matches"]);
}

#[test]
fn simulate_writes_a_ladder_the_other_commands_read() {
    let dir = Dir::new("simulate");
    let f = dir.path("sim.rungs");
    let args = [
        "simulate",
        "--players",
        "60",
        "--weeks",
        "4",
        "--matches-per-week",
        "300",
        "--system",
        "skyweaver",
        "--param",
        "grandweaver_count=5",
        "--seed",
        "9",
        "--json",
        &f,
    ];
    let v = json(&args);
    assert_eq!(v["matches"].as_u64(), Some(1200));
    assert_eq!(v["config"]["seed"].as_u64(), Some(9));
    assert_eq!(v["true_skill"].as_array().unwrap().len(), 60);
    assert_eq!(v["rp_inflation_per_week"].as_array().unwrap().len(), 4);
    assert!(v["spearman_rating"].as_f64().unwrap() > 0.3, "{v}");
    let standings = json(&["standings", &f, "--json", "--all"]);
    assert_eq!(standings.as_array().unwrap().len(), 60);
    assert_eq!(
        json(&["seasons", &f, "--json"]).as_array().unwrap().len(),
        1
    );
    // The same command again: the file is never overwritten.
    let before = std::fs::read(&f).unwrap();
    fails(&args, &["sim.rungs", "already exists"]);
    assert_eq!(std::fs::read(&f).unwrap(), before);
    // The same seed into another file: the same ladder.
    let g = dir.path("again.rungs");
    let mut again = args.to_vec();
    *again.last_mut().unwrap() = &g;
    let w = json(&again);
    assert_eq!(w["true_skill"], v["true_skill"]);
    assert_eq!(
        rungs(&["standings", &g, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
    let text = rungs(&[
        "simulate",
        "--players",
        "20",
        "--weeks",
        "1",
        "--matches-per-week",
        "0",
        &dir.path("idle.rungs"),
    ]);
    assert!(
        text.contains("0 matches") && text.contains("rating —"),
        "{text}"
    );
}

#[test]
fn simulate_refuses_bad_numbers_naming_the_flag() {
    let dir = Dir::new("simulate-bad");
    let out = dir.path("x.rungs");
    let with = |players: &str, weeks: &str, per_week: &str, extra: &[&str]| {
        let mut a = vec![
            "simulate",
            "--players",
            players,
            "--weeks",
            weeks,
            "--matches-per-week",
            per_week,
        ];
        a.extend_from_slice(extra);
        a.push(&out);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let check = |args: Vec<String>, parts: &[&str]| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&refs, parts);
    };
    check(
        with("1", "4", "10", &[]),
        &["--players", "1", "2 to 100000"],
    );
    check(with("abc", "4", "10", &[]), &["--players", "`abc`"]);
    check(with("-3", "4", "10", &[]), &["--players", "`-3`"]);
    check(with("10", "0", "10", &[]), &["--weeks", "0"]);
    // 100,000 players for 520 weeks took 8.6 GB and then failed in SQLite: bounded.
    check(
        with("100000", "520", "1", &[]),
        &["--weeks", "52000000 player-weeks; at most 5200000"],
    );
    check(
        with("10", "520", "100000", &[]),
        &["--matches-per-week", "2000000"],
    );
    check(
        with("10", "4", "10", &["--skill-sd", "nan"]),
        &["--skill-sd"],
    );
    // 1e308 as typed, not as its 309 digits.
    check(
        with("10", "4", "10", &["--skill-sd", "1e308"]),
        &["--skill-sd: 1e308 is out of range; give 0 to 10000"],
    );
    check(with("10", "4", "10", &["--seed", "x"]), &["--seed", "`x`"]);
    check(
        with("10", "4", "10", &["--start", "01/02/2026"]),
        &["`start`", "YYYY-MM-DD"],
    );
    check(
        with("10", "4", "10", &["--system", "elo", "--param", "q=2"]),
        &["`q`"],
    );
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn replay_compare_puts_both_standings_side_by_side() {
    let dir = Dir::new("compare");
    let f = dir.path("pair.rungs");
    rungs(&["new", &f, "--system", "elo"]);
    rungs(&[
        "add-player",
        &f,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "--date",
        "2026-01-01",
    ]);
    rungs(&["add-match", &f, "Ann", "Bo", "1", "--date", "2026-01-02"]);
    rungs(&["add-match", &f, "Ann", "Cy", "draw", "--date", "2026-01-03"]);
    let before = rungs(&["standings", &f, "--json"]);
    // K=32: Ann 1515.26 > Cy 1500.74 > Di 1500 > Bo 1484; K=400: Cy 1603.90 > Ann 1596.10.
    let v = json(&["replay", &f, "--compare", "--param", "k=400", "--json"]);
    let rows: Vec<(&str, u64, u64, i64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap(),
                r["rank_a"].as_u64().unwrap(),
                r["rank_b"].as_u64().unwrap(),
                r["rank_change"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Cy", 2, 1, 1),
            ("Ann", 1, 2, -1),
            ("Di", 3, 3, 0),
            ("Bo", 4, 4, 0)
        ]
    );
    let cy = &v[0];
    assert!(
        (cy["rating_a"].as_f64().unwrap() - 1500.7363).abs() < 1e-4,
        "{cy}"
    );
    assert!(
        (cy["rating_b"].as_f64().unwrap() - 1603.8988).abs() < 1e-4,
        "{cy}"
    );
    let text = rungs(&["replay", &f, "--compare", "--param", "k=400"]);
    // Each side says which rules it ran: A the ladder's own as logged, B the named ones from
    // the first event on.
    assert!(text.contains("A: elo K=32 (the ladder's own)"), "{text}");
    assert!(text.contains("B: elo K=400 from the start"), "{text}");
    assert!(text.lines().nth(3).unwrap().contains("+1"), "{text}");
    assert_eq!(
        rungs(&["standings", &f, "--json"]),
        before,
        "the file is not changed"
    );
}
