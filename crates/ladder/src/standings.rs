//! Standings: the ladder's players in the system's display order, and their JSON, which
//! scripts read.

use crate::event::PlayerId;
use crate::leaderboard::{self, entry_rule, is_idle};
use crate::replay::Ladder;
use crate::rules::Params;
use crate::skyweaver::Tier;
use crate::state::{Centre, Skill};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Value, json};

/// One line of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The place among every player who has joined (the JSON's `position`).
    pub position: usize,
    /// The place on the leaderboard, among the players it lists (1, 2, 3, … with no gaps);
    /// `None` for a player left off it (provisional, idle or retired).
    pub place: Option<usize>,
    pub id: PlayerId,
    /// Skyweaver's tier, Grandweaver included.
    pub tier: Option<Tier>,
    /// Fewer games than the leaderboard asks (every system's `provisional_games`).
    pub provisional: bool,
    /// No game for longer than the leaderboard allows (`idle_days`, 0: never), as of the
    /// latest match on the ladder.
    pub idle: bool,
    /// Retired by the organiser (history kept).
    pub retired: bool,
}

impl Standing {
    /// Whether the leaderboard lists the player (provisional, idle and retired players are
    /// left off unless asked for).
    pub fn listed(&self) -> bool {
        !self.provisional && !self.idle && !self.retired
    }

    /// Why the player is left off, in words: "retired, idle" (empty for a listed player).
    pub fn status(&self) -> String {
        [
            (self.retired, "retired"),
            (self.provisional, "provisional"),
            (self.idle, "idle"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, word)| *word)
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// The sort key of a player: higher first.
fn key(ladder: &Ladder, centre: Centre, id: usize) -> (f64, f64) {
    let p = &ladder.players[id];
    let f = p.figures_at(centre);
    match p.skill {
        Skill::Glicko(_) | Skill::Glicko2(_) => (p.rp, f.rating),
        Skill::TrueSkill(_) => (f.score, f.extra),
        Skill::Elo(_) | Skill::Goals(_) => (f.rating, 0.0),
    }
}

/// Every player who has joined, best first; ties by name, then id. Skyweaver's Grandweavers
/// come first (`leaderboard.rs`), so a Master tied with a Grandweaver on RP and rating — the
/// slot went to the one who joined first — is listed below them.
pub fn standings(ladder: &Ladder) -> Vec<Standing> {
    let grandweavers = leaderboard::grandweavers(ladder);
    let gw = |i: usize| grandweavers.get(i).copied().unwrap_or(false);
    let mut ids: Vec<usize> = (0..ladder.players.len())
        .filter(|&i| ladder.players[i].joined)
        .collect();
    let centre = ladder.centre();
    ids.sort_by(|&x, &y| {
        let (kx, ky) = (key(ladder, centre, x), key(ladder, centre, y));
        gw(y)
            .cmp(&gw(x))
            .then(ky.0.total_cmp(&kx.0))
            .then(ky.1.total_cmp(&kx.1))
            .then_with(|| {
                ladder.players[x]
                    .name
                    .to_lowercase()
                    .cmp(&ladder.players[y].name.to_lowercase())
            })
            .then(x.cmp(&y))
    });
    let latest = leaderboard::latest_match(&ladder.players);
    let mut listed = 0;
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| {
            let p = &ladder.players[id];
            let tier = match &ladder.rules.params {
                Params::Skyweaver(_) if gw(id) => Some(Tier::Grandweaver),
                Params::Skyweaver(sky) => Some(sky.tier_minimums.of_rp(p.rp)),
                _ => None,
            };
            let (games, days) = entry_rule(&ladder.rules.params);
            let (provisional, idle) = (p.matches < games, is_idle(p.last_played, latest, days));
            let on_board = !provisional && !idle && !p.retired;
            listed += usize::from(on_board);
            Standing {
                position: i + 1,
                place: on_board.then_some(listed),
                id: id as PlayerId,
                tier,
                provisional,
                idle,
                retired: p.retired,
            }
        })
        .collect()
}

/// One value of a standings row.
#[derive(Debug, Clone, Copy)]
enum Field<'a> {
    Number(f64),
    Count(u64),
    Signed(i64),
    Flag(bool),
    Text(Option<&'a str>),
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            // `json!` of a NaN or an infinity is null; serde_json writes such a float as null.
            Field::Number(x) => s.serialize_f64(x),
            Field::Count(n) => s.serialize_u64(n),
            Field::Signed(n) => s.serialize_i64(n),
            Field::Flag(b) => s.serialize_bool(b),
            Field::Text(t) => t.serialize(s),
        }
    }
}

