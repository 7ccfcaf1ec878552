//! `rungs publish` and `rungs standings --csv` through the real binary: the site's structure
//! for a small ladder, checked against `rungs standings --json`.

use crate::support::cli as cli_support;
use cli_support::Dir;
use cli_support::LADDER;
use std::path::Path;

const HOSTILE: &str = "<script>alert(1)</script>";

/// Five players under Skyweaver: Ann beats Bo three times and Cy once, Cy draws the hostile
/// name twice, Di beats Ann, then Di retires. Ed joins and has not played yet (Skyweaver
/// lists a player from the start: `provisional_games` 0).
fn club(dir: &Dir) {
    dir.ok(&["new", LADDER, "--system", "skyweaver"]);
    dir.ok(&[
        "add-player",
        LADDER,
        "Ann Lee",
        "Bo Chen",
        "Cy",
        HOSTILE,
        "Di",
        "--date",
        "2026-01-01",
    ]);
    let games: [(&str, &str, &str, &str); 8] = [
        ("Ann Lee", "Bo Chen", "1", "2026-01-02"),
        ("Ann Lee", "Bo Chen", "1", "2026-01-03"),
        ("Cy", HOSTILE, "draw", "2026-01-03"),
        ("Ann Lee", "Cy", "1", "2026-01-04"),
        ("Cy", HOSTILE, "draw", "2026-01-05"),
        ("Di", "Ann Lee", "1", "2026-01-10"),
        ("Ann Lee", "Bo Chen", "1", "2026-01-12"),
        ("Bo Chen", "Cy", "0", "2026-01-12"),
    ];
    for (a, b, s, d) in games {
        dir.ok(&["add-match", LADDER, a, b, s, "--date", d]);
    }
    dir.ok(&["retire", LADDER, "Di", "--date", "2026-01-13"]);
    dir.ok(&["add-player", LADDER, "Ed", "--date", "2026-01-13"]);
}

/// `a` beats `b` on `date`.
fn win(dir: &Dir, a: &str, b: &str, date: &str) {
    dir.ok(&["add-match", LADDER, a, b, "1", "--date", date]);
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every file of the site, by its path inside it, but for the mark (which records the log
/// as it was at the publish, for the next publish's movement, not anything a page shows).
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().display().to_string();
                if rel != ".rungs-site" {
                    out.push((rel, std::fs::read(&p).unwrap()));
                }
            }
        }
    }
    out.sort();
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The names in the rows of the index's tables, in order, and the pages they link to.
fn row_names(index: &str) -> Vec<(String, Option<String>)> {
    index
        .split(r#"<th scope="row">"#)
        .skip(1)
        .map(|cell| {
            let cell = &cell[..cell.find("</th>").unwrap()];
            match cell.find("<a href=\"") {
                Some(i) => {
                    let rest = &cell[i + 9..];
                    let href = rest[..rest.find('"').unwrap()].to_string();
                    let name = &rest[rest.find('>').unwrap() + 1..rest.find("</a>").unwrap()];
                    (unescape(name), Some(href))
                }
                None => (unescape(cell), None),
            }
        })
        .collect()
}

fn json_names(dir: &Dir, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["standings", LADDER, "--json"];
    args.extend_from_slice(extra);
    let v: serde_json::Value = serde_json::from_str(&dir.ok(&args)).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_str().unwrap().to_string())
        .collect()
}

