//! Plot data from real replays: bands, tier lines, markers, match-number placement, hover,
//! decimation, the band mesh, and the ladder-wide tier counts and histogram.

use chrono::{Days, NaiveDate};
use rungs_chart::distribution::{rating_histogram, score_histogram, tier_counts};
use rungs_chart::hover::{describe_event, event_at, figures_text};
use rungs_chart::series::{band_factor, score_axis};
use rungs_chart::{
    LogIndex, MarkerKind, PlayerSeries, RowKind, XMode, band_mesh, date_x, decimate,
    decimate_indices, format_x, tier_lines, x_date,
};
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, replay};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::seasons::{Migration, MigrationEntry, OldRank};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::state::HistoryRow;
use rungs_rating::Outcome;

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 1).unwrap() + Days::new(n.into())
}

fn join(id: PlayerId, name: &str) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
        undated: false,
    }
}

fn game(a: PlayerId, b: PlayerId, o: Outcome) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(o)))
}

fn log(items: Vec<(u32, Event)>) -> Vec<Effective> {
    let mut out: Vec<Effective> = items
        .into_iter()
        .enumerate()
        .map(|(i, (d, event))| Effective {
            date: day(d),
            seq: i as u64 + 1,
            event,
        })
        .collect();
    out.sort_by_key(|e| (e.date, e.seq));
    out
}

fn run(rules: &Rules, events: &[Effective]) -> (Ladder, Vec<HistoryRow>) {
    replay(rules, events.iter().map(|e| (e.date, e.seq, &e.event))).unwrap()
}

fn rows_of(history: &[HistoryRow], id: PlayerId) -> Vec<HistoryRow> {
    history.iter().filter(|r| r.player == id).copied().collect()
}

/// Three players, a few matches, a soft reset in the middle.
fn small_log() -> Vec<Effective> {
    log(vec![
        (0, join(0, "Ann Lee")),
        (0, join(1, "Bo Chen")),
        (0, join(2, "Cy Diaz")),
        (1, game(0, 1, Outcome::Win)),
        (1, game(0, 2, Outcome::Draw)),
        (2, game(1, 0, Outcome::Win)),
        (3, Event::SoftReset),
        (4, game(0, 2, Outcome::Win)),
        (5, game(2, 1, Outcome::Loss)),
    ])
}

fn assert_close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} vs {b}");
}

#[test]
fn glicko_and_trueskill_bands_from_a_replay() {
    for (system, k) in [
        (System::Skyweaver, 1.96),
        (System::Inversus, 1.96),
        (System::Allegskill, 3.0),
    ] {
        let rules = Rules::defaults(system);
        let events = small_log();
        let (_, history) = run(&rules, &events);
        let rows = rows_of(&history, 0);
        let index = LogIndex::new(&rules, &events);
        let s = PlayerSeries::new(&rows, &index, XMode::Match);
        assert_eq!(band_factor(system), Some(k));
        assert_eq!(s.segments.len(), 1);
        let seg = &s.segments[0];
        let band = seg.band.as_ref().expect("a band");
        assert_eq!(seg.rating.len(), rows.len());
        for (i, r) in rows.iter().enumerate() {
            let f = r.figures;
            assert!(f.deviation > 0.0);
            assert_close(seg.rating[i][1], f.rating);
            assert_close(band.lower[i][1], f.rating - k * f.deviation);
            assert_close(band.upper[i][1], f.rating + k * f.deviation);
            assert_close(seg.score[i][1], f.score);
            assert_eq!(band.lower[i][0], seg.rating[i][0]);
        }
    }
}

#[test]
fn elo_has_no_band_and_its_score_is_the_rating() {
    let rules = Rules::defaults(System::Elo);
    let events = small_log();
    let (_, history) = run(&rules, &events);
    let s = PlayerSeries::new(
        &rows_of(&history, 1),
        &LogIndex::new(&rules, &events),
        XMode::Date,
    );
    assert!(s.segments[0].band.is_none());
    assert_eq!(s.segments[0].rating, s.segments[0].score);
    assert_eq!(score_axis(System::Elo), "rating");
    assert_eq!(score_axis(System::Skyweaver), "RP");
    assert_eq!(score_axis(System::Allegskill), "rank");
}

