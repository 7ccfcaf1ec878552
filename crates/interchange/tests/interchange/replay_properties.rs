//! Properties of the log, the replay and the store: the caches a ladder file keeps always
//! equal a replay from scratch; a commit, undo or redo fails exactly when the log it would
//! leave does not replay, and then changes nothing; an export imports back to the same
//! ladder; the JSONL reader never panics; replay order depends only on (date, seq).

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use proptest::sample::Index;
use rungs_interchange::jsonl;
use rungs_ladder::event::{Entry, Event, Home, LogRow, Match, MatchResult, PlayerId};
use rungs_ladder::log;
use rungs_ladder::replay::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;
use rungs_store::export::{ActionKind, Log, LogAction as Action};
use std::collections::HashSet;

use rungs_testkit as support;
use support::TempDir;

use rungs_testkit::strategies;
use strategies::{result, rules};

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n.into())
}

fn add(event: Event) -> Entry {
    Entry::Add { event }
}

fn edit(target: u64, event: Event) -> Entry {
    Entry::Edit { target, event }
}

fn delete(target: u64) -> Entry {
    Entry::Delete { target }
}

fn row(seq: u64, date: NaiveDate, entry: Entry) -> LogRow {
    LogRow { seq, date, entry }
}

fn join(id: PlayerId) -> Event {
    let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap();
    Event::Player {
        id,
        name,
        undated: false,
    }
}

const WIN: MatchResult = MatchResult::Played(Outcome::Win);

/// A match; a quarter of the pairings carry each side-advantage flag (and a quarter none),
/// so that flagged matches take the store's JSON path and unflagged ones its columns.
fn game(a: PlayerId, b: PlayerId, result: MatchResult) -> Event {
    let home = [None, Some(Home::A), Some(Home::B), Some(Home::Neutral)][((a + b) % 4) as usize];
    let (a, b) = (a.into(), b.into());
    let (medals, scenario, side_a) = (None, None, None);
    Event::Match(Match {
        a,
        b,
        result,
        medals,
        scenario,
        side_a,
        home,
        goals: None,
        class: None,
        board: None,
    })
}

/// A store and the directory holding it (fields drop in order: the store first).
struct Case {
    store: Store,
    _dir: TempDir,
}

fn new_case(tag: &str, rules: &Rules) -> Case {
    let _dir = TempDir::new(tag);
    let store = Store::create(&_dir.0.join("club.rungs"), rules).unwrap();
    Case { store, _dir }
}

/// When an action is dated: a few days after the latest date so far (the append fast path),
/// or anywhere in the window (often backdated, sometimes before a player joined).
#[derive(Debug, Clone, Copy)]
enum When {
    Next(u32),
    At(u32),
}

// Rules grew past clippy's 200 bytes with the margin and goals parameters; a few hundred
// generated operations a case, so boxing them would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum Op {
    /// A match between two distinct players.
    Match(PlayerId, PlayerId, MatchResult, When),
    /// Rewrites the result and date of a match added so far (perhaps deleted or undone).
    Edit(Index, MatchResult, When),
    Delete(Index, When),
    /// Renames a player (the id one past the last never joined).
    Rename(PlayerId, When),
    SoftReset(When),
    HardReset(When),
    Rules(Rules, When),
    Undo,
    Redo,
    UndoRedo,
}

#[derive(Debug, Clone)]
struct Script {
    rules: Rules,
    /// Join day of players 0, 1, …, added in that order.
    joins: Vec<u32>,
    /// All players in one action (dates unsorted: the rebuild path), or one action each.
    one_action: bool,
    ops: Vec<Op>,
}

fn when() -> impl Strategy<Value = When> {
    prop_oneof![3 => (0u32..3).prop_map(When::Next), 2 => (0u32..75).prop_map(When::At)]
}

fn op(n: u32) -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0..n, 1..n, result(), when()).prop_map(move |(a, d, r, w)| Op::Match(a, (a + d) % n, r, w)),
        3 => (any::<Index>(), result(), when()).prop_map(|(i, r, w)| Op::Edit(i, r, w)),
        2 => (any::<Index>(), when()).prop_map(|(i, w)| Op::Delete(i, w)),
        1 => (0..=n, when()).prop_map(|(id, w)| Op::Rename(id, w)),
        1 => when().prop_map(Op::SoftReset),
        1 => when().prop_map(Op::HardReset),
        1 => (rules(), when()).prop_map(|(r, w)| Op::Rules(r, w)),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
        2 => Just(Op::UndoRedo),
    ]
}

