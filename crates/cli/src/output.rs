//! What the command line prints: text for people, JSON for scripts (docs/cli/json.md).

use chrono::NaiveDate;
use rungs_ladder::calendar::{Calendar, Status};
use rungs_ladder::event::{Event, Match, MatchResult};
use rungs_ladder::preview::Change;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::seasons::{SeasonRanking, archive_key};
use rungs_ladder::shown;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings::{self, Standing};
use rungs_ladder::state::{HistoryRow, Skill};
use serde_json::{Value, json};

/// `rungs params SYSTEM`: every parameter with its default, range and meaning.
pub fn params(system: System) {
    let facts = system.facts();
    let defaults = Rules::defaults(system);
    say!("{} ({}): {}", facts.name, facts.label, facts.about);
    for (p, value) in defaults.param_values() {
        say!(
            "  {:<18} = {:<10} {}; {}",
            p.name,
            p.value_text(value),
            p.range_text(),
            p.meaning
        );
    }
    // The tier minimums are a list, not one number, so they are not among the parameters
    // above, yet they are set the same way.
    if facts.tiers {
        say!(
            "  {:<18} = {}; 11 numbers, Wanderer to Master, each above the one below, Master at \
             most 1300; the RP at which each tier begins (the white paper's Table 1; Grandweaver \
             is the top grandweaver_count Masters)",
            rungs_ladder::rules::TIER_MINIMUMS,
            rungs_ladder::tiers::TierTable::TABLE_1.text()
        );
    }
}

fn name(ladder: &Ladder, id: u32) -> &str {
    ladder.player(id).map_or("?", |p| p.name.as_str())
}

fn side(ladder: &Ladder, ids: &[u32]) -> String {
    ids.iter()
        .map(|&i| shown(name(ladder, i)))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Text as a terminal may show it (one rule for the CLI and the app).
pub use rungs_ladder::values::shown;

/// After `add-match`: each player's figures before → after.
pub fn match_change(before: &Ladder, after: &Ladder, m: &Match, seq: u64, as_json: bool) {
    let ids: Vec<u32> = m.a.iter().chain(m.b.iter()).copied().collect();
    if as_json {
        let players: Vec<Value> = ids
            .iter()
            .filter_map(|&id| {
                let (b, a) = (before.player(id)?, after.player(id)?);
                Some(json!({
                    "player": a.name,
                    "before": before.figures(b),
                    "after": after.figures(a),
                }))
            })
            .collect();
        say!("{}", json!({ "seq": seq, "players": players }));
        return;
    }
    say!(
        "event {seq}: {} {} {}",
        side(after, &m.a),
        MatchResult::verb(m.result),
        side(after, &m.b)
    );
    for id in ids {
        if let (Some(b), Some(a)) = (before.player(id), after.player(id)) {
            let (fb, fa) = (before.figures(b), after.figures(a));
            say!(
                "  {:<24} score {:>8.1} → {:>8.1}   rating {:>8.1} → {:>8.1}",
                a.name,
                fb.score,
                fa.score,
                fb.rating,
                fa.rating
            );
        }
    }
}

/// `rungs events`: each event written as it is handed over, so a log of any length prints
/// without being held as text or JSON (a JSON array, one object an event).
pub struct EventsOut<'a> {
    ladder: &'a Ladder,
    json: bool,
    /// The season calendar in force, and the previous event's date: the text lists each
    /// scheduled reset before the event it applies with, without a sequence number.
    calendar: Calendar,
    previous: Option<NaiveDate>,
    first: bool,
    /// Names as they stood at each event so far: a rename reads "old is renamed new".
    names: std::collections::HashMap<u32, String>,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
}

