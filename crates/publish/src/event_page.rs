//! events/N.html: a Swiss event's standings and crosstable (each round's opponent by place,
//! colour and result; points; FIDE's default tie-breaks for an individual Swiss), as a club
//! pins it on the wall: on A4 (landscape, a named print page, so that eleven rounds and four
//! tie-breaks fit across) and readable on a phone (the table scrolls sideways under a fixed
//! name column).

use super::pages::{Depth, page, player_link};
use super::site::Site;
use maud::{Markup, html};
use rungs_ladder::rounds::Book;
use rungs_pairing::crosstable::crosstable;
use rungs_pairing::night;
use rungs_pairing::swiss_event::SwissEvent;
use rungs_pairing::tiebreaks::TieBreak;

/// The Swiss events of the published log: (number, the event), oldest first.
fn events(site: &Site) -> Vec<(u32, SwissEvent)> {
    let mut book = Book::default();
    for e in site.model.events {
        book.read(e.date, e.seq, &e.event);
    }
    let numbers: Vec<u32> = book
        .rounds
        .values()
        .filter_map(|r| r.event().filter(|&e| e == r.round.number))
        .collect();
    numbers
        .into_iter()
        .map(|n| (n, night::read_event(&site.model.ladder, &book, n)))
        .collect()
}

fn title(number: u32, event: &SwissEvent) -> String {
    event
        .name
        .clone()
        .unwrap_or_else(|| format!("Swiss event of round {number}"))
}

/// The index's list of event pages (nothing when the log holds no Swiss event).
pub fn links(site: &Site) -> Markup {
    let events = events(site);
    html! {
        @if !events.is_empty() {
            section.events.noprint {
                h2 { "Swiss events" }
                ul {
                    @for (n, e) in &events {
                        li { a href={ "events/" (n) ".html" } { (title(*n, e)) } }
                    }
                }
            }
        }
    }
}

/// Every event's page.
pub fn pages(site: &Site) -> Vec<(u32, String)> {
    events(site)
        .into_iter()
        .map(|(n, e)| (n, event(site, n, &e)))
        .collect()
}

fn event(site: &Site, number: u32, event: &SwissEvent) -> String {
    let order = TieBreak::SWISS_DEFAULT;
    let complete = event.complete_rounds();
    let table = crosstable(&event.complete().players, &order);
    let name = title(number, event);
    let declared = event.tournament.total_rounds;
    let body = html! {
        section.event {
            h2 {
                (name)
                span.muted {
                    " · after " (complete.len())
                    @if declared > 0 { " of " (declared) }
                    " round" @if complete.len() != 1 { "s" }
                }
            }
            div.scroll { table.crosstable {
                thead { tr {
                    th.num scope="col" { "#" }
                    th.name scope="col" { "Player" }
                    th.num scope="col" { "Rtg" }
                    @for (k, _) in complete.iter().enumerate() { th.num scope="col" { "R" (k + 1) } }
                    th.num scope="col" { "Pts" }
                    @for t in &table.tiebreaks { th.num scope="col" title=(t.name()) { (t.abbreviation()) } }
                } }
                tbody {
                    @for row in &table.rows {
                        tr {
                            td.num { (row.place) }
                            th.name scope="row" { (player_link(site, Depth::Sub, event.ids[row.player])) }
                            td.num { @if row.rating > 0 { (row.rating) } @else { "–" } }
                            @for c in &row.cells { td.num.cell { (c.text()) } }
                            td.num.points { (points(row.points)) }
                            @for (t, v) in table.tiebreaks.iter().zip(&row.tiebreaks) { td.num { (t.format(*v)) } }
                        }
                    }
                }
            } }
            p.muted {
                "A round: the opponent's place, w or b for the colour, the result (+ and − a forfeit); "
                "bye: the pairing-allocated bye; ½ or – a round not paired. Tie-breaks (FIDE C.07): "
                @for (k, t) in table.tiebreaks.iter().enumerate() {
                    @if k > 0 { ", " }
                    (t.abbreviation()) " " (t.name())
                }
                "."
            }
            @if !event.missing.is_empty() {
                p { "Round " (event.missing[0].0) " is still being played: it shows once every result is in." }
            }
        }
    };
    page(site, Depth::Sub, &name, body)
}

fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}
