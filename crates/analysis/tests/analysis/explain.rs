//! "Why did this move?": the figures `explain` shows add up exactly to the change the history
//! records, under every system (one against one, teams, draws, forfeits, scores, classes,
//! scenarios with medals, side advantage, Glickman's rating periods), beside hand-computed figures for Elo and
//! Skyweaver, and for a match after the season calendar's due resets.

use chrono::{Days, NaiveDate};
use rungs_analysis::explain::{Explanation, PlayerChange, explain};
use rungs_ladder::calendar::{Calendar, Schedule};
use rungs_ladder::event::{Event, EventClass, Home, Match, MatchResult, PlayerId, Side};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::Skill;
use rungs_rating::Outcome;
use rungs_rating::trace::Section;

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n)
}

/// `events` dated as given, numbered from 1 in order.
fn log(events: Vec<(u64, Event)>) -> Vec<Effective> {
    events
        .into_iter()
        .enumerate()
        .map(|(i, (d, event))| Effective {
            date: day(d),
            seq: i as u64 + 1,
            event,
        })
        .collect()
}

fn join(id: PlayerId) -> (u64, Event) {
    let name =
        rungs_ladder::values::PlayerName::parse(["Ann", "Bea", "Cy", "Dee"][id as usize]).unwrap();
    (
        0,
        Event::Player {
            id,
            name,
            undated: false,
        },
    )
}

fn played(d: u64, a: PlayerId, b: PlayerId, o: Outcome) -> (u64, Event) {
    (d, Event::Match(Match::new(a, b, MatchResult::Played(o))))
}

/// The figure `symbol` in the first section whose title starts with `title`.
fn figure(p: &PlayerChange, title: &str, symbol: &str) -> f64 {
    p.sections
        .iter()
        .filter(|s| s.title.starts_with(title))
        .flat_map(|s| s.steps.iter())
        .find(|s| s.symbol == symbol)
        .unwrap_or_else(|| panic!("no {symbol} under {title}: {:#?}", p.sections))
        .value
}

fn titles(sections: &[Section]) -> Vec<String> {
    sections.iter().map(|s| s.title.to_string()).collect()
}

/// Every player's explanation of every match in `events` against the replay: the figures
/// before and after are the history's rows to the bit, the worked-out skill and Rank Points
/// are the replay's, and each system's last figures add up (`adds_up`). Returns how many
/// player changes it checked.
fn check_log(rules: &Rules, events: &[Effective]) -> usize {
    let mut checked = 0;
    for (i, e) in events.iter().enumerate() {
        let Event::Match(m) = &e.event else {
            continue;
        };
        let x = explain(rules, events, e.seq, None).unwrap();
        let (_, rows_before) =
            replay(rules, events[..i].iter().map(|e| (e.date, e.seq, &e.event))).unwrap();
        let (after_ladder, rows_upto) = replay(
            rules,
            events[..=i].iter().map(|e| (e.date, e.seq, &e.event)),
        )
        .unwrap();
        // The rows the event and the resets due before it wrote.
        let written = &rows_upto[rows_before.len()..];
        for p in &x.players {
            let at = format!("{:?} event {} {}: {m:?}", rules.system(), e.seq, p.name);
            let row = written
                .iter()
                .rfind(|r| r.player == p.player)
                .unwrap_or_else(|| panic!("{at}: no row"));
            assert!(
                p.after.same_bits(&row.figures),
                "{at}: {:?} {:?}",
                p.after,
                row.figures
            );
            let before = rows_before.iter().rfind(|r| r.player == p.player).unwrap();
            assert!(p.before.unwrap().same_bits(&before.figures), "{at}");
            if row.seq != e.seq {
                // Changed by the due resets alone: not in the match.
                assert!(p.worked_out.is_none(), "{at}");
                continue;
            }
            let worked = p
                .worked_out
                .unwrap_or_else(|| panic!("{at}: not worked out"));
            let stored = &after_ladder.players[p.player as usize];
            assert_eq!(
                format!("{:?}", worked.skill),
                format!("{:?}", stored.skill),
                "{at}"
            );
            assert_eq!(worked.rp.to_bits(), stored.rp.to_bits(), "{at}");
            adds_up(rules, p, &at);
            checked += 1;
        }
    }
    checked
}