fn script() -> impl Strategy<Value = Script> {
    let joins = prop::collection::vec(0u32..60, 2..=8);
    (rules(), joins, any::<bool>()).prop_flat_map(|(rules, joins, one_action)| {
        let ops = prop::collection::vec(op(joins.len() as u32), 5..=40);
        let head = Just((rules, joins, one_action));
        (head, ops).prop_map(|((rules, joins, one_action), ops)| Script {
            rules,
            joins,
            one_action,
            ops,
        })
    })
}

/// A user action about to be tried.
enum Try {
    Commit(Vec<(NaiveDate, Entry)>),
    Undo,
    Redo,
}

/// The undo/redo fold over an exported log, independent of the store's own: the actions in
/// force, and those that can be redone.
fn stacks(log: &Log) -> (Vec<i64>, Vec<i64>) {
    let (mut done, mut undone) = (Vec::new(), Vec::new());
    for a in &log.actions {
        match a.kind {
            ActionKind::Do => {
                done.push(a.id);
                undone.clear();
            }
            ActionKind::Undo => undone.extend(done.pop()),
            ActionKind::Redo => done.extend(undone.pop()),
        }
    }
    (done, undone)
}

fn rows_of(log: &Log, actions: &[i64]) -> Vec<LogRow> {
    let set: HashSet<i64> = actions.iter().copied().collect();
    let in_force = log.actions.iter().filter(|a| set.contains(&a.id));
    let mut rows: Vec<LogRow> = in_force.flat_map(|a| a.rows.iter().cloned()).collect();
    rows.sort_by_key(|r| r.seq);
    rows
}

fn replays(rules: &Rules, rows: &[LogRow]) -> bool {
    log::resolve(rows)
        .is_ok_and(|ev| replay(rules, ev.iter().map(|e| (e.date, e.seq, &e.event))).is_ok())
}

/// Whether the log would still replay after `t` (and so whether `t` should succeed).
fn should_succeed(log: &Log, t: &Try) -> bool {
    let (mut done, mut undone) = stacks(log);
    match t {
        Try::Commit(new) => {
            let mut rows = rows_of(log, &done);
            let all = log.actions.iter().flat_map(|a| &a.rows);
            let seqs = all.map(|r| r.seq).max().unwrap_or(0) + 1..;
            for ((date, entry), seq) in new.iter().zip(seqs) {
                rows.push(row(seq, *date, entry.clone()));
            }
            replays(&log.rules, &rows)
        }
        Try::Undo => done.pop().is_some() && replays(&log.rules, &rows_of(log, &done)),
        Try::Redo => undone.pop().is_some_and(|a| {
            done.push(a);
            replays(&log.rules, &rows_of(log, &done))
        }),
    }
}

/// The caches equal a replay from scratch, and the store's events are the model's.
fn check_fresh(store: &Store) -> Result<(), TestCaseError> {
    let (ladder, mut history) = store.replay(None).unwrap();
    history.sort_by_key(|r| (r.date, r.seq, r.player));
    prop_assert_eq!(&store.ladder().unwrap(), &ladder);
    prop_assert_eq!(store.cached_history().unwrap(), history);
    // Each joined player's last history row is their standing (what a read of one player's
    // history checks it against).
    for (id, p) in ladder.players.iter().enumerate().filter(|(_, p)| p.joined) {
        let rows = store.history(id as PlayerId).unwrap();
        prop_assert_eq!(
            rows.last().map(|r| r.figures),
            Some(p.figures()),
            "player {}",
            id
        );
    }
    let log = store.export_log().unwrap();
    let model = log::resolve(&rows_of(&log, &stacks(&log).0)).unwrap();
    prop_assert_eq!(store.effective().unwrap(), model);
    Ok(())
}

