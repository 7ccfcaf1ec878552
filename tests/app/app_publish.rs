//! File → Publish… in the app (issue 24) as an organiser uses it: the options first (title,
//! hide retired, initials — those of `rungs publish --title --hide-retired --initials`), then
//! the folder; the site written honours them.

use chrono::NaiveDate;
use eframe::egui::{self, accesskit::Role};
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_app::files::Purpose;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support::TempDir as Temp;
use crate::support::app::{self as app_support, click, type_into};

/// Ann Lee, Bo Chen, Cy and Di joined on 2026-01-01; Ann beat Bo and Cy beat Di on
/// 2026-01-05; Di retired on 2026-01-06.
fn club(path: &std::path::Path) {
    let mut store = Store::create(path, &Rules::defaults(System::Elo)).unwrap();
    let d = |day| NaiveDate::from_ymd_opt(2026, 1, day).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = ["Ann Lee", "Bo Chen", "Cy", "Di"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let event = Event::Player {
                id: i as u32,
                name: n.to_string(),
                undated: false,
            };
            (d(1), Entry::Add { event })
        })
        .collect();
    let win = MatchResult::Played(Outcome::Win);
    for (a, b) in [(0, 1), (2, 3)] {
        let event = Event::Match(Match::new(a, b, win));
        rows.push((d(5), Entry::Add { event }));
    }
    let event = Event::Retire {
        id: 3,
        retired: true,
    };
    rows.push((d(6), Entry::Add { event }));
    store.commit("club", &rows).unwrap();
}

/// The app opens the site it published with xdg-open, which runs `$BROWSER`: the test runs
/// in a process of its own, this binary run again for it alone with `BROWSER=true`, so that
/// no browser opens and no other test sees the variable.
#[test]
fn publish_asks_for_title_hide_retired_and_initials_before_the_folder() {
    const NAME: &str =
        "app_publish::publish_asks_for_title_hide_retired_and_initials_before_the_folder";
    if std::env::var_os("BROWSER").is_none_or(|b| b != "true") {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", NAME, "--test-threads=1"])
            .env("BROWSER", "true")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(said.contains("1 passed"), "the test did not run: {said}");
        return;
    }
    let dir = Temp::new("app-publish");
    let path = dir.0.join("club.rungs");
    club(&path);
    // egui_file's own fields carry no accessible names.
    let mut h = app_support::open_with(&path, egui::vec2(1280.0, 860.0), false);
    click(&mut h, "File");
    click(&mut h, "Publish…");
    assert_eq!(
        h.state().state.picker.in_app(),
        None,
        "the options come first"
    );
    let title = h.get_by_role_and_label(Role::TextInput, "Title");
    assert_eq!(
        title.accesskit_node().value().as_deref(),
        Some("club standings")
    );
    type_into(&mut h, "Title", "Spring <ladder>");
    click(&mut h, "Hide retired players");
    click(&mut h, "Names as initials");
    click(&mut h, "Choose folder…");
    assert_eq!(
        h.state().state.picker.in_app(),
        Some(Purpose::PublishFolder)
    );
    // The picker starts in the ladder's folder, which holds the ladder: the site goes into
    // a folder of its own inside it.
    click(&mut h, "Open");
    h.state_mut().wait_for_job();
    h.run();

    let site = dir.0.join("club-standings");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Spring &lt;ladder&gt;"), "the title typed");
    assert!(index.contains("Ann L.") && index.contains("Bo C."));
    assert!(!index.contains("Ann Lee") && !index.contains("Bo Chen"));
    assert!(
        !index.contains(">Di<") && !index.contains("Di</a>"),
        "Di retired"
    );
    // A page per shown player: Ann, Bo, Cy; none for Di.
    let pages = std::fs::read_dir(site.join("players")).unwrap().count();
    assert_eq!(pages, 3);
}
