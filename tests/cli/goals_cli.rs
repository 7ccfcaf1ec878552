//! The score of a match through the real binary: entered, edited, imported from a
//! CSV with goal and class columns, exported and imported as a log; hostile goals (−1, 1e308,
//! NaN, 2^63) refused by file, line, field and players, with nothing changed.

use serde_json::Value;

use crate::support::binary;
use binary::Dir;
use binary::{fails, json, rungs};

/// The ladder's matches as they stand, as (goals, class, result).
fn scores(f: &str) -> Vec<(Value, Value, Value)> {
    json(&["events", f, "--json"])
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "match")
        .map(|e| (e["goals"].clone(), e["class"].clone(), e["result"].clone()))
        .collect()
}

#[test]
fn a_score_is_entered_edited_exported_and_read_back() {
    let dir = Dir::new("goals-enter");
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", "goals"]);
    rungs(&["add-player", &f, "Ann", "Bo"]);
    // The score decides the result: no SCORE needed.
    rungs(&[
        "add-match",
        &f,
        "Ann",
        "Bo",
        "--goals",
        "3-1",
        "--class",
        "cup",
        "--date",
        "2026-01-02",
    ]);
    rungs(&[
        "add-match",
        &f,
        "Ann",
        "Bo",
        "0.5",
        "--goals",
        "2:2",
        "--date",
        "2026-01-03",
    ]);
    let got = scores(&f);
    assert_eq!(got[0].0, serde_json::json!([3, 1]));
    assert_eq!(got[0].1, "cup");
    assert_eq!(got[0].2, serde_json::json!({"played": "Win"}));
    assert_eq!(got[1].0, serde_json::json!([2, 2]));
    // A score that disagrees with the result names both players and changes nothing.
    let before = rungs(&["export", &f, "-"]);
    fails(
        &["add-match", &f, "Ann", "Bo", "1", "--goals", "0-2"],
        &[
            "field `goals`: `0-2` says Bo beat Ann, but the result says Ann beat Bo; a score \
             decides the result: give `--goals` without a result, or remove the score with \
             `--goals ''`",
        ],
    );
    assert_eq!(rungs(&["export", &f, "-"]), before);
    // Editing the score sets its result.
    let events = json(&["events", &f, "--json"]);
    let seq = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "match")
        .unwrap()["seq"]
        .as_u64()
        .unwrap()
        .to_string();
    rungs(&["edit-match", &f, &seq, "--goals", "0-1", "--class", "1.5"]);
    let got = scores(&f);
    assert_eq!(got[0].0, serde_json::json!([0, 1]));
    assert_eq!(got[0].1, serde_json::json!(1.5));
    assert_eq!(got[0].2, serde_json::json!({"played": "Loss"}));
    // The log carries them to a new ladder, which replays to the same standings.
    let log = dir.path("log.jsonl");
    rungs(&["export", &f, &log]);
    let copy = dir.path("copy.rungs");
    rungs(&["import-log", &copy, &log]);
    assert_eq!(scores(&copy), scores(&f));
    assert_eq!(
        rungs(&["standings", &copy, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
    // So does the CSV export: three more columns, read back by the standard layout.
    let csv = dir.path("matches.csv");
    rungs(&["export", &f, &csv]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with(
            "date,player_a,player_b,score,medals_a,medals_b,scenario,side_a,home,goals_a,goals_b,class\n"
        ),
        "{text}"
    );
    let again = dir.path("again.rungs");
    rungs(&["new", &again, "--system", "goals"]);
    rungs(&["import", &again, &csv]);
    assert_eq!(scores(&again), scores(&f));
    // A CSV score that contradicts its result is refused by line and field.
    let bad = dir.path("bad.csv");
    std::fs::write(
        &bad,
        "date,player_a,player_b,score,goals_a,goals_b\n2026-01-05,Ann,Bo,1,0,2\n",
    )
    .unwrap();
    fails(
        &["import", &again, &bad],
        &["bad.csv", "line 2", "field `goals_a`", "0-2 does not agree"],
    );
}

#[test]
fn hostile_goals_are_refused_by_name_and_nothing_changes() {
    let dir = Dir::new("goals-hostile");
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", "elo"]);
    rungs(&["add-player", &f, "Ann", "Bo"]);
    let before = rungs(&["export", &f, "-"]);
    for bad in [
        "-1-0",
        "1e308-0",
        "NaN-1",
        "9223372036854775808-0",
        "1001-0",
        "3",
    ] {
        fails(
            &["add-match", &f, "Ann", "Bo", "--goals", bad],
            &["field `goals`", bad],
        );
    }
    fails(
        &["add-match", &f, "Ann", "Bo", "1", "--class", "-1"],
        &["field `class`", "-1"],
    );
    // CSV: the goal columns keep whole scores; a hostile cell names file, line and field.
    for (cell, field) in [
        ("-1", "hg"),
        ("1e308", "hg"),
        ("NaN", "hg"),
        ("9223372036854775808", "hg"),
    ] {
        let csv = dir.path("bad.csv");
        std::fs::write(
            &csv,
            format!("date,host,guest,hg,ag,tournament\n2026-01-01,Ann,Bo,1,0,Friendly\n2026-01-02,Ann,Bo,{cell},0,Friendly\n"),
        )
        .unwrap();
        fails(
            &[
                "import",
                &f,
                &csv,
                "--a-col",
                "host",
                "--b-col",
                "guest",
                "--goals-a-col",
                "hg",
                "--goals-b-col",
                "ag",
                "--class-col",
                "tournament",
            ],
            &["bad.csv", "line 3", &format!("field `{field}`"), cell],
        );
    }
    let csv = dir.path("weight.csv");
    std::fs::write(
        &csv,
        "date,host,guest,hg,ag,tournament\n2026-01-01,Ann,Bo,1,0,1e308\n",
    )
    .unwrap();
    fails(
        &[
            "import",
            &f,
            &csv,
            "--a-col",
            "host",
            "--b-col",
            "guest",
            "--goals-a-col",
            "hg",
            "--goals-b-col",
            "ag",
            "--class-col",
            "tournament",
        ],
        &["weight.csv", "line 2", "field `tournament`", "1e308"],
    );
    assert_eq!(rungs(&["export", &f, "-"]), before);
    // JSONL: out-of-range goals, a result the score contradicts, a hostile weight.
    let row = r#"{"action":2,"action_kind":"do","label":"added","op":"add","seq":3,"date":"2026-01-01","event":{"kind":"match","a":[0],"b":[1],"result":{"played":"Win"},EXTRA}}"#;
    for (extra, named) in [
        (
            r#""goals":[-1,0]"#,
            "goals [-1, 0] must be whole numbers from 0 to 1000",
        ),
        (
            r#""goals":[1e308,0]"#,
            "goals [1e308, 0] must be whole numbers",
        ),
        (
            r#""goals":[9223372036854775808,0]"#,
            "goals [9.223372036854776e18, 0]",
        ),
        (r#""goals":[2.5,0]"#, "goals [2.5, 0]"),
        (
            r#""goals":[2000,0]"#,
            "goals [2000, 0] must be whole numbers",
        ),
        (r#""goals":[0,1]"#, "0-1 does not agree with the result"),
        (
            r#""goals":[1,0],"class":1e308"#,
            "field `class`: 1e308 is not a weight",
        ),
    ] {
        let log = dir.path("bad.jsonl");
        std::fs::write(&log, format!("{before}{}\n", row.replace("EXTRA", extra))).unwrap();
        let copy = dir.path("copy.rungs");
        fails(
            &["import-log", &copy, &log],
            &["bad.jsonl", "line 4", named],
        );
        assert!(
            !std::path::Path::new(&copy).exists(),
            "{extra}: a ladder was made"
        );
    }
}

#[test]
fn the_international_layout_keeps_goals_and_maps_tournaments() {
    let dir = Dir::new("goals-intl");
    let csv = dir.path("results.csv");
    std::fs::write(
        &csv,
        "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n\
         2026-01-01,Spain,Chile,3,1,Friendly,Madrid,Spain,FALSE\n\
         2026-01-02,Chile,Spain,0,0,FIFA World Cup qualification,Santiago,Chile,FALSE\n\
         2026-01-03,Spain,Chile,2,1,FIFA World Cup,Doha,Qatar,TRUE\n\
         2026-01-04,Chile,Spain,1,2,Copa del Pacífico,Lima,Peru,TRUE\n",
    )
    .unwrap();
    let f = dir.path("intl.rungs");
    rungs(&["new", &f, "--system", "goals"]);
    rungs(&["import", &f, &csv, "--preset", "international"]);
    let got = scores(&f);
    let classes: Vec<&str> = got.iter().map(|g| g.1.as_str().unwrap()).collect();
    assert_eq!(classes, ["friendly", "league", "championship", "cup"]);
    assert_eq!(got[0].0, serde_json::json!([3, 1]));
    let table = json(&["standings", &f, "--json"]);
    assert!(table.to_string().contains("attack"), "{table}");
    rungs(&["evaluate", &f, "--system", "goals", "--system", "elo"]);
    rungs(&[
        "fit",
        &f,
        "--system",
        "goals",
        "--params",
        "advantage",
        "--objective",
        "three-outcome",
    ]);
    fails(
        &["fit", &f, "--objective", "brier"],
        &["field `objective`", "brier"],
    );
}
