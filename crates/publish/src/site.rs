//! The model with the organiser's choices (title, retired players hidden, initials): what
//! every page and the share image are made from.

use super::model::Model;
use super::table::Line;
use chrono::NaiveDate;
use rungs_ladder::event::PlayerId;
use rungs_ladder::values;

/// What the organiser chose.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    /// The site's heading; empty: "Standings".
    pub title: String,
    /// Leave retired players off the site entirely (no line, no page, no link).
    pub hide_retired: bool,
    /// Show names as a first name and initials ("Ann Lee" as "Ann L.").
    pub initials: bool,
}

/// The model with the organiser's choices: what every page is made from.
pub struct Site<'m, 'a> {
    pub model: &'m Model<'a>,
    pub options: &'m Options,
    pub title: String,
    /// The date the site shows the ladder at.
    pub day: NaiveDate,
    /// The challenge ladder and box league the log runs, if any.
    pub formats: super::club::ClubFormats,
}

impl<'m, 'a> Site<'m, 'a> {
    pub fn new(model: &'m Model<'a>, options: &'m Options, day: NaiveDate) -> Site<'m, 'a> {
        let title = match values::shown(options.title.trim()) {
            t if t.is_empty() => "Standings".to_string(),
            t => t.into_owned(),
        };
        Site {
            model,
            options,
            title,
            day,
            formats: super::club::ClubFormats::read(model.events, day),
        }
    }

    /// Whether the player is on the site at all.
    pub fn shows(&self, id: PlayerId) -> bool {
        self.model
            .ladder
            .player(id)
            .is_some_and(|p| p.joined && !(self.options.hide_retired && p.retired))
    }

    pub fn has_page(&self, id: PlayerId) -> bool {
        self.shows(id)
    }

    pub fn listed_in_archive(&self, id: PlayerId) -> bool {
        self.shows(id)
    }

    /// Every shown player's line, with their index in the standings.
    pub fn lines(&self) -> impl Iterator<Item = (usize, Line)> + '_ {
        self.model
            .standings
            .iter()
            .enumerate()
            .filter(|(_, s)| self.shows(s.id))
            .map(|(i, s)| (i, Line::of(&self.model.ladder, s)))
    }

    pub fn has_deviation(&self) -> bool {
        rungs_chart::series::band_label(self.model.ladder.rules.system()).is_some()
    }

    /// "After event 1234 on 2026-11-20 · season 3, week 2".
    pub fn when(&self) -> String {
        let l = &self.model.ladder;
        match self.model.events.last() {
            Some(e) => format!(
                "after event {} on {} · season {}, week {}",
                e.seq, e.date, l.season, l.week
            ),
            None => format!("{} · no events yet", self.day),
        }
    }

    /// "movement since the last publish (2026-11-13)".
    pub fn movement_since(&self) -> String {
        self.model.since.words()
    }
}

/// A name as the site shows it: without control or direction characters, and as a first
/// name and initials when asked ("Ann Lee" → "Ann L."). Escaping is the page's.
pub fn shown_name(site: &Site, name: &str) -> String {
    let name = values::shown(name);
    if !site.options.initials {
        return name.into_owned();
    }
    initials(&name)
}

/// "Ann Lee" → "Ann L.", "José María López" → "José M. L."; one word stays whole.
pub fn initials(name: &str) -> String {
    let mut words = name.split_whitespace();
    let mut out = words.next().unwrap_or("").to_string();
    for w in words {
        if let Some(c) = w.chars().next() {
            out.push(' ');
            out.push(c);
            out.push('.');
        }
    }
    out
}
