//! Rounds in the log through the real binary: `rungs pair --save`, results by
//! board (`rungs result`), `rungs round`, forbidden and avoided pairs as events, undo, export
//! and import-log, and hostile input named with nothing changed.

use crate::support::cli as cli_support;
use cli_support::Dir;
use cli_support::{LADDER, assert_mentions};
use serde_json::Value;

/// An Elo ladder (K = 32): Ann beat Cy and Bo beat Di on 8 January, so Ann and Bo stand at
/// 1516 and Cy and Di at 1484 (a game between equals moves 32 · ½ = 16); Ed has not played.
fn club(dir: &Dir) {
    dir.ok(&["new", LADDER, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        LADDER,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "Ed",
        "--date",
        "2026-01-01",
    ]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Cy",
        "1",
        "--date",
        "2026-01-08",
    ]);
    dir.ok(&["add-match", LADDER, "Bo", "Di", "1", "--date", "2026-01-08"]);
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The boards of a round's JSON as `[a, b]` names, in board order.
fn boards(round: &Value) -> Vec<[String; 2]> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            [
                b["a"].as_str().unwrap().to_string(),
                b["b"].as_str().unwrap().to_string(),
            ]
        })
        .collect()
}

fn rating(dir: &Dir, player: &str) -> f64 {
    let s = json(&dir.ok(&["standings", LADDER, "--json", "--all"]));
    s.as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == player)
        .unwrap_or_else(|| panic!("{player} not in {s}"))["rating"]
        .as_f64()
        .unwrap()
}

fn save_balanced(dir: &Dir, present: &str) -> Value {
    json(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        present,
        "--date",
        "2026-01-15",
        "--save",
        "--json",
    ]))
}

#[test]
fn a_saved_round_takes_its_results_by_board_and_round_trips_through_export_and_import_log() {
    let dir = Dir::new("round-trip");
    club(&dir);
    dir.ok(&["avoid", LADDER, "Cy", "Ed"]);
    // Five present: the bye goes to the lowest placed, Di (1484, below Cy on the tie).
    // Of the four left, Ann–Bo (|E − ½| = 0) with Cy–Ed (E = 1/(1 + 10^(−16/400)) = 0.52301,
    // 0.02301) would cost 0.02301 — but Cy and Ed are avoided (+0.25): 0.27301. Ann–Ed
    // (0.02301) with Bo–Cy (E = 1/(1 + 10^(−32/400)) = 0.54592, 0.04592) costs 0.06893.
    let r = save_balanced(&dir, "Ann,Bo,Cy,Di,Ed");
    assert_eq!(r["round"], 1, "{r}");
    assert_eq!(r["bye"], "Di", "{r}");
    let b = boards(&r);
    fn sorted(p: &[String; 2]) -> Vec<&str> {
        let mut v = vec![p[0].as_str(), p[1].as_str()];
        v.sort();
        v
    }
    assert_eq!(sorted(&b[0]), ["Ann", "Ed"], "{r}");
    assert_eq!(sorted(&b[1]), ["Bo", "Cy"], "{r}");
    // Board 1, side A wins: the winner gains 32 · (1 − E) where E is their expected score.
    let e = |diff: f64| 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
    dir.ok(&["result", LADDER, "1", "1", "1"]);
    let (a1, b1) = (&b[0][0], &b[0][1]);
    let ra = if a1 == "Ann" { 1516.0 } else { 1500.0 };
    let rb = if b1 == "Ann" { 1516.0 } else { 1500.0 };
    let gain = 32.0 * (1.0 - e(ra - rb));
    assert!((rating(&dir, a1) - (ra + gain)).abs() < 1e-6);
    assert!((rating(&dir, b1) - (rb - gain)).abs() < 1e-6);
    // Board 2 drawn: Bo (1516) loses 32 · (½ − 0.54592) = −1.4695 to Cy.
    dir.ok(&["result", LADDER, "1", "2", "D"]);
    let drawn = 32.0 * (0.5 - e(32.0));
    assert!((rating(&dir, "Bo") - (1516.0 + drawn)).abs() < 1e-6);
    assert!((rating(&dir, "Cy") - (1484.0 - drawn)).abs() < 1e-6);
    let shown = json(&dir.ok(&["round", LADDER, "1", "--json"]));
    assert_eq!(shown["boards"][0]["result"], "1", "{shown}");
    assert_eq!(shown["boards"][1]["result"], "0.5", "{shown}");
    assert_eq!(shown["bye"], "Di");
    let text = dir.ok(&["round", LADDER, "1"]);
    assert_mentions(
        &text,
        &["Round 1 — 2026-01-15", "2 of 2 results in", "beat"],
    );

    dir.ok(&["export", LADDER, "log.jsonl"]);
    let log = std::fs::read_to_string(dir.path("log.jsonl")).unwrap();
    assert!(log.contains("\"kind\":\"round\""), "{log}");
    assert!(log.contains("\"kind\":\"pair_rule\""), "{log}");
    assert!(log.contains("\"board\":{\"board\":1,\"round\":1}"), "{log}");
    dir.ok(&["import-log", "copy.rungs", "log.jsonl"]);
    assert_eq!(
        dir.ok(&["round", "copy.rungs", "1", "--json"]),
        dir.ok(&["round", LADDER, "1", "--json"])
    );
    assert_eq!(
        dir.ok(&["standings", "copy.rungs", "--json"]),
        dir.ok(&["standings", LADDER, "--json"])
    );
    dir.ok(&["export", "copy.rungs", "again.jsonl"]);
    assert_eq!(
        std::fs::read_to_string(dir.path("again.jsonl")).unwrap(),
        log
    );
    assert_mentions(&dir.ok(&["check", "copy.rungs"]), &["sound"]);
    // The avoided pair came across: lifting it in the copy works, a second lift is refused.
    dir.ok(&["unavoid", "copy.rungs", "Cy", "Ed"]);
    assert_mentions(
        &dir.fail(&["unavoid", "copy.rungs", "Ed", "Cy"]),
        &["Ed and Cy are not avoided"],
    );
}

