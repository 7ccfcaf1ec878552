//! `rungs explain`: an event's derivation, as text and as JSON, whose figures are the
//! history's; an event or a player that is not there is said in one line.

use crate::support::cli as cli_support;
use cli_support::Dir;
use cli_support::LADDER;

/// Elo, K = 32: Ann and Bo at 1500, Ann wins (event 3): E = ½, Δ = 32·(1 − ½) = 16, so
/// Ann 1516; the JSON's figures are the history's before and after, and the text prints
/// every figure in full.
#[test]
fn explain_prints_the_derivation_and_the_history_agrees() {
    let dir = Dir::new("explain");
    dir.ok(&["new", LADDER, "--system", "elo"]);
    dir.ok(&["add-player", LADDER, "Ann", "Bo", "--date", "2026-01-01"]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Bo",
        "1",
        "--date",
        "2026-01-02",
    ]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Bo",
        "Ann",
        "1",
        "--date",
        "2026-01-03",
    ]);
    let text = dir.ok(&["explain", LADDER, "3", "Ann"]);
    assert!(
        text.starts_with("Event 3 on 2026-01-02: match (elo)\n\nAnn\n  Elo update\n"),
        "{text}"
    );
    for line in [
        "    E     = 0.5                     expected score: E = 1/(1 + 10^((r_opp − r − h)/400))\n",
        "    Δ     = 16                      change: Δ = K·(s − E)\n",
        "    r'    = 1516                    new rating: r' = r + Δ\n",
        "    K     = 32                      K-factor\n",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&dir.ok(&["explain", LADDER, "4", "--json"])).unwrap();
    assert_eq!(json["seq"], 4);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    // Bo (1484) beats Ann (1516): Bo's E = 1/(1 + 10^(32/400)) = 0.4540781, Δ = 17.4695015.
    assert_eq!(players[0]["name"], "Bo");
    let history: serde_json::Value =
        serde_json::from_str(&dir.ok(&["history", LADDER, "Bo", "--json"])).unwrap();
    let rows = history
        .as_array()
        .unwrap_or_else(|| history["rows"].as_array().unwrap());
    let last = rows.last().unwrap();
    let after = players[0]["after"]["rating"].as_f64().unwrap();
    assert_eq!(Some(after), last["rating"].as_f64(), "{last}");
    assert!((after - 1_501.469_501_5).abs() < 1e-7);
    let steps: Vec<&serde_json::Value> = players[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["steps"].as_array().unwrap())
        .collect();
    let e = steps.iter().find(|s| s["symbol"] == "E").unwrap();
    assert!((e["value"].as_f64().unwrap() - 0.454_078_1).abs() < 1e-7);
    assert_eq!(e["name"], "expected score");

    let message = dir.fail(&["explain", LADDER, "9"]);
    assert!(message.contains("9"), "{message}");
    let message = dir.fail(&["explain", LADDER, "3", "Zed"]);
    assert!(message.contains("Zed"), "{message}");
}