impl<'a> EventsOut<'a> {
    /// The listing of a ladder that started under `calendar` (its initial rules').
    pub fn new(ladder: &'a Ladder, calendar: Calendar, json: bool) -> EventsOut<'a> {
        EventsOut {
            ladder,
            json,
            calendar,
            previous: None,
            first: true,
            names: std::collections::HashMap::new(),
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        }
    }

    /// Writes one event; an error (stdout closed) ends the listing.
    pub fn event(&mut self, date: NaiveDate, seq: u64, event: &Event) -> std::io::Result<()> {
        use std::io::Write;
        if self.json {
            let mut v = serde_json::to_value(event).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("seq".into(), json!(seq));
                m.insert("date".into(), json!(date.to_string()));
            }
            let sep = if std::mem::take(&mut self.first) {
                "["
            } else {
                ","
            };
            return write!(self.out, "{sep}{v}");
        }
        let ladder = self.ladder;
        if let (Some(previous), Some(schedule)) = (self.previous, self.calendar.schedule()) {
            for reset in schedule.plan(previous, date) {
                let what = match reset.hard {
                    true => "soft and hard reset (the season ends)",
                    false => "soft reset",
                };
                writeln!(
                    self.out,
                    "{:>8}  {}  {what}, by the calendar",
                    "—", reset.date
                )?;
            }
        }
        self.previous = Some(date);
        if let Event::Rules { rules } = event {
            self.calendar = rules.calendar;
        }
        let text = match event {
            Event::Player { id, name, .. } => {
                self.names.insert(*id, name.to_string());
                format!("{} joins", shown(name))
            }
            Event::Rename { id, name: new } => {
                let old = self
                    .names
                    .insert(*id, new.to_string())
                    .unwrap_or_else(|| name(ladder, *id).to_string());
                format!("{} is renamed {}", shown(&old), shown(new))
            }
            Event::Retire { id, retired } => format!(
                "{} {}",
                shown(
                    self.names
                        .get(id)
                        .map_or_else(|| name(ladder, *id), String::as_str)
                ),
                if *retired { "retires" } else { "comes back" }
            ),
            Event::Match(m) => format!(
                "{} {} {}",
                side(ladder, &m.a),
                MatchResult::verb(m.result),
                side(ladder, &m.b)
            ),
            Event::SoftReset => "soft reset".into(),
            Event::HardReset => "hard reset".into(),
            Event::Rules { rules } => format!("rules: {}", rules.system()),
            Event::Scenario { figures } => format!("scenario figures for {}", figures.scenario),
            Event::Round { .. }
            | Event::PairRule { .. }
            | Event::DueResets
            | Event::ChallengeLadder { .. }
            | Event::Challenge { .. }
            | Event::ChallengePlace { .. }
            | Event::BoxPeriod { .. }
            | Event::BoxWithdraw { .. }
            | Event::BoxJoin { .. } => {
                rungs_ladder::words::event(event, &|id| shown(name(ladder, id)).into_owned())
            }
            Event::Migration { migration } => {
                format!("migration from Elo ({} players)", migration.entries.len())
            }
        };
        writeln!(self.out, "{seq:>8}  {date}  {text}")
    }

    /// Ends the listing.
    pub fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write;
        if self.json {
            let open = if self.first { "[" } else { "" };
            writeln!(self.out, "{open}]")?;
        }
        self.out.flush()
    }
}

/// Where the ladder stands on its season calendar: "season 3, week 2 · next reset Monday
/// 2026-11-23 (soft); the season ends 2026-12-07 · calendar: …".
pub fn calendar_status(status: &Status) {
    say!("{}", status.line());
}

/// The standings; the text leaves provisional, idle and retired players off unless `all`.
pub fn standings_filtered(ladder: &Ladder, rows: &[Standing], as_json: bool, all: bool) {
    if as_json || all {
        return standings(ladder, rows, as_json);
    }
    let listed: Vec<Standing> = rows.iter().filter(|s| s.listed()).cloned().collect();
    standings(ladder, &listed, false);
    let hidden = rows.len() - listed.len();
    if hidden > 0 {
        say!(
            "({hidden} provisional, idle or retired players not on the leaderboard; --all lists \
             them)"
        );
    }
}