#[test]
fn undo_takes_a_round_back_and_its_number_is_free_again() {
    let dir = Dir::new("round-undo");
    club(&dir);
    let before = dir.snapshot(LADDER);
    save_balanced(&dir, "Ann,Bo,Cy,Di");
    assert_mentions(
        &dir.ok(&["undo", LADDER]),
        &["saved round 1 (balanced, 2 boards)"],
    );
    assert_eq!(dir.snapshot(LADDER).0, before.0);
    assert_mentions(
        &dir.fail(&["round", LADDER, "1"]),
        &["field `round`", "`1`", "no rounds"],
    );
    dir.ok(&["redo", LADDER]);
    assert_eq!(json(&dir.ok(&["round", LADDER, "1", "--json"]))["round"], 1);
    // A result, then undo twice: the result goes first, then the round.
    dir.ok(&["result", LADDER, "1", "2", "2"]);
    dir.ok(&["undo", LADDER]);
    dir.ok(&["undo", LADDER]);
    let r = save_balanced(&dir, "Ann,Bo,Cy,Di");
    assert_eq!(
        r["round"], 1,
        "the undone round's number is taken again: {r}"
    );
}

#[test]
fn a_forbidden_pair_in_the_ladder_never_meets() {
    let dir = Dir::new("round-forbid");
    club(&dir);
    // Ann–Bo and Cy–Di are the closest games; forbidding both makes the pairing cross.
    dir.ok(&["forbid", LADDER, "Ann", "Bo"]);
    dir.ok(&["forbid", LADDER, "Di", "Cy"]);
    for format in ["balanced", "swiss"] {
        for seed in 0..6 {
            let seed = seed.to_string();
            let r = json(&dir.ok(&[
                "pair",
                LADDER,
                "--present",
                "Ann,Bo,Cy,Di",
                "--format",
                format,
                "--seed",
                &seed,
                "--date",
                "2026-01-15",
                "--json",
            ]));
            for [a, b] in boards(&r) {
                let mut p = [a.as_str(), b.as_str()];
                p.sort();
                assert!(
                    p != ["Ann", "Bo"] && p != ["Cy", "Di"],
                    "{format} {seed}: {r}"
                );
            }
        }
    }
    // Lifted, the closest games come back.
    dir.ok(&["unforbid", LADDER, "Bo", "Ann"]);
    dir.ok(&["unforbid", LADDER, "Cy", "Di"]);
    let r = save_balanced(&dir, "Ann,Bo,Cy,Di");
    let first: Vec<_> = boards(&r)
        .into_iter()
        .map(|[a, b]| {
            let mut p = [a, b];
            p.sort();
            p
        })
        .collect();
    assert!(
        first.contains(&["Ann".to_string(), "Bo".to_string()]),
        "{r}"
    );
}

