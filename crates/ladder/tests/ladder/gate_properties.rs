//! Properties of the gate's value types and declared parameter ranges: any text becomes a name
//! or a message, never a panic; names that normalise alike are one player; and every point of
//! every system's declared parameter box gives finite ratings for every result.

use rungs_testkit::strategies;

use chrono::NaiveDate;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use rungs_ladder::event::{Event, Match, MatchResult, Migration, MigrationEntry, OldRank};
use rungs_ladder::predict::predict;
use rungs_ladder::replay::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::standings;
use rungs_ladder::values::{NameError, PlayerName, name_key};
use std::cell::Cell;
use unicode_normalization::UnicodeNormalization;

/// Characters a hostile or careless user might type: letters with and without combining
/// marks, spaces of every kind, controls, zero-width and direction marks, commas, formula
/// starters, private-use and unassigned code points, and right-to-left letters.
fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'z'),
        2 => prop::char::range('A', 'Z'),
        1 => prop::sample::select(vec!['é', 'É', 'ß', 'ẞ', 'ø', 'İ', 'ı', 'ǅ', 'ﬁ', 'Ω', 'Ω']),
        1 => prop::sample::select(vec!['\u{301}', '\u{308}', '\u{327}']),
        2 => prop::sample::select(vec![' ', '\u{a0}', '\u{3000}', '\u{2009}']),
        1 => prop::sample::select(vec!['\t', '\n', '\r', '\u{1b}', '\u{0}', '\u{7f}', '\u{85}']),
        1 => prop::sample::select(vec!['\u{200b}', '\u{200d}', '\u{202e}', '\u{2066}', '\u{feff}', '\u{ad}']),
        1 => prop::sample::select(vec![',', '=', '+', '-', '@', '\'', '"']),
        1 => prop::sample::select(vec!['\u{e000}', '\u{10ffff}', '\u{2028}', 'א', 'س']),
        1 => any::<char>(),
    ]
}

fn hostile_text() -> impl Strategy<Value = String> {
    prop::collection::vec(hostile_char(), 0..100).prop_map(|cs| cs.into_iter().collect())
}

/// A name as a person might type it, and as the ladder must keep it: one to five words of
/// letters (some with combining marks, some written decomposed, a few that NFC rewrites),
/// digits and punctuation, between runs of spaces of any kind. Kept, it is the words in NFC
/// joined by one ASCII space.
fn typed_name() -> impl Strategy<Value = (String, String)> {
    let first = prop::sample::select(vec![
        'a', 'z', 'A', 'Q', 'é', 'É', 'ß', 'ø', 'İ', 'ı', 'ǅ', 'ﬁ', '\u{2126}', 'א', 'س', '7',
    ]);
    let rest = prop_oneof![
        6 => prop::char::range('a', 'z'),
        1 => prop::sample::select(vec!['\u{301}', '\u{308}', '\u{327}']),
        1 => prop::sample::select(vec!['-', '\'', '.', '0', 'ñ', 'Å', '\u{212b}']),
    ];
    let word = (first, prop::collection::vec(rest, 0..8))
        .prop_map(|(c, cs)| std::iter::once(c).chain(cs).collect::<String>());
    let space = prop::sample::select(vec![' ', '\u{a0}', '\u{3000}', '\u{2009}']);
    let spaces = |min| prop::collection::vec(space.clone(), min..4).prop_map(String::from_iter);
    (
        prop::collection::vec((word, spaces(1)), 1..6),
        spaces(0),
        any::<bool>(),
    )
        .prop_map(|(words, lead, decomposed)| {
            let mut typed = lead;
            for (w, gap) in &words {
                typed.push_str(w);
                typed.push_str(gap);
            }
            if decomposed {
                typed = typed.nfd().collect();
            }
            let kept: Vec<String> = words.iter().map(|(w, _)| w.nfc().collect()).collect();
            (typed, kept.join(" "))
        })
}

/// Hostile text, or a name as typed.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![hostile_text(), typed_name().prop_map(|(typed, _)| typed)]
}

/// Runs `property` over `cases` cases of `strategy`, as `proptest!` does (the failures it
/// finds kept beside this file), in a test that can count what the cases were.
fn check<S: Strategy>(
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let mut runner = TestRunner::new(ProptestConfig {
        source_file: Some(file!()),
        ..ProptestConfig::with_cases(cases)
    });
    if let Err(e) = runner.run(&strategy, property) {
        panic!("{e}\n{runner}");
    }
}

/// A name as typed is kept exactly as its words in NFC joined by one space.
#[test]
fn a_typed_name_is_kept_as_its_words_in_nfc() {
    check(2000, typed_name(), |(typed, kept)| {
        let name = PlayerName::parse(&typed).map(PlayerName::into_string);
        prop_assert_eq!(name, Ok(kept), "typed {:?}", typed);
        Ok(())
    });
}