#[derive(Default)]
struct Progress {
    /// Every match added: (seq, a, b).
    matches: Vec<(u64, PlayerId, PlayerId)>,
    latest: u32,
}

impl Progress {
    fn date(&self, when: When) -> NaiveDate {
        day(match when {
            When::Next(d) => self.latest + d,
            When::At(d) => d,
        })
    }
}

/// The actions `op` stands for (none if there is no match to edit or delete yet).
fn tries(op: &Op, p: &Progress) -> Vec<Try> {
    let one = |when, entry| vec![Try::Commit(vec![(p.date(when), entry)])];
    match op {
        Op::Edit(..) | Op::Delete(..) if p.matches.is_empty() => vec![],
        Op::Match(a, b, result, when) => one(*when, add(game(*a, *b, *result))),
        Op::Edit(pick, result, when) => {
            let &(target, a, b) = pick.get(&p.matches);
            one(*when, edit(target, game(a, b, *result)))
        }
        Op::Delete(pick, when) => one(*when, delete(pick.get(&p.matches).0)),
        Op::Rename(id, when) => {
            let (id, name) = (
                *id,
                rungs_ladder::values::PlayerName::parse(&format!("R{id}-{}", p.matches.len()))
                    .unwrap(),
            );
            one(*when, add(Event::Rename { id, name }))
        }
        Op::SoftReset(when) => one(*when, add(Event::SoftReset)),
        Op::HardReset(when) => one(*when, add(Event::HardReset)),
        Op::Rules(r, when) => one(
            *when,
            add(Event::Rules {
                rules: r.clone().into(),
            }),
        ),
        Op::Undo => vec![Try::Undo],
        Op::Redo => vec![Try::Redo],
        Op::UndoRedo => vec![Try::Undo, Try::Redo],
    }
}

/// Tries one action: it succeeds exactly when the model says so, a failure changes nothing,
/// and (if `check`) the caches are fresh afterwards.
fn attempt(store: &mut Store, t: Try, p: &mut Progress, check: bool) -> Result<(), TestCaseError> {
    let before = store.export_log().unwrap();
    let expected = should_succeed(&before, &t);
    let outcome = match &t {
        Try::Commit(rows) => store
            .commit(&rungs_store::Change::new("step", rows.to_vec()).unwrap())
            .map(|seqs| {
                for ((date, entry), seq) in rows.iter().zip(seqs) {
                    p.latest = p.latest.max((*date - day(0)).num_days() as u32);
                    if let Entry::Add { event } = entry
                        && let Event::Match(m) = event
                    {
                        p.matches.push((seq, m.a[0], m.b[0]));
                    }
                }
            }),
        Try::Undo => store.undo().map(drop),
        Try::Redo => store.redo().map(drop),
    };
    prop_assert_eq!(outcome.is_ok(), expected, "store said {:?}", outcome.err());
    if outcome.is_err() {
        prop_assert_eq!(store.export_log().unwrap(), before);
    }
    if check {
        check_fresh(store)?;
    }
    Ok(())
}

fn run(store: &mut Store, s: &Script, check: bool) -> Result<(), TestCaseError> {
    let mut p = Progress::default();
    let joins = s
        .joins
        .iter()
        .zip(0..)
        .map(|(d, i)| (day(*d), add(join(i))));
    if s.one_action {
        attempt(store, Try::Commit(joins.collect()), &mut p, check)?;
    } else {
        for j in joins {
            attempt(store, Try::Commit(vec![j]), &mut p, check)?;
        }
    }
    for op in &s.ops {
        for t in tries(op, &p) {
            attempt(store, t, &mut p, check)?;
        }
    }
    Ok(())
}

fn jsonl_text(log: &Log) -> Vec<u8> {
    let mut out = Vec::new();
    jsonl::write(log, &mut out).unwrap();
    out
}

/// Minimal failing cases are kept as plain #[test]s below, not in a regressions file.
fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(cases);
    config.max_shrink_iters = 4000;
    config.failure_persistence = None;
    config
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn incremental_equals_full_replay(s in script()) {
        let mut case = new_case("incr", &s.rules);
        check_fresh(&case.store)?;
        run(&mut case.store, &s, true)?;
    }
}

