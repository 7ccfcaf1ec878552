//! The side-advantage flag, `rungs fit` and `rungs evaluate --from` through the real binary:
//! entered, imported, exported and read back; fitted, applied and undone; scored from a date.

use serde_json::Value;

use crate::support::binary;
use binary::Dir;
use binary::{fails, json, rungs};

const PLAYERS: [&str; 4] = ["Ann", "Bo", "Cy", "Di"];

fn results_csv(dir: &Dir) -> String {
    let mut text = String::from("date,player_a,player_b,score,home\n");
    let start = chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    for i in 0..120u64 {
        let a = PLAYERS[(i % 4) as usize];
        let b = PLAYERS[((i + 1 + (i / 4) % 3) % 4) as usize];
        let date = start + chrono::Days::new(i);
        let (home, score) = if i % 4 == 3 {
            ("neutral", "0.5")
        } else if i % 5 == 0 {
            ("a", "0")
        } else {
            ("a", "1")
        };
        text += &format!("{date},{a},{b},{score},{home}\n");
    }
    let path = dir.path("results.csv");
    std::fs::write(&path, text).unwrap();
    path
}

fn ladder(dir: &Dir, system: &str) -> String {
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", system]);
    rungs(&["import", &f, &results_csv(dir)]);
    f
}

/// The matches of `events --json`: date, sides, result and flag.
fn matches(f: &str) -> Vec<(String, Value, Value, Value, Value)> {
    json(&["events", f, "--json"])
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "match")
        .map(|e| {
            (
                e["date"].as_str().unwrap().to_string(),
                e["a"].clone(),
                e["b"].clone(),
                e["result"].clone(),
                e["home"].clone(),
            )
        })
        .collect()
}

