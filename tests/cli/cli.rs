//! The command line's good paths through the real binary: what scripts rely on.

use serde_json::Value;

use crate::support::binary::{Dir, json, rungs};

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
fn standings_json_has_each_systems_figures() {
    let expected: [(&str, &[&str]); 5] = [
        ("skyweaver", &["rating", "deviation", "rp", "tier"]),
        (
            "inversus",
            &["mu", "phi", "sigma", "rating", "deviation", "rp"],
        ),
        ("allegskill", &["mu", "sigma", "rank"]),
        ("memoir44", &["rating"]),
        ("elo", &["rating"]),
    ];
    for (system, keys) in expected {
        let dir = Dir::new(system);
        let f = club(&dir, system);
        let rows = json(&["standings", &f, "--json"]);
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 3);
        let ann = rows.iter().find(|r| r["player"] == "Ann").unwrap();
        assert_eq!(
            (
                ann["matches"].as_u64(),
                ann["wins"].as_u64(),
                ann["losses"].as_u64()
            ),
            (Some(2), Some(2), Some(0))
        );
        for k in ["player", "matches", "wins", "draws", "losses"]
            .iter()
            .chain(keys)
        {
            assert!(ann.get(*k).is_some(), "{system}: no `{k}` in {ann}");
        }
        assert_eq!(rows[0]["player"], "Ann", "{system}: Ann, unbeaten, leads");
    }
}

#[test]
fn standings_at_a_date_or_event_and_history() {
    let dir = Dir::new("at");
    let f = club(&dir, "elo");
    let at_date = json(&["standings", &f, "--json", "--at", "2026-01-02"]);
    let bo = at_date
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "Bo")
        .unwrap()
        .clone();
    assert_eq!(
        (bo["matches"].as_u64(), bo["rating"].as_f64()),
        (Some(1), Some(1484.0))
    );
    // Event 4 is the first match (players are events 1–3).
    let at_event = json(&["standings", &f, "--json", "--at", "4"]);
    assert_eq!(at_event, at_date);
    let history = json(&["history", &f, "Ann", "--json"]);
    let scores: Vec<f64> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["rating"].as_f64().unwrap())
        .collect();
    assert_eq!(scores.len(), 3, "joined, then two matches");
    assert_eq!(scores[..2], [1500.0, 1516.0]);
}

#[test]
fn replay_under_other_rules_leaves_the_file_alone() {
    let dir = Dir::new("replay");
    let f = club(&dir, "skyweaver");
    let before = rungs(&["standings", &f, "--json"]);
    let elo = json(&["replay", &f, "--system", "elo", "--param", "k=16", "--json"]);
    let ann = elo
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "Ann")
        .unwrap()
        .clone();
    // Elo, K = 16, A expecting E = 1/(1 + 10^((r_B − r_A)/400)):
    //   Ann beats Bo, 1500 v 1500: E = ½, Ann +16·½ = +8 → 1508, Bo 1492.
    //   Bo draws Cy, 1492 v 1500: E_Bo = 1/(1 + 10^(8/400)) = 0.4884891087822…,
    //     Bo +16·(½ − E_Bo) = +0.1841742594847 → 1492.1841742594847, Cy 1499.8158257405153.
    //   Ann beats Cy, 1508 v 1499.8158257405153: E_Cy = 1/(1 + 10^(8.1841742594847/400))
    //     = 0.4882242044507…, Ann +16·E_Cy = +7.8115872712116 → 1515.8115872712117.
    let rating = ann["rating"].as_f64().unwrap();
    assert!(
        (rating - 1_515.811_587_271_211_7).abs() < 1e-9,
        "Ann's rating under K = 16 is {rating}"
    );
    assert!(ann.get("rp").is_none(), "elo has no RP: {ann}");
    assert_eq!(rungs(&["standings", &f, "--json"]), before);
}

