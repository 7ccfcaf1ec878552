//! The site's pages as HTML (maud: every value is escaped as it is written). The standings,
//! a page per player, the season archive. Links are relative; nothing is loaded from
//! anywhere else; no script.

use super::model::{Movement, Places, TierMove};
use super::site::{Site, shown_name};
use super::table::Line;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use rungs_chart::markers::{tier_glyph, tier_rgb};
use rungs_chart::series::{rating_axis, score_axis, score_is_rating};
use rungs_ladder::event::{ByeScore, MatchResult, PlayerId};
use rungs_ladder::record::Record;
use rungs_ladder::rounds;
use rungs_ladder::seasons::archive_key;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::state::{SeasonRanking, SeasonRecord};
use rungs_ladder::words::season_span;
use rungs_rating::Outcome;

/// Recent matches and opponents a player page lists at most.
const RECENT: usize = 20;
const OPPONENTS: usize = 40;

/// Where a page sits: at the site's root, or one folder down.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    Root,
    Sub,
}

impl Depth {
    fn up(self) -> &'static str {
        match self {
            Depth::Root => "",
            Depth::Sub => "../",
        }
    }
}

fn tier_style(tier: Option<Tier>) -> Option<String> {
    tier.map(|t| {
        let [r, g, b] = tier_rgb(t);
        format!("--tier: rgb({r}, {g}, {b})")
    })
}

pub(crate) fn page(site: &Site, depth: Depth, title: &str, body: Markup) -> String {
    let up = depth.up();
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content="rungs";
                title { (title) " — " (site.title) }
                link rel="stylesheet" href={ (up) "rungs.css" };
            }
            body {
                header.site {
                    h1 { (site.title) }
                    p { (site.when()) }
                    nav aria-label="Site" {
                        ul {
                            li { a href={ (up) "index.html" } { "Standings" } }
                            li { a href={ (up) "seasons.html" } { "Seasons" } }
                            @if site.formats.challenge.is_some() {
                                li { a href={ (up) "challenges.html" } { "Challenge ladder" } }
                            }
                            @if site.formats.boxes.is_some() {
                                li { a href={ (up) "boxes.html" } { "Boxes" } }
                            }
                        }
                    }
                }
                main { (body) }
                footer { "Published with rungs from the ladder's log; " (site.when()) "." }
            }
        }
    }
    .into_string()
}

/// A player's name as the site shows it, linked to their page when they have one.
/// A player the site leaves off (retired, with `--hide-retired`) is not named anywhere.
pub(crate) fn player_link(site: &Site, depth: Depth, id: PlayerId) -> Markup {
    if !site.shows(id) {
        return html! { span.muted { "a retired player" } };
    }
    let name = shown_name(site, site.model.name(id));
    let href = match depth {
        Depth::Root => format!("players/{id}.html"),
        Depth::Sub => format!("../players/{id}.html"),
    };
    html! {
        @if site.has_page(id) { a href=(href) { (name) } } @else { (name) }
    }
}

fn badge(tier: Option<Tier>) -> Markup {
    html! {
        @if let Some(t) = tier {
            span.badge style=[tier_style(Some(t))] aria-hidden="true" { (tier_glyph(t)) } " "
        }
    }
}

fn movement(m: Movement) -> Markup {
    html! {
        @match m.places {
            Places::New => span.new title="new on the leaderboard" { "new" },
            Places::By(n) if n > 0 => span.up title={ "up " (n) " place" @if n != 1 { "s" } } { "↑" (n) },
            Places::By(n) if n < 0 => span.down title={ "down " (-n) " place" @if n != -1 { "s" } } { "↓" (-n) },
            Places::By(_) => span.muted title="no change" { "–" },
            Places::Off => "",
        }
        @match m.tier {
            Some(TierMove::Promoted(t)) => { " " span.promoted title={ "promoted to " (t.name()) } { "▲ " (t.name()) } },
            Some(TierMove::Relegated(t)) => { " " span.relegated title={ "down to " (t.name()) } { "▼ " (t.name()) } },
            None => "",
        }
    }
}

/// Lines with their index in the standings.
type Rows = Vec<(usize, Line)>;

