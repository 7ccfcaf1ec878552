//! The club formats through the gate and the store: whatever challenges, results,
//! withdrawals, retirements and period closes come, undoing any applied action gives back the
//! tables exactly, a refused action changes nothing, and the log exported and imported into a
//! new ladder gives the same tables.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use rungs_gate::formats::{Formats, formats};
use rungs_gate::{Action, Context, apply};
use rungs_interchange::jsonl;
use rungs_ladder::event::{Entry, Event};
use rungs_ladder::formats::settings::{BoxSettings, ChallengeSettings, PointsScheme};
use rungs_ladder::rules::{Rules, System};
use rungs_store::{Change, Store};

use rungs_testkit as support;
use support::TempDir;

const PLAYERS: u32 = 10;

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 1).unwrap() + Days::new(n.into())
}

/// The day every action is checked against as "today": after any day a script reaches.
fn today() -> NaiveDate {
    day(400)
}

fn name(id: u32) -> String {
    format!("P{id}")
}

#[derive(Debug, Clone)]
enum Op {
    Challenge(u32, u32),
    /// A result for one of the open challenges (by its place among them), or for challenge
    /// `n` when none is open.
    ChallengeResult(u32, &'static str),
    BoxResult(u32, u32, u32, u32),
    Withdraw(u32),
    Retire(u32),
    Close,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..PLAYERS, 0..PLAYERS).prop_map(|(a, b)| Op::Challenge(a, b)),
        4 => (1u32..8, prop::sample::select(vec!["1", "0", "0.5", "forfeit-a", "forfeit-b"]))
            .prop_map(|(n, r)| Op::ChallengeResult(n, r)),
        4 => (0..PLAYERS, 0..PLAYERS, 0u32..4, 0u32..4)
            .prop_map(|(a, b, x, y)| Op::BoxResult(a, b, x, y)),
        1 => (0..PLAYERS).prop_map(Op::Withdraw),
        1 => (0..PLAYERS).prop_map(Op::Retire),
        1 => Just(Op::Close),
    ]
}

/// A ladder of ten players, its challenge ladder and its first box period (boxes of four).
fn ladder(dir: &TempDir, file: &str, swap: bool) -> Store {
    let path = dir.0.join(file);
    let mut store = Store::create(&path, &Rules::defaults(System::Elo)).unwrap();
    let joins: Vec<(NaiveDate, Entry)> = (0..PLAYERS)
        .map(|id| {
            let event = Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(&name(id)).unwrap(),
                undated: false,
            };
            (day(0), Entry::Add { event })
        })
        .collect();
    store.commit(&Change::new("joins", joins).unwrap()).unwrap();
    let settings = ChallengeSettings {
        movement: if swap {
            rungs_ladder::formats::settings::Movement::Swap
        } else {
            rungs_ladder::formats::settings::Movement::Leapfrog
        },
        idle_days: Some(20),
        ..ChallengeSettings::default()
    };
    let boxes = BoxSettings {
        box_size: 4,
        up: 1,
        down: 1,
        min_matches: Some(1),
        points: PointsScheme::win_draw_loss(),
        ..BoxSettings::default()
    };
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, file, today());
    let f = formats(&store, day(0)).unwrap();
    let start = Action::challenge_ladder(&ctx, &f, settings, &[], day(0)).unwrap();
    apply(&mut store, &start).unwrap();
    let f = formats(&store, day(0)).unwrap();
    let start = Action::start_boxes(&ctx, &f, boxes, &[], day(0), day(29)).unwrap();
    apply(&mut store, &start).unwrap();
    store
}

/// The formats as a screen would read them, on the script's last day.
fn tables(store: &Store) -> Formats {
    formats(store, day(300)).unwrap()
}

/// The action an op makes on `date`, if the gate takes it.
fn action(store: &Store, op: &Op, date: NaiveDate) -> Option<Action> {
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, "club.rungs", today());
    let f = formats(store, date).unwrap();
    let made = match op {
        Op::Challenge(a, b) => Action::challenge(&ctx, &f, &name(*a), &name(*b), date),
        // One of the open challenges (or a closed one, refused), by its place among them.
        Op::ChallengeResult(k, r) => {
            let open = f.challenge.open_challenges(date);
            let n = match open.len() {
                0 => *k,
                len => open[*k as usize % len].number,
            };
            Action::challenge_result(&ctx, &f, n, Some(r), None, date)
        }
        Op::BoxResult(a, b, x, y) => {
            let goals = format!("{x}-{y}");
            Action::box_result(&ctx, &f, &name(*a), &name(*b), None, Some(&goals), date)
        }
        Op::Withdraw(p) => Action::box_withdraw(&ctx, &f, &name(*p), false, date),
        Op::Retire(p) => Action::retire(&ctx, &name(*p), true, Some(&date.to_string())),
        Op::Close => Action::close_period(&ctx, &f, None, None, date).map(|(a, _)| a),
    };
    made.ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn undo_restores_the_tables_and_an_export_imports_to_the_same_tables(
        steps in prop::collection::vec((op(), 0u32..4), 1..40),
        swap in any::<bool>(),
    ) {
        let dir = TempDir::new("formats-undo");
        let mut store = ladder(&dir, "club.rungs", swap);
        let mut d = 0;
        for (op, gap) in &steps {
            d += gap;
            let before = tables(&store);
            let Some(act) = action(&store, op, day(d)) else {
                prop_assert_eq!(tables(&store), before, "a refused {:?} changed the tables", op);
                continue;
            };
            if apply(&mut store, &act).is_err() {
                prop_assert_eq!(tables(&store), before);
                continue;
            }
            let after = tables(&store);
            store.undo().unwrap();
            prop_assert_eq!(&tables(&store), &before, "undo of {}", act.label());
            store.redo().unwrap();
            prop_assert_eq!(&tables(&store), &after, "redo of {}", act.label());
            // The positions are the active players, each once.
            let ladder = store.ladder().unwrap();
            let mut order = after.challenge.order().to_vec();
            order.sort_unstable();
            let active: Vec<u32> = (0..PLAYERS)
                .filter(|id| ladder.player(*id).is_some_and(|p| !p.retired))
                .collect();
            prop_assert_eq!(order, active);
        }
        let log = store.export_log().unwrap();
        let mut text = Vec::new();
        jsonl::write(&log, &mut text).unwrap();
        let back = jsonl::read(text.as_slice(), "export.jsonl").unwrap();
        let mut copy = Store::create(&dir.0.join("copy.rungs"), &Rules::defaults(System::Elo)).unwrap();
        copy.import_log(&back).unwrap();
        prop_assert_eq!(tables(&copy), tables(&store));
    }
}