/// A row's fields as the standings JSON names them (docs/cli/json.md), in no particular order.
fn fields<'a>(
    ladder: &'a Ladder,
    centre: Centre,
    s: &Standing,
    last_played: &'a str,
    out: &mut Vec<(&'static str, Field<'a>)>,
) {
    let p = &ladder.players[s.id as usize];
    let last = p.last_played.map(|_| last_played);
    out.extend([
        ("position", Field::Count(s.position as u64)),
        ("player", Field::Text(Some(&p.name))),
        ("matches", Field::Count(p.matches.into())),
        ("wins", Field::Count(p.wins.into())),
        ("draws", Field::Count(p.draws.into())),
        ("losses", Field::Count(p.losses.into())),
        ("last_played", Field::Text(last)),
    ]);
    match p.skill {
        Skill::Glicko(r) => out.extend([
            ("rating", Field::Number(r.rating)),
            ("deviation", Field::Number(r.deviation)),
            ("rp", Field::Number(p.rp)),
            ("tier", Field::Text(s.tier.map(Tier::name))),
        ]),
        Skill::Glicko2(r) => out.extend([
            ("mu", Field::Number(r.mu)),
            ("phi", Field::Number(r.phi)),
            ("sigma", Field::Number(r.sigma)),
            ("rating", Field::Number(r.rating())),
            ("deviation", Field::Number(r.deviation())),
            ("rp", Field::Number(p.rp)),
        ]),
        Skill::TrueSkill(r) => out.extend([
            ("mu", Field::Number(r.mu)),
            ("sigma", Field::Number(r.sigma)),
            ("rank", Field::Signed(r.rank())),
            ("provisional", Field::Flag(s.provisional)),
            ("idle", Field::Flag(s.idle)),
        ]),
        Skill::Goals(r) => out.extend([
            ("rating", Field::Number(p.figures_at(centre).rating)),
            ("deviation", Field::Number(r.deviation())),
            ("attack", Field::Number(r.attack)),
            ("defence", Field::Number(r.defence)),
        ]),
        Skill::Elo(r) => {
            out.push(("rating", Field::Number(r.rating)));
            if matches!(ladder.rules.params, Params::Memoir44(_)) {
                out.extend([
                    ("provisional", Field::Flag(s.provisional)),
                    ("idle", Field::Flag(s.idle)),
                ]);
            }
        }
    }
}

/// The standings as a JSON array, one object per player (docs/cli/json.md).
pub fn to_json(ladder: &Ladder, rows: &[Standing]) -> Value {
    let centre = ladder.centre();
    Value::Array(
        rows.iter()
            .map(|s| {
                let date = date_text(ladder, s);
                let mut row = Vec::new();
                fields(ladder, centre, s, &date, &mut row);
                let m: serde_json::Map<String, Value> =
                    row.iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
                Value::Object(m)
            })
            .collect(),
    )
}

fn date_text(ladder: &Ladder, s: &Standing) -> String {
    ladder.players[s.id as usize]
        .last_played
        .map_or_else(String::new, |d| d.to_string())
}

