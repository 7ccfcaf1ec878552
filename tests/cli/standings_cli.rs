//! The standings as `rungs standings` prints them.

use crate::support::cli as cli_support;
use cli_support::Dir;
use cli_support::LADDER;

/// Retiring the third of four once left the standings numbered 1, 2, 4.
/// A place is a place on the leaderboard: 1, 2, 3 among the players it lists, and a player
/// left off it (shown with `--all`) has none.
#[test]
fn places_on_the_leaderboard_have_no_gaps() {
    let dir = Dir::new("places");
    dir.ok(&["new", LADDER, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        LADDER,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "--date",
        "2026-01-01",
    ]);
    // Ann 1516, Bo 1516, then Di 1500 (no game), Cy 1468 (two losses: −16, then −15.3…).
    dir.ok(&[
        "add-match",
        LADDER,
        "Ann",
        "Cy",
        "1",
        "--date",
        "2026-01-02",
    ]);
    dir.ok(&["add-match", LADDER, "Bo", "Cy", "1", "--date", "2026-01-02"]);
    dir.ok(&["retire", LADDER, "Di"]);
    let places = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                let place = w.next()?.to_string();
                let name = w.next()?.to_string();
                ["Ann", "Bo", "Cy", "Di"]
                    .contains(&name.as_str())
                    .then_some((place, name))
            })
            .collect()
    };
    let shown = places(&dir.ok(&["standings", LADDER]));
    let want = |rows: &[(&str, &str)]| -> Vec<(String, String)> {
        rows.iter()
            .map(|(p, n)| (p.to_string(), n.to_string()))
            .collect()
    };
    assert_eq!(shown, want(&[("1", "Ann"), ("2", "Bo"), ("3", "Cy")]));
    let all = places(&dir.ok(&["standings", LADDER, "--all"]));
    assert_eq!(
        all,
        want(&[("1", "Ann"), ("2", "Bo"), ("—", "Di"), ("3", "Cy")])
    );
}