/// index.html: the leaderboard as one table, a group of rows per tier (each group starts a
/// new page in print), then the players it leaves off.
/// The latest round of the log up to the published point: its boards, each result entered
/// so far, and the bye (the pairings a club pins beside the standings).
fn latest_round(site: &Site) -> Markup {
    let mut book = rounds::Book::default();
    for e in site.model.events {
        book.read(e.date, e.seq, &e.event);
    }
    let Some(saved) = book.rounds.values().next_back() else {
        return html! {};
    };
    let round = &saved.round;
    html! {
        section.round {
            div.scroll { table {
                caption {
                    "Round " (round.number) span.muted { " · " (saved.date) " · " (round.format.as_text()) }
                }
                thead { tr {
                    th.num scope="col" { "Board" }
                    th scope="col" { "Side A" }
                    th.num scope="col" { "Result" }
                    th scope="col" { "Side B" }
                } }
                tbody {
                    @for (i, [a, b]) in round.boards.iter().enumerate() {
                        tr {
                            th.num scope="row" { (i + 1) }
                            td { (player_link(site, Depth::Root, *a)) }
                            td.num { (result_text(saved.results.get(i).copied().flatten().map(|r| r.result))) }
                            td { (player_link(site, Depth::Root, *b)) }
                        }
                    }
                    @if let Some(bye) = round.bye {
                        tr {
                            th.num scope="row" { "bye" }
                            td { (player_link(site, Depth::Root, bye)) }
                            td.num { @if round.bye_scores == ByeScore::Win { "1" } @else { "—" } }
                            td {}
                        }
                    }
                }
            } }
        }
    }
}

/// A board's result from side A's view as a club writes it; "to play" before one is entered.
fn result_text(result: Option<MatchResult>) -> &'static str {
    match result {
        None => "to play",
        Some(MatchResult::Played(Outcome::Win)) => "1–0",
        Some(MatchResult::Played(Outcome::Draw)) => "½–½",
        Some(MatchResult::Played(Outcome::Loss)) => "0–1",
        Some(MatchResult::ForfeitA) => "0–1 (forfeit)",
        Some(MatchResult::ForfeitB) => "1–0 (forfeit)",
        Some(MatchResult::Cancelled) => "cancelled",
    }
}

/// The score column's heading: where the score is the rating (Elo, goals) it is the one
/// column of it, with its deviation where the system has one.
fn score_heading(site: &Site) -> String {
    let system = site.model.ladder.rules.system();
    if score_is_rating(system) && site.has_deviation() {
        format!("{} ± dev.", score_axis(system))
    } else {
        score_axis(system).to_string()
    }
}

/// A line's score as its column shows it: the rating with its ± where the score is the
/// rating (`two` false), else the score beside a rating column.
fn shown_score(l: &Line, two: bool) -> &str {
    if two { &l.score } else { &l.rating }
}

