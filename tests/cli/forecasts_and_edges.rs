//! Forecasts that see the season calendar, chances that keep each system's own expected
//! score, and the edges of the source documents, each through the real binary.

use crate::support::cli as cli_support;
use cli_support::{Dir, assert_mentions};
use serde_json::Value;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A weekly calendar (hard resets monthly), one Grandweaver slot, players starting at
/// Master's 1200 RP: P beats Q on 2024-01-02 and nothing else is entered.
fn calendar_pair(dir: &Dir) -> &'static str {
    let file = "c2.rungs";
    dir.ok(&[
        "new",
        file,
        "--calendar",
        "weekly",
        "--param",
        "initial_rp=1200",
        "--param",
        "grandweaver_count=1",
    ]);
    dir.ok(&["add-player", file, "P", "Q", "--date", "2024-01-01"]);
    dir.ok(&["add-match", file, "P", "Q", "1", "--date", "2024-01-02"]);
    file
}

/// A forecast on 2024-06-20 is of a match rated after the resets due by then: five season
/// ends (the first Mondays of February to June) rescale MMR to P 2250 ± 350 against Q
/// 1500 ± 350 (eq. 5 over the two rated players, RD' = 350). Glicko's expectation over both
/// deviations: g(√(350² + 350²)) = 1/√(1 + 3q²·245000/π²) = 0.53700, E = 1/(1 + 10^(−0.537·750/400))
/// = 0.91039 — not the January ratings' 1662 v 1338. Before the fix the chances were
/// 65.5 % / 18.1 % / 16.4 % (E ≈ 0.745).
#[test]
fn predict_applies_the_calendar_resets_due_before_the_match() {
    let dir = Dir::new("predict-calendar");
    let file = calendar_pair(&dir);
    let out = json(&dir.ok(&["predict", file, "P", "Q", "--date", "2024-06-20", "--json"]));
    // The match's own figures start from the ratings after the resets.
    let before = |i: usize| &out["outcomes"][0]["players"][i]["before"];
    assert_eq!(before(0)["rating"], 2250.0, "{out}");
    assert_eq!(before(1)["rating"], 1500.0, "{out}");
    assert_eq!(before(0)["deviation"], 350.0, "{out}");
    let p = &out["prediction"];
    let e = p["win_a"].as_f64().unwrap() + 0.5 * p["draw"].as_f64().unwrap();
    assert!((e - 0.91039).abs() < 5e-5, "expected score {e}: {out}");
    // The draws split around E, keeping it: one undrawn match makes the even-game draw rate
    // (0 + 100·0.244919)/101 = 0.242494, ν = 2p/(1 − p) = 0.640242, and the tie model's ratio
    // ρ = 4.9745 gives P(draw) = 0.11009, P(P wins) = 0.91039 − 0.05504 = 0.85535, P(Q wins)
    // = 0.03457 (the ordered logit showed 86.1 / 8.2 / 5.7, an expectation of 0.9021).
    let text = dir.ok(&["predict", file, "P", "Q", "--date", "2024-06-20"]);
    assert_mentions(&text, &["chances: P 85.5 %, draw 11.0 %, Q 3.5 %"]);
    // The resets are said apart from the match: P's RP goes 1298 → 350 by them (the season
    // peaks Grandweaver, Expert II, Apprentice II, Trainee III, Trainee II reset to 1000, 700,
    // 500, 400, 350), and the match itself moves P from 350: Δr = 22.81 (E = 0.94726 by
    // g(350) = 0.66896), F(350) = (1000/1750)·(0.25 + 0.75·0.15) = 0.20714,
    // B(350) = 25 − 0.15·20 = 22, so 350 + 22.81·0.20714 + 22 = 376.7 → 377.
    let due = &out["due_first"];
    assert_eq!(due["hard_resets"], 5, "{out}");
    assert_eq!(due["players"][0]["player"], "P", "{out}");
    assert_eq!(due["players"][0]["before"], 1298.0, "{out}");
    assert_eq!(due["players"][0]["after"], 350.0, "{out}");
    let win = &out["outcomes"][0]["players"][0];
    assert_eq!(win["player"], "P", "{out}");
    assert_eq!(win["before"]["score"], 350.0, "{out}");
    assert_eq!(win["after"]["score"], 377.0, "{out}");
    assert_mentions(
        &text,
        &[
            "resets of the season calendar",
            "RP 1298 → 350",
            "RP 350 → 377 (+27)",
        ],
    );
    assert!(!text.contains("1298 → 377"), "{text}");
}

