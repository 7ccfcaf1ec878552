//! Seasons → Cut tiers to a target…, driven as a person would: shares typed, Propose (in
//! the background), Apply through the rules change's preview, and Ctrl+Z undoing it.

use chrono::NaiveDate;
use eframe::egui::{self, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::Rules;
use rungs_ladder::tiers::TierTable;
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// A Skyweaver ladder of six players and two seasons: in each, every player beats each one
/// numbered above them (P0 wins five, P5 none), then the season button.
fn app(dir: &Temp) -> Harness<'static, RungsApp> {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = (0..6)
        .map(|i| {
            let event = Event::Player {
                id: i,
                name: rungs_ladder::values::PlayerName::parse(&format!("P{i}")).unwrap(),
                undated: false,
            };
            (day(1), Entry::Add { event })
        })
        .collect();
    for season in 0..2 {
        let on = day(2 + 10 * season);
        for a in 0..6 {
            for b in a + 1..6 {
                let event = Event::Match(Match::new(a, b, MatchResult::Played(Outcome::Win)));
                rows.push((on, Entry::Add { event }));
            }
        }
        let event = Event::HardReset;
        rows.push((day(9 + 10 * season), Entry::Add { event }));
    }
    store
        .commit(&rungs_store::Change::new("two seasons", rows).unwrap())
        .unwrap();
    drop(store);
    app_support::open(&path, egui::vec2(1400.0, 1000.0))
}

#[test]
fn tiers_are_cut_to_typed_shares_applied_and_undone() {
    let dir = Temp::new("tier-cut");
    let mut h = app(&dir);
    click(&mut h, "Seasons");
    click(&mut h, "Cut tiers to a target…");
    // Half the season ends in Wanderer, half in Trainee I, none above.
    type_into(&mut h, "Wanderer %", "50");
    type_into(&mut h, "Trainee I %", "50");
    for tier in [
        "Trainee II",
        "Trainee III",
        "Apprentice I",
        "Apprentice II",
        "Apprentice III",
        "Expert I",
        "Expert II",
        "Expert III",
        "Master",
    ] {
        type_into(&mut h, &format!("{tier} %"), "0");
    }
    click(&mut h, "Propose");
    h.state_mut().state.wait_for_job();
    h.run();
    let state = &h.state().state;
    assert!(state.error().is_none(), "{:?}", state.error());
    let proposal = state.tools.tiers.clone().expect("a proposal");
    // Six players in each of two seasons, all of whom played: 12 season ends, 6 below
    // Trainee I's proposed minimum and 6 at or above it.
    let counts = proposal.counts_after;
    assert_eq!(counts.iter().sum::<u32>(), 12);
    assert_eq!((counts[0], counts[1]), (6, 6), "{counts:?}");
    assert_ne!(proposal.after, TierTable::TABLE_1);
    // The flow matrix, headed in short names, under the proposed minimums and, a click
    // away, under the minimums now.
    assert!(h.query_by_label("Wan").is_some() && h.query_by_label("Tra I").is_some());
    click(&mut h, "under the minimums now");
    assert!(h.state().screens.tier_cut.flow_before);
    click(&mut h, "under the proposed minimums");
    assert!(!h.state().screens.tier_cut.flow_before);
    click(&mut h, "Apply proposed minimums…");
    h.state_mut().state.wait_for_job();
    h.run();
    assert!(
        h.state().state.pending.is_some(),
        "the change is previewed first"
    );
    // The preview says what changes: the minimums proposed, not a bare "rules from …".
    let proposed: Vec<String> = proposal
        .after
        .minimums()
        .iter()
        .map(|m| format!("{m}"))
        .collect();
    let said = format!("tier minimums {} (Wanderer to Master)", proposed.join(", "));
    assert!(
        h.query_by_label_contains(&said).is_some(),
        "no preview titled {said}"
    );
    click(&mut h, "Apply");
    h.state_mut().state.wait_for_job();
    h.run();
    let state = &h.state().state;
    assert!(state.error().is_none(), "{:?}", state.error());
    assert_eq!(state.ladder.rules.tier_table(), proposal.after);
    // Said as the preview said it, not in the log's code names ("done: rules: skyweaver
    // tier_minimums=…").
    let notice = state.notice().unwrap_or_default();
    assert!(
        notice.starts_with("Done: rules from ") && notice.ends_with(&said),
        "{notice}"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().state.ladder.rules.tier_table(),
        TierTable::TABLE_1,
        "Ctrl+Z undoes"
    );
}

/// Settings type the tier minimums as 11 numbers: one out of order is refused in the
/// screen's words, naming the tier; a good list is previewed and applied as a rules change.
#[test]
fn settings_type_the_tier_minimums() {
    let dir = Temp::new("tier-settings");
    let mut h = app(&dir);
    click(&mut h, "Settings");
    let field = "Tier minimums, Wanderer … Master:";
    type_into(
        &mut h,
        field,
        "200,300,300,500,600,700,800,900,1000,1100,1200",
    );
    assert!(
        h.query_by_label_contains("Trainee II's minimum: 300 is outside its range")
            .is_some(),
        "the tier is named"
    );
    type_into(
        &mut h,
        field,
        "200,280,360,450,550,650,750,850,950,1050,1150",
    );
    click(&mut h, "Preview change");
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(
        s.ladder.rules.tier_table().minimums(),
        [
            200.0, 280.0, 360.0, 450.0, 550.0, 650.0, 750.0, 850.0, 950.0, 1050.0, 1150.0
        ]
    );
}

/// A share that is no number, or shares that do not make 100, are said under the panel's own
/// name, naming the tier, and nothing is proposed.
#[test]
fn a_bad_share_is_said_naming_the_tier() {
    let dir = Temp::new("tier-cut-bad");
    let mut h = app(&dir);
    click(&mut h, "Seasons");
    click(&mut h, "Cut tiers to a target…");
    type_into(&mut h, "Wanderer %", "abc");
    click(&mut h, "Propose");
    assert_eq!(
        h.state().state.error(),
        Some("Target shares: Wanderer's share \"abc\" is not a number")
    );
    assert!(h.state().state.tools.tiers.is_none());
}