/// Each system's update, step by step from the printed figures, is the stored change: the
/// sum of the printed terms is the printed result to the bit, and the result is what the
/// history shows.
fn adds_up(rules: &Rules, p: &PlayerChange, at: &str) {
    let eq =
        |x: f64, y: f64, what: &str| assert_eq!(x.to_bits(), y.to_bits(), "{at}: {what} {x} {y}");
    match rules.system() {
        System::Elo => {
            let r = figure(p, "Elo", "r") + figure(p, "Elo", "Δ");
            eq(r, figure(p, "Elo", "r'"), "r + Δ = r'");
            eq(r, p.after.rating, "r' shown");
        }
        System::Memoir44 => {
            let r = figure(p, "Memoir", "r_A") + figure(p, "Memoir", "ptsA");
            eq(r, figure(p, "Memoir", "r_A'"), "r_A + ptsA");
            eq(r, p.after.rating, "r_A' shown");
        }
        System::Skyweaver => {
            // Under rating periods the update is the period's so far.
            let update = if rules.rating_period_days().is_some() {
                "Rating period"
            } else {
                "Glicko-1"
            };
            let r = figure(p, update, "r") + figure(p, update, "Δr");
            eq(r, figure(p, update, "r'"), "r + Δr = r'");
            let rd = figure(p, update, "RD'");
            eq(rd, p.after.deviation, "RD' shown");
            let terms = figure(p, "Rank Points", "RP")
                + figure(p, "Rank Points", "Δr") * figure(p, "Rank Points", "F")
                + figure(p, "Rank Points", "B") * figure(p, "Rank Points", "s")
                + figure(p, "Rank Points", "A");
            eq(
                terms,
                figure(p, "Rank Points", "RP + Δr·F + B·s + A"),
                "eq. 4 sum",
            );
            eq(
                terms.round(),
                figure(p, "Rank Points", "round(…)"),
                "rounded",
            );
            eq(figure(p, "Rank Points", "RP'"), p.after.score, "RP' shown");
        }
        System::Inversus => {
            let mu = figure(p, "Glicko-2 update", "μ'");
            let going = if rules.rating_period_days().is_some() {
                figure(p, "Rating period", "μ")
            } else {
                figure(p, "Glicko-2 expected", "μ")
            };
            eq(
                going + figure(p, "Glicko-2 update", "Δμ"),
                mu,
                "μ + Δμ = μ'",
            );
            let rp = figure(p, "Rank Points", "RP") + figure(p, "Rank Points", "ΔRP");
            eq(
                rp.round().clamp(0.0, 10_000.0),
                p.after.score,
                "round(RP + ΔRP)",
            );
        }
        System::Allegskill => {
            let mu = figure(p, "TrueSkill", "μ") + figure(p, "TrueSkill", "Δμ");
            eq(mu, figure(p, "TrueSkill", "μ'"), "μ + Δμ = μ'");
            eq(mu, p.after.rating, "μ' shown");
            eq(figure(p, "TrueSkill", "σ'"), p.after.deviation, "σ' shown");
        }
        System::Goals => {
            let Some(Skill::Goals(r)) = p.worked_out.map(|w| w.skill) else {
                panic!("{at}")
            };
            let att = figure(p, "Goals", "att")
                + figure(p, "Goals", "Δatt")
                + rules.param("share").unwrap() * figure(p, "Goals", "Δdef");
            eq(att, r.attack, "att + Δatt + κΔdef");
            eq(figure(p, "Goals", "v'"), r.variance, "v'");
        }
    }
}

/// A log with every kind of match: results each way, draws, forfeits, a team match, scores,
/// classes, home sides, Memoir '44 scenarios with medals, idle days between.
fn varied_log() -> Vec<Effective> {
    let mut events: Vec<(u64, Event)> = (0..4).map(join).collect();
    events.push(played(1, 0, 1, Outcome::Win));
    events.push(played(3, 2, 3, Outcome::Draw));
    events.push(played(4, 0, 2, Outcome::Loss));
    let mut m = Match::new(1, 3, MatchResult::Played(Outcome::Win));
    m.goals = Some([3, 1]);
    m.class = Some(EventClass::Cup);
    m.home = Some(Home::A);
    events.push((9, Event::Match(m)));
    events.push((10, Event::Match(Match::new(3, 0, MatchResult::ForfeitA))));
    let side = |ids: Vec<PlayerId>| -> Side { ids.into() };
    let mut team = Match::new(
        side(vec![0, 3]),
        side(vec![1, 2]),
        MatchResult::Played(Outcome::Win),
    );
    team.goals = Some([2, 0]);
    events.push((12, Event::Match(team)));
    for (k, (a, b, o)) in [
        (0, 1, Outcome::Win),
        (1, 0, Outcome::Draw),
        (2, 0, Outcome::Win),
    ]
    .into_iter()
    .enumerate()
    {
        let mut m = Match::new(a, b, MatchResult::Played(o));
        m.scenario = Some("Pegasus Bridge".into());
        m.side_a = Some(["Allies", "Axis"][k % 2].into());
        m.medals = rungs_ladder::values::Medals::new([4.0, 2.0 + k as f64]).ok();
        m.home = Some(Home::B);
        events.push((20 + 3 * k as u64, Event::Match(m)));
    }
    // A third straight win (Skyweaver's streak bonus when `a` is set).
    events.push(played(40, 2, 1, Outcome::Win));
    events.push(played(41, 2, 3, Outcome::Win));
    log(events)
}