/// A Memoir '44 ladder whose scenario T is set to ratio 0.5 and average medals 3 and 3.
fn memoir_ladder(dir: &Dir) -> &'static str {
    let file = "m44.rungs";
    dir.ok(&["new", file, "--system", "memoir44"]);
    dir.ok(&["add-player", file, "A", "B", "--date", "2024-01-01"]);
    dir.ok(&[
        "scenario",
        file,
        "T",
        "--sides",
        "X,Y",
        "--ratio",
        "0.5",
        "--averages",
        "3,3",
        "--date",
        "2024-01-01",
    ]);
    file
}

/// Memoir '44 takes s from the medals: 2 medals to 4 is B's win, s(2, 4) = 0. Entered as A's
/// win it gave A +14.4 (s = 1: pts = 64·(1 + ½ − 1) = 32, bonus = 1 + 0.1·(3 − 4) = 0.9,
/// 32·0.9·½); now it is refused naming the medals and the result. Entered as B's win it rates
/// as the ranking does: pts = 64·(0 + ½) = 32, bonus = 1 + 0.1·(3 − 2) = 1.1, A's change
/// 32·1.1·(0 − ½) = −17.6.
#[test]
fn medals_that_contradict_the_result_are_refused_and_agreeing_ones_rate() {
    let dir = Dir::new("medals");
    let file = memoir_ladder(&dir);
    let msg = dir.fails_unchanged(
        file,
        &[
            "add-match",
            file,
            "A",
            "B",
            "1",
            "--medals",
            "2,4",
            "--scenario",
            "T",
            "--side-a",
            "X",
            "--date",
            "2024-01-02",
        ],
    );
    assert_mentions(&msg, &["medals", "2,4", "side B's win", "A beat B"]);
    // The same through a CSV import, naming the line.
    dir.write(
        "m.csv",
        "date,player_a,player_b,score,medals_a,medals_b,scenario,side_a\n\
         2024-01-02,A,B,1,2,4,T,X\n",
    );
    let msg = dir.fails_unchanged(file, &["import", file, "m.csv"]);
    assert_mentions(&msg, &["m.csv", "line 2", "medals", "2,4", "A beat B"]);
    dir.ok(&[
        "add-match",
        file,
        "A",
        "B",
        "0",
        "--medals",
        "2,4",
        "--scenario",
        "T",
        "--side-a",
        "X",
        "--date",
        "2024-01-02",
    ]);
    let standings = json(&dir.ok(&["standings", file, "--json"]));
    let rating = |name: &str| {
        standings
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == name)
            .unwrap()["rating"]
            .as_f64()
            .unwrap()
    };
    assert!((rating("A") - (1500.0 - 17.6)).abs() < 1e-9, "{standings}");
    assert!((rating("B") - (1500.0 + 17.6)).abs() < 1e-9, "{standings}");
    // A JSON Lines log that says otherwise is refused at its line.
    dir.ok(&["export", file, "log.jsonl"]);
    let log = std::fs::read_to_string(dir.path("log.jsonl")).unwrap();
    let bad = log.replace(
        "\"result\":{\"played\":\"Loss\"}",
        "\"result\":{\"played\":\"Win\"}",
    );
    assert_ne!(bad, log, "the export names the result as expected: {log}");
    dir.write("bad.jsonl", &bad);
    let msg = dir.fail(&["import-log", "copy.rungs", "bad.jsonl"]);
    assert_mentions(&msg, &["bad.jsonl", "medals", "2,4"]);
}

/// Eq. 4 below 200 RP with `initial_rp` 0 and f_min 0: the loser went 0 → 19 (a negative F
/// turned its negative Δr into a gain). Now F is held at 0 below where its line crosses it:
/// the loser stays at 0, the winner makes B(0)·1 = 25 + (200/1000)·(25 − 5) = 29.
#[test]
fn a_loser_never_gains_rank_points_below_200() {
    let dir = Dir::new("rp-below-200");
    let file = "low.rungs";
    dir.ok(&["new", file, "--param", "initial_rp=0", "--param", "f_min=0"]);
    dir.ok(&["add-player", file, "A", "B", "--date", "2024-01-01"]);
    dir.ok(&["add-match", file, "A", "B", "1", "--date", "2024-01-02"]);
    let standings = json(&dir.ok(&["standings", file, "--json"]));
    let rp = |name: &str| {
        standings
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == name)
            .unwrap()["rp"]
            .as_f64()
            .unwrap()
    };
    assert_eq!((rp("A"), rp("B")), (29.0, 0.0), "{standings}");
}

