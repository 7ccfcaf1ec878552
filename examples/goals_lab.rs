//! A bench for variants of the goals model, reading the international results CSV
//! directly: `cargo run --release --example goals_lab -- FILE [fit=a,b,c] name=value …`.
//! Prints the expected-score and three-outcome log-loss before 2000 (train) and from 2000
//! (test); with `fit=` it first fits the named parameters on the train years alone by a
//! coordinate search, as `rungs fit` does.

use rungs_interchange::csv_matches::class_of_tournament;
use rungs_ladder::score::EventClass;
use rungs_rating::goals::probabilities;
use std::collections::{BTreeMap, HashMap};

struct Row {
    day: i64,
    home: usize,
    away: usize,
    gh: f64,
    ga: f64,
    neutral: bool,
    class: usize,
    test: bool,
}

fn load(path: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("read");
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 9 {
            continue;
        }
        let (Ok(gh), Ok(ga)) = (f[3].parse::<f64>(), f[4].parse::<f64>()) else {
            continue;
        };
        let d = chrono::NaiveDate::parse_from_str(f[0], "%Y-%m-%d").expect("date");
        let n = ids.len();
        let home = *ids.entry(f[1].to_string()).or_insert(n);
        let n = ids.len();
        let away = *ids.entry(f[2].to_string()).or_insert(n);
        let class = match class_of_tournament(f[5]) {
            EventClass::Friendly => 0,
            EventClass::League => 1,
            EventClass::Cup => 2,
            _ => 3,
        };
        rows.push(Row {
            day: d.signed_duration_since(chrono::NaiveDate::MIN).num_days(),
            home,
            away,
            gh,
            ga,
            neutral: f[8].trim() == "TRUE",
            class,
            test: f[0] >= "2000-01-01",
        });
    }
    rows
}

#[derive(Clone, Copy)]
struct Team {
    a: f64,
    d: f64,
    va: f64,
    vd: f64,
    cov: f64,
    last: i64,
}