/// The leaderboard's rows are the players of `rungs standings --json` in its order, the one
/// it leaves off (Di, retired) in a table of its own after them; each row
/// links to a page that exists; the hostile name is text, never markup.
#[test]
fn the_index_lists_the_standings_in_the_order_of_standings_json() {
    let dir = Dir::new("publish-order");
    club(&dir);
    let out = dir.ok(&["publish", LADDER, "site", "--title", "Club <Night>"]);
    assert!(
        out.starts_with("wrote site: index.html, 6 player pages"),
        "{out}"
    );
    let index = read(&dir.path("site/index.html"));
    let rows = row_names(&index);
    let names: Vec<&str> = rows
        .iter()
        .map(|(n, _)| {
            n.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '<')
                .trim()
        })
        .collect();
    let json = json_names(&dir, &[]);
    let off = ["Di"];
    let mut expected: Vec<&str> = json
        .iter()
        .map(String::as_str)
        .filter(|n| !off.contains(n))
        .collect();
    expected.extend(json.iter().map(String::as_str).filter(|n| off.contains(n)));
    assert_eq!(names, expected);
    assert_eq!(json.len(), 6);
    for (_, href) in &rows {
        let href = href.as_ref().expect("every shown player has a page");
        assert!(dir.path("site").join(href).is_file(), "{href}");
    }
    // The heading and the name are escaped wherever they appear.
    assert!(index.contains("<h1>Club &lt;Night&gt;</h1>"));
    assert!(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    for (path, bytes) in files(&dir.path("site")) {
        // An image's pixels are compressed bytes, where "//" can occur by chance; what could
        // carry a link in a PNG is its text chunks, so those are what is read of it.
        let bytes = if path.ends_with(".png") {
            png_text(&bytes)
        } else {
            bytes
        };
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        assert!(!text.contains("<script"), "{path} holds a script element");
        assert!(!text.contains("<night>"), "{path}");
        // Nothing from the network, and every link relative.
        assert!(!text.contains("http"), "{path} names http");
        assert!(
            !text.contains("//"),
            "{path} holds an absolute or protocol-relative URL"
        );
        for attr in ["href=\"/", "src=\"/", "src=\""] {
            assert!(!text.contains(attr), "{path}: {attr}");
        }
    }
    // Tables say what they are: a caption each, every header cell scoped.
    for (path, bytes) in files(&dir.path("site")) {
        if !path.ends_with(".html") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(
            text.matches("<table>").count(),
            text.matches("<caption>").count(),
            "{path}"
        );
        for cell in text.split("<th").skip(1) {
            if cell.starts_with(['>', ' ']) {
                let tag = &cell[..cell.find('>').unwrap()];
                assert!(
                    tag.contains("scope="),
                    "{path}: a header cell without scope"
                );
            }
        }
    }
    // The player page: Ann's record (4 wins, 1 loss), her head to head, her plot.
    let ann_href = &rows.iter().find(|(n, _)| n.ends_with("Ann Lee")).unwrap().1;
    let ann = read(&dir.path("site").join(ann_href.as_ref().unwrap()));
    assert!(ann.contains("<dd>4-0-1</dd>"), "Ann's W-D-L");
    assert!(ann.contains("<svg class=\"plot\""));
    assert!(ann.contains("<dt>Longest winning streak</dt><dd>3</dd>"));
    assert!(ann.contains(
        ">Bo Chen</a></th><td class=\"num\">3</td><td class=\"num\">0</td><td class=\"num\">0</td>"
    ));
    // The share image is a PNG.
    assert!(
        dir.bytes("site/standings.png")
            .starts_with(b"\x89PNG\r\n\x1a\n")
    );
}

/// `--hide-retired`: Di has no line and no page, and no other page names her; `--initials`
/// shows "Ann L." and never "Ann Lee".
#[test]
fn hide_retired_and_initials_leave_names_off() {
    let dir = Dir::new("publish-hide");
    club(&dir);
    dir.ok(&["publish", LADDER, "site", "--hide-retired", "--initials"]);
    let index = read(&dir.path("site/index.html"));
    let names: Vec<String> = row_names(&index).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("Ann L.")));
    for (path, bytes) in files(&dir.path("site")) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(">Di<") && !text.contains("Di</a>"),
            "{path} names Di"
        );
        assert!(
            !text.contains("Ann Lee") && !text.contains("Bo Chen"),
            "{path}"
        );
    }
    // Di's page is gone; Ann's head to head calls her a retired player.
    let pages = files(&dir.path("site/players")).len();
    assert_eq!(pages, 5);
    let ann = read(&dir.path("site/players/0.html"));
    assert!(ann.contains("a retired player"));
}