#[test]
fn names_are_kept_or_refused_for_what_they_hold() {
    let kept = [
        ("Ann", "Ann"),
        ("  Ann \u{a0}\u{3000} Lee ", "Ann Lee"),
        ("Zoe\u{301}", "Zoé"),
        ("\u{2126}mega", "Ωmega"),
        ("O'Brien-Smith", "O'Brien-Smith"),
        ("7 Seas", "7 Seas"),
    ];
    for (typed, want) in kept {
        let name = PlayerName::parse(typed).map(PlayerName::into_string);
        assert_eq!(name.as_deref(), Ok(want), "{typed:?}");
    }
    let refused = [
        ("", NameError::Empty),
        (" \u{3000} ", NameError::Empty),
        ("Ann,Bo", NameError::Comma),
        ("=cmd", NameError::FormulaStart('=')),
        ("  @Ann", NameError::FormulaStart('@')),
        ("Ann\u{1b}[2J", NameError::Control("U+001B".into())),
        ("Ann\tLee", NameError::Control("U+0009".into())),
        ("Ann\u{200b}", NameError::Format("U+200B".into())),
        ("Ann\u{2028}Bo", NameError::Format("U+2028".into())),
        ("Ann\u{e000}", NameError::Unassigned("U+E000".into())),
    ];
    for (typed, why) in refused {
        assert_eq!(PlayerName::parse(typed), Err(why), "{typed:?}");
    }
    let long = "a".repeat(81);
    assert_eq!(
        PlayerName::parse(&long),
        Err(NameError::TooLong {
            typed: 81,
            kept: 81
        })
    );
    assert_eq!(
        PlayerName::parse(&"a".repeat(80)).map(PlayerName::into_string),
        Ok("a".repeat(80))
    );
}

/// Any text is a name or a reason; a name is already in the form it is kept in, and reads
/// back as itself. Both happen: the cases are counted.
#[test]
fn any_text_is_a_name_or_a_reason() {
    let (names, reasons) = (Cell::new(0u32), Cell::new(0u32));
    check(3000, any_text(), |text| {
        match PlayerName::parse(&text) {
            Ok(name) => {
                names.set(names.get() + 1);
                let s = name.as_str();
                prop_assert!(!s.is_empty() && s.chars().count() <= 80);
                prop_assert!(s.nfc().eq(s.chars()), "not NFC: {s:?}");
                prop_assert!(!s.starts_with(' ') && !s.ends_with(' ') && !s.contains("  "));
                prop_assert!(!s.contains(',') && !s.chars().any(char::is_control));
                prop_assert_eq!(PlayerName::parse(s), Ok(name.clone()));
            }
            Err(e) => {
                reasons.set(reasons.get() + 1);
                prop_assert!(!e.to_string().is_empty());
            }
        }
        Ok(())
    });
    let (names, reasons) = (names.get(), reasons.get());
    eprintln!("{names} names, {reasons} refused");
    assert!(
        names >= 900 && reasons >= 900,
        "{names} names, {reasons} refused"
    );
}

/// The NFC and NFD spellings of any text, and its upper- and lower-case forms, are the same
/// player (or are both refused). Both happen: the cases are counted.
#[test]
fn names_that_normalise_alike_are_one_player() {
    let (players, refused, cased) = (Cell::new(0u32), Cell::new(0u32), Cell::new(0u32));
    check(3000, any_text(), |text| {
        let nfd: String = text.nfd().collect();
        let nfc: String = text.nfc().collect();
        match (PlayerName::parse(&nfc), PlayerName::parse(&nfd)) {
            (Ok(a), Ok(b)) => {
                players.set(players.get() + 1);
                prop_assert_eq!(a.key(), b.key());
                prop_assert_eq!(&a, &b, "both kept in NFC");
                // Upper case is the same player, wherever upper-casing can be undone (the
                // dotless ı upper-cases to I, which is i's capital: another letter).
                let upper = a.as_str().to_uppercase();
                if upper.to_lowercase() == a.as_str().to_lowercase()
                    && let Ok(u) = PlayerName::parse(&upper)
                {
                    cased.set(cased.get() + 1);
                    prop_assert_eq!(name_key(u.as_str()), a.key());
                }
            }
            (Err(_), Err(_)) => refused.set(refused.get() + 1),
            (a, b) => prop_assert!(false, "{nfc:?} → {a:?} but {nfd:?} → {b:?}"),
        }
        Ok(())
    });
    let (players, refused, cased) = (players.get(), refused.get(), cased.get());
    eprintln!("{players} players ({cased} upper-cased too), {refused} refused");
    assert!(
        players >= 900 && cased >= 450 && refused >= 900,
        "{players} players ({cased} upper-cased too), {refused} refused"
    );
}

/// A value of `spec`'s range: its ends often, anything between otherwise.
fn value_in(min: f64, max: f64, integer: bool) -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(min),
        1 => Just(max),
        3 => min..=max,
    ]
    .prop_map(move |v: f64| {
        if integer {
            v.round().clamp(min, max)
        } else {
            v
        }
    })
}