/// The season's end-of-week RP of `player` in the archive's first season, and its ranking.
fn first_season(dir: &Dir, file: &str, player: &str) -> (Value, Value, Value) {
    let seasons = json(&dir.ok(&["seasons", file, "--json"]));
    let entry = seasons[0]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player"] == player)
        .unwrap_or_else(|| panic!("{seasons}"))
        .clone();
    (
        seasons[0]["weeks"].clone(),
        entry["weekly_rp"].clone(),
        entry["ranking"].clone(),
    )
}

/// The end-of-season ranking counts the final week whether or not a soft reset closed it.
/// P starts at 1200 (Master), beats Q (1298), a soft reset ends the week at 1298 (below the
/// caps), and P beats Q again (1337, as the standings show it). The hard reset pressed with no
/// soft reset before it left the final week out: P ranked on the mean of [1298]. Now the hard
/// reset closes that week first: [1298, 1337], mean (1298 + 1337)/2 = 1317.5 — exactly what a
/// soft reset pressed just before the hard reset gives.
#[test]
fn the_season_ranking_counts_the_final_week_without_a_soft_reset() {
    let dir = Dir::new("final-week");
    let setup = |file: &str| {
        dir.ok(&["new", file, "--param", "initial_rp=1200"]);
        dir.ok(&["add-player", file, "P", "Q", "--date", "2024-01-01"]);
        dir.ok(&["add-match", file, "P", "Q", "1", "--date", "2024-01-02"]);
        dir.ok(&["soft-reset", file, "--date", "2024-01-08"]);
        dir.ok(&["add-match", file, "P", "Q", "1", "--date", "2024-01-09"]);
    };
    setup("hard.rungs");
    let standings = json(&dir.ok(&["standings", "hard.rungs", "--json"]));
    assert_eq!(standings[0]["player"], "P", "{standings}");
    assert_eq!(standings[0]["rp"], 1337.0, "{standings}");
    dir.ok(&["hard-reset", "hard.rungs", "--date", "2024-01-15"]);
    let (weeks, weekly, ranking) = first_season(&dir, "hard.rungs", "P");
    assert_eq!(weekly, serde_json::json!([1298.0, 1337.0]));
    assert_eq!(ranking, serde_json::json!({ "average_rp": 1317.5 }));
    // The record still counts the soft resets pressed: one.
    assert_eq!(weeks, 1);
    setup("both.rungs");
    dir.ok(&["soft-reset", "both.rungs", "--date", "2024-01-15"]);
    dir.ok(&["hard-reset", "both.rungs", "--date", "2024-01-15"]);
    let (weeks, both_weekly, both_ranking) = first_season(&dir, "both.rungs", "P");
    assert_eq!(weeks, 2);
    assert_eq!(
        (both_weekly, both_ranking),
        (weekly, ranking),
        "a soft reset pressed first records the same weeks"
    );
}

/// An unsaved Swiss round continuing event 1 said "Round 1" (JSON `"round": 1`) whatever
/// round it was. With rounds 1–3 saved (results entered), the next one is round 4, before it
/// is saved as after.
#[test]
fn an_unsaved_swiss_round_says_its_own_number() {
    let dir = Dir::new("swiss-number");
    let file = "swiss.rungs";
    dir.ok(&["new", file, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        file,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "Ed",
        "Flo",
        "Gus",
        "Hal",
        "--date",
        "2026-01-01",
    ]);
    // Eight players: of six, after these three rounds no fourth round keeps FIDE's
    // absolute criteria (no rematch, no third colour in a row), and the Dutch System pairs
    // none.
    let present = "Ann,Bo,Cy,Di,Ed,Flo,Gus,Hal";
    for round in 1..=3 {
        let out = json(&dir.ok(&[
            "pair",
            file,
            "--present",
            present,
            "--format",
            "swiss",
            "--date",
            "2026-01-08",
            "--event",
            if round == 1 { "new" } else { "1" },
            "--save",
            "--json",
        ]));
        assert_eq!(out["round"], round, "{out}");
        let n = round.to_string();
        dir.ok(&["result", file, &n, "1", "1"]);
        dir.ok(&["result", file, &n, "2", "D"]);
        dir.ok(&["result", file, &n, "3", "2"]);
        dir.ok(&["result", file, &n, "4", "D"]);
    }
    let out = json(&dir.ok(&[
        "pair",
        file,
        "--present",
        present,
        "--format",
        "swiss",
        "--date",
        "2026-01-08",
        "--event",
        "1",
        "--json",
    ]));
    assert_eq!(out["round"], 4, "{out}");
    let text = dir.ok(&[
        "pair",
        file,
        "--present",
        present,
        "--format",
        "swiss",
        "--date",
        "2026-01-08",
        "--event",
        "1",
    ]);
    assert!(text.starts_with("Round 4 — 2026-01-08 (swiss)"), "{text}");
}