pub fn standings(ladder: &Ladder, rows: &[Standing], as_json: bool) {
    if as_json {
        let mut text = Vec::with_capacity(rows.len().saturating_mul(256));
        crate::stdout::check(standings::write_json(ladder, rows, &mut text));
        text.push(b'\n');
        crate::stdout::write_all(&text);
        return;
    }
    if rows.is_empty() {
        say!(
            "no players yet: add some with `rungs add-player`, or import a CSV with `rungs import`"
        );
        return;
    }
    let centre = ladder.centre();
    for s in rows {
        let p = &ladder.players[s.id as usize];
        let f = p.figures_at(centre);
        let figures = match p.skill {
            Skill::Glicko(_) => format!(
                "{:>5} RP  {:<14} r {:>6.0} ± {:<4.0}",
                shown::score(&f),
                s.tier.map_or("", |t| t.name()),
                f.rating,
                f.deviation
            ),
            Skill::Glicko2(_) => format!(
                "{:>5} RP  r {:>6.0} ± {:<4.0}",
                shown::score(&f),
                f.rating,
                f.deviation
            ),
            Skill::TrueSkill(_) => format!(
                "rank {:>3}  μ {:>5.1}  σ {:>4.1}",
                shown::score(&f),
                f.rating,
                f.deviation
            ),
            Skill::Elo(_) => format!("{:>7}", shown::rating(&p.skill, &f)),
            Skill::Goals(r) => format!(
                "{:>12} attack {:+.3} defence {:+.3}",
                shown::rating(&p.skill, &f),
                r.attack,
                r.defence
            ),
        };
        let flags = match s.status() {
            words if words.is_empty() => words,
            words => format!("  {words}"),
        };
        say!(
            "{:>5}  {:<28} {figures}  W-D-L {}-{}-{}{flags}",
            s.place.map_or_else(|| "—".to_string(), |n| n.to_string()),
            shown(&p.name),
            p.wins,
            p.draws,
            p.losses
        );
    }
}

pub fn history(ladder: &Ladder, rows: &[HistoryRow], as_json: bool) {
    if as_json {
        let v: Vec<Value> = rows
            .iter()
            .map(|h| {
                json!({
                    "seq": h.seq,
                    "date": h.date.to_string(),
                    "rating": h.figures.rating,
                    "deviation": h.figures.deviation,
                    "extra": h.figures.extra,
                    "score": h.figures.score,
                })
            })
            .collect();
        say!("{}", Value::Array(v));
        return;
    }
    let _ = ladder;
    for h in rows {
        let f = h.figures;
        say!(
            "{:>8}  {}  score {:>8.1}  rating {:>8.2} ± {:<7.2}",
            h.seq,
            h.date,
            f.score,
            f.rating,
            f.deviation
        );
    }
}

/// A before → after table of every player an action moves (a preview, or what was done).
pub fn changes(title: &str, changes: &[Change], as_json: bool) {
    if as_json {
        let moved: Vec<serde_json::Value> = changes
            .iter()
            .filter(|c| c.moved())
            .map(change_json)
            .collect();
        say!("{}", serde_json::Value::Array(moved));
        return;
    }
    say!("{title}");
    say!(
        "  {:<24} {:<14} {:>17}   {:>17}   {:>13}",
        "player",
        "tier",
        "score before → after",
        "rating before → after",
        "RD before → after"
    );
    let tier = |t: Option<Tier>| t.map_or("", Tier::name);
    let mut unchanged = 0;
    for c in changes {
        if !c.moved() {
            unchanged += 1;
            continue;
        }
        let Some(b) = c.before else {
            say!(
                "  {:<24} {:<14} new: {:.0}, rating {:.1} ± {:.1}",
                shown(&c.name),
                tier(c.tier_after),
                c.after.score,
                c.after.rating,
                c.after.deviation
            );
            continue;
        };
        let tier_text = if c.tier_before == c.tier_after {
            tier(c.tier_after).to_string()
        } else {
            format!("{} → {}", tier(c.tier_before), tier(c.tier_after))
        };
        say!(
            "  {:<24} {:<14} {:>7.0} → {:<7.0}   {:>7.1} → {:<7.1}   {:>5.1} → {:<5.1}",
            shown(&c.name),
            tier_text,
            b.score,
            c.after.score,
            b.rating,
            c.after.rating,
            b.deviation,
            c.after.deviation
        );
    }
    if unchanged > 0 {
        say!("  … {unchanged} more unchanged");
    }
}

/// One player's change as JSON: named, tiers as `standings --json` writes them ("Expert II").
pub fn change_json(c: &Change) -> serde_json::Value {
    serde_json::json!({
        "player": c.name,
        "before": c.before,
        "after": c.after,
        "tier_before": c.tier_before.map(Tier::name),
        "tier_after": c.tier_after.map(Tier::name),
    })
}