/// `--at` publishes the ladder as it stood then: the order of `standings --json --at`,
/// and the same bytes each time (a past week published again exactly).
#[test]
fn a_past_point_is_published_again_exactly() {
    let dir = Dir::new("publish-at");
    club(&dir);
    dir.ok(&["publish", LADDER, "a", "--at", "2026-01-05"]);
    win(&dir, "Cy", "Ann Lee", "2026-01-14");
    dir.ok(&["publish", LADDER, "b", "--at", "2026-01-05"]);
    assert_eq!(files(&dir.path("a")), files(&dir.path("b")));
    let names: Vec<String> = row_names(&read(&dir.path("b/index.html")))
        .into_iter()
        .map(|(n, _)| {
            n.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '<')
                .trim()
                .to_string()
        })
        .collect();
    let json = json_names(&dir, &["--at", "2026-01-05"]);
    // On 5 January Di had not retired and Ed had not joined: the leaderboard is the JSON.
    assert_eq!(names, json);
    assert_eq!(json.len(), 5);
}

/// A target that is not a folder rungs may replace is refused by name and left as it was.
#[test]
fn a_target_that_is_not_a_site_is_refused_and_left_alone() {
    let dir = Dir::new("publish-refuse");
    club(&dir);
    let before = dir.bytes(LADDER);
    let e = dir.fail(&["publish", LADDER, LADDER]);
    assert!(e.contains("club.rungs: is a file, not a folder"), "{e}");
    assert_eq!(dir.bytes(LADDER), before);
    let e = dir.fail(&["publish", LADDER, "/dev/null"]);
    assert!(e.contains("/dev/null: is a device"), "{e}");
    std::fs::create_dir(dir.path("docs")).unwrap();
    dir.write("docs/notes.txt", "mine");
    let e = dir.fail(&["publish", LADDER, "docs"]);
    assert!(e.contains("docs: is a folder with other files"), "{e}");
    assert_eq!(read(&dir.path("docs/notes.txt")), "mine");
    // A site rungs wrote is replaced whole; nothing is left beside it.
    dir.ok(&["publish", LADDER, "site"]);
    dir.ok(&["publish", LADDER, "site", "--hide-retired"]);
    assert_eq!(files(&dir.path("site/players")).len(), 5);
    let left: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `standings --csv`: the leaderboard (or with `--all` everyone) in the order of
/// `standings --json`, a header naming the system's score, figures as the JSON has them.
#[test]
fn standings_csv_follows_standings_json() {
    let dir = Dir::new("publish-csv");
    club(&dir);
    let csv = dir.ok(&["standings", LADDER, "--csv", "--all"]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "place,player,tier,RP,rating,deviation,wins,draws,losses,last_played,status"
    );
    let v: serde_json::Value =
        serde_json::from_str(&dir.ok(&["standings", LADDER, "--json"])).unwrap();
    let rows: Vec<csv_row::Row> = lines.map(csv_row::parse).collect();
    let players = v.as_array().unwrap();
    assert_eq!((rows.len(), players.len()), (6, 6));
    for (row, p) in rows.iter().zip(players) {
        assert_eq!(row.name, p["player"].as_str().unwrap());
        assert_eq!(row.rp, format!("{:.0}", p["rp"].as_f64().unwrap()));
        assert_eq!(row.wins, p["wins"].to_string());
    }
    let di = rows.iter().find(|r| r.name == "Di").unwrap();
    assert_eq!((di.place.as_str(), di.status.as_str()), ("", "retired"));
    // Without --all only the leaderboard: places 1 to 5, Di left off.
    let listed = dir.ok(&["standings", LADDER, "--csv"]);
    let places: Vec<String> = listed
        .lines()
        .skip(1)
        .map(|l| csv_row::parse(l).place)
        .collect();
    assert_eq!(places, ["1", "2", "3", "4", "5"]);
    assert!(!listed.contains("Di,"));
}

mod csv_row {
    pub struct Row {
        pub place: String,
        pub name: String,
        pub rp: String,
        pub wins: String,
        pub status: String,
    }

    pub fn parse(line: &str) -> Row {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let rec = r.records().next().unwrap().unwrap();
        Row {
            place: rec[0].to_string(),
            name: rec[1].to_string(),
            rp: rec[3].to_string(),
            wins: rec[6].to_string(),
            status: rec[10].to_string(),
        }
    }
}

/// The latest saved round is on the index above the standings: its boards with the result
/// entered so far ("1–0" for side A's win) or "to play", and the players linked to their pages.
#[test]
fn the_latest_round_shows_its_boards_and_results_above_the_standings() {
    let dir = Dir::new("publish-round");
    club(&dir);
    let out = dir.ok(&[
        "pair",
        LADDER,
        "--present",
        "Ann Lee,Bo Chen,Cy,Ed",
        "--date",
        "2026-01-14",
        "--save",
        "--json",
    ]);
    let round: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(round["round"], 1, "{round}");
    let name =
        |board: usize, side: &str| round["boards"][board][side].as_str().unwrap().to_string();
    dir.ok(&["result", LADDER, "1", "1", "1"]);
    dir.ok(&["publish", LADDER, "site"]);
    let index = read(&dir.0.join("site/index.html"));
    let at = index.find("Round 1").expect("the round's caption");
    let standings = index.find("class=\"standings\"").expect("the standings");
    assert!(at < standings, "the round comes first");
    let section = &index[at..standings];
    assert!(section.contains("2026-01-14"), "{section}");
    // Board 1: A won, in the order A, result, B; board 2 waits for its result.
    let (a1, b1, a2, b2) = (name(0, "a"), name(0, "b"), name(1, "a"), name(1, "b"));
    let one = [
        section.find(&a1).unwrap(),
        section.find("1–0").unwrap(),
        section.find(&b1).unwrap(),
    ];
    assert!(one[0] < one[1] && one[1] < one[2], "{section}");
    let two = [
        section.find(&a2).unwrap(),
        section.find("to play").unwrap(),
        section.find(&b2).unwrap(),
    ];
    assert!(two[0] < two[1] && two[1] < two[2], "{section}");
    assert!(section.contains("href=\"players/"), "{section}");
}

/// Under Elo the score is the rating: one column says it, in the table and on a player's page
/// (the app's standings likewise), not two with the same number.
#[test]
fn under_elo_the_rating_is_one_column() {
    let dir = Dir::new("publish-elo");
    dir.ok(&["new", LADDER, "--system", "elo"]);
    dir.ok(&["add-player", LADDER, "Ann", "Bo", "--date", "2026-01-01"]);
    win(&dir, "Ann", "Bo", "2026-01-02");
    dir.ok(&["publish", LADDER, "site"]);
    let index = read(&dir.0.join("site/index.html"));
    let head = &index[index.find("<thead>").unwrap()..index.find("</thead>").unwrap()];
    assert_eq!(head.matches(">rating<").count(), 1, "{head}");
    // Ann: 1500 + 32 · ½ = 1516, in whole points as every door shows it, once in her row.
    assert_eq!(index.matches(">1516<").count(), 1, "{index}");
    assert!(!index.contains("1516.0"), "{index}");
    // Her page gives it once as her rating (her peak, the same 1516, is another fact).
    let page = read(&dir.0.join("site/players/0.html"));
    assert_eq!(
        page.matches("<dt>rating</dt><dd>1516</dd>").count(),
        1,
        "{page}"
    );
    assert!(!page.contains("1516.0"), "{page}");
}

/// A season ended by the button says when it ran, as the app's Seasons does: the first
/// "ended 2026-01-13 within its first week" (no soft reset inside it), the second "2026-01-13
/// to 2026-01-16, 3 days" — not "after 0 weeks".
#[test]
fn the_archive_says_when_each_season_ran() {
    let dir = Dir::new("publish-seasons");
    club(&dir);
    dir.ok(&["hard-reset", LADDER, "--date", "2026-01-13"]);
    win(&dir, "Ann Lee", "Bo Chen", "2026-01-15");
    dir.ok(&["hard-reset", LADDER, "--date", "2026-01-16"]);
    dir.ok(&["publish", LADDER, "site"]);
    let archive = read(&dir.0.join("site/seasons.html"));
    assert!(
        archive.contains("ended 2026-01-13 within its first week"),
        "{archive}"
    );
    assert!(
        archive.contains("2026-01-13 to 2026-01-16, 3 days"),
        "{archive}"
    );
    assert!(!archive.contains("0 weeks"), "{archive}");
    let second = read(&dir.0.join("site/seasons/2.html"));
    assert!(
        second.contains("Ran: 2026-01-13 to 2026-01-16, 3 days."),
        "{second}"
    );
}

/// Each row's "Move" cell as text ("↑2", "↓1", "–", "new"), by the row's name.
fn moves(index: &str) -> Vec<(String, String)> {
    let names = row_names(index);
    let chunks: Vec<&str> = index.split(r#"<th scope="row">"#).collect();
    names
        .into_iter()
        .zip(&chunks)
        .map(|((name, _), before)| {
            // The last cell before the row's name; a table without a Move column has none.
            let cell = before.rfind("<td>").map_or("", |i| &before[i + 4..]);
            let cell = &cell[..cell.find("</td>").unwrap_or(0)];
            let mut text = String::new();
            let mut in_tag = false;
            for c in cell.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            (name, text)
        })
        .collect()
}

/// The leaderboard's (name, place, tier) from `rungs standings --json`: its order, without
/// Di (who retired on 13 January: the JSON keeps retired players in rating order, the
/// leaderboard leaves them off), numbered from 1.
fn positions(dir: &Dir) -> Vec<(String, i64, String)> {
    let v: serde_json::Value =
        serde_json::from_str(&dir.ok(&["standings", LADDER, "--json"])).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p["player"].as_str().unwrap(), p["tier"].as_str().unwrap()))
        .filter(|(n, _)| *n != "Di")
        .zip(1..)
        .map(|((n, t), i)| (n.to_string(), i, t.to_string()))
        .collect()
}