#[test]
fn export_then_import_log_gives_identical_standings_and_undo_survives() {
    let dir = Dir::new("log");
    let f = club(&dir, "inversus");
    rungs(&["undo", &f]);
    let out = dir.path("log.jsonl");
    rungs(&["export", &f, &out]);
    let copy = dir.path("copy.rungs");
    rungs(&["import-log", &copy, &out]);
    assert_eq!(
        rungs(&["standings", &copy, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
    // The undone match comes back in the copy too.
    rungs(&["redo", &copy]);
    rungs(&["redo", &f]);
    assert_eq!(
        rungs(&["standings", &copy, "--json"]),
        rungs(&["standings", &f, "--json"])
    );
    let csv = dir.path("matches.csv");
    rungs(&["export", &f, &csv]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("date,player_a,player_b,score") && text.lines().count() == 4,
        "{text}"
    );
}

#[test]
fn edit_delete_and_a_soft_reset_preview() {
    let dir = Dir::new("edit");
    let f = club(&dir, "skyweaver");
    rungs(&["edit-match", &f, "4", "--score", "0"]);
    let rows = json(&["standings", &f, "--json"]);
    let bo = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "Bo")
        .unwrap()
        .clone();
    assert_eq!(bo["wins"].as_u64(), Some(1));
    rungs(&["delete-event", &f, "4"]);
    let rows = json(&["standings", &f, "--json"]);
    let bo = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == "Bo")
        .unwrap()
        .clone();
    assert_eq!(bo["matches"].as_u64(), Some(1));
    let before = rungs(&["standings", &f, "--json"]);
    let preview = json(&[
        "soft-reset",
        &f,
        "--preview",
        "--json",
        "--date",
        "2026-01-07",
    ]);
    assert!(
        !preview.as_array().unwrap().is_empty(),
        "RD grows for everyone"
    );
    assert_eq!(
        rungs(&["standings", &f, "--json"]),
        before,
        "a preview changes nothing"
    );
    let done = json(&["soft-reset", &f, "--json", "--date", "2026-01-07"]);
    assert_eq!(done, preview, "the applied reset is the previewed one");
}

/// The Skyweaver white paper's Table 2 puts an old Master at 1100 RP and calls them
/// "Master", but Table 1 puts 1100 in Expert III (Master starts at 1200). rungs follows
/// Table 1 (floor Expert I 900, hard reset 800) and the migration preview says so.
#[test]
fn migration_preview_says_table_twos_master_is_expert_three() {
    let dir = Dir::new("migrate-master");
    let f = dir.path("club.rungs");
    rungs(&["new", &f]);
    rungs(&["add-player", &f, "Ann", "Bo", "--date", "2026-01-01"]);
    let list = dir.path("elo.csv");
    std::fs::write(&list, "player,elo,rank\nAnn,2050,Master\nBo,1700,Scholar\n").unwrap();
    let out = rungs(&["migrate", &f, &list, "--preview", "--date", "2026-01-02"]);
    assert!(
        out.contains("Ann: Master (1100 RP, Expert III by Table 1)"),
        "{out}"
    );
    assert!(
        !out.contains("Bo: Scholar"),
        "Scholar's 700 is Apprentice II in both: {out}"
    );
    assert!(out.contains("Wanderer → Expert III"), "{out}");
}

/// The Memoir '44 ranking's Appendix I gives each scenario side its average score, the
/// standard deviation of its medal counts and the distance between the two averages.
/// Pegasus: Ann as the Allies beats Bo 4–1; Bo as the Axis beats Ann 4–2; Ann as the
/// Allies beats Bo 3–2.
///   Allies 4, 2, 3: average 3, sample SD √((1 + 1 + 0)/2) = 1;
///   Axis 1, 4, 2: average 7/3 = 2.3333, SD √((16/9 + 25/9 + 1/9)/2) = √(7/3) = 1.5275;
///   distance |3 − 7/3| = 0.6667.
#[test]
fn scenarios_show_averages_deviations_and_their_distance() {
    let dir = Dir::new("scenario-stats");
    let f = dir.path("m.rungs");
    rungs(&["new", &f, "--system", "memoir44"]);
    rungs(&["add-player", &f, "Ann", "Bo", "--date", "2026-01-01"]);
    for (day, a, b, side, medals) in [
        ("02", "Ann", "Bo", "Allies", "4,1"),
        ("03", "Bo", "Ann", "Axis", "4,2"),
        ("04", "Ann", "Bo", "Allies", "3,2"),
    ] {
        rungs(&[
            "add-match",
            &f,
            a,
            b,
            "1",
            "--medals",
            medals,
            "--scenario",
            "Pegasus",
            "--side-a",
            side,
            "--date",
            &format!("2026-01-{day}"),
        ]);
    }
    let v = json(&["scenarios", &f, "--json"]);
    let s = &v["scenarios"]["pegasus"];
    let close = |x: &Value, want: f64| {
        let got = x.as_f64().unwrap_or(f64::NAN);
        assert!((got - want).abs() < 1e-9, "{got} ≠ {want}: {v}");
    };
    close(&s["averages"][0], 3.0);
    close(&s["averages"][1], 7.0 / 3.0);
    close(&s["standard_deviations"][0], 1.0);
    close(&s["standard_deviations"][1], (7.0f64 / 3.0).sqrt());
    close(&s["distance"], 2.0 / 3.0);
    assert_eq!(s["battles"].as_u64(), Some(3));
    let text = rungs(&["scenarios", &f]);
    for part in [
        "Allies 2.0 wins, average 3.0 ± 1.0",
        "Axis 1.0 wins, average 2.3 ± 1.5",
        "averages 0.7 apart",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
}