#[test]
fn tier_lines_are_table_one_minima() {
    let lines = tier_lines(&Rules::default());
    let values: Vec<f64> = lines.iter().map(|l| l.value).collect();
    assert_eq!(
        values,
        [
            200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0, 1100.0, 1200.0
        ]
    );
    assert_eq!(lines[0].label, "Wanderer");
    assert_eq!(lines[4].label, "Apprentice I");
    assert_eq!(lines[10].tier, Tier::Master);
    for s in [
        System::Inversus,
        System::Allegskill,
        System::Memoir44,
        System::Elo,
    ] {
        assert!(tier_lines(&Rules::defaults(s)).is_empty());
    }
}

/// A log with every kind of marker, and a change of system that splits the curves.
fn marked_log() -> Vec<Effective> {
    let mut k16 = Rules::defaults(System::Elo);
    k16.assign("k=16").unwrap();
    let migration = Migration {
        entries: vec![MigrationEntry {
            player: 0,
            elo: 1700.0,
            old_rank: OldRank::Scholar,
        }],
    };
    log(vec![
        (0, join(0, "Ann Lee")),
        (0, join(1, "Bo Chen")),
        (1, game(0, 1, Outcome::Win)), // Ann's match 1
        (2, game(1, 0, Outcome::Win)), // match 2
        (3, Event::SoftReset),
        (
            3,
            Event::Migration {
                migration: migration.into(),
            },
        ),
        (4, game(0, 1, Outcome::Win)), // match 3
        (5, Event::HardReset),
        (
            6,
            Event::Rules {
                rules: Rules::defaults(System::Elo).into(),
            },
        ),
        (6, Event::Rules { rules: k16.into() }),
        (7, game(0, 1, Outcome::Draw)), // match 4
        (8, join(2, "Cy Diaz")),
    ])
}

#[test]
fn markers_for_resets_migrations_and_rules() {
    let events = marked_log();
    let index = LogIndex::new(&Rules::default(), &events);
    let m = index.markers();
    let labels: Vec<&str> = m.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "soft reset (season 1, week 1 ends)",
            "migration (1 player)",
            "hard reset (season 1 ends)",
            "rules: skyweaver → elo",
            "rules (elo): k 32 → 16",
        ]
    );
    assert_eq!(m[0].kind, MarkerKind::SoftReset);
    assert_eq!(m[1].kind, MarkerKind::Migration);
    assert_eq!(m[2].kind, MarkerKind::HardReset);
    assert_eq!(
        m[3].kind,
        MarkerKind::Rules {
            system: System::Elo,
            system_changed: true
        }
    );
    assert_eq!(
        m[4].kind,
        MarkerKind::Rules {
            system: System::Elo,
            system_changed: false
        }
    );
    assert_eq!(
        (m[0].date, m[0].seq, m[0].x_date),
        (day(3), 5, date_x(day(3)))
    );
    assert_eq!(index.rules_at((day(6), 9)).system(), System::Elo);
    assert_eq!(index.rules_at((day(6), 8)).system(), System::Skyweaver);
    assert_eq!(index.rules_at((day(9), 1)), &rules_of(&events[9].event));
}

fn rules_of(event: &Event) -> Rules {
    match event {
        Event::Rules { rules } => (**rules).clone(),
        _ => panic!("not a rules event"),
    }
}

#[test]
fn match_numbers_place_rows_and_markers() {
    let events = marked_log();
    let rules = Rules::default();
    let (_, history) = run(&rules, &events);
    let index = LogIndex::new(&rules, &events);
    let s = PlayerSeries::new(&rows_of(&history, 0), &index, XMode::Match);
    let placed: Vec<(f64, RowKind)> = s.points.iter().map(|p| (p.x, p.kind)).collect();
    assert_eq!(
        placed,
        [
            (0.0, RowKind::Join),
            (1.0, RowKind::Match),
            (2.0, RowKind::Match),
            (2.5, RowKind::Marked(MarkerKind::SoftReset)),
            (2.5, RowKind::Marked(MarkerKind::Migration)),
            (3.0, RowKind::Match),
            (3.5, RowKind::Marked(MarkerKind::HardReset)),
            (
                3.5,
                RowKind::Marked(MarkerKind::Rules {
                    system: System::Elo,
                    system_changed: true
                })
            ),
            (4.0, RowKind::Match),
        ]
    );
    assert_eq!(s.matches(), 4);
    // Markers sit where their rows are; the parameter change (no row) after match 3 too.
    let xs: Vec<f64> = s
        .placed_markers(index.markers())
        .iter()
        .map(|(x, _)| *x)
        .collect();
    assert_eq!(xs, [2.5, 2.5, 3.5, 3.5, 3.5]);
    // The change of system splits the curves: Skyweaver until the hard reset, then Elo.
    let systems: Vec<(System, usize)> = s
        .segments
        .iter()
        .map(|g| (g.system, g.rating.len()))
        .collect();
    assert_eq!(systems, [(System::Skyweaver, 7), (System::Elo, 2)]);
    assert!(s.segments[1].band.is_none());
    // A player who joined later sees only the markers from then on.
    let cy = PlayerSeries::new(&rows_of(&history, 2), &index, XMode::Match);
    assert!(cy.placed_markers(index.markers()).is_empty());
    let by_date = PlayerSeries::new(&rows_of(&history, 0), &index, XMode::Date);
    assert_eq!(by_date.points[3].x, date_x(day(3)));
    assert_eq!(by_date.placed_markers(index.markers()).len(), 5);
}

