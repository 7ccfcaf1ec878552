//! A shared ladder in the app against a real PostgreSQL server the test starts
//! (`rungs_testkit::postgres`; skipped without its binaries, failed under CI): two organisers'
//! windows on one ladder, a match entered in one shown in the other after a sync, the
//! password asked in a field, and the changes waiting while the server is stopped.

use super::support::app::{click, type_into};
use eframe::egui::{self, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_app::command::Command;
use rungs_app::files::Native;
use rungs_app::state::AppState;
use rungs_gate::matches::MatchInput;
use rungs_testkit::TempDir;
use rungs_testkit::postgres::{ADMIN, PgServer};
use std::path::PathBuf;

fn harness(state: AppState) -> Harness<'static, RungsApp> {
    let mut state = state;
    state.picker.native = Native::Unavailable("tests use the app's own picker".into());
    Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .with_max_steps(30)
        .build_ui_state(
            |ui, app: &mut RungsApp| app.frame(ui),
            RungsApp::with_state(state),
        )
}

/// A server holding ladder `club` (Elo), made by the superuser through the binary, with
/// organisers ann and bo.
fn server_with_club(dir: &TempDir) -> Option<PgServer> {
    let server = PgServer::start("app-shared")?;
    let url = server.url(ADMIN, None, "rungs", "ladder=club");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(["new", &url, "--system", "elo"])
        .env("RUNGS_CACHE_DIR", dir.0.join("admin-cache"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    server.sql(
        "rungs",
        "CREATE ROLE ann LOGIN PASSWORD 'ann-pw';
         CREATE ROLE bo LOGIN PASSWORD 'bo-pw';
         CREATE ROLE cy LOGIN PASSWORD 'cy-pw';
         GRANT SELECT ON rungs_schema, rungs_ladders, rungs_actions TO ann, bo, cy;
         GRANT INSERT ON rungs_actions TO ann, bo, cy;
         GRANT UPDATE ON rungs_ladders TO ann, bo, cy;",
    );
    Some(server)
}

fn add_match(h: &mut Harness<'_, RungsApp>, a: &str, b: &str) {
    let input = MatchInput {
        date: Some("2026-01-02".into()),
        a: a.into(),
        b: b.into(),
        result: "1".into(),
        ..MatchInput::default()
    };
    let said = format!("{a} beat {b}");
    h.state_mut().apply(Command::AddMatch { input, said });
    assert_eq!(h.state().state.error(), None);
}

fn wins(h: &Harness<'_, RungsApp>, name: &str) -> u32 {
    let s = &h.state().state;
    let id = s
        .player_id(name)
        .unwrap_or_else(|| panic!("{name} is not on the ladder"));
    s.ladder.players[id as usize].wins
}

/// The replica files a window worked on (each role's URL has its own), removed at the end:
/// they live in the user's cache folder.
fn replica_files(h: &Harness<'_, RungsApp>) -> Vec<PathBuf> {
    let path = h.state().state.shared.as_ref().unwrap().path.clone();
    let stem = path.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&stem))
        .collect()
}

#[test]
fn two_windows_on_one_shared_ladder_see_each_others_matches_and_count_what_waits() {
    let dir = TempDir::new("app-shared");
    let Some(server) = server_with_club(&dir) else {
        return;
    };
    // Ann's window: File → Open shared ladder…, her URL without a password; the server asks
    // for one, and the form shows a password field.
    let ann_url = server.url("ann", None, "rungs", "ladder=club");
    let mut ann = harness(AppState::empty(dir.0.join("ann-data")));
    click(&mut ann, "File");
    click(&mut ann, "Open shared ladder…");
    type_into(&mut ann, "Address", &ann_url);
    click(&mut ann, "Open");
    assert!(ann.state().state.shared.is_none(), "no password yet");
    let error = ann.state().state.error().unwrap_or_default().to_string();
    assert!(error.contains("asks a password for role ann"), "{error}");
    // A password field (accesskit's role for it: screen readers do not read it out).
    let field = "Password (the server asks for one)";
    ann.get_by_role_and_label(Role::PasswordInput, field)
        .focus();
    ann.run();
    ann.get_by_role_and_label(Role::PasswordInput, field)
        .type_text("ann-pw");
    ann.run();
    click(&mut ann, "Open");
    assert_eq!(ann.state().state.error(), None);
    let shared = ann.state().state.shared.as_ref().expect("open");
    assert!(!shared.shown.contains("ann-pw"));
    assert!(ann.state().state.shared_form.is_none(), "the form closed");
    // Bo's window: `rungs URL` with his password in the URL.
    let bo_url = server.url("bo", Some("bo-pw"), "rungs", "ladder=club");
    let mut bo = harness(AppState::open_shared_named(dir.0.join("bo-data"), bo_url));
    assert_eq!(bo.state().state.error(), None);
    let title_and_status = bo.state().state.shared.as_ref().unwrap().shown.clone();
    assert!(!title_and_status.contains("bo-pw"), "{title_and_status}");
    bo.run();
    assert_eq!(bo.state().title(), "club (shared) — rungs");
    // The replica's bare file is not offered in File → Open recent (it would not sync).
    let replica = bo.state().state.shared.as_ref().unwrap().path.clone();
    assert!(!bo.state().state.recent.contains(&replica));

    // Ann adds two players and a match; her sync sends them, Bo's brings them in, and his
    // window says so in its next frame.
    ann.state_mut().apply(Command::AddPlayers(vec![
        "Ann Lee".into(),
        "Bo Chen".into(),
    ]));
    add_match(&mut ann, "Ann Lee", "Bo Chen");
    ann.state_mut().state.wait_for_syncs(1);
    assert_eq!(
        ann.state().state.shared.as_ref().unwrap().status().waiting,
        0
    );
    bo.state_mut().state.wait_for_syncs(1);
    // The next frame shows it: a sync that brought something in has the ladder read again
    // at once, not at the window's next look at its file.
    bo.step();
    assert_eq!(wins(&bo, "Ann Lee"), 1, "Ann's match is in Bo's window");
    let notice = bo.state().state.notice().unwrap_or_default().to_string();
    assert!(
        notice.contains("from another program") && notice.contains("Ann Lee beat Bo Chen"),
        "{notice}"
    );

    // The server stops: Bo's two matches wait, and the status bar says so.
    server.stop();
    add_match(&mut bo, "Bo Chen", "Ann Lee");
    add_match(&mut bo, "Bo Chen", "Ann Lee");
    bo.state_mut().state.wait_for_syncs(1);
    let _ = bo.try_run();
    assert_eq!(
        bo.state().state.shared.as_ref().unwrap().words().as_deref(),
        Some("offline · 2 changes waiting for the server")
    );
    assert!(
        bo.query_by_label_contains("2 changes waiting for the server")
            .is_some(),
        "the status bar shows the count"
    );
    // Closing the window now says the changes wait.
    let warning = bo.state().state.quit_warning().unwrap_or_default();
    assert!(
        warning.starts_with("2 changes are waiting for the server"),
        "{warning}"
    );

    // The server is back: Bo's changes are sent, and Ann's window shows them.
    server.restart();
    bo.state_mut().state.wait_for_syncs(2);
    assert_eq!(bo.state().state.shared.as_ref().unwrap().words(), None);
    ann.state_mut().state.wait_for_syncs(1);
    ann.run_steps(8);
    assert_eq!(
        wins(&ann, "Bo Chen"),
        2,
        "Bo's two matches are in Ann's window"
    );

    let mut files = replica_files(&ann);
    files.extend(replica_files(&bo));
    drop(ann);
    drop(bo);
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}