/// Skyweaver's tiers from the bottom (the Skyweaver white paper's Table 1).
const TIERS: [&str; 12] = [
    "Wanderer",
    "Trainee I",
    "Trainee II",
    "Trainee III",
    "Apprentice I",
    "Apprentice II",
    "Apprentice III",
    "Expert I",
    "Expert II",
    "Expert III",
    "Master",
    "Grandweaver",
];

/// What each row's Move cell must say: places gained since `then` ("↑n", "↓n", "–"), or
/// "new" for a player not on the leaderboard then; then "▲ tier" for a promotion, "▼ tier"
/// for a fall.
fn expected_moves(
    then: &[(String, i64, String)],
    now: &[(String, i64, String)],
) -> Vec<(String, String)> {
    let rank = |t: &str| TIERS.iter().position(|x| *x == t).unwrap();
    now.iter()
        .map(|(name, at, tier)| {
            let m = match then.iter().find(|(n, _, _)| n == name) {
                None => "new".to_string(),
                Some((_, was, old)) => {
                    let places = match was - at {
                        d if d > 0 => format!("↑{d}"),
                        d if d < 0 => format!("↓{}", -d),
                        _ => "–".to_string(),
                    };
                    match rank(tier).cmp(&rank(old)) {
                        std::cmp::Ordering::Greater => format!("{places} ▲ {tier}"),
                        std::cmp::Ordering::Less => format!("{places} ▼ {tier}"),
                        std::cmp::Ordering::Equal => places,
                    }
                }
            };
            (name.clone(), m)
        })
        .collect()
}