/// Rules of `system` with every parameter anywhere in its declared range.
fn rules_in_box(system: System) -> impl Strategy<Value = Rules> {
    let specs = system.facts().params;
    let values: Vec<_> = specs
        .iter()
        .map(|p| value_in(p.min, p.max, p.integer))
        .collect();
    values.prop_map(move |vs| {
        let mut rules = Rules::defaults(system);
        for (p, v) in specs.iter().zip(vs) {
            rules
                .set_param(p.name, v)
                .expect("a value in the declared range");
        }
        rules
    })
}

fn any_rules_in_box() -> impl Strategy<Value = Rules> {
    prop_oneof![
        rules_in_box(System::Skyweaver),
        rules_in_box(System::Inversus),
        rules_in_box(System::Allegskill),
        rules_in_box(System::Memoir44),
        rules_in_box(System::Elo),
    ]
}

#[derive(Debug, Clone)]
enum Step {
    Game(u32, u32, MatchResult, Option<[f64; 2]>, u64),
    Soft,
    Hard,
    Migrate(u32, f64),
}

fn step() -> impl Strategy<Value = Step> {
    let medals = prop::option::of(prop::array::uniform2(prop_oneof![
        Just(0.0),
        Just(1000.0),
        0.0..=1000.0f64
    ]));
    prop_oneof![
        8 => (0..4u32, 0..4u32, strategies::result(), medals, 0..400u64)
            .prop_map(|(a, b, r, m, gap)| Step::Game(a, b, r, m, gap)),
        1 => Just(Step::Soft),
        1 => Just(Step::Hard),
        1 => (0..4u32, prop_oneof![Just(0.0), Just(4000.0), 0.0..=4000.0f64])
            .prop_map(|(p, elo)| Step::Migrate(p, elo)),
    ]
}

/// A log of four players and `steps`, dated forward from 2000 by each game's gap in days.
fn log(steps: &[Step]) -> Vec<(NaiveDate, u64, Event)> {
    let mut date = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();
    let mut out: Vec<(NaiveDate, u64, Event)> = (0..4)
        .map(|id| {
            let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap();
            let event = Event::Player {
                id,
                name,
                undated: false,
            };
            (date, id as u64 + 1, event)
        })
        .collect();
    for s in steps {
        let event = match s {
            Step::Game(a, b, result, medals, gap) => {
                date = date + chrono::Days::new(*gap);
                let b = if a == b { (b + 1) % 4 } else { *b };
                let mut m = Match::new(*a, b, *result);
                m.medals = medals.map(|pair| rungs_ladder::values::Medals::new(pair).unwrap());
                m.scenario = Some("Pegasus Bridge".into());
                m.side_a = Some(if a % 2 == 0 { "Allies" } else { "Axis" }.into());
                Event::Match(m)
            }
            Step::Soft => Event::SoftReset,
            Step::Hard => Event::HardReset,
            Step::Migrate(p, elo) => Event::Migration {
                migration: Box::new(Migration {
                    entries: vec![MigrationEntry {
                        player: *p,
                        elo: *elo,
                        old_rank: OldRank::Master,
                    }],
                }),
            },
        };
        let seq = out.len() as u64 + 1;
        out.push((date, seq, event));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Every point of every system's declared box, with every kind of result (forfeits,
    /// cancelled, draws, medals at their bounds, long idle gaps, resets, migrations), gives
    /// finite figures, finite predictions, and standings JSON without a null.
    #[test]
    fn every_declared_parameter_box_gives_finite_ratings(
        rules in any_rules_in_box(),
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let events = log(&steps);
        let (ladder, history) = replay(&rules, events.iter().map(|(d, s, e)| (*d, *s, e)))
            .expect("a well-formed log replays");
        for h in &history {
            let f = h.figures;
            prop_assert!(
                f.rating.is_finite() && f.deviation.is_finite() && f.extra.is_finite() && f.score.is_finite(),
                "{rules:?}: {h:?}"
            );
        }
        for a in 0..4u32 {
            for b in 0..4u32 {
                if a == b {
                    continue;
                }
                if let Some(p) = predict(&ladder, &[a], &[b]) {
                    for x in [p.win_a, p.draw, p.win_b] {
                        prop_assert!(x.is_finite() && (0.0..=1.0).contains(&x), "{rules:?}: {p:?}");
                    }
                }
            }
        }
        // serde_json writes a NaN or an infinity as null: no figure may be null.
        let json = standings::to_json(&ladder, &standings::standings(&ladder));
        for row in json.as_array().expect("an array") {
            for key in ["rating", "deviation", "rp", "mu", "phi", "sigma", "rank"] {
                if let Some(v) = row.get(key) {
                    prop_assert!(v.is_number(), "{rules:?}: {key} in {row}");
                }
            }
        }
    }
}