proptest! {
    #![proptest_config(config(24))]

    /// Every case runs its script once under each system.
    #[test]
    fn export_import_round_trip(s in script()) {
        for (i, system) in System::ALL.into_iter().enumerate() {
            let mut old = new_case("export", &Rules::defaults(system));
            run(&mut old.store, &s, false)?;
            let log = old.store.export_log().unwrap();
            let back = jsonl::read(jsonl_text(&log).as_slice(), "export.jsonl").unwrap();
            prop_assert_eq!(&back, &log);
            // Into a new ladder created with other rules: the log's rules win.
            let mut new = new_case("import", &Rules::defaults(System::ALL[(i + 1) % 5]));
            new.store.import_log(&back).unwrap();
            prop_assert_eq!(new.store.ladder().unwrap(), old.store.ladder().unwrap());
            prop_assert_eq!(new.store.export_log().unwrap(), log);
            let history = old.store.cached_history().unwrap();
            prop_assert_eq!(new.store.cached_history().unwrap(), history);
            check_fresh(&new.store)?;
            // And both go on alike.
            prop_assert_eq!(old.store.undo().is_ok(), new.store.undo().is_ok());
            prop_assert_eq!(new.store.ladder().unwrap(), old.store.ladder().unwrap());
            check_fresh(&new.store)?;
        }
    }
}

/// A log with a row of every kind, as `jsonl::write` writes it.
fn sample_export() -> Vec<u8> {
    let Event::Match(mut team) = game(0, 1, MatchResult::Played(Outcome::Draw)) else {
        unreachable!()
    };
    team.a = vec![0, 2].into();
    // Medals that agree with the draw (the side with more medals wins).
    team.medals = rungs_ladder::values::Medals::new([5.0, 5.0]).ok();
    team.scenario = Some("Pegasus Bridge \"1944\" \u{e9}".into());
    team.side_a = Some("Allies".into());
    let (id, name) = (1, rungs_ladder::values::PlayerName::parse("Bob").unwrap());
    let rename = Event::Rename { id, name };
    let rules = Box::new(Rules::defaults(System::Inversus));
    let entries = [
        add(join(0)),
        add(join(1)),
        add(join(2)),
        add(game(0, 1, MatchResult::ForfeitA)),
        add(Event::Match(team)),
        add(rename),
        edit(4, game(1, 0, MatchResult::Cancelled)),
        delete(5),
        add(Event::SoftReset),
        add(Event::HardReset),
        add(Event::Rules { rules }),
    ];
    let rows: Vec<LogRow> = (entries.into_iter().zip(1..))
        .map(|(entry, seq)| row(seq, day(seq as u32 / 3), entry))
        .collect();
    let action = |id, kind, rows: &[LogRow]| Action {
        id,
        kind,
        label: format!("a{id}"),
        rows: rows.to_vec(),
    };
    let actions = vec![
        action(1, ActionKind::Do, &rows[..6]),
        action(2, ActionKind::Do, &rows[6..]),
        action(3, ActionKind::Undo, &[]),
        action(4, ActionKind::Redo, &[]),
    ];
    let rules = Rules::default();
    let log = Log { rules, actions };
    let text = jsonl_text(&log);
    assert_eq!(jsonl::read(text.as_slice(), "sample").unwrap(), log);
    text
}

const HEADER: &str = r#"{"rungs_log":1,"rules":{"system":"elo","params":{}}}"#;

fn read_is_ok_or_names_the_line(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Err(e) = jsonl::read(bytes, "fuzz.jsonl") {
        let text = e.to_string();
        prop_assert!(text.contains("fuzz.jsonl: line "), "{}", text);
    }
    Ok(())
}

/// A sample export with one byte replaced, inserted or removed.
fn mutated_export() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => prop::sample::select(b"{}[]\":,0123456789.-eEtrufalsn \n\\".to_vec()),
        1 => any::<u8>(),
    ];
    (any::<Index>(), byte, 0..3).prop_map(|(i, b, how)| {
        let mut bytes = sample_export();
        match how {
            0 => *i.get_mut(&mut bytes) = b,
            1 => bytes.insert(i.index(bytes.len() + 1), b),
            _ => drop(bytes.remove(i.index(bytes.len()))),
        }
        bytes
    })
}

