//! `rungs tiers`: the demo cut to a stated target through the binary, its "after" equal to
//! `seasons --json` once applied, undone by `rungs undo`; hostile targets refused by name.

use crate::support::binary::{Dir, fails, json, rungs};
use serde_json::Value;

/// The target (percent, Wanderer first; Master's counts the Grandweavers). Wanderer 10 and
/// Trainee I 16: some 3 % of season ends sit on Trainee I's floor wherever its minimum goes.
const TARGET: &str = "wanderer=10,trainee-i=16,trainee-ii=13,trainee-iii=11,apprentice-i=10,\
    apprentice-ii=9,apprentice-iii=8,expert-i=8,expert-ii=7,expert-iii=5,master=3";

/// The demo ladder as the manual builds it from the command line.
fn demo(dir: &Dir) -> String {
    let file = dir.path("demo.rungs");
    let csv = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/international_results.csv.gz"
    );
    rungs(&[
        "new",
        &file,
        "--soft-every",
        "365",
        "--hard-every",
        "4",
        "--anchor",
        "2026-08-01",
        "--param",
        "c=10",
        "--param",
        "hard_reset_span=1500",
        "--param",
        "grandweaver_count=10",
    ]);
    rungs(&["import", &file, csv, "--preset", "international"]);
    file
}

/// The pooled end counts of `seasons` (a `seasons --json` array or `tiers --json`'s side).
fn pooled(seasons: &[Value]) -> Value {
    let mut total = serde_json::Map::new();
    for s in seasons {
        for (tier, n) in s["end_counts"].as_object().unwrap() {
            let sum = total.get(tier).and_then(Value::as_u64).unwrap_or(0) + n.as_u64().unwrap();
            total.insert(tier.clone(), sum.into());
        }
    }
    Value::Object(total)
}

#[test]
fn the_demo_is_cut_to_a_target_and_the_seasons_agree() {
    let dir = Dir::new("tiers-cli");
    let file = demo(&dir);
    let before_seasons = json(&["seasons", &file, "--json"]);
    let proposal = json(&["tiers", &file, "--target", TARGET, "--json"]);
    // Before: the ladder's own archive, season by season.
    let flow_keys = ["number", "tier_flow", "end_counts", "end_shares"];
    let of = |v: &Value| -> Vec<Value> {
        v.as_array()
            .unwrap()
            .iter()
            .filter(|s| s.get("tier_flow").is_some())
            .map(|s| {
                Value::Object(
                    flow_keys
                        .iter()
                        .map(|k| (k.to_string(), s[*k].clone()))
                        .collect(),
                )
            })
            .collect()
    };
    assert_eq!(of(&before_seasons), of(&proposal["before"]["seasons"]));
    // After: every share within a point of its target (Master with the Grandweavers).
    let shares = &proposal["after"]["shares"];
    for (tier, target) in proposal["targets"].as_object().unwrap() {
        let mut share = shares[tier].as_f64().unwrap();
        if tier == "Master" {
            share += shares["Grandweaver"].as_f64().unwrap();
        }
        let target = target.as_f64().unwrap();
        assert!(
            (share - target).abs() <= 1.0,
            "{tier}: {share} for {target}"
        );
    }
    assert_eq!(proposal["unreachable"], Value::Array(vec![]));
    // The printed table's Master row counts the Grandweavers as its target does (it showed
    // Master alone, 1.1 % against a target of 3.0 %, with the Grandweavers' 2.0 % below).
    let text = rungs(&["tiers", &file, "--target", TARGET]);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("Master and up"))
        .unwrap_or_else(|| panic!("no Master row: {text}"));
    let both = shares["Master"].as_f64().unwrap() + shares["Grandweaver"].as_f64().unwrap();
    assert!(
        row.trim_end().ends_with(&format!("{both:.1} %")),
        "{row} against {both:.1}"
    );
    // Applied: one rules change, and `seasons --json` shows what the preview showed.
    let applied = json(&["tiers", &file, "--target", TARGET, "--apply", "--json"]);
    assert!(
        applied["applied"]["label"]
            .as_str()
            .unwrap()
            .contains("tier_minimums=")
    );
    let after_seasons = json(&["seasons", &file, "--json"]);
    assert_eq!(of(&after_seasons), of(&proposal["after"]["seasons"]));
    assert_eq!(
        pooled(after_seasons.as_array().unwrap()),
        proposal["after"]["counts"]
    );
    // Undone: the archive is the one before.
    rungs(&["undo", &file]);
    assert_eq!(json(&["seasons", &file, "--json"]), before_seasons);
}

#[test]
fn hostile_targets_are_refused_by_name() {
    let dir = Dir::new("tiers-hostile");
    let file = dir.path("club.rungs");
    rungs(&["new", &file]);
    for (target, named) in [
        ("wanderer=-5,master=105", "Wanderer's share"),
        ("wanderer=NaN,master=100", "Wanderer's share"),
        ("wanderer=100,trainee-i=100,master=50", "sum to 250"),
        ("bronze=50,master=50", "bronze"),
        ("wanderer=50,wanderer=50", "given twice"),
        ("grandweaver=100", "Grandweaver"),
        ("wanderer=1e308", "Wanderer's share"),
        // A zero-width space inside the name was dropped and the name read as Wanderer's.
        ("wander\u{200b}er=100", "wanderU+200Ber"),
        ("wanderer\u{202e}=100", "wandererU+202E"),
    ] {
        fails(
            &["tiers", &file, "--target", target],
            &["field `target`", named],
        );
    }
    // A ladder without seasons has nothing to cut by.
    rungs(&["add-player", &file, "Ann", "Bo"]);
    fails(
        &["tiers", &file, "--target", "wanderer=100"],
        &["no finished season"],
    );
}

/// `rungs params skyweaver` lists the tier minimums beside the single numbers, with Table 1's
/// values (Wanderer 200 to Master 1200 by hundreds); a system without tiers does not.
#[test]
fn the_tier_minimums_are_listed_among_skyweavers_parameters() {
    let listed = rungs(&["params", "skyweaver"]);
    let line = listed
        .lines()
        .find(|l| l.trim_start().starts_with("tier_minimums"))
        .unwrap_or_else(|| panic!("no tier_minimums: {listed}"));
    assert!(
        line.contains("= 200,300,400,500,600,700,800,900,1000,1100,1200;"),
        "{line}"
    );
    assert!(!rungs(&["params", "elo"]).contains("tier_minimums"));
}