/// Under every system, defaults and moved parameters, every player of every match: the
/// explanation adds up to the history's change.
#[test]
fn every_system_adds_up_to_the_stored_change() {
    let tweaks: &[(System, &str)] = &[
        (System::Skyweaver, ""),
        (System::Skyweaver, "c_per_day=3 advantage=90 margin=1 a=10"),
        (
            System::Skyweaver,
            "entry=0.5 entry_offset=-200 advantage=40",
        ),
        (System::Skyweaver, "rating_period_days=7"),
        (System::Inversus, ""),
        (System::Inversus, "days_per_period=3 advantage=120 margin=2"),
        (System::Inversus, "rating_period_days=14 days_per_period=3"),
        (System::Allegskill, ""),
        (System::Allegskill, "draw_rate=observed advantage=60"),
        (System::Memoir44, ""),
        (
            System::Memoir44,
            "points=20 advantage=50 margin=1 k_cup=0.7",
        ),
        (System::Elo, ""),
        (System::Elo, "k=16 advantage=100 margin=2 k_cup=1.5"),
        (System::Goals, ""),
        (System::Goals, "advantage=80 drift=0.001 step=1.5 share=0.3"),
    ];
    let events = varied_log();
    for (system, params) in tweaks {
        let mut rules = Rules::defaults(*system);
        for assignment in params.split_whitespace() {
            rules.assign(assignment).unwrap();
        }
        let checked = check_log(&rules, &events);
        // 9 one-against-one matches rate 2 players, a forfeit 1, the team match 4.
        assert_eq!(checked, 9 * 2 + 1 + 4, "{system:?} {params}");
    }
}

/// Elo by hand (K = 32). Event 3: Ann and Bea at 1500, Ann wins: E = ½, Δ = 32·(1 − ½) = 16.
/// Event 4: Ann (1516) loses to Bea (1484): E = 1/(1 + 10^((1484 − 1516)/400)) =
/// 1/(1 + 10^−0.08) = 1/(1 + 0.8317638) = 0.5459219; Δ = 32·(0 − 0.5459219) = −17.4695015;
/// r' = 1516 − 17.4695015 = 1498.5304985.
#[test]
fn elo_by_hand() {
    let rules = Rules::defaults(System::Elo);
    let events = log(vec![
        join(0),
        join(1),
        played(1, 0, 1, Outcome::Win),
        played(2, 0, 1, Outcome::Loss),
    ]);
    let x = explain(&rules, &events, 3, Some(0)).unwrap();
    let ann = &x.players[0];
    assert_eq!(figure(ann, "Elo", "E"), 0.5);
    assert_eq!(figure(ann, "Elo", "Δ"), 16.0);
    assert_eq!(ann.after.rating, 1516.0);
    let x: Explanation = explain(&rules, &events, 4, None).unwrap();
    assert_eq!(x.players.len(), 2);
    let (ann, bea) = (&x.players[0], &x.players[1]);
    assert_eq!((ann.name.as_str(), bea.name.as_str()), ("Ann", "Bea"));
    assert!((figure(ann, "Elo", "E") - 0.545_921_9).abs() < 1e-7);
    assert!((figure(ann, "Elo", "Δ") + 17.469_501_5).abs() < 1e-7);
    assert!((ann.after.rating - 1_498.530_498_5).abs() < 1e-7);
    // Bea's view: E = 1 − 0.5459219 = 0.4540781, Δ = +17.4695015.
    assert!((figure(bea, "Elo", "E") - 0.454_078_1).abs() < 1e-7);
    assert!((figure(bea, "Elo", "Δ") - 17.469_501_5).abs() < 1e-7);
    assert_eq!(ann.before.unwrap().rating, 1516.0);
    check_log(&rules, &events);
}

