//! File → Publish… in the app as an organiser uses it: the options first (title,
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

use crate::support;
use support::TempDir as Temp;
use support::app::{click, type_into};

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
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
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
    store
        .commit(&rungs_store::Change::new("club", rows.to_vec()).unwrap())
        .unwrap();
}

#[test]
fn publish_asks_for_title_hide_retired_and_initials_before_the_folder() {
    let dir = Temp::new("app-publish");
    let path = dir.0.join("club.rungs");
    club(&path);
    // egui_file's own fields carry no accessible names.
    let mut h = support::app::open_with(&path, egui::vec2(1280.0, 860.0), false);
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
    // The message says where the site is and opens nothing unasked: no browser is claimed,
    // and the folder is one click away.
    let said = &h.state().state.messages.current().expect("a message").text;
    assert_eq!(
        said,
        &format!(
            "published {} (3 player pages)",
            site.join("index.html").display()
        )
    );
    assert!(!said.contains("browser"), "{said}");
    h.get_by_role_and_label(Role::Button, "Open the folder");
}