/// Arbitrary bytes, JSON-ish text (after a valid header or not), or a mutated export.
fn fuzz_input() -> impl Strategy<Value = Vec<u8>> {
    let text = (any::<bool>(), r#"[{}\[\]":,0-9a-z_. \n-]{0,300}"#);
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        text.prop_map(|(header, body)| match header {
            true => format!("{HEADER}\n{body}").into_bytes(),
            false => body.into_bytes(),
        }),
        mutated_export(),
    ]
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn jsonl_reader_never_panics(bytes in fuzz_input()) {
        read_is_ok_or_names_the_line(&bytes)?;
    }
}

/// Additions with seqs 1..=n on random dates.
fn rows() -> impl Strategy<Value = Vec<LogRow>> {
    let event =
        |k: usize| [join(0), Event::SoftReset, Event::HardReset, game(0, 1, WIN)][k].clone();
    let adds = prop::collection::vec((0u32..8, 0usize..4), 1..40);
    adds.prop_map(move |adds| {
        let rows = adds.into_iter().zip(1..);
        rows.map(|((d, k), seq)| row(seq, day(d), add(event(k))))
            .collect()
    })
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn replay_is_order_independent_of_entry_order_for_same_key(
        (original, shuffled) in rows().prop_flat_map(|r| (Just(r.clone()), Just(r).prop_shuffle())),
    ) {
        let events = log::resolve(&original).unwrap();
        prop_assert_eq!(log::resolve(&shuffled).unwrap(), events.clone());
        // A row added then deleted changes nothing (and takes resolve's path for corrections).
        let mut corrected = shuffled;
        let n = corrected.len() as u64;
        corrected.push(row(n + 1, day(0), add(Event::SoftReset)));
        corrected.push(row(n + 2, day(9), delete(n + 1)));
        prop_assert_eq!(log::resolve(&corrected).unwrap(), events.clone());
        prop_assert_eq!(events.len(), original.len());
        prop_assert!(events.windows(2).all(|w| (w[0].date, w[0].seq) < (w[1].date, w[1].seq)));
    }
}

/// One single-row action, for the regression tests; returns the row's seq.
fn commit(store: &mut Store, d: u32, entry: Entry) -> u64 {
    store
        .commit(&rungs_store::Change::new("step", vec![(day(d), entry)]).unwrap())
        .unwrap()[0]
}

/// Minimal shape of a failure `incremental_equals_full_replay` found (fixed in 0b36159):
/// redoing an edit that moved a match later (day 2 → day 5) rewrote history only from day 5,
/// so player 2's row for the day-3 match kept figures from a ladder where the day-2 match
/// came first (1483.26 cached, 1484.0 replayed).
#[test]
fn redo_of_an_edit_moving_a_match_later_keeps_caches_fresh() {
    let mut case = new_case("redo-edit", &Rules::defaults(System::Elo));
    let store = &mut case.store;
    for id in 0..3 {
        commit(store, 1, add(join(id)));
    }
    let first = commit(store, 2, add(game(0, 1, WIN)));
    commit(store, 3, add(game(1, 2, WIN)));
    commit(store, 5, edit(first, game(0, 1, WIN)));
    store.undo().unwrap();
    store.redo().unwrap();
    check_fresh(store).unwrap();
}

/// Minimal shape of a failure of `incremental_equals_full_replay`: a hard reset appended
/// under any system but Skyweaver zeroes every player's `season_matches` (and clears their
/// season fields) but records no history row, so the append path rewrites no cached player:
/// the cache keeps `season_matches: 1` where a replay has 0.
#[test]
fn an_appended_hard_reset_refreshes_every_player() {
    for system in System::ALL.into_iter().filter(|s| *s != System::Skyweaver) {
        let mut case = new_case("hard-reset", &Rules::defaults(system));
        let store = &mut case.store;
        commit(store, 1, add(join(0)));
        commit(store, 1, add(join(1)));
        commit(store, 2, add(game(0, 1, WIN)));
        commit(store, 3, add(Event::HardReset));
        check_fresh(store).unwrap();
    }
}