/// Movement is measured from what the club last saw: the last publish of this ladder into
/// the folder. A match entered afterwards but dated before it counts as news; publishing
/// again with nothing new keeps the arrows; `--since` names the point; a new folder falls
/// back to a week before the last event.
#[test]
fn movement_is_measured_from_the_last_publish_into_the_folder() {
    let dir = Dir::new("publish-since");
    club(&dir);
    dir.ok(&["publish", LADDER, "site"]);
    let first = read(&dir.path("site/index.html"));
    // The last event is on 13 January; a week before, the last event was on the 5th.
    assert!(first.contains("movement since 2026-01-05"), "{first}");
    let seen = positions(&dir);
    win(&dir, "Cy", "Ann Lee", "2026-01-14");
    win(&dir, "Cy", "Bo Chen", "2026-01-15");
    // Entered now, dated before the last publish: not something the club has seen.
    win(&dir, "Bo Chen", "Ann Lee", "2026-01-11");
    dir.ok(&["publish", LADDER, "site"]);
    let second = read(&dir.path("site/index.html"));
    assert!(
        second.contains("movement since the last publish (2026-01-13)"),
        "{second}"
    );
    let now = positions(&dir);
    let want = expected_moves(&seen, &now);
    assert_ne!(seen, now, "the new matches move somebody");
    let listed: Vec<(String, String)> = moves(&second).into_iter().take(now.len()).collect();
    assert_eq!(listed, want);
    // Published again with a new title and nothing new: the same arrows, the same words.
    dir.ok(&["publish", LADDER, "site", "--title", "Club"]);
    let third = read(&dir.path("site/index.html"));
    assert!(third.contains("movement since the last publish (2026-01-13)"));
    assert_eq!(moves(&third), moves(&second));
    // A point named by the organiser: the ladder as it stood at the end of 13 January.
    dir.ok(&["publish", LADDER, "site", "--since", "2026-01-13"]);
    let named = read(&dir.path("site/index.html"));
    assert!(named.contains("movement since 2026-01-13"), "{named}");
    // A new folder: a week before the last event (15 January; the 8th: the 5th's events).
    dir.ok(&["publish", LADDER, "other"]);
    assert!(read(&dir.path("other/index.html")).contains("movement since 2026-01-05"));
    // A bad point is refused by field, and the site is left as it was.
    let err = dir.fail(&["publish", LADDER, "site", "--since", "2026-13-01"]);
    assert!(err.contains("since"), "{err}");
    assert_eq!(read(&dir.path("site/index.html")), named);
}

