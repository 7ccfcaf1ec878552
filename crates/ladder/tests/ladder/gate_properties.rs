//! Properties of the gate's value types and declared parameter ranges: any text becomes a name
//! or a message, never a panic; names that normalise alike are one player; and every point of
//! every system's declared parameter box gives finite ratings for every result.

use rungs_testkit::strategies;

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::event::{Event, Match, MatchResult, Migration, MigrationEntry, OldRank};
use rungs_ladder::predict::predict;
use rungs_ladder::replay::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::standings;
use rungs_ladder::values::{PlayerName, name_key};
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any text is a name or a reason; a name is already in the form it is kept in, and reads
    /// back as itself.
    #[test]
    fn any_text_is_a_name_or_a_reason(text in hostile_text()) {
        match PlayerName::parse(&text) {
            Ok(name) => {
                let s = name.as_str();
                prop_assert!(!s.is_empty() && s.chars().count() <= 80);
                prop_assert!(s.nfc().eq(s.chars()), "not NFC: {s:?}");
                prop_assert!(!s.starts_with(' ') && !s.ends_with(' ') && !s.contains("  "));
                prop_assert!(!s.contains(',') && !s.chars().any(char::is_control));
                prop_assert_eq!(PlayerName::parse(s), Ok(name.clone()));
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// The NFC and NFD spellings of any text, and its upper- and lower-case forms, are the
    /// same player (or are both refused).
    #[test]
    fn names_that_normalise_alike_are_one_player(text in hostile_text()) {
        let nfd: String = text.nfd().collect();
        let nfc: String = text.nfc().collect();
        match (PlayerName::parse(&nfc), PlayerName::parse(&nfd)) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.key(), b.key());
                prop_assert_eq!(&a, &b, "both kept in NFC");
                // Upper case is the same player, wherever upper-casing can be undone (the
                // dotless ı upper-cases to I, which is i's capital: another letter).
                let upper = a.as_str().to_uppercase();
                if upper.to_lowercase() == a.as_str().to_lowercase()
                    && let Ok(u) = PlayerName::parse(&upper)
                {
                    prop_assert_eq!(name_key(u.as_str()), a.key());
                }
            }
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "{nfc:?} → {a:?} but {nfd:?} → {b:?}"),
        }
    }
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
