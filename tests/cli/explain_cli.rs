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
    assert!(message.contains("no event 9"), "{message}");
    let message = dir.fail(&["explain", LADDER, "9223372036854775807"]);
    assert!(
        message.contains("no event 9223372036854775807"),
        "{message}"
    );
    let message = dir.fail(&["explain", LADDER, "-1"]);
    assert!(
        message.contains("field `event`: `-1` is not an event's sequence number"),
        "{message}"
    );
    let message = dir.fail(&["explain", LADDER, "3", "Zed"]);
    assert!(message.contains("Zed"), "{message}");
}

/// A ladder rated by weekly rating periods: the explanation shows the period's games so far,
/// and its last figures are the history's.
#[test]
fn explain_shows_a_rating_period() {
    let dir = Dir::new("explain-period");
    dir.ok(&[
        "new",
        LADDER,
        "--system",
        "skyweaver",
        "--param",
        "rating_period_days=7",
    ]);
    dir.ok(&[
        "add-player",
        LADDER,
        "Ann",
        "Bo",
        "Cy",
        "--date",
        "2026-01-05",
    ]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Bo",
        "1",
        "--date",
        "2026-01-06",
    ]);
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Cy",
        "0",
        "--date",
        "2026-01-07",
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&dir.ok(&["explain", LADDER, "5", "Ann", "--json"])).unwrap();
    let ann = &json["players"][0];
    let period = ann["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"].as_str().unwrap().starts_with("Rating period"))
        .expect("a rating period section");
    // Both of Ann's games this week, each against the opponent as the week began (1500 ± 350).
    let opponents: Vec<f64> = period["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["symbol"] == "r_j")
        .map(|s| s["value"].as_f64().unwrap())
        .collect();
    assert_eq!(opponents, [1500.0, 1500.0]);
    let r = period["steps"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|s| s["symbol"] == "r'")
        .unwrap()["value"]
        .as_f64();
    assert_eq!(r, ann["after"]["rating"].as_f64());
}