/// A JSON Lines log whose INVERSUS rules leave parameters out was refused ("min_mu
/// −1.797e308 is outside its range": plain Glicko-2's unbounded values filled them in). Each
/// system fills in its own defaults: the imported ladder's rules are INVERSUS's, μ within
/// ±6.045 and φ within 0.175 … 2.015.
#[test]
fn import_log_fills_in_each_systems_own_defaults() {
    let dir = Dir::new("import-log-defaults");
    dir.ok(&["new", "inv.rungs", "--system", "inversus"]);
    dir.ok(&["export", "inv.rungs", "full.jsonl"]);
    let full = std::fs::read_to_string(dir.path("full.jsonl")).unwrap();
    let mut lines: Vec<Value> = full.lines().map(json).collect();
    let params = lines[0]
        .pointer_mut("/rules/params")
        .unwrap_or_else(|| panic!("{full}"));
    let kept = params.clone();
    *params = serde_json::json!({ "tau": 0.5 });
    let short: String = lines.iter().map(|l| format!("{l}\n")).collect();
    dir.write("short.jsonl", &short);
    dir.ok(&["import-log", "back.rungs", "short.jsonl"]);
    dir.ok(&["export", "back.rungs", "again.jsonl"]);
    let again = std::fs::read_to_string(dir.path("again.jsonl")).unwrap();
    let first: Value = json(again.lines().next().unwrap());
    assert_eq!(first["rules"]["params"], kept, "{again}");
    assert_eq!(first["rules"]["params"]["min_mu"], -6.045, "{again}");
}

/// Scenario names are shown as they were typed: "Pegasus Bridge", not "pegasus bridge".
#[test]
fn scenario_names_keep_the_case_they_were_typed_in() {
    let dir = Dir::new("scenario-case");
    let file = "m.rungs";
    dir.ok(&["new", file, "--system", "memoir44"]);
    dir.ok(&["add-player", file, "A", "B", "--date", "2024-01-01"]);
    dir.ok(&[
        "add-match",
        file,
        "A",
        "B",
        "1",
        "--medals",
        "4,2",
        "--scenario",
        "Pegasus Bridge",
        "--side-a",
        "Allies",
        "--date",
        "2024-01-02",
    ]);
    let text = dir.ok(&["scenarios", file]);
    assert!(text.starts_with("Pegasus Bridge: "), "{text}");
    let out = json(&dir.ok(&["scenarios", file, "--json"]));
    assert_eq!(
        out["scenarios"]["pegasus bridge"]["name"], "Pegasus Bridge",
        "{out}"
    );
}

/// The season archive keeps each week's tier beside its RP: who held Grandweaver at each
/// week's end. One slot: P (1298 after beating Q) holds it, Q (1200, a Master by Table 1's
/// floor) does not; both are Masters by RP, so the RP alone could not tell.
#[test]
fn the_season_archive_keeps_each_weeks_tier() {
    let dir = Dir::new("weekly-tiers");
    let file = "gw.rungs";
    dir.ok(&[
        "new",
        file,
        "--param",
        "initial_rp=1200",
        "--param",
        "grandweaver_count=1",
    ]);
    dir.ok(&["add-player", file, "P", "Q", "--date", "2024-01-01"]);
    dir.ok(&["add-match", file, "P", "Q", "1", "--date", "2024-01-02"]);
    dir.ok(&["soft-reset", file, "--date", "2024-01-08"]);
    dir.ok(&["add-match", file, "Q", "P", "1", "--date", "2024-01-09"]);
    dir.ok(&["soft-reset", file, "--date", "2024-01-15"]);
    dir.ok(&["hard-reset", file, "--date", "2024-01-15"]);
    let seasons = json(&dir.ok(&["seasons", file, "--json"]));
    let entry = |name: &str| {
        seasons[0]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["player"] == name)
            .unwrap()
            .clone()
    };
    let (p, q) = (entry("P"), entry("Q"));
    assert_eq!(p["weekly_tiers"][0], "Grandweaver", "{seasons}");
    assert_eq!(q["weekly_tiers"][0], "Master", "{seasons}");
    assert_eq!(
        p["weekly_tiers"].as_array().unwrap().len(),
        p["weekly_rp"].as_array().unwrap().len(),
        "{seasons}"
    );
}
