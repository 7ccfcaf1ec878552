//! The club formats' pages: when the ladder runs a challenge ladder, `challenges.html` (the
//! positions and the open challenges with the days each has left); when it runs a box league,
//! `boxes.html` (each box's table with every tie-break in a column, and who still has to play
//! whom). Read from the published log up to the site's day, as the gate reads them.

use super::pages::{Depth, page, player_link};
use super::site::Site;
use maud::{Markup, html};
use rungs_ladder::event::PlayerId;
use rungs_ladder::formats::settings::{BoxSettings, ChallengeSettings, Movement, Unplayed};

/// The rating a box's rating tie-break reads (the 1500 scale); none for a player not on the
/// ladder.
fn rating(site: &Site, id: PlayerId) -> Option<f64> {
    site.model
        .ladder
        .player(id)
        .filter(|p| p.joined)
        .map(|p| p.skill.rating_1500())
        .filter(|r| r.is_finite())
}

fn days_left(days: i64) -> String {
    match days {
        0 => "last day".to_string(),
        1 => "1 day".to_string(),
        n if n < 0 => "past".to_string(),
        n => format!("{n} days"),
    }
}

fn challenge_rules(s: &ChallengeSettings) -> String {
    let unplayed = match s.unplayed {
        Unplayed::Forfeit => "or the challenger wins by forfeit",
        Unplayed::Lapse => "or it lapses",
    };
    let movement = match s.movement {
        Movement::Leapfrog => "a challenger who wins takes the place; those between move down one",
        Movement::Swap => "a challenger who wins swaps places",
    };
    format!(
        "Challenge up to {} places above · play within {} days {unplayed} · one challenge to \
         defend per {} days · the same pair again after {} days · {movement}.",
        s.reach, s.respond_days, s.defend_days, s.rematch_days
    )
}

fn box_rules(s: &BoxSettings) -> String {
    let scheme = rungs_ladder::formats::box_points::scheme_words(&s.points);
    format!(
        "Boxes of {} · the top {} of each box go up, the bottom {} down · {scheme} · a \
         walkover {}–{}.",
        s.box_size, s.up, s.down, s.walkover[0], s.walkover[1]
    )
}

/// The challenge ladder's page, if the ladder runs one.
pub fn challenges(site: &Site) -> Option<String> {
    let c = site.formats.challenge.as_ref()?;
    let positions = c.positions();
    let open = c.open_challenges(site.day);
    let who = |id| player_link(site, Depth::Root, id);
    let body = html! {
        h2 { "Challenge ladder" }
        p.muted { (challenge_rules(&c.settings)) }
        @if !open.is_empty() {
            div.scroll { table.challenges {
                caption { "Open challenges" }
                thead { tr {
                    th.num scope="col" { "#" }
                    th scope="col" { "Challenger" }
                    th scope="col" { "Defender" }
                    th scope="col" { "Play by" }
                    th.num scope="col" { "Left" }
                } }
                tbody {
                    @for o in &open { tr {
                        td.num { (o.number) }
                        th scope="row" { (who(o.challenger)) " (" (o.challenger_position) ")" }
                        td { (who(o.defender)) " (" (o.defender_position) ")" }
                        td { (o.deadline) }
                        td.num { (days_left(o.days_left)) }
                    } }
                }
            } }
        }
        div.scroll { table.positions {
            caption { "Positions" }
            thead { tr {
                th.num scope="col" { "Place" }
                th scope="col" { "Player" }
                th.wide scope="col" { "Since" }
                th.wide scope="col" { "Last match" }
                th scope="col" { "Challenge" }
            } }
            tbody {
                @for row in &positions { tr {
                    td.num { (row.position) }
                    th scope="row" { (who(row.player)) }
                    td.wide { (c.history(row.player).last().map(|p| p.date.to_string()).unwrap_or_default()) }
                    td.wide { (row.last_match.map_or("—".to_string(), |d| d.to_string())) }
                    td { (open_cell(site, &open, row.player, row.open)) }
                } }
            }
        } }
    };
    Some(page(site, Depth::Root, "Challenge ladder", body))
}

fn open_cell(
    site: &Site,
    open: &[rungs_ladder::formats::challenge::OpenChallenge],
    player: PlayerId,
    number: Option<u32>,
) -> Markup {
    let Some(o) = number.and_then(|n| open.iter().find(|o| o.number == n)) else {
        return html! {};
    };
    html! {
        @if o.defender == player {
            "← " (player_link(site, Depth::Root, o.challenger)) ", " (days_left(o.days_left)) " left"
        } @else {
            "→ " (player_link(site, Depth::Root, o.defender))
        }
    }
}

/// The box league's page, if the ladder runs one.
pub fn boxes(site: &Site) -> Option<String> {
    let league = site.formats.boxes.as_ref()?;
    let period = league.current()?;
    let record = &period.record;
    let s = &record.settings;
    let tables = period.tables(&|id| rating(site, id));
    let still = period.still_to_play();
    let last = tables.len() as u32;
    let who = |id| player_link(site, Depth::Root, id);
    let body = html! {
        h2 { "Box league · period " (record.number) " (" (record.start) " to " (record.end) ")" }
        p.muted { (box_rules(s)) }
        @for t in &tables {
            @let n = t.rows.len() as u32;
            section.box {
                div.scroll { table.box {
                    caption { "Box " (t.number) }
                    thead { tr {
                        th.num scope="col" { "#" }
                        th scope="col" { "Player" }
                        th.num scope="col" title="played" { "P" }
                        th.num scope="col" title="won" { "W" }
                        th.num scope="col" title="drawn" { "D" }
                        th.num scope="col" title="lost" { "L" }
                        th.num scope="col" { "Games" }
                        @for b in &t.tie_breaks { th.num scope="col" { (b.as_text()) } }
                        th scope="col" { span.sr { "Goes" } }
                    } }
                    tbody {
                        @for r in &t.rows { tr {
                            td.num { (r.place) }
                            th scope="row" { (who(r.player)) }
                            td.num { (r.tally.played) }
                            td.num { (r.tally.won) }
                            td.num { (r.tally.drawn) }
                            td.num { (r.tally.lost) }
                            td.num { (r.tally.games_won) "–" (r.tally.games_lost) }
                            @for v in &r.tie_values {
                                td.num { (v.map_or("·".to_string(), |v| v.as_text())) }
                            }
                            td {
                                @if t.number > 1 && r.place <= s.up { span.promoted { "▲ up" } }
                                @else if t.number < last && r.place + s.down > n { span.relegated { "▼ down" } }
                            }
                        } }
                    }
                } }
                @let pairs = still.iter().find(|x| x.number == t.number).map_or(&[][..], |x| &x.pairs[..]);
                @if pairs.is_empty() {
                    p.muted { "Every match of this box is played." }
                } @else {
                    p.still { "Still to play: "
                        @for (k, (a, b)) in pairs.iter().enumerate() {
                            @if k > 0 { ", " }
                            span.pair { (who(*a)) " – " (who(*b)) }
                        }
                    }
                }
                @if !t.withdrawn.is_empty() {
                    p.muted { "Withdrawn this period: "
                        @for (k, p) in t.withdrawn.iter().enumerate() {
                            @if k > 0 { ", " } (who(*p))
                        }
                    }
                }
            }
        }
    };
    Some(page(site, Depth::Root, "Boxes", body))
}