#[test]
fn hover_picks_the_nearest_row_and_says_what_happened() {
    let events = small_log();
    let rules = Rules::default();
    let (ladder, history) = run(&rules, &events);
    let index = LogIndex::new(&rules, &events);
    let rows = rows_of(&history, 0);
    let s = PlayerSeries::new(&rows, &index, XMode::Match);
    // Rows: join 0, matches 1, 2, 3, the soft reset at 3.5, match 4.
    let xs: Vec<f64> = s.points.iter().map(|p| p.x).collect();
    assert_eq!(xs, [0.0, 1.0, 2.0, 3.0, 3.5, 4.0]);
    assert_eq!(s.nearest(-5.0), Some(0));
    assert_eq!(s.nearest(1.4), Some(1));
    assert_eq!(s.nearest(1.6), Some(2));
    assert_eq!(s.nearest(3.3), Some(4));
    assert_eq!(s.nearest(99.0), Some(5));
    assert_eq!(s.nearest(f64::NAN), None);
    let name = |id: PlayerId| ladder.players[id as usize].name.clone();
    let describe = |r: &HistoryRow| {
        event_at(&events, (r.date, r.seq)).and_then(|e| describe_event(e, r.player, &name))
    };
    let line = s.readout_at(1.1, Some(&describe)).unwrap();
    let f = rows[1].figures;
    let want = format!(
        "{} · event 4 · beat Bo Chen · RP {:.0} (+{:.0}) · r {:.0} ± {:.0}",
        day(1),
        f.score,
        f.score - 200.0,
        f.rating,
        f.deviation
    );
    assert_eq!(line, want);
    assert!(
        s.readout(3, Some(&describe))
            .unwrap()
            .contains("lost to Bo Chen")
    );
    assert!(s.readout(4, None).unwrap().contains("soft reset"));
    assert!(s.readout(0, None).unwrap().contains("joined"));
    assert!(s.readout(9, None).is_none());
    // By date, the two matches of day 1 share an x: the later one (the day's end) answers.
    let by_date = PlayerSeries::new(&rows, &index, XMode::Date);
    assert_eq!(by_date.nearest(date_x(day(1)) + 0.2), Some(2));
    let drew = by_date.readout(2, Some(&describe)).unwrap();
    assert!(drew.contains("drew with Cy Diaz"), "{drew}");
}

#[test]
fn figures_read_as_the_standings_show_them() {
    let f = rungs_ladder::state::Figures {
        rating: 25.34,
        deviation: 8.07,
        extra: 1.1,
        score: 1.0,
    };
    assert_eq!(
        figures_text(System::Allegskill, &f, Some(3.0)),
        "rank 1 (−2) · μ 25.3, σ 8.1"
    );
    let elo = rungs_ladder::state::Figures { score: 1516.4, ..f };
    assert_eq!(
        figures_text(System::Elo, &elo, Some(1516.0)),
        "rating 1516 (±0)"
    );
    let bad = rungs_ladder::state::Figures {
        rating: f64::NAN,
        ..f
    };
    assert_eq!(
        figures_text(System::Skyweaver, &bad, None),
        "RP 1 · r — ± 8"
    );
}

#[test]
fn dates_round_trip_through_x() {
    assert_eq!(date_x(NaiveDate::from_ymd_opt(1970, 1, 2).unwrap()), 1.0);
    for d in [
        day(0),
        day(400),
        NaiveDate::from_ymd_opt(1872, 11, 30).unwrap(),
    ] {
        assert_eq!(x_date(date_x(d)), Some(d));
        assert_eq!(x_date(date_x(d) + 0.7), Some(d));
        assert_eq!(format_x(date_x(d), XMode::Date), d.to_string());
    }
    assert_eq!(x_date(f64::NAN), None);
    assert_eq!(format_x(f64::INFINITY, XMode::Date), "—");
    assert_eq!(format_x(12.0, XMode::Match), "match 12");
    assert_eq!(format_x(12.5, XMode::Match), "after match 12");
}

