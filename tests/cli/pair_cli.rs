//! `rungs pair` through the real binary: tonight's boards from the ladder's own
//! forecast, the bye, forbidden pairs, round robins, and bad input named.

use crate::support::cli as cli_support;
use cli_support::Dir;
use cli_support::{LADDER, assert_mentions};
use serde_json::Value;
use std::collections::BTreeSet;

/// An Elo ladder (K = 32): Ann beat Cy and Bo beat Di last night, so Ann and Bo stand at
/// 1516 and Cy and Di at 1484 (each game between equals moves 32 · ½ = 16); Ed joined and has
/// not played (1500).
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

fn pairs(round: &Value) -> BTreeSet<BTreeSet<String>> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            [&b["a"], &b["b"]]
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

fn set(pairs: &[[&str; 2]]) -> BTreeSet<BTreeSet<String>> {
    pairs
        .iter()
        .map(|p| p.iter().map(|n| n.to_string()).collect())
        .collect()
}

#[test]
fn balanced_pairs_the_closest_games_and_gives_the_bye_to_the_lowest_placed() {
    let dir = Dir::new("pair-balanced");
    club(&dir);
    let before = dir.snapshot(LADDER);
    // Four present. Ann–Bo and Cy–Di are even games (cost 0 + 0); Ann–Di with Bo–Cy costs
    // |E − ½| = 1/(1 + 10^(−32/400)) − ½ = 0.046 twice; last night's pairs add a rematch
    // penalty of ½ · 2^(−1) = 0.25 each.
    let r: Value = serde_json::from_str(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di",
        "--date",
        "2026-01-15",
        "--json",
    ]))
    .unwrap();
    assert_eq!(pairs(&r), set(&[["Ann", "Bo"], ["Cy", "Di"]]), "{r}");
    assert_eq!(
        (r["round"].as_u64(), r["format"].as_str()),
        (Some(1), Some("balanced"))
    );
    assert_eq!(r["date"], "2026-01-15");
    assert_eq!(r["bye"], Value::Null);
    let b1 = &r["boards"][0];
    assert_eq!(b1["board"], 1);
    // Equal ratings, no side advantage: an even game, with the ladder's draw: two
    // decisive matches, p = 100·0.2449187/102 = 0.2401163, θ = ln(1.2401163/0.7598837) =
    // 0.4897951, P(A wins) = σ(−θ) = 0.3799418, the draw 0.2401163.
    assert!(
        (b1["p_a"].as_f64().unwrap() - 0.379_941_8).abs() < 1e-7,
        "{b1}"
    );
    assert!(
        (b1["p_draw"].as_f64().unwrap() - 0.240_116_3).abs() < 1e-7,
        "{b1}"
    );
    // Five present: the bye goes to the lowest placed (Di, 1484, after Cy by name); Ed
    // (1500) plays Cy: |1/(1 + 10^(−16/400)) − ½| = 0.023, less than Ann–Ed with Bo–Cy
    // (0.023 + 0.046).
    let r: Value = serde_json::from_str(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di,Ed",
        "--date",
        "2026-01-15",
        "--json",
    ]))
    .unwrap();
    assert_eq!(r["bye"], "Di", "{r}");
    assert_eq!(pairs(&r), set(&[["Ann", "Bo"], ["Cy", "Ed"]]), "{r}");
    // Ann and Bo forbidden: Ann–Di with Bo–Cy (0.092) beats the rematches (0.592).
    let r: Value = serde_json::from_str(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di",
        "--forbid",
        "Ann,Bo",
        "--date",
        "2026-01-15",
        "--json",
    ]))
    .unwrap();
    assert_eq!(pairs(&r), set(&[["Ann", "Di"], ["Bo", "Cy"]]), "{r}");
    // The text names the boards and says nothing was saved.
    let text = dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di",
        "--date",
        "2026-01-15",
    ]);
    assert_mentions(
        &text,
        &[
            "Round 1 — 2026-01-15 (balanced)",
            "board  1",
            "nothing is saved",
        ],
    );
    assert_eq!(dir.snapshot(LADDER), before, "pairing writes nothing");
}

#[test]
fn a_round_robin_meets_everyone_once() {
    let dir = Dir::new("pair-rr");
    club(&dir);
    let all: Value = serde_json::from_str(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di",
        "--format",
        "round-robin",
        "--json",
    ]))
    .unwrap();
    let rounds = all.as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    let mut met = BTreeSet::new();
    for r in rounds {
        assert_eq!(r["boards"].as_array().unwrap().len(), 2);
        for p in pairs(r) {
            assert!(met.insert(p.clone()), "{p:?} twice");
        }
    }
    assert_eq!(met.len(), 6, "every pair of four once");
    // Five players: five rounds, each with one bye, everyone sitting out once.
    let all: Value = serde_json::from_str(&dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo,Cy,Di,Ed",
        "--format",
        "round-robin",
        "--json",
    ]))
    .unwrap();
    let byes: BTreeSet<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bye"].as_str().unwrap())
        .collect();
    assert_eq!(byes.len(), 5);
}

#[test]
fn bad_input_is_named_and_nothing_is_paired() {
    let dir = Dir::new("pair-bad");
    club(&dir);
    let m = dir.fail(&["pair", LADDER, "--present", "Ann,Zed"]);
    assert_mentions(&m, &[LADDER, "`present`", "Zed"]);
    let m = dir.fail(&["pair", LADDER]);
    assert_mentions(&m, &["--present", "--all-active"]);
    let m = dir.fail(&[
        "pair",
        LADDER,
        "--present",
        "Ann,Bo",
        "--format",
        "knockout",
    ]);
    assert_mentions(
        &m,
        &["`format`", "knockout", "balanced, swiss or round-robin"],
    );
    let m = dir.fail(&["pair", LADDER, "--present", "Ann,Bo,Cy", "--forbid", "Ann"]);
    assert_mentions(&m, &["`forbid`", "two players"]);
    let m = dir.fail(&["pair", LADDER, "--present", "Ann,Bo", "--forbid", "Ann,Di"]);
    assert_mentions(&m, &["`forbid`", "not present"]);
    let m = dir.fail(&["pair", LADDER, "--present", "Ann,Ann"]);
    assert_mentions(&m, &["Ann"]);
    dir.write("tonight.txt", "# tonight\nAnn\nBo\n\nNobody\n");
    let m = dir.fail(&["pair", LADDER, "--present-file", "tonight.txt"]);
    assert_mentions(&m, &["tonight.txt", "line 5", "Nobody"]);
    // A file with no end is refused in bounded memory, never read to its end.
    let m = dir.fail(&["pair", LADDER, "--present-file", "/dev/zero"]);
    assert_mentions(&m, &["/dev/zero", "larger than 32 MiB"]);
    let m = dir.fail(&["pair", LADDER, "--present", "Ann,Bo", "--seed", "-1"]);
    assert_mentions(&m, &["`seed`", "-1"]);
}
