//! The club formats on the published site: `rungs publish` writes `challenges.html` when the
//! ladder runs a challenge ladder and `boxes.html` when it runs a box league, each linked from
//! every page; their HTML holds the positions, the open challenges and each box's table; and
//! in headless Chromium they draw at desktop and phone widths and print to a PDF whose text
//! holds them (skipped without chromium and pdftotext, failed so under CI).

use super::publish_browser::{chromium, ink, tools};
use crate::support::cli as cli_support;
use chrono::Datelike;
use cli_support::{Dir, LADDER};
use std::process::Command;

const PLAYERS: [&str; 5] = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek", "Ed Fox"];

fn today() -> chrono::NaiveDate {
    rungs_gate::today()
}

/// Ann, Bo, Cy, Di and Ed at places 1 to 5; Di (4) beats Bo (2) in challenge 1, so leapfrog
/// gives Ann, Di, Bo, Cy, Ed; then Ed (5) challenges Cy (4), open with 7 days to play.
fn challenge_ladder(dir: &Dir) {
    dir.ok(&["new", LADDER, "--system", "elo"]);
    let mut add = vec!["add-player", LADDER];
    add.extend(PLAYERS);
    dir.ok(&add);
    dir.ok(&["challenge-ladder", LADDER, "--order", &PLAYERS.join(",")]);
    dir.ok(&["challenge", LADDER, "Di Ek", "Bo Chen"]);
    dir.ok(&["challenge-result", LADDER, "1", "1"]);
    dir.ok(&["challenge", LADDER, "Ed Fox", "Cy Diaz"]);
}

/// The same five in boxes of three for this month: box 1 Ann, Bo, Cy; box 2 Di, Ed (the last
/// box one fewer). Ann beats Bo 3-1 (Highfield's table: 6 points to 2).
fn box_league(dir: &Dir) {
    dir.ok(&["new", LADDER, "--system", "elo"]);
    let mut add = vec!["add-player", LADDER];
    add.extend(PLAYERS);
    dir.ok(&add);
    let start = today().with_day(1).unwrap();
    let end = start
        .checked_add_months(chrono::Months::new(1))
        .unwrap()
        .pred_opt()
        .unwrap();
    dir.ok(&[
        "start-boxes",
        LADDER,
        "--start",
        &start.to_string(),
        "--end",
        &end.to_string(),
        "--order",
        &PLAYERS.join(","),
        "--box-size",
        "3",
    ]);
    dir.ok(&["box-result", LADDER, "Ann Lee", "Bo Chen", "--goals", "3-1"]);
}