/// A noisy walk with a spike and a trough in the middle.
fn walk(n: usize) -> Vec<[f64; 2]> {
    let mut y = 1500.0;
    let mut state = 12345u64;
    (0..n)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            y += ((state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 20.0;
            let v = match i {
                4321 => 9000.0,
                6789 => -3000.0,
                _ => y,
            };
            [i as f64 * 0.37, v]
        })
        .collect()
}

#[test]
fn decimation_keeps_extremes_and_ends() {
    let pts = walk(10_000);
    let (x0, x1) = (pts[0][0], pts[9_999][0]);
    for buckets in [1, 7, 100, 400] {
        let out = decimate(&pts, x0, x1, buckets);
        assert!(
            out.len() <= 4 * buckets + 2,
            "{} > 4·{buckets} + 2",
            out.len()
        );
        assert_eq!(out.first(), pts.first());
        assert_eq!(out.last(), pts.last());
        assert!(out.contains(&pts[4321]) && out.contains(&pts[6789]));
        assert!(out.windows(2).all(|w| w[0][0] <= w[1][0]));
    }
    // Zoomed in: the neighbours just outside are kept so the line reaches the edges.
    let (a, b) = (pts[2000][0] + 0.1, pts[3000][0] + 0.1);
    let out = decimate(&pts, a, b, 50);
    assert_eq!(out.first(), Some(&pts[2000]));
    assert_eq!(out.last(), Some(&pts[3001]));
    let local_max = pts[2001..=3000]
        .iter()
        .map(|p| p[1])
        .fold(f64::MIN, f64::max);
    assert!(out.iter().any(|p| p[1] == local_max));
    assert!(out.len() <= 4 * 50 + 2);
}

#[test]
fn a_decimated_band_still_encloses_its_line() {
    let pts = walk(10_000);
    let xs: Vec<f64> = pts.iter().map(|p| p[0]).collect();
    let centre: Vec<f64> = pts.iter().map(|p| p[1]).collect();
    let dev: Vec<f64> = (0..10_000).map(|i| 30.0 + (i % 97) as f64).collect();
    let lower: Vec<f64> = centre.iter().zip(&dev).map(|(c, d)| c - 1.96 * d).collect();
    let upper: Vec<f64> = centre.iter().zip(&dev).map(|(c, d)| c + 1.96 * d).collect();
    let keep = decimate_indices(&xs, &[&centre, &lower, &upper], 0.0, xs[9_999], 100);
    assert!(keep.len() <= 8 * 100 + 2);
    let lowest = (0..10_000)
        .min_by(|&a, &b| lower[a].total_cmp(&lower[b]))
        .unwrap();
    let highest = (0..10_000)
        .max_by(|&a, &b| upper[a].total_cmp(&upper[b]))
        .unwrap();
    assert!(keep.contains(&lowest) && keep.contains(&highest));
    assert!(
        keep.iter()
            .all(|&i| lower[i] <= centre[i] && centre[i] <= upper[i])
    );
}

#[test]
fn segment_decimation_shares_rows_between_line_and_band() {
    let mut items = vec![(0, join(0, "A")), (0, join(1, "B"))];
    for i in 0..3_000u32 {
        let o = if i % 3 == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        items.push((1 + i / 10, game(0, 1, o)));
    }
    let events = log(items);
    let rules = Rules::default();
    let (_, history) = run(&rules, &events);
    let s = PlayerSeries::new(
        &rows_of(&history, 0),
        &LogIndex::new(&rules, &events),
        XMode::Match,
    );
    let seg = s.segments[0].decimated(0.0, 3_000.0, 60);
    let band = seg.band.as_ref().unwrap();
    assert!(seg.rating.len() <= 8 * 60 + 2, "{}", seg.rating.len());
    assert!(seg.score.len() <= 4 * 60 + 2);
    assert_eq!(band.lower.len(), seg.rating.len());
    for ((r, lo), hi) in seg.rating.iter().zip(&band.lower).zip(&band.upper) {
        assert!(lo[0] == r[0] && hi[0] == r[0] && lo[1] <= r[1] && r[1] <= hi[1]);
    }
    let full = &s.segments[0];
    let top = full.score.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
    assert!(seg.score.iter().any(|p| p[1] == top));
}