/// The server's matches of ladder `club`, counted in its rows.
fn server_matches(server: &PgServer) -> i64 {
    let mut admin = server.admin("rungs");
    admin
        .query_one(
            "SELECT count(*) FROM rungs_actions a, jsonb_array_elements(a.rows::jsonb) r \
             WHERE a.ladder = 'club' AND r->>'op' = 'add' AND r->'event'->>'kind' = 'match'",
            &[],
        )
        .unwrap()
        .get(0)
}

/// The wins on a window's ladder, all players together: one a match here (every result is
/// a win for side A).
fn all_wins(h: &Harness<'_, RungsApp>) -> u32 {
    h.state().state.ladder.players.iter().map(|p| p.wins).sum()
}

/// Two organisers' windows and three command-line writers (each its own machine: its own
/// replica) entering matches at once: every match lands once on the server, and both
/// windows end up showing all of them. 2 windows × 6 + 3 writers × 6 = 30 matches.
#[test]
fn two_windows_and_three_command_line_writers_land_every_match_once() {
    let dir = TempDir::new("app-shared-five");
    let Some(server) = server_with_club(&dir) else {
        return;
    };
    let mut ann = harness(AppState::open_shared_named(
        dir.0.join("ann-data"),
        server.url("ann", Some("ann-pw"), "rungs", "ladder=club"),
    ));
    let players: Vec<String> = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    ann.state_mut().apply(Command::AddPlayers(players.clone()));
    assert_eq!(ann.state().state.error(), None);
    ann.state_mut().state.wait_for_syncs(1);
    let mut bo = harness(AppState::open_shared_named(
        dir.0.join("bo-data"),
        server.url("bo", Some("bo-pw"), "rungs", "ladder=club"),
    ));
    assert!(
        bo.state().state.player_id("Flo").is_some(),
        "Ann's players in Bo's window"
    );
    let writers: Vec<_> = (0..3)
        .map(|w| {
            let cache = dir.0.join(format!("writer-{w}"));
            let url = server.url("cy", Some("cy-pw"), "rungs", "ladder=club");
            let players = players.clone();
            std::thread::spawn(move || {
                for i in 0..6 {
                    let (a, b) = (&players[(w + i) % 6], &players[(w + i + 1) % 6]);
                    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
                        .args(["add-match", &url, a, b, "1", "--date", "2026-01-02"])
                        .env("RUNGS_CACHE_DIR", &cache)
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            })
        })
        .collect();
    for i in 0..6 {
        add_match(&mut ann, &players[i], &players[(i + 2) % 6]);
        add_match(&mut bo, &players[(i + 3) % 6], &players[i]);
        ann.run_steps(2);
        bo.run_steps(2);
    }
    for w in writers {
        w.join().unwrap();
    }
    ann.state_mut().state.wait_for_syncs(1);
    bo.state_mut().state.wait_for_syncs(1);
    ann.state_mut().state.wait_for_syncs(1);
    ann.run_steps(8);
    bo.run_steps(8);
    for h in [&ann, &bo] {
        let s = &h.state().state;
        assert_eq!(s.error(), None);
        assert_eq!(s.shared.as_ref().unwrap().status().waiting, 0);
    }
    assert_eq!(server_matches(&server), 30);
    assert_eq!(all_wins(&ann), 30, "every match in Ann's window");
    assert_eq!(all_wins(&bo), 30, "every match in Bo's window");

    let mut files = replica_files(&ann);
    files.extend(replica_files(&bo));
    drop(ann);
    drop(bo);
    for f in files {
        let _ = std::fs::remove_file(f);
    }
}