#[test]
fn the_next_swiss_round_pairs_from_the_results_without_a_rematch() {
    let dir = Dir::new("round-swiss");
    club(&dir);
    let swiss = |dir: &Dir| {
        json(&dir.ok(&[
            "pair",
            LADDER,
            "--present",
            "Ann,Bo,Cy,Di",
            "--format",
            "swiss",
            "--date",
            "2026-01-15",
            "--save",
            "--json",
        ]))
    };
    // Round 1, Dutch: top half (Ann, Bo) against bottom half (Cy, Di).
    let r1 = swiss(&dir);
    assert_eq!(r1["round"], 1);
    let b1 = boards(&r1);
    // Side A wins board 1; side B wins board 2.
    dir.ok(&["result", LADDER, "1", "1", "1"]);
    dir.ok(&["result", LADDER, "1", "2", "2"]);
    let winners = [b1[0][0].clone(), b1[1][1].clone()];
    let losers = [b1[0][1].clone(), b1[1][0].clone()];
    // Round 2 continues the event (same night): the two on 1 point meet, as do the two on 0.
    let r2 = swiss(&dir);
    assert_eq!(r2["round"], 2);
    let shown = json(&dir.ok(&["round", LADDER, "2", "--json"]));
    assert_eq!(shown["event"], 1, "{shown}");
    for [a, b] in boards(&r2) {
        let both_won = winners.contains(&a) && winners.contains(&b);
        let both_lost = losers.contains(&a) && losers.contains(&b);
        assert!(both_won || both_lost, "{a} v {b} after {b1:?}: {r2}");
    }
}

#[test]
fn hostile_input_is_named_and_changes_nothing() {
    let dir = Dir::new("round-hostile");
    club(&dir);
    save_balanced(&dir, "Ann,Bo,Cy,Di");
    dir.ok(&["result", LADDER, "1", "1", "1"]);
    let cases: &[(&[&str], &[&str])] = &[
        (&["forbid", LADDER, "Ann", "Zed"], &["Zed"]),
        (
            &["forbid", LADDER, "Ann", "ann"],
            &["Ann and Ann", "themselves"],
        ),
        (
            &["unforbid", LADDER, "Ann", "Bo"],
            &["Ann and Bo are not forbidden"],
        ),
        (
            &["round", LADDER, "9223372036854775807"],
            &["field `round`", "9223372036854775807", "round 1"],
        ),
        (
            &["result", LADDER, "9223372036854775807", "1", "1"],
            &["field `round`", "9223372036854775807"],
        ),
        (
            &["result", LADDER, "-1", "1", "1"],
            &["field `round`", "-1"],
        ),
        (
            &["result", LADDER, "1", "0", "1"],
            &["field `board`", "boards 1–2"],
        ),
        (
            &["result", LADDER, "1", "18446744073709551616", "1"],
            &["field `board`"],
        ),
        (
            &["result", LADDER, "1", "1", "D"],
            &["board 1 of round 1", "already"],
        ),
        (&["result", LADDER, "1", "2", "3"], &["field `score`", "3"]),
        (
            &["result", LADDER, "1", "2", "1", "--date", "2026-01-14"],
            &["field `date`", "before round 1"],
        ),
        (
            &["pair", LADDER, "--present", "Ann,Bo,Ann", "--save"],
            &["Ann", "twice"],
        ),
        (
            &["pair", LADDER, "--present", "Ann,Bo,Zed", "--save"],
            &["Zed"],
        ),
        (
            &[
                "pair",
                LADDER,
                "--present",
                "Ann,Bo",
                "--format",
                "swiss",
                "--event",
                "9223372036854775807",
                "--save",
            ],
            &["field `event`", "9223372036854775807"],
        ),
        (
            &[
                "pair",
                LADDER,
                "--present",
                "Ann,Bo",
                "--bye",
                "maybe",
                "--save",
            ],
            &["field `bye`", "maybe"],
        ),
    ];
    for (args, parts) in cases {
        let message = dir.fails_unchanged(LADDER, args);
        assert_mentions(&message, parts);
    }
}