/// Skyweaver by hand, two newcomers (1500 ± 350, 200 RP), Ann wins:
///   q = ln 10/400 = 0.0057565; g(350) = 1/√(1 + 3q²·350²/π²) = 0.6690694;
///   E = ½ (equal ratings); d² = 1/(q²g²E(1 − E)) = 269653.63;
///   1/RD² + 1/d² = 1/122500 + 1/269653.63 = 1.1871726e-5;
///   Δr = q/1.1871726e-5·0.6690694·½ = 162.2120026; RD' = √(1/1.1871726e-5) = 290.2305061.
///   Equation 4 at 200 RP: f = 0.25, F = 1000/1750·0.25 = 0.1428571, B = 25, A = 0:
///   200 + 162.2120026·0.1428571 + 25·1 = 248.1731432, rounded 248; Wanderer (floor 200).
///   Bea loses: Δr = −162.2120026, 200 − 23.17 + 0 = 176.83 → 177, held at the floor 200.
#[test]
fn skyweaver_by_hand() {
    let rules = Rules::defaults(System::Skyweaver);
    let events = log(vec![join(0), join(1), played(1, 0, 1, Outcome::Win)]);
    let x = explain(&rules, &events, 3, None).unwrap();
    let (ann, bea) = (&x.players[0], &x.players[1]);
    let close = |x: f64, y: f64, tol: f64| assert!((x - y).abs() < tol, "{x} vs {y}");
    close(figure(ann, "Glicko-1", "g(RD_j)"), 0.669_069_4, 1e-7);
    assert_eq!(figure(ann, "Glicko-1", "E"), 0.5);
    close(figure(ann, "Glicko-1", "d²"), 269_653.63, 0.01);
    close(figure(ann, "Glicko-1", "1/RD'²"), 1.187_172_6e-5, 1e-12);
    close(figure(ann, "Glicko-1", "Δr"), 162.212_002_6, 1e-7);
    close(figure(ann, "Glicko-1", "RD'"), 290.230_506_1, 1e-7);
    close(figure(ann, "Rank Points", "F"), 0.142_857_1, 1e-7);
    assert_eq!(figure(ann, "Rank Points", "B"), 25.0);
    assert_eq!(figure(ann, "Rank Points", "A"), 0.0);
    close(
        figure(ann, "Rank Points", "RP + Δr·F + B·s + A"),
        248.173_143_2,
        1e-7,
    );
    assert_eq!(figure(ann, "Rank Points", "RP'"), 248.0);
    assert_eq!(ann.after.score, 248.0);
    let tier = ann
        .sections
        .iter()
        .flat_map(|s| &s.steps)
        .find(|s| s.symbol == "tier");
    assert_eq!(tier.map(|t| t.name.as_ref()), Some("Wanderer"));
    close(figure(bea, "Glicko-1", "Δr"), -162.212_002_6, 1e-7);
    assert_eq!(figure(bea, "Rank Points", "round(…)"), 177.0);
    assert_eq!(figure(bea, "Rank Points", "RP'"), 200.0);
    assert_eq!(
        titles(&ann.sections),
        [
            "Glicko-1 update",
            "Rank Points (equation 4)",
            "Floor and tier",
            "Shown in standings and history"
        ]
    );
}