/// `events`: the list of Swiss event pages (see `event_page`).
pub fn index(site: &Site, events: Markup) -> String {
    let system = site.model.ladder.rules.system();
    let two = !score_is_rating(system);
    let (listed, off): (Vec<_>, Vec<_>) = site.lines().partition(|(_, l)| l.place.is_some());
    let mut groups: Vec<(Option<Tier>, Rows)> = Vec::new();
    for (i, l) in listed {
        match groups.last_mut() {
            Some((t, rows)) if *t == l.tier => rows.push((i, l)),
            _ => groups.push((l.tier, vec![(i, l)])),
        }
    }
    let head = html! {
        thead { tr {
            th.num scope="col" { "#" }
            th scope="col" { "Move" }
            th scope="col" { "Player" }
            th.num scope="col" { (score_heading(site)) }
            @if two { th.num scope="col" { (rating_axis(system)) @if site.has_deviation() { " ± dev." } } }
            th.num scope="col" { "W-D-L" }
            th.wide scope="col" { "Last played" }
        } }
    };
    let row = |i: usize, l: &Line| {
        let s = &site.model.standings[i];
        html! { tr {
            td.num { (l.place.map(|p| p.to_string()).unwrap_or_else(|| "—".into())) }
            td { (movement(site.model.baseline.movement(s))) }
            th scope="row" { (badge(l.tier)) (player_link(site, Depth::Root, s.id)) }
            td.num { (shown_score(l, two)) }
            @if two { td.num { (l.rating) } }
            td.num { (l.wdl()) }
            td.wide { (l.last_played) }
        } }
    };
    let body = html! {
        (latest_round(site))
        (events)
        section.standings {
            @if groups.is_empty() {
                p { "No player is on the leaderboard yet." }
            }
            @for (n, (tier, rows)) in groups.iter().enumerate() {
                section.tier style=[tier_style(*tier)] {
                    div.scroll { table {
                        caption {
                            @match tier {
                                Some(t) => { (badge(Some(*t))) (t.name()) },
                                None => "Standings",
                            }
                            span.muted { " · " (rows.len()) " player" @if rows.len() != 1 { "s" } }
                            @if n == 0 { span.muted { " · " (site.movement_since()) } }
                        }
                        (head)
                        tbody { @for (i, l) in rows { (row(*i, l)) } }
                    } }
                }
            }
        }
        p.noprint { a href="standings.png" { "The standings as an image" } " (PNG, to share)" }
        @if !off.is_empty() {
            section.off.noprint {
                h2 { "Not on the leaderboard" }
                div.scroll { table {
                    caption { "Provisional, idle" @if !site.options.hide_retired { " and retired" } " players" }
                    thead { tr {
                        th scope="col" { "Player" }
                        th.num scope="col" { (score_heading(site)) }
                        @if two { th.num scope="col" { (rating_axis(system)) @if site.has_deviation() { " ± dev." } } }
                        th.num scope="col" { "W-D-L" }
                        th.wide scope="col" { "Last played" }
                        th scope="col" { "Status" }
                    } }
                    tbody { @for (i, l) in &off {
                        tr {
                            th scope="row" { (badge(l.tier)) (player_link(site, Depth::Root, site.model.standings[*i].id)) }
                            td.num { (shown_score(l, two)) }
                            @if two { td.num { (l.rating) } }
                            td.num { (l.wdl()) }
                            td.wide { (l.last_played) }
                            td { (l.status) }
                        }
                    } }
                } }
            }
        }
    };
    page(site, Depth::Root, "Standings", body)
}

/// players/ID.html.
pub fn player(site: &Site, i: usize, plot: Option<String>, record: &Record, peak: Peak) -> String {
    let s = &site.model.standings[i];
    let line = Line::of(&site.model.ladder, s);
    let name = shown_name(site, &line.name);
    let system = site.model.ladder.rules.system();
    let two = !score_is_rating(system);
    let p = &site.model.ladder.players[s.id as usize];
    let body = html! {
        h2 { (badge(line.tier)) (name) }
        dl.facts {
            div { dt { "Place" } dd { @match line.place { Some(n) => { "#" (n) }, None => (line.status) } } }
            @if let Some(t) = line.tier { div { dt { "Tier" } dd { (t.name()) } } }
            div { dt { (score_heading(site)) } dd { (shown_score(&line, two)) } }
            @if two { div { dt { (rating_axis(system)) @if site.has_deviation() { " ± deviation" } } dd { (line.rating) } } }
            div { dt { "Won-drawn-lost" } dd { (line.wdl()) } }
            div { dt { "Movement" } dd { (movement(site.model.baseline.movement(s))) } }
            @if let Some(r) = peak.rating { div { dt { "Peak " (rating_axis(system)) } dd { (format!("{r:.0}")) } } }
            @if let (Some(x), true) = (peak.score, two) { div { dt { "Peak " (score_axis(system)) } dd { (format!("{x:.0}")) } } }
            div { dt { "Longest winning streak" } dd { (record.longest_win_streak()) } }
            @if let Some(d) = p.joined_on { div { dt { "Joined" } dd { (d) } } }
            div { dt { "Last played" } dd { (line.last_played) } }
        }
        @if let Some(svg) = plot {
            h2 { "History" }
            (PreEscaped(svg))
        }
        @if !record.head_to_head.is_empty() {
            h2 { "Head to head" }
            div.scroll { table {
                caption { "Against each opponent, most games first"
                    @if record.head_to_head.len() > OPPONENTS { " (the first " (OPPONENTS) " of " (record.head_to_head.len()) ")" } }
                thead { tr { th scope="col" { "Opponent" } th.num scope="col" { "Won" } th.num scope="col" { "Drawn" } th.num scope="col" { "Lost" } } }
                tbody { @for (opp, [w, d, l]) in record.head_to_head.iter().take(OPPONENTS) {
                    tr { th scope="row" { (player_link(site, Depth::Sub, *opp)) } td.num { (w) } td.num { (d) } td.num { (l) } }
                } }
            } }
        }
        @if !record.matches.is_empty() {
            h2 { "Recent matches" }
            div.scroll { table {
                caption { "The latest " (record.matches.len().min(RECENT)) " of " (record.matches.len()) " rated matches, newest first" }
                thead { tr { th scope="col" { "Date" } th scope="col" { "Result" } th scope="col" { "Opponent" } } }
                tbody { @for m in record.matches.iter().take(RECENT) {
                    tr {
                        td { (m.date) }
                        td { (m.result.verb()) }
                        th scope="row" { @for (k, o) in m.opponents.iter().enumerate() {
                            @if k > 0 { ", " } (player_link(site, Depth::Sub, *o))
                        } }
                    }
                } }
            } }
        }
    };
    page(site, Depth::Sub, &name, body)
}

