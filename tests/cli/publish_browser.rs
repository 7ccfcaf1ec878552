//! The published site in a real browser: headless Chromium loads the standings and a player
//! page, takes a screenshot of each and prints each to PDF; the pictures must not be blank
//! and the PDFs' text (poppler's `pdftotext`) must hold the players' names. CI installs
//! chromium and poppler-utils (`.ci/run`); under CI a missing browser fails the test, on
//! another machine the test says why it did not run.

use crate::support::cli as cli_support;
use crate::support::tools;
use cli_support::Dir;
use cli_support::LADDER;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Chromium and pdftotext, or `None` where the test may skip (see [`tools::skipped`]).
pub(crate) fn tools() -> Option<(String, String)> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|n| tools::find(n));
    let pdftotext = tools::find("pdftotext");
    match (chromium, pdftotext) {
        (Some(c), Some(p)) => Some((c, p)),
        (c, p) => {
            let missing = [
                (c.is_none(), "chromium"),
                (p.is_none(), "pdftotext (poppler-utils)"),
            ]
            .iter()
            .filter(|(m, _)| *m)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(" and ");
            tools::skipped(&format!(
                "{missing} not installed (apt-get install chromium poppler-utils)"
            ));
            None
        }
    }
}

/// Runs the browser headless on `page`, with one more flag (`--screenshot=…` or
/// `--print-to-pdf=…`), killed if it takes longer than a minute.
pub(crate) fn chromium(chromium: &str, profile: &Path, width: u32, flag: &str, page: &Path) {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--no-pdf-header-footer",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={width},1000"),
            flag,
        ])
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium {flag}: {status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("chromium {flag} took more than a minute");
}

/// Pixels unlike the page's background (its top-left corner), and distinct colours.
pub(crate) fn ink(png_path: &Path) -> (usize, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    let bg = pixels[0];
    let inked = pixels.iter().filter(|p| p[..3] != bg[..3]).count();
    let mut colours: Vec<&[u8]> = pixels.iter().map(|p| &p[..3]).collect();
    colours.sort();
    colours.dedup();
    (inked, colours.len())
}

#[test]
fn the_site_renders_and_prints_in_chromium() {
    let Some((browser, pdftotext)) = tools() else {
        return;
    };
    let dir = Dir::new("publish-browser");
    dir.ok(&["new", LADDER, "--system", "skyweaver"]);
    dir.ok(&[
        "add-player",
        LADDER,
        "Ann Lee",
        "Bo Chen",
        "<b>Cy</b>",
        "--date",
        "2026-01-01",
    ]);
    for (a, b, s, d) in [
        ("Ann Lee", "Bo Chen", "1", "2026-01-02"),
        ("Bo Chen", "<b>Cy</b>", "draw", "2026-01-03"),
        ("Ann Lee", "<b>Cy</b>", "1", "2026-01-04"),
        ("Bo Chen", "Ann Lee", "1", "2026-01-09"),
    ] {
        dir.ok(&["add-match", LADDER, a, b, s, "--date", d]);
    }
    dir.ok(&["publish", LADDER, "site", "--title", "Club night"]);
    let site = dir.path("site");
    let profile = dir.path("profile");
    let index = site.join("index.html");
    let ann = site.join("players/0.html");
    for (page, name) in [(&index, "index"), (&ann, "ann")] {
        for width in [1280, 390] {
            let shot = dir.path(&format!("{name}-{width}.png"));
            chromium(
                &browser,
                &profile,
                width,
                &format!("--screenshot={}", shot.display()),
                page,
            );
            let (inked, colours) = ink(&shot);
            assert!(
                inked > 2_000,
                "{name} at {width} px: only {inked} pixels drawn"
            );
            assert!(colours > 8, "{name} at {width} px: {colours} colours");
        }
        let pdf = dir.path(&format!("{name}.pdf"));
        chromium(
            &browser,
            &profile,
            1280,
            &format!("--print-to-pdf={}", pdf.display()),
            page,
        );
        let text = Command::new(&pdftotext)
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        assert!(text.status.success());
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("Club night"), "{name}.pdf: {text}");
        assert!(text.contains("Ann Lee"), "{name}.pdf: {text}");
        assert!(text.contains("Bo Chen"), "{name}.pdf: {text}");
        // Printed without the site's navigation.
        assert!(
            !text.contains("Seasons"),
            "{name}.pdf prints the navigation: {text}"
        );
        if name == "index" {
            // The escaped name is text on the page.
            assert!(text.contains("<b>Cy</b>"), "{name}.pdf: {text}");
        }
    }
    // Where a person can look at them: RUNGS_KEEP_SCREENSHOTS=folder.
    if let Some(keep) = std::env::var_os("RUNGS_KEEP_SCREENSHOTS") {
        let keep = Path::new(&keep);
        std::fs::create_dir_all(keep).unwrap();
        for f in [
            "index-1280.png",
            "index-390.png",
            "ann-1280.png",
            "ann-390.png",
            "index.pdf",
            "ann.pdf",
        ] {
            std::fs::copy(dir.path(f), keep.join(f)).unwrap();
        }
    }
}

/// A Swiss event's page in the browser: on a phone (390 px) and a desk, and printed on A4
/// landscape with every player's line and round.
#[test]
fn the_event_crosstable_renders_and_prints_on_a4() {
    let Some((browser, pdftotext)) = tools() else {
        return;
    };
    let dir = Dir::new("publish-browser-event");
    crate::swiss_cli::four_player_event(&dir);
    let file = crate::swiss_cli::FILE;
    dir.ok(&["publish", file, "site", "--title", "Club night"]);
    let page = dir.path("site/events/1.html");
    let profile = dir.path("profile");
    for width in [1280, 390] {
        let shot = dir.path(&format!("event-{width}.png"));
        chromium(
            &browser,
            &profile,
            width,
            &format!("--screenshot={}", shot.display()),
            &page,
        );
        let (inked, colours) = ink(&shot);
        assert!(
            inked > 2_000,
            "event at {width} px: only {inked} pixels drawn"
        );
        assert!(colours > 8, "event at {width} px: {colours} colours");
    }
    let pdf = dir.path("event.pdf");
    chromium(
        &browser,
        &profile,
        1280,
        &format!("--print-to-pdf={}", pdf.display()),
        &page,
    );
    let text = Command::new(&pdftotext)
        .args(["-layout"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    // Each player's line whole on the page: place, name, rating, rounds, points, tie-breaks.
    let line = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no line for {name}: {text}"))
    };
    assert_eq!(
        line("Bo"),
        ["1", "Bo", "1500", "3b½", "2w1", "1.5", "1", "2", "0", "1"]
    );
    assert_eq!(
        line("Cy"),
        ["4", "Cy", "1500", "2b0", "3w½", "0.5", "1", "2", "0", "0"]
    );
    assert!(!text.contains("Seasons"), "prints the navigation: {text}");
    // One A4 page, landscape (297 × 210 mm is 842 × 595 points).
    if let Some(pdfinfo) = tools::find("pdfinfo") {
        let info = Command::new(pdfinfo).arg(&pdf).output().unwrap();
        let info = String::from_utf8_lossy(&info.stdout);
        assert!(info.contains("Pages:           1"), "{info}");
        let size: Vec<f64> = info
            .lines()
            .find_map(|l| l.strip_prefix("Page size:"))
            .unwrap_or_else(|| panic!("{info}"))
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(
            (size[0] - 842.0).abs() < 1.0 && (size[1] - 595.0).abs() < 1.0,
            "{info}"
        );
    }
}