/// A match after the season calendar's due resets (soft resets every 7 days from Monday
/// 2025-12-29, a hard reset every 4th from there): Ann's RD after her first match, 290.2305061, grows at
/// the soft reset of 2026-01-05 by one period (c = 34.6): √(290.2305061² + 34.6²) =
/// 292.2856594, and the match of 2026-01-07 is rated from there: the explanation shows the
/// reset first, then RD = 292.2856594 going into the update. On the first soft reset of a
/// month under the weekly calendar a hard reset follows: its rows come second, named as such.
#[test]
fn a_match_after_due_resets() {
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.calendar = Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor: NaiveDate::from_ymd_opt(2025, 12, 29).unwrap(),
        hard: rungs_ladder::calendar::HardResets::Every(4),
    });
    // 2026-01-02 (Friday) the first match; 2026-01-07 (Wednesday) the next: one Monday between.
    let events = log(vec![
        join(0),
        join(1),
        join(2),
        played(1, 0, 1, Outcome::Win),
        played(6, 0, 2, Outcome::Win),
    ]);
    let x = explain(&rules, &events, 5, Some(0)).unwrap();
    let ann = &x.players[0];
    assert_eq!(
        titles(&ann.sections)[..2],
        [
            "Season calendar: resets due before the event",
            "Glicko-1 update"
        ]
    );
    let reset = &ann.sections[0].steps;
    assert_eq!(reset.len(), 1, "{reset:?}");
    assert_eq!(reset[0].symbol, "RD");
    assert_eq!(
        reset[0].name,
        "deviation after the soft reset of 2026-01-05"
    );
    assert!((reset[0].value - 292.285_659_4).abs() < 1e-7);
    assert_eq!(
        figure(ann, "Glicko-1", "RD").to_bits(),
        reset[0].value.to_bits()
    );
    assert!((ann.before.unwrap().deviation - 290.230_506_1).abs() < 1e-7);
    check_log(&rules, &events);

    // The weekly calendar: 2026-01-05 is the month's first Monday, so a hard reset too. Ann
    // led the range of MMR (1662.2 against Bea's 1337.8), so r' = 1500 + 750 = 2250, RD back
    // to 350, RP to Wanderer's 200.
    rules.calendar = Calendar::Scheduled(Schedule::default());
    let x = explain(&rules, &events, 5, Some(0)).unwrap();
    let reset = &x.players[0].sections[0].steps;
    let names: Vec<&str> = reset.iter().map(|s| s.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "deviation after the soft reset of 2026-01-05",
            "rating after the hard reset of 2026-01-05",
            "deviation after the hard reset of 2026-01-05",
            "score after the hard reset of 2026-01-05"
        ]
    );
    let values: Vec<f64> = reset.iter().map(|s| s.value).collect();
    assert_eq!(values[1..], [2250.0, 350.0, 200.0]);
    assert_eq!(figure(&x.players[0], "Glicko-1", "r"), 2250.0);
    check_log(&rules, &events);
}

/// INVERSUS with idle periods: the inactivity comes first, then the Glicko-2 steps (v, Δ,
/// the volatility search) and the Rank Points' target, half-way step and cap.
#[test]
fn inversus_shows_idle_time_the_search_and_rank_points() {
    let rules = Rules::defaults(System::Inversus);
    let events = log(vec![
        join(0),
        join(1),
        played(1, 0, 1, Outcome::Win),
        played(29, 0, 1, Outcome::Loss),
    ]);
    let x = explain(&rules, &events, 4, Some(0)).unwrap();
    let ann = &x.players[0];
    // 28 idle days at 14 days a period: t = 2.
    assert_eq!(figure(ann, "Idle time", "t"), 2.0);
    assert_eq!(
        titles(&ann.sections),
        [
            "Idle time before the match",
            "Glicko-2 expected score",
            "Volatility search (Illinois)",
            "Glicko-2 update",
            "Rank Points",
            "Shown in standings and history"
        ]
    );
    let v = figure(ann, "Glicko-2 expected", "v");
    let delta = figure(ann, "Glicko-2 expected", "Δ");
    let g = figure(ann, "Glicko-2 expected", "g(φ_j)");
    let e = figure(ann, "Glicko-2 expected", "E");
    assert!((v - 1.0 / (g * g * e * (1.0 - e))).abs() < 1e-9 * v);
    assert!((delta - v * g * (0.0 - e)).abs() < 1e-12);
    assert!(figure(ann, "Volatility", "iterations") >= 1.0);
    check_log(&rules, &events);
}

/// A cancelled match and a name that played no part: nothing to explain, said as such.
#[test]
fn nothing_to_explain_is_said() {
    let rules = Rules::defaults(System::Elo);
    let events = log(vec![
        join(0),
        join(1),
        join(2),
        played(1, 0, 1, Outcome::Win),
    ]);
    let e = explain(&rules, &events, 4, Some(2)).unwrap_err();
    assert_eq!(e.to_string(), "event 4 did not change Cy");
    let e = explain(&rules, &events, 99, None).unwrap_err();
    assert_eq!(e.to_string(), "there is no event 99");
    // A join explains the newcomer's start.
    let x = explain(&rules, &events, 3, None).unwrap();
    assert_eq!(x.event, "join");
    assert_eq!(x.players[0].after.rating, 1500.0);
    assert!(x.players[0].before.is_none());
}