#[test]
fn an_imported_log_with_a_bad_round_is_refused_by_field_and_player() {
    let dir = Dir::new("round-import");
    club(&dir);
    save_balanced(&dir, "Ann,Bo,Cy,Di");
    dir.ok(&["export", LADDER, "log.jsonl"]);
    let log = std::fs::read_to_string(dir.path("log.jsonl")).unwrap();
    let line = log
        .lines()
        .find(|l| l.contains("\"kind\":\"round\""))
        .unwrap();
    let v = json(line);
    let boards = v["event"]["round"]["boards"].clone();
    // Board 2 made to name board 1's side A again.
    let a = boards[0][0].clone();
    let mut bad = v.clone();
    bad["event"]["round"]["boards"][1][0] = a;
    let name = ["Ann", "Bo", "Cy", "Di", "Ed"][boards[0][0].as_u64().unwrap() as usize];
    std::fs::write(dir.path("bad.jsonl"), log.replace(line, &bad.to_string())).unwrap();
    let message = dir.fail(&["import-log", "bad.rungs", "bad.jsonl"]);
    assert_mentions(&message, &["round", name, "board 1", "board 2"]);
    assert!(!dir.path("bad.rungs").exists());
    // A pairing rule of a player with themselves.
    let rule = r#"{"action":9,"action_kind":"do","date":"2026-01-15","event":{"a":1,"b":1,"kind":"pair_rule","rule":"forbid"},"label":"x","op":"add","seq":99}"#;
    std::fs::write(dir.path("self.jsonl"), format!("{}{rule}\n", log)).unwrap();
    let message = dir.fail(&["import-log", "self.rungs", "self.jsonl"]);
    assert_mentions(&message, &["rule", "Bo and Bo"]);
}

#[test]
fn a_result_edited_to_other_players_leaves_its_board_open() {
    let dir = Dir::new("round-edit");
    club(&dir);
    save_balanced(&dir, "Ann,Bo,Cy,Di");
    let added = json(&dir.ok(&["result", LADDER, "1", "1", "1", "--json"]));
    let seq = added["seq"].to_string();
    // The same players, another result: still the board's.
    dir.ok(&["edit-match", LADDER, &seq, "--score", "0.5"]);
    let r = json(&dir.ok(&["round", LADDER, "1", "--json"]));
    assert_eq!(r["boards"][0]["result"], "0.5", "{r}");
    // Another player on side B: no longer board 1's result, which is open again.
    dir.ok(&["edit-match", LADDER, &seq, "--b", "Ed"]);
    let r = json(&dir.ok(&["round", LADDER, "1", "--json"]));
    assert_eq!(r["boards"][0]["result"], Value::Null, "{r}");
    dir.ok(&["result", LADDER, "1", "1", "2"]);
}