/// Train or test log-losses: (expected-score, three-outcome, count).
fn run(rows: &[Row], p: &BTreeMap<String, f64>, test: bool) -> (f64, f64, f64) {
    let g = |k: &str| p[k];
    let (mu0, home, rho, v0, drift, step) =
        (g("mu"), g("home"), g("rho"), g("v0"), g("drift"), g("step"));
    let w = [g("w0"), g("w1"), g("w2"), g("w3")];
    let mut mu = mu0;
    let mut teams: Vec<Option<Team>> = Vec::new();
    let (mut es, mut three, mut n) = (0.0, 0.0, 0.0);
    for r in rows {
        if !test && r.test {
            break;
        }
        let need = r.home.max(r.away) + 1;
        if teams.len() < need {
            teams.resize(need, None);
        }
        let known: Vec<&Team> = teams.iter().flatten().collect();
        let k = known.len().max(1) as f64;
        let pool = g("pool");
        let (ma, md) = (
            pool * known.iter().map(|t| t.a).sum::<f64>() / k,
            pool * known.iter().map(|t| t.d).sum::<f64>() / k,
        );
        let fresh = |day| Team {
            a: ma + g("new_level"),
            d: md + g("new_level") + g("new_gap"),
            va: v0,
            vd: v0,
            cov: g("corr") * v0,
            last: day,
        };
        let (new_h, new_a) = (teams[r.home].is_none(), teams[r.away].is_none());
        let mut th = teams[r.home].unwrap_or(fresh(r.day));
        let mut ta = teams[r.away].unwrap_or(fresh(r.day));
        if g("opp") > 0.0 {
            // A newcomer enters at its first opponent's level, less the offset.
            if new_h && !new_a {
                th.a = ta.a + g("new_level");
                th.d = ta.d + g("new_level");
            } else if new_a && !new_h {
                ta.a = th.a + g("new_level");
                ta.d = th.d + g("new_level");
            }
        }
        for t in [&mut th, &mut ta] {
            let days = (r.day - t.last).max(0) as f64;
            t.va = (t.va + drift * days + g("q")).min(v0);
            t.vd = (t.vd + drift * days + g("q")).min(v0);
            let keep = (-g("revert") * days).exp();
            t.a = g("new_level") + (t.a - g("new_level")) * keep;
            t.d = g("new_level") + (t.d - g("new_level")) * keep;
            t.cov = (t.cov + g("corr") * drift * days).min(g("corr") * v0);
        }
        let h = if r.neutral { 0.0 } else { home };
        let hdown = if r.neutral { 0.0 } else { g("away_down") };
        let sc = [g("s0"), g("s1"), g("s2"), g("s3")][r.class];
        let lh = (mu + h + sc * (th.a - ta.d)).clamp(-7.0, 4.0).exp();
        let la = (mu - hdown + sc * (ta.a - th.d)).clamp(-7.0, 4.0).exp();
        let pr = probabilities(lh, la, rho);
        // Extra draws beyond Dixon–Coles: a share moved from the decisive outcomes.
        let infl = g("inflate");
        let (pw, pd, pl) = (
            pr.win_a * (1.0 - infl),
            pr.draw + infl * (pr.win_a + pr.win_b),
            pr.win_b * (1.0 - infl),
        );
        if r.test == test {
            let e = (pw + 0.5 * pd).clamp(1e-15, 1.0 - 1e-15);
            let s = if r.gh > r.ga {
                1.0
            } else if r.gh < r.ga {
                0.0
            } else {
                0.5
            };
            es -= s * e.ln() + (1.0 - s) * (1.0 - e).ln();
            let q = if s == 1.0 {
                pw
            } else if s == 0.0 {
                pl
            } else {
                pd
            };
            three -= q.max(1e-15).ln();
            n += 1.0;
        }
        let wt = w[r.class];
        // Goals beyond `cap` count as `cap` (a 10-0 against a minnow says less than it seems).
        let cap = g("cap");
        let (gh, ga) = (r.gh.min(cap), r.ga.min(cap));
        // Kalman-style update of each side's attack (with the other's defence) on its goals.
        let upd = |att: &mut Team, def: &mut Team, goals: f64, lam: f64| {
            let s = att.va + def.vd;
            let den = 1.0 / wt + lam * s;
            let resid = goals - lam;
            let (mut ka, mut kd) = (step * att.va / den, step * def.vd / den);
            if g("zs") > 0.0 {
                // Both sides move alike, so the pool's mean strength stays where newcomers enter.
                let k = (ka * kd).sqrt().max((ka + kd) / 2.0 * (1.0 - g("zs")));
                ka = k;
                kd = k;
            }
            let kca = step * att.cov / den; // moves the attacker's defence with its attack
            let kcd = step * def.cov / den;
            let (a0, d0) = (att.a, def.d);
            att.a = a0 + ka * resid;
            att.d += kca * resid;
            def.d = d0 - kd * resid;
            def.a -= kcd * resid;
            let va = att.va;
            let vd = def.vd;
            att.va = (va - va * va * lam / den).max(1e-6);
            def.vd = (vd - vd * vd * lam / den).max(1e-6);
        };
        let (mut nh, mut na) = (th, ta);
        upd(&mut nh, &mut na, gh, lh);
        // The away side's goals from the prior state (both updates use the match's λ).
        let (mut nh2, mut na2) = (th, ta);
        upd(&mut na2, &mut nh2, ga, la);
        nh.d = nh2.d;
        nh.vd = nh2.vd;
        nh.a += nh2.a - th.a;
        na.a = na2.a;
        na.va = na2.va;
        na.d += na2.d - ta.d;
        // Global level learns too.
        mu += g("mu_step") * ((gh - lh) + (ga - la));
        nh.last = r.day;
        na.last = r.day;
        teams[r.home] = Some(nh);
        teams[r.away] = Some(na);
    }
    (es / n, three / n, n)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rows = load(&args[0]);
    let mut p: BTreeMap<String, f64> = [
        ("mu", 0.09),
        ("home", 0.45),
        ("away_down", 0.0),
        ("rho", -0.06),
        ("v0", 0.1),
        ("drift", 0.00003),
        ("step", 0.9),
        ("w0", 1.0),
        ("w1", 1.0),
        ("w2", 1.0),
        ("w3", 1.0),
        ("inflate", 0.0),
        ("cap", 100.0),
        ("mu_step", 0.0),
        ("new_level", 0.0),
        ("corr", 0.0),
        ("q", 0.0),
        ("opp", 0.0),
        ("zs", 0.0),
        ("pool", 0.0),
        ("s0", 1.0),
        ("s1", 1.0),
        ("s2", 1.0),
        ("s3", 1.0),
        ("new_gap", 0.0),
        ("revert", 0.0),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut fit: Vec<String> = Vec::new();
    let mut three_obj = false;
    for a in &args[1..] {
        let (k, v) = a.split_once('=').expect("k=v");
        if k == "fit" {
            fit = v.split(',').map(str::to_string).collect();
        } else if k == "obj" {
            three_obj = v == "three";
        } else {
            p.insert(k.to_string(), v.parse().expect("number"));
        }
    }
    let obj = |p: &BTreeMap<String, f64>| {
        let (e, t, _) = run(&rows, p, false);
        if three_obj { t } else { e }
    };
    if !fit.is_empty() {
        let mut best = obj(&p);
        let mut steps: Vec<f64> = fit
            .iter()
            .map(|k| if p[k] != 0.0 { p[k].abs() * 0.3 } else { 0.02 })
            .collect();
        for _round in 0..16 {
            for (i, k) in fit.iter().enumerate() {
                for dir in [1.0, -1.0] {
                    loop {
                        let mut q = p.clone();
                        *q.get_mut(k).unwrap() += dir * steps[i];
                        let v = obj(&q);
                        if v < best - 1e-7 {
                            best = v;
                            p = q;
                        } else {
                            break;
                        }
                    }
                }
                steps[i] *= 0.6;
            }
        }
    }
    let (e0, t0, n0) = run(&rows, &p, false);
    let (e1, t1, n1) = run(&rows, &p, true);
    let shown: Vec<String> = p.iter().map(|(k, v)| format!("{k}={v:.6}")).collect();
    println!("{}", shown.join(" "));
    println!("train {e0:.5} {t0:.5} ({n0})  test {e1:.5} {t1:.5} ({n1})");
}