/// [`to_json`] written straight to `w`, the same bytes as its `to_string()` (keys in the
/// order a JSON object map keeps them, sorted) without building a map per player: printing
/// 10,000 standings that way was a twentieth of a whole replay.
pub fn write_json(
    ladder: &Ladder,
    rows: &[Standing],
    w: impl std::io::Write,
) -> std::io::Result<()> {
    struct Rows<'a>(&'a Ladder, &'a [Standing]);
    impl Serialize for Rows<'_> {
        fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
            let Rows(ladder, rows) = *self;
            let centre = ladder.centre();
            let mut seq = ser.serialize_seq(Some(rows.len()))?;
            for s in rows {
                let date = date_text(ladder, s);
                let mut row = Vec::with_capacity(16);
                fields(ladder, centre, s, &date, &mut row);
                row.sort_unstable_by_key(|(k, _)| *k);
                seq.serialize_element(&Row(&row))?;
            }
            seq.end()
        }
    }
    struct Row<'r, 'a>(&'r [(&'static str, Field<'a>)]);
    impl Serialize for Row<'_, '_> {
        fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
            let mut map = ser.serialize_map(Some(self.0.len()))?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.end()
        }
    }
    serde_json::to_writer(w, &Rows(ladder, rows)).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, Match, MatchResult};
    use crate::rules::{Rules, System};
    use chrono::NaiveDate;
    use rungs_rating::Outcome;

    /// The words the app's Status column and `rungs standings` both print.
    #[test]
    fn status_names_every_reason_a_player_is_left_off() {
        let mut s = Standing {
            position: 1,
            place: Some(1),
            id: 0,
            tier: None,
            provisional: false,
            idle: false,
            retired: false,
        };
        assert_eq!(s.status(), "");
        s.idle = true;
        assert_eq!(s.status(), "idle");
        s.provisional = true;
        s.retired = true;
        assert_eq!(s.status(), "retired, provisional, idle");
        assert!(!s.listed());
    }

    /// Ann and Bo play on 1 January, Cy and Bo on 10 January; Ann then sits out. With
    /// idle_days 5 Ann (9 days since her match) is idle, Bo and Cy are not; with
    /// provisional_games 2 only Bo (two matches) is listed. The same for every system.
    #[test]
    fn provisional_and_idle_apply_to_every_system() {
        for system in System::ALL {
            let mut rules = Rules::defaults(system);
            rules.set_param("idle_days", 5.0).unwrap();
            rules.set_param("provisional_games", 2.0).unwrap();
            let mut ladder = Ladder::new(rules.clone());
            let day = |d| NaiveDate::from_ymd_opt(2026, 1, d).unwrap();
            let win = MatchResult::Played(Outcome::Win);
            let events = [
                (
                    day(1),
                    Event::Player {
                        id: 0,
                        name: crate::values::PlayerName::parse("Ann").unwrap(),
                        undated: false,
                    },
                ),
                (
                    day(1),
                    Event::Player {
                        id: 1,
                        name: crate::values::PlayerName::parse("Bo").unwrap(),
                        undated: false,
                    },
                ),
                (
                    day(1),
                    Event::Player {
                        id: 2,
                        name: crate::values::PlayerName::parse("Cy").unwrap(),
                        undated: false,
                    },
                ),
                (day(1), Event::Match(Match::new(0, 1, win))),
                (day(10), Event::Match(Match::new(2, 1, win))),
            ];
            for (i, (date, e)) in events.iter().enumerate() {
                ladder
                    .apply(*date, i as u64 + 1, e, &mut Vec::new())
                    .unwrap();
            }
            let rows = standings(&ladder);
            let flags = |id: PlayerId| {
                let s = rows.iter().find(|s| s.id == id).unwrap();
                (s.provisional, s.idle, s.listed())
            };
            assert_eq!(flags(0), (true, true, false), "{system}: Ann");
            assert_eq!(flags(1), (false, false, true), "{system}: Bo");
            assert_eq!(flags(2), (true, false, false), "{system}: Cy");
            // idle_days 0 turns the idle rule off.
            let mut off = rules.clone();
            off.set_param("idle_days", 0.0).unwrap();
            ladder.rules = off;
            assert!(standings(&ladder).iter().all(|s| !s.idle), "{system}");
        }
    }

    /// The standings written straight out are `to_json`'s text byte for byte under every
    /// system (keys sorted as a JSON map sorts them, a player who never played has a null
    /// date, a name with a quote is escaped), so `rungs replay --json` prints what it did.
    #[test]
    fn written_json_is_the_value_as_text() {
        for system in System::ALL {
            let mut ladder = Ladder::new(Rules::defaults(system));
            let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
            let names = ["Ann", "Bo", "Cy \"C\" é"];
            let mut events: Vec<Event> = (0..3)
                .map(|id| Event::Player {
                    id,
                    name: crate::values::PlayerName::parse(names[id as usize]).unwrap(),
                    undated: false,
                })
                .collect();
            events.push(Event::Match(Match::new(
                0,
                1,
                MatchResult::Played(Outcome::Win),
            )));
            for (i, e) in events.iter().enumerate() {
                ladder.apply(day, i as u64 + 1, e, &mut Vec::new()).unwrap();
            }
            let rows = standings(&ladder);
            let mut written = Vec::new();
            write_json(&ladder, &rows, &mut written).unwrap();
            let written = String::from_utf8(written).unwrap();
            assert_eq!(written, to_json(&ladder, &rows).to_string(), "{system}");
            assert!(
                written.contains(r#""last_played":null,"losses":0,"matches":0,"#),
                "{system}: {written}"
            );
            assert!(written.contains(r#""player":"Cy \"C\" é","#), "{system}");
            assert!(
                written.contains(r#""last_played":"2026-01-01""#),
                "{system}"
            );
        }
    }
}
