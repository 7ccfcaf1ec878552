//! Standings: players grouped by tier, sortable by every column (each header explains itself
//! on hover), filtered by name, "5 of 337 players"; provisional, idle and retired players
//! shown on request. This is the screen's state and its lines; `standings_table` draws them.

use super::state::AppState;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::state::{PlayerState, Skill};

/// The column the standings are sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    #[default]
    Position,
    Name,
    Score,
    Trend,
    Rating,
    Matches,
    LastPlayed,
    Status,
}

/// One line of the table: a tier's heading, or a player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Line {
    Heading(Tier),
    Player(usize),
}

/// The Standings screen's own state: the view as set, and the lines it gives.
#[derive(Debug, Clone, Default)]
pub struct StandingsScreen {
    pub filter: String,
    /// Show provisional, idle and retired players too.
    pub show_all: bool,
    pub sort: SortKey,
    pub descending: bool,
    key: Option<(String, SortKey, bool, bool, usize, u64)>,
    pub lines: Vec<Line>,
    /// Players the lines show.
    pub shown: usize,
}

/// The trend shown for a player: how their score moved in their latest match this season,
/// `None` when they have not played since the season began (right after a hard reset, say).
pub fn trend(p: &PlayerState) -> Option<f64> {
    (p.season_matches > 0 && p.last_change.is_finite()).then_some(p.last_change)
}

impl StandingsScreen {
    /// Recomputes the lines if anything they depend on changed.
    pub fn refresh(&mut self, app: &AppState) {
        let key = (
            self.filter.trim().to_lowercase(),
            self.sort,
            self.descending,
            self.show_all,
            app.standings.len(),
            app.generation,
        );
        if self.key.as_ref() == Some(&key) {
            return;
        }
        let filter = key.0.clone();
        let player = |i: usize| &app.ladder.players[app.standings[i].id as usize];
        let mut rows: Vec<usize> = (0..app.standings.len())
            .filter(|&i| {
                (self.show_all || app.standings[i].listed())
                    && (filter.is_empty() || player(i).name.to_lowercase().contains(&filter))
            })
            .collect();
        let desc = |a: f64, b: f64| b.total_cmp(&a);
        let centre = app.ladder.centre();
        let figures = |i: usize| player(i).figures_at(centre);
        match self.sort {
            SortKey::Position => {}
            SortKey::Name => rows.sort_by_key(|&i| player(i).name.to_lowercase()),
            SortKey::Score => rows.sort_by(|&x, &y| desc(figures(x).score, figures(y).score)),
            SortKey::Trend => rows.sort_by(|&x, &y| {
                desc(
                    trend(player(x)).unwrap_or(f64::NEG_INFINITY),
                    trend(player(y)).unwrap_or(f64::NEG_INFINITY),
                )
            }),
            SortKey::Rating => rows.sort_by(|&x, &y| desc(figures(x).rating, figures(y).rating)),
            SortKey::Matches => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).matches)),
            SortKey::LastPlayed => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).last_played)),
            SortKey::Status => rows.sort_by_key(|&i| app.standings[i].status()),
        }
        if self.descending {
            rows.reverse();
        }
        let grouped = self.sort == SortKey::Position && !self.descending;
        let mut lines = Vec::with_capacity(rows.len() + 12);
        let mut current = None;
        self.shown = rows.len();
        for i in rows {
            if grouped
                && let Some(t) = app.standings[i].tier
                && current != Some(t)
            {
                current = Some(t);
                lines.push(Line::Heading(t));
            }
            lines.push(Line::Player(i));
        }
        self.lines = lines;
        self.key = Some(key);
    }
}

pub(super) fn score_name(p: &PlayerState) -> &'static str {
    match p.skill {
        Skill::Glicko(_) | Skill::Glicko2(_) => "RP",
        Skill::TrueSkill(_) => "rank",
        Skill::Elo(_) | Skill::Goals(_) => "rating",
    }
}

/// What each column means, for its header's tooltip.
pub(super) fn explain(key: SortKey, score: &str, app: &AppState) -> String {
    let rules = &app.ladder.rules;
    // A system without a provisional period (or one set to 0) has no provisional players:
    // "fewer than 0 matches" said nothing true.
    let provisional = match rules.param("provisional_games") {
        Some(n) if n > 0.0 => format!(
            "Provisional: fewer than {} matches.",
            crate::widgets::number(n)
        ),
        _ => "Provisional: not used under these rules.".to_string(),
    };
    let leaderboard = format!(
        "{provisional} Idle: no match for more than {} days before the ladder's latest \
         match{}. Retired: taken off by the organiser (Players); a match brings them back.",
        rules.param("idle_days").unwrap_or(0.0),
        if rules.param("idle_days") == Some(0.0) {
            " (0: never idle)"
        } else {
            ""
        }
    );
    match key {
        SortKey::Position => "Place on the leaderboard (by the system's own order). Click to group by tier again.".into(),
        SortKey::Name => "The player's name.".into(),
        SortKey::Score => match score {
            "RP" => "Rank Points: what the ladder is ranked by. Wins earn them, losses cost them; resets cap and reset them.".into(),
            "rank" => "The shown rank, μ − 3σ rounded: rises as a player proves themselves.".into(),
            _ => "The rating the ladder ranks by.".into(),
        },
        SortKey::Trend => format!(
            "How the player's {score} moved in their latest match this season (▲ gained, ▼ lost). Resets are not matches: a soft reset's cap is not counted, and after a hard reset this stays blank until the player plays again."
        ),
        SortKey::Rating => "The hidden skill rating behind the score, ± its uncertainty (one deviation).".into(),
        SortKey::Matches => "Wins, draws and losses; sorts by matches played.".into(),
        SortKey::LastPlayed => "The date of the player's latest match.".into(),
        SortKey::Status => leaderboard,
    }
}
