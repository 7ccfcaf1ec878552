//! The standings as rows of text, one shape for every form they leave rungs in: the site's
//! tables, `rungs standings --csv`, the app's "Copy standings" (tab-separated) and the share
//! image. Figures are rounded as `rungs standings` prints them.

use rungs_interchange::csv_export::inert;
use rungs_ladder::replay::Ladder;
use rungs_ladder::shown;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings::Standing;
use rungs_ladder::state::Skill;
use rungs_ladder::values;

/// One player's line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The leaderboard place; `None` for a player left off it.
    pub place: Option<usize>,
    pub name: String,
    pub tier: Option<Tier>,
    /// The shown score: Rank Points, AllegSkill's rank, or the rating.
    pub score: String,
    /// The rating with its deviation where the system has one: "1634 ± 30".
    pub rating: String,
    pub rating_value: f64,
    pub deviation: Option<f64>,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub last_played: String,
    /// Why the player is left off the leaderboard ("retired, idle"); empty when listed.
    pub status: String,
}

impl Line {
    pub fn of(ladder: &Ladder, s: &Standing) -> Line {
        let p = &ladder.players[s.id as usize];
        let f = ladder.figures(p);
        let deviation = match p.skill {
            Skill::Elo(_) => None,
            _ => Some(f.deviation),
        };
        let (score, rating) = (shown::score(&f), shown::rating(&p.skill, &f));
        Line {
            place: s.place,
            name: p.name.clone(),
            tier: s.tier,
            score,
            rating,
            rating_value: f.rating,
            deviation,
            wins: p.wins,
            draws: p.draws,
            losses: p.losses,
            last_played: p.last_played.map(|d| d.to_string()).unwrap_or_default(),
            status: s.status(),
        }
    }

    /// "12-3-4".
    pub fn wdl(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// The columns of a spreadsheet of the standings, named for `score` (the system's score:
/// "RP", "rank" or "rating").
pub fn header(score: &str) -> [String; 11] {
    [
        "place",
        "player",
        "tier",
        score,
        "rating",
        "deviation",
        "wins",
        "draws",
        "losses",
        "last_played",
        "status",
    ]
    .map(str::to_string)
}

/// A line as spreadsheet cells: no cell a live formula (as `rungs export` writes them), and
/// names without control or direction characters.
pub fn cells(line: &Line) -> [String; 11] {
    let number = |x: f64| {
        if x.is_finite() {
            format!("{x:.1}")
        } else {
            String::new()
        }
    };
    [
        line.place.map(|n| n.to_string()).unwrap_or_default(),
        inert(&values::shown(&line.name)).into_owned(),
        line.tier.map(|t| t.name().to_string()).unwrap_or_default(),
        line.score.clone(),
        number(line.rating_value),
        line.deviation.map(number).unwrap_or_default(),
        line.wins.to_string(),
        line.draws.to_string(),
        line.losses.to_string(),
        line.last_played.clone(),
        line.status.clone(),
    ]
}

/// The standings tab-separated, a header first (what pastes into a spreadsheet): a tab or a
/// line break inside a cell would split it, so each becomes a space.
pub fn tab_separated(score: &str, lines: &[Line]) -> String {
    let mut out = String::new();
    let mut row = |cells: &[String]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|c| c.replace(['\t', '\n', '\r'], " "))
            .collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    };
    row(&header(score));
    for l in lines {
        row(&cells(l));
    }
    out
}

/// The standings as CSV, a header first.
pub fn write_csv<W: std::io::Write>(out: W, score: &str, lines: &[Line]) -> csv::Result<W> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(header(score))?;
    for l in lines {
        w.write_record(cells(l))?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}