/// The text of `html` with its tags taken out and spaces squeezed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut tag = false;
    for c in html.chars() {
        match c {
            '<' => tag = true,
            '>' => {
                tag = false;
                out.push(' ');
            }
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_challenge_ladders_page_holds_the_positions_and_open_challenges() {
    let dir = Dir::new("publish-challenges");
    challenge_ladder(&dir);
    dir.ok(&["publish", LADDER, "site"]);
    let site = dir.path("site");
    let page = std::fs::read_to_string(site.join("challenges.html")).unwrap();
    let t = text(&page);
    assert!(
        !site.join("boxes.html").exists(),
        "no box league, no boxes page"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(r#"<a href="challenges.html">Challenge ladder</a>"#));
    assert!(!index.contains("boxes.html"));
    // The open challenge: Ed (5) v Cy (4), to be played within 7 days.
    let by = today() + chrono::Days::new(7);
    assert!(
        t.contains(&format!("2 Ed Fox (5) Cy Diaz (4) {by} 7 days")),
        "{t}"
    );
    // The positions after the leapfrog, each with its open challenge.
    let positions = t.split("Positions").nth(1).unwrap();
    let rows = [
        "1 Ann Lee",
        "2 Di Ek",
        "3 Bo Chen",
        "4 Cy Diaz",
        "← Ed Fox , 7 days left",
        "5 Ed Fox",
        "→ Cy Diaz",
    ];
    let mut at = 0;
    for r in rows {
        let found = positions[at..].find(r);
        assert!(found.is_some(), "{r} after {at} in {positions}");
        at += found.unwrap();
    }
}

#[test]
fn the_boxes_page_holds_each_boxs_table_with_every_tie_break() {
    let dir = Dir::new("publish-boxes");
    box_league(&dir);
    dir.ok(&["publish", LADDER, "site"]);
    let site = dir.path("site");
    assert!(!site.join("challenges.html").exists());
    let page = std::fs::read_to_string(site.join("boxes.html")).unwrap();
    let t = text(&page);
    assert!(t.contains("Box league · period 1"), "{t}");
    // Box 1: Ann 1 played, 1 won, games 3–1, 6 points; Bo 2 points; Cy nothing yet. The
    // columns: # Player P W D L Games, then points, head-to-head, matches-won, games-lost,
    // rating (the default tie-breaks). Cy's head-to-head was never needed: "·".
    assert!(
        t.contains(
            "Box 1 # Player P W D L Games points head-to-head matches-won games-lost rating Goes"
        ),
        "{t}"
    );
    assert!(t.contains("1 Ann Lee 1 1 0 0 3–1 6"), "{t}");
    assert!(t.contains("2 Bo Chen 1 0 0 1 1–3 2"), "{t}");
    // Box 1's bottom two go down, box 2's top two up.
    let box2 = t.split("Box 2").nth(1).unwrap();
    assert_eq!(box2.matches("▲ up").count(), 2, "{box2}");
    assert!(
        t.contains("Still to play: Ann Lee – Cy Diaz , Bo Chen – Cy Diaz"),
        "{t}"
    );
    assert!(box2.contains("Still to play: Di Ek – Ed Fox"), "{box2}");
}

#[test]
fn the_formats_pages_render_and_print_in_chromium() {
    let Some((browser, pdftotext)) = tools() else {
        return;
    };
    for (tag, make, page, needles) in [
        (
            "challenges",
            challenge_ladder as fn(&Dir),
            "challenges.html",
            &["Challenge ladder", "Open challenges", "Di Ek", "Ed Fox"][..],
        ),
        (
            "boxes",
            box_league,
            "boxes.html",
            &["Box 1", "Box 2", "head-to-head", "Ann Lee", "Still to play"][..],
        ),
    ] {
        let dir = Dir::new(&format!("publish-browser-{tag}"));
        make(&dir);
        dir.ok(&["publish", LADDER, "site", "--title", "Club night"]);
        let file = dir.path("site").join(page);
        let profile = dir.path("profile");
        for width in [1280, 390] {
            let shot = dir.path(&format!("{tag}-{width}.png"));
            chromium(
                &browser,
                &profile,
                width,
                &format!("--screenshot={}", shot.display()),
                &file,
            );
            let (inked, colours) = ink(&shot);
            assert!(inked > 2_000, "{tag} at {width} px: only {inked} drawn");
            assert!(colours > 8, "{tag} at {width} px: {colours} colours");
        }
        let pdf = dir.path(&format!("{tag}.pdf"));
        chromium(
            &browser,
            &profile,
            1280,
            &format!("--print-to-pdf={}", pdf.display()),
            &file,
        );
        let out = Command::new(&pdftotext)
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        assert!(out.status.success());
        let printed = String::from_utf8_lossy(&out.stdout);
        for n in needles {
            assert!(printed.contains(n), "{tag}.pdf lacks {n}: {printed}");
        }
        assert!(
            !printed.contains("Seasons"),
            "{tag}.pdf prints the navigation: {printed}"
        );
        if let Some(keep) = std::env::var_os("RUNGS_KEEP_SCREENSHOTS") {
            let keep = std::path::Path::new(&keep);
            std::fs::create_dir_all(keep).unwrap();
            for f in [
                format!("{tag}-1280.png"),
                format!("{tag}-390.png"),
                format!("{tag}.pdf"),
            ] {
                std::fs::copy(dir.path(&f), keep.join(&f)).unwrap();
            }
        }
    }
}