/// The season archive.
pub fn seasons(ladder: &Ladder, as_json: bool) {
    if as_json {
        // Players by name and tiers as `standings --json` writes them ("Expert II").
        let table = ladder.rules.tier_table();
        let flows = rungs_ladder::tier_flow::flows(&ladder.archive, &table);
        let seasons: Vec<serde_json::Value> = ladder
            .archive
            .iter()
            .map(|s| {
                let entries: Vec<serde_json::Value> = s
                    .entries
                    .iter()
                    .map(|e| {
                        let ranking = match e.ranking {
                            SeasonRanking::Tier(t) => serde_json::json!({ "tier": t.name() }),
                            SeasonRanking::AverageRp(rp) => {
                                serde_json::json!({ "average_rp": rp })
                            }
                            SeasonRanking::Score(x) => serde_json::json!({ "score": x }),
                        };
                        let mut entry = serde_json::json!({
                            "player": e.name,
                            "ranking": ranking,
                            "peak_tier": e.peak_tier.map(Tier::name),
                            "matches": e.matches,
                            "weekly_rp": e.weekly_rp.to_vec(),
                        });
                        // Skyweaver's weekly standings: each week's tier beside its RP (who
                        // held Grandweaver is not in the RP).
                        if e.peak_tier.is_some() && s.tiers_kept.0 {
                            let tiers: Vec<&str> = e
                                .weekly_rp
                                .tiers_in(&table)
                                .into_iter()
                                .map(Tier::name)
                                .collect();
                            entry["weekly_tiers"] = serde_json::json!(tiers);
                        }
                        entry
                    })
                    .collect();
                let mut season = serde_json::json!({
                    "number": s.number,
                    "ended": s.ended,
                    "weeks": s.weeks,
                    "entries": entries,
                });
                // A run of seasons with nothing entered, folded: the last season it stands for.
                if s.folded > 0 {
                    season["through"] = serde_json::json!(s.through());
                }
                // Skyweaver: who ended the season in which tier, coming from which.
                if let Some(f) = flows
                    .iter()
                    .find(|f| f.season == s.number && f.ended == s.ended)
                {
                    for (key, value) in flow_json(f) {
                        season[key] = value;
                    }
                }
                season
            })
            .collect();
        say!("{}", serde_json::Value::Array(seasons));
        return;
    }
    if ladder.archive.is_empty() {
        say!(
            "no finished season yet (season {}, week {})",
            ladder.season,
            ladder.week
        );
        return;
    }
    for season in &ladder.archive {
        say!(
            "{} — ended {}, {} weeks",
            season.title(),
            season.ended,
            season.weeks
        );
        let mut entries: Vec<_> = season.entries.iter().collect();
        entries.sort_by(|x, y| archive_key(y).total_cmp(&archive_key(x)));
        for e in entries {
            let ranking = match e.ranking {
                SeasonRanking::Tier(t) => t.name().to_string(),
                SeasonRanking::AverageRp(rp) => format!("{rp:.1} RP (weekly mean)"),
                SeasonRanking::Score(s) => format!("{s:.1}"),
            };
            let weekly: Vec<String> = e.weekly_rp.iter().map(|r| format!("{r:.0}")).collect();
            say!(
                "  {:<24} {:<26} peak {:<12} {:>4} matches  weekly RP [{}]",
                shown(&e.name),
                ranking,
                e.peak_tier.map_or("", Tier::name),
                e.matches,
                weekly.join(", ")
            );
        }
    }
}

/// Tiers by name, each with its number: `{"Wanderer": 3, …}`, every tier listed.
pub fn per_tier<T: Copy + Into<Value>>(values: &[T]) -> Value {
    let map: serde_json::Map<String, Value> = Tier::ALL
        .iter()
        .zip(values)
        .map(|(t, v)| (t.name().to_string(), (*v).into()))
        .collect();
    Value::Object(map)
}

/// A season's flow matrix as `seasons --json` and `tiers --json` write it: `tier_flow`, one
/// cell per start and end tier that holds players (`from` null: joined during the season),
/// and `end_counts` and `end_shares` (percent) per tier at the season's end.
pub fn flow_json(f: &rungs_ladder::tier_flow::SeasonFlow) -> Vec<(&'static str, Value)> {
    let mut cells = Vec::new();
    for (from, row) in f.flow.iter().enumerate() {
        for (to, n) in row.iter().enumerate() {
            if *n > 0 {
                let from = from.checked_sub(1).map(|t| Tier::ALL[t].name());
                cells.push(json!({ "from": from, "to": Tier::ALL[to].name(), "players": n }));
            }
        }
    }
    vec![
        ("tier_flow", Value::Array(cells)),
        ("end_counts", per_tier(&f.at_end)),
        (
            "end_shares",
            per_tier(&rungs_ladder::tier_flow::shares(&f.at_end)),
        ),
    ]
}