/// The best figures in the player's history under today's system.
#[derive(Debug, Clone, Copy, Default)]
pub struct Peak {
    pub rating: Option<f64>,
    pub score: Option<f64>,
}

/// seasons.html: the archive, a line per season linking to its page.
pub fn seasons(site: &Site) -> String {
    let l = &site.model.ladder;
    let body = html! {
        h2 { "Season archive" }
        p { "Now: season " (l.season) ", week " (l.week) "." }
        @if l.archive.is_empty() {
            p { "No season has finished yet." }
        } @else {
            div.scroll { table {
                caption { "Finished seasons, newest first" }
                thead { tr { th scope="col" { "Season" } th scope="col" { "Ran" } th scope="col" { "Top" } } }
                tbody { @for (i, s) in l.archive.iter().enumerate().rev() {
                    tr {
                        th scope="row" { a href={ "seasons/" (s.number) ".html" } { (s.title()) } }
                        td { (season_span(s, i.checked_sub(1).map(|j| l.archive[j].ended))) }
                        td { @if let Some(e) = ranked(site, s).first() { (player_link(site, Depth::Root, e.player)) } }
                    }
                } }
            } }
        }
    };
    page(site, Depth::Root, "Seasons", body)
}

fn ranked<'s>(site: &Site, s: &'s SeasonRecord) -> Vec<&'s rungs_ladder::state::SeasonEntry> {
    let mut entries: Vec<_> = s
        .entries
        .iter()
        .filter(|e| site.listed_in_archive(e.player))
        .collect();
    entries.sort_by(|x, y| archive_key(y).total_cmp(&archive_key(x)));
    entries
}

/// seasons/N.html: one finished season, ranked as `rungs seasons` ranks it.
pub fn season(site: &Site, s: &SeasonRecord) -> String {
    // When it ran, as the app's Seasons says it: from the end of the season before.
    let archive = &site.model.ladder.archive;
    let began = archive
        .iter()
        .position(|r| r.number == s.number)
        .and_then(|i| i.checked_sub(1))
        .map(|j| archive[j].ended);
    let body = html! {
        h2 { (s.title()) }
        p { "Ran: " (season_span(s, began)) "." }
        div.scroll { table {
            caption { (s.title()) ", final ranking" }
            thead { tr {
                th.num scope="col" { "Rank" } th scope="col" { "Player" } th scope="col" { "Ranking" }
                th scope="col" { "Peak tier" } th.num scope="col" { "Matches" }
            } }
            tbody { @for (k, e) in ranked(site, s).into_iter().enumerate() {
                tr {
                    td.num { (k + 1) }
                    th scope="row" { (badge(e.peak_tier)) (player_link(site, Depth::Sub, e.player)) }
                    td { @match e.ranking {
                        SeasonRanking::Tier(t) => (t.name()),
                        SeasonRanking::AverageRp(rp) => { (format!("{rp:.1}")) " RP (weekly mean)" },
                        SeasonRanking::Score(x) => (format!("{x:.1}")),
                    } }
                    td { (e.peak_tier.map_or("", Tier::name)) }
                    td.num { (e.matches) }
                }
            } }
        } }
    };
    page(site, Depth::Sub, &s.title(), body)
}