/// Under the goals system the score is the strength: the index has one column of it, headed
/// "rating ± dev." and showing the ± (it had "rating" and "strength ± dev.", the same number
/// twice).
#[test]
fn a_goals_site_shows_the_strength_once() {
    let dir = Dir::new("publish-goals");
    dir.ok(&["new", LADDER, "--system", "goals"]);
    dir.ok(&["add-player", LADDER, "Ann", "Bo", "--date", "2026-01-01"]);
    win(&dir, "Ann", "Bo", "2026-01-02");
    dir.ok(&["publish", LADDER, "site"]);
    let index = read(&dir.path("site/index.html"));
    assert_eq!(index.matches("rating ± dev.").count(), 1, "{index}");
    assert!(!index.contains("strength ± dev."), "{index}");
    let json: serde_json::Value =
        serde_json::from_str(&dir.ok(&["standings", LADDER, "--json"])).unwrap();
    let ann = &json.as_array().unwrap()[0];
    // In whole points, as every door writes a rating on the 1500 scale.
    let shown = format!(
        "{:.0} ± {:.0}",
        ann["rating"].as_f64().unwrap(),
        ann["deviation"].as_f64().unwrap()
    );
    assert_eq!(
        index.matches(&shown).count(),
        1,
        "Ann's strength {shown} once: {index}"
    );
}

/// The text chunks of a PNG (tEXt, zTXt, iTXt: the only places a PNG holds words), each chunk's
/// data as stored; the chunks are walked by their lengths from the 8-byte signature.
fn png_text(bytes: &[u8]) -> Vec<u8> {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let mut text = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..(at + 8 + len).min(bytes.len())];
        if [&b"tEXt"[..], b"zTXt", b"iTXt"].contains(&kind) {
            text.extend_from_slice(data);
            text.push(b'\n');
        }
        at += 12 + len;
    }
    assert_eq!(at, bytes.len(), "the chunks end where the file does");
    text
}