#[test]
fn the_band_mesh_is_a_row_of_trapezoids() {
    let lower = [[0.0, 10.0], [1.0, 20.0], [3.0, 5.0], [4.0, 5.0]];
    let upper = [[0.0, 30.0], [1.0, 25.0], [3.0, 45.0], [4.0, 5.0]];
    let mesh = band_mesh(&lower, &upper);
    assert_eq!(mesh.quads(), 3);
    assert_eq!(mesh.triangles.len(), 6);
    assert_eq!(
        mesh.quad(1),
        Some([[1.0, 25.0], [1.0, 20.0], [3.0, 5.0], [3.0, 45.0]])
    );
    // Each trapezoid is convex (its outline turns one way throughout), so its two
    // triangles cover it without overlapping or twisting.
    for q in 0..mesh.quads() {
        let quad = mesh.quad(q).unwrap();
        let turn = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
            (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        };
        let turns: Vec<f64> = (0..4)
            .map(|k| turn(quad[k], quad[(k + 1) % 4], quad[(k + 2) % 4]))
            .collect();
        assert!(
            turns.iter().all(|t| *t >= 0.0) || turns.iter().all(|t| *t <= 0.0),
            "{turns:?}"
        );
        let area = |t: [u32; 3]| {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            (turn(a, b, c) / 2.0).abs()
        };
        let shoelace: f64 = (0..4)
            .map(|k| {
                let (a, b) = (quad[k], quad[(k + 1) % 4]);
                a[0] * b[1] - b[0] * a[1]
            })
            .sum::<f64>()
            .abs()
            / 2.0;
        let split = area(mesh.triangles[2 * q]) + area(mesh.triangles[2 * q + 1]);
        assert!(
            (split - shoelace).abs() < 1e-9,
            "quad {q}: {split} vs {shoelace}"
        );
    }
    // Crossed edges (bad data) meet at their midpoint; unusable pairs are dropped.
    let mesh = band_mesh(
        &[[0.0, 10.0], [1.0, f64::NAN], [2.0, 8.0]],
        &[[0.0, 4.0], [1.0, 1.0], [2.0, 9.0]],
    );
    assert_eq!(
        mesh.vertices,
        [[0.0, 7.0], [0.0, 7.0], [2.0, 9.0], [2.0, 8.0]]
    );
    assert!(band_mesh(&[[0.0, 1.0]], &[]).triangles.is_empty());
}

#[test]
fn ladder_wide_tiers_and_histograms() {
    let mut items: Vec<(u32, Event)> = (0..40).map(|i| (0, join(i, &format!("P{i}")))).collect();
    for i in 0..600u32 {
        let a = i % 40;
        let b = (i * 7 + 3) % 40;
        if a != b {
            let o = if a < b { Outcome::Win } else { Outcome::Loss };
            items.push((1 + i / 40, game(a, b, o)));
        }
    }
    let events = log(items);
    for system in System::ALL {
        let rules = Rules::defaults(system);
        let (ladder, _) = run(&rules, &events);
        let joined = ladder.players.iter().filter(|p| p.joined).count();
        let h = rating_histogram(&ladder, None);
        assert_eq!(h.total(), joined, "{system}");
        assert!(h.width.is_finite() && h.width > 0.0 && h.start.is_finite());
        assert!(h.counts.len() > 1, "{system}: {h:?}");
        assert_eq!(score_histogram(&ladder, Some(50.0)).total(), joined);
        let tiers = tier_counts(&ladder);
        if system == System::Skyweaver {
            assert_eq!(tiers.len(), 12);
            assert_eq!(tiers.iter().map(|t| t.count).sum::<usize>(), joined);
            assert!(tiers.windows(2).all(|w| w[0].tier < w[1].tier));
        } else {
            assert!(tiers.is_empty());
        }
    }
    // No players, one player: no NaN anywhere.
    let empty = Ladder::new(Rules::default());
    let h = rating_histogram(&empty, None);
    assert_eq!((h.total(), h.counts.len()), (0, 0));
    assert!(h.width.is_finite());
    assert_eq!(
        tier_counts(&empty).iter().map(|t| t.count).sum::<usize>(),
        0
    );
    let (one, _) = run(&Rules::default(), &log(vec![(0, join(0, "Solo"))]));
    let h = rating_histogram(&one, None);
    assert_eq!(h.counts, [1]);
    assert!(h.bins().all(|(c, _)| c.is_finite()));
}