#[test]
fn the_flag_is_entered_edited_imported_and_exported() {
    let dir = Dir::new("home-flag");
    let f = ladder(&dir, "elo");
    let imported = matches(&f);
    assert_eq!(imported.len(), 120);
    assert_eq!(imported[0].4, "a");
    assert_eq!(imported[3].4, "neutral");

    // Entered by hand; a bad flag names its field and changes nothing.
    let v = json(&[
        "add-match",
        &f,
        "Ann",
        "Bo",
        "1",
        "--date",
        "2025-06-01",
        "--home",
        "b",
        "--json",
    ]);
    let seq = v["seq"].as_u64().unwrap().to_string();
    fails(
        &["add-match", &f, "Ann", "Bo", "1", "--home", "home"],
        &["club.rungs", "field `home`", "`home`", "neutral"],
    );
    let last = |f: &str| matches(f).last().unwrap().4.clone();
    assert_eq!(last(&f), "b");
    rungs(&["edit-match", &f, &seq, "--home", "neutral"]);
    assert_eq!(last(&f), "neutral");
    rungs(&["edit-match", &f, &seq, "--home", ""]);
    assert_eq!(last(&f), Value::Null, "an empty flag removes it");
    rungs(&["edit-match", &f, &seq, "--home", "A"]);

    // The CSV export writes it back, and imports to the same matches.
    let csv = dir.path("out.csv");
    rungs(&["export", &f, &csv]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("date,player_a,player_b,score,medals_a,medals_b,scenario,side_a,home\n")
    );
    let copy = dir.path("copy.rungs");
    rungs(&["new", &copy, "--system", "elo"]);
    rungs(&["import", &copy, &csv]);
    assert_eq!(matches(&copy), matches(&f));
    // And the JSON Lines log, with the same standings.
    let log = dir.path("log.jsonl");
    rungs(&["export", &f, &log]);
    let again = dir.path("again.rungs");
    rungs(&["import-log", &again, &log]);
    assert_eq!(matches(&again), matches(&f));
    assert_eq!(
        rungs(&["standings", &again, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
    assert_eq!(
        rungs(&["standings", &copy, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
}

/// A foreign layout names its own flag column: TRUE/FALSE for neutral ground.
#[test]
fn a_neutral_column_is_mapped_by_name() {
    let dir = Dir::new("neutral-col");
    let csv = dir.path("games.csv");
    std::fs::write(
        &csv,
        "Day,Host,Guest,HG,GG,Neutral venue\n\
         2025-01-01,Ann,Bo,2,1,FALSE\n\
         2025-01-02,Bo,Ann,0,0,TRUE\n\
         2025-01-03,Bo,Ann,1,0,\n",
    )
    .unwrap();
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", "elo"]);
    let mapping = [
        "--date-col",
        "Day",
        "--a-col",
        "Host",
        "--b-col",
        "Guest",
        "--goals-a-col",
        "HG",
        "--goals-b-col",
        "GG",
    ];
    let mut args = vec!["import", &f, &csv];
    args.extend(mapping);
    args.extend(["--neutral-col", "neutral venue"]);
    rungs(&args);
    let flags: Vec<Value> = matches(&f).into_iter().map(|m| m.4).collect();
    assert_eq!(flags, ["a".into(), "neutral".into(), Value::Null]);
    let mut bad = vec!["import", &f, &csv];
    bad.extend(mapping);
    bad.extend(["--home-col", "Neutral venue"]);
    fails(&bad, &["line 2", "`Neutral venue`", "\"FALSE\"", "neutral"]);
}

#[test]
fn fit_finds_the_home_advantage_and_scores_both_halves() {
    let dir = Dir::new("fit");
    let f = ladder(&dir, "elo");
    let v = json(&["fit", &f, "--until", "2025-04-01", "--json"]);
    assert_eq!(v["until"], "2025-04-01");
    let fit = &v["fits"][0];
    assert_eq!(fit["system"], "elo");
    let value = |name: &str| {
        fit["params"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()["fitted"]
            .as_f64()
            .unwrap()
    };
    // The home side wins four matches in five away from neutral ground: a large advantage.
    assert!(value("advantage") > 100.0, "{fit}");
    // No --params: the fit chose them, the advantage among them, and says what each did alone.
    let screened = fit["screened"].as_array().unwrap();
    assert_eq!(
        screened.len(),
        11,
        "every parameter of elo is screened: {fit}"
    );
    let advantage = screened.iter().find(|s| s["name"] == "advantage").unwrap();
    assert_eq!(advantage["chosen_by"], 1);
    assert!(advantage["effect"].as_f64().unwrap() > 0.01, "{advantage}");
    let initial = screened
        .iter()
        .find(|s| s["name"] == "initial_rating")
        .unwrap();
    assert_eq!(initial["effect"], 0.0);
    assert_eq!(initial["chosen_by"], Value::Null);
    // January to March is 90 matches; April on, 30.
    assert_eq!(fit["fitted"]["train"]["matches"], 90);
    assert_eq!(fit["fitted"]["test"]["matches"], 30);
    let ll = |s: &Value| s["log_loss"].as_f64().unwrap();
    assert!(
        ll(&fit["fitted"]["train"]) < ll(&fit["defaults"]["train"]),
        "{fit}"
    );
    assert_eq!(v["baseline"]["label"], "elo K=32");
    assert_eq!(ll(&v["baseline"]["test"]), ll(&fit["defaults"]["test"]));
    assert_eq!(v["applied"], Value::Null);
    // The table says the same.
    let text = rungs(&["fit", &f, "--until", "2025-04-01", "--system", "skyweaver"]);
    assert!(
        text.contains("fitted on 90 matches before 2025-04-01"),
        "{text}"
    );
    assert!(
        text.contains("skyweaver") && text.contains("elo K=32"),
        "{text}"
    );
    assert!(
        text.contains("chosen by each one's effect alone on the training log-loss"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("test")),
        "{text}"
    );
    // Without --until: the first 70 % (84 of 120 played) come before the split.
    let v = json(&["fit", &f, "--params", "advantage", "--json"]);
    assert_eq!(v["until"], "2025-03-26");
    assert_eq!(v["fits"][0]["fitted"]["train"]["matches"], 84);
}

#[test]
fn fit_apply_then_undo_leaves_the_ladder_as_it_was() {
    let dir = Dir::new("fit-apply");
    let f = ladder(&dir, "elo");
    let (standings, events) = (
        rungs(&["standings", &f, "--json"]),
        rungs(&["events", &f, "--json"]),
    );
    let text = rungs(&["fit", &f, "--until", "2025-04-01", "--apply"]);
    assert!(text.contains("Preview — rules: elo K="), "{text}");
    assert!(text.contains("Done — rules: elo K="), "{text}");
    let after = json(&["events", &f, "--json"]);
    let last = after.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["kind"], "rules");
    assert!(
        last["rules"]["advantage"].as_f64().unwrap() > 100.0,
        "{last}"
    );
    // Fitting again from the fitted rules finds no better value: nothing is applied, and that
    // is said (not an error: the fit ran and holds).
    let again = rungs(&["fit", &f, "--until", "2025-04-01", "--apply"]);
    assert!(
        again.contains("Nothing applied: no parameter predicts better than its value in force"),
        "{again}"
    );
    assert_eq!(json(&["events", &f, "--json"]), after, "nothing recorded");
    rungs(&["undo", &f]);
    assert_eq!(rungs(&["standings", &f, "--json"]), standings);
    assert_eq!(rungs(&["events", &f, "--json"]), events);
}

#[test]
fn fit_refuses_what_it_cannot_do() {
    let dir = Dir::new("fit-bad");
    let f = ladder(&dir, "elo");
    fails(
        &[
            "fit", &f, "--system", "elo", "--system", "inversus", "--apply",
        ],
        &["--apply", "one --system"],
    );
    fails(
        &["fit", &f, "--params", "tau"],
        &["field `params`", "`tau`", "elo"],
    );
    fails(
        &[
            "fit", &f, "--system", "elo", "--system", "inversus", "--params", "k",
        ],
        &["inversus has none of the parameters k"],
    );
    fails(
        &["fit", &f, "--until", "2025-01-01"],
        &["no played matches before 2025-01-01"],
    );
    fails(
        &["fit", &f, "--until", "2025-02-30"],
        &["field `until`", "2025-02-30"],
    );
    fails(&["fit", &f, "--system", "chess"], &["`chess`"]);
    let empty = dir.path("empty.rungs");
    rungs(&["new", &empty]);
    fails(&["fit", &empty], &["no played matches to fit on"]);
}

#[test]
fn evaluate_from_a_date_scores_only_the_later_matches() {
    let dir = Dir::new("evaluate-from");
    let f = ladder(&dir, "allegskill");
    let all = json(&["evaluate", &f, "--json"]);
    let later = json(&["evaluate", &f, "--from", "2025-04-01", "--json"]);
    assert_eq!(later["from"], "2025-04-01");
    let find = |v: &Value, label: &str| {
        v["scores"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["label"] == label)
            .unwrap()
            .clone()
    };
    let (whole, part) = (
        find(&all, "allegskill (defaults)"),
        find(&later, "allegskill (defaults)"),
    );
    assert_eq!(
        (whole["matches"].as_u64(), part["matches"].as_u64()),
        (Some(120), Some(30))
    );
    // Every system predicts draws: AllegSkill by its own model, Elo by the
    // ordered logit on its expected score; each has a three-outcome log-loss.
    assert!(part["log_loss_3way"].as_f64().unwrap() > 0.0);
    let elo = find(&later, "elo K=32")["log_loss_3way"].as_f64().unwrap();
    assert!(elo > 0.0 && elo.is_finite(), "{elo}");
    // The calibration bins hold every scored match.
    let bins = part["calibration"].as_array().unwrap();
    let counted: u64 = bins.iter().map(|b| b["matches"].as_u64().unwrap()).sum();
    assert_eq!(counted, 30);
    let text = rungs(&["evaluate", &f, "--from", "2025-04-01"]);
    assert!(
        text.contains("30 matches predicted from 2025-04-01 on"),
        "{text}"
    );
    assert!(text.contains("calibration of"), "{text}");
    fails(
        &["evaluate", &f, "--from", "2026-01-01"],
        &["no played matches from 2026-01-01 on"],
    );
    fails(
        &["evaluate", &f, "--from", "yesterday"],
        &["field `from`", "`yesterday`"],
    );
}

#[test]
fn predict_counts_the_side_advantage_of_the_side_at_home() {
    let dir = Dir::new("predict-home");
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", "elo", "--param", "advantage=100"]);
    rungs(&["add-player", &f, "Ann", "Bo"]);
    // Equal ratings, A at home by 100 points: E = 1/(1 + 10^(−100/400)) = 1/(1 + 0.562341)
    // = 0.640065; the draws split around it at a new ladder's rate p₀ = 0.2449187 (ν =
    // 0.6487153, ρ = 1.4657033, P(draw) = ν/(ρ + ν + 1/ρ) = 0.2319603), so P(A wins) =
    // 0.640065 − 0.1159802 = 0.5240848; B at home mirrors it, 1 − 0.640065 − 0.1159802 =
    // 0.2439548; neutral ground and no flag are even, (1 − p₀)/2 = 0.3775407.
    for (home, expected) in [
        (Some("a"), 0.524_084_8),
        (Some("b"), 0.243_954_8),
        (Some("neutral"), 0.377_540_7),
        (None, 0.377_540_7),
    ] {
        let mut args = vec!["predict", f.as_str(), "Ann", "Bo", "--json"];
        if let Some(h) = home {
            args.extend(["--home", h]);
        }
        let v = json(&args);
        let p = v["prediction"]["win_a"].as_f64().unwrap();
        assert!((p - expected).abs() < 1e-6, "{home:?}: {p}");
    }
    fails(
        &["predict", &f, "Ann", "Bo", "--home", "x"],
        &["`home`", "`x`", "a (side A at home"],
    );
}
