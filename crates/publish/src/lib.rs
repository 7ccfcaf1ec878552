//! Publishing: the standings as a static site the club can open, print and share — a folder
//! of HTML pages that needs no server, no script and nothing from the network — and the
//! other forms the standings leave rungs in (CSV, tab-separated text, a PNG image).
//!
//! Pure of (rules, log up to a point): [`Model::gather`] replays once; [`render`] hands each
//! file to a [`Sink`] as it is made, so a ladder of ten thousand players never holds more
//! than one player page at a time. [`folder`] writes the files into a new folder beside the
//! target and puts it in place whole.

pub mod club;
mod event_page;
pub mod folder;
pub mod formats;
pub mod image;
pub mod model;
mod pages;
pub mod plot;
pub mod since;
pub mod sink;
pub mod site;
mod svg;
pub mod table;

pub use model::Model;
pub use sink::Sink;
pub use site::{Options, Site, initials, shown_name};

use chrono::NaiveDate;
use rungs_chart::{PlayerSeries, XMode, tier_lines};
use rungs_ladder::values;
use std::io;
use table::Line;

/// The share image of the site's leaderboard, as PNG bytes.
pub fn share_image(site: &Site) -> Result<Vec<u8>, image::ImageError> {
    let lines: Vec<Line> = site
        .lines()
        .map(|(_, l)| l)
        .filter(|l| l.place.is_some())
        .collect();
    let named: Vec<(String, &Line)> = lines
        .iter()
        .map(|l| (shown_name(site, &l.name), l))
        .collect();
    let score = rungs_chart::series::score_axis(site.model.ladder.rules.system());
    image::png(&image::standings_svg(
        &site.title,
        &site.when(),
        score,
        &named,
    ))
}

/// The share image of `ladder`'s leaderboard (what the app's "Save standings as image"
/// writes), as PNG bytes.
pub fn standings_image(
    ladder: &rungs_ladder::replay::Ladder,
    title: &str,
) -> Result<Vec<u8>, image::ImageError> {
    let lines: Vec<Line> = rungs_ladder::standings::standings(ladder)
        .iter()
        .filter(|s| s.listed())
        .map(|s| Line::of(ladder, s))
        .collect();
    let named: Vec<(String, &Line)> = lines
        .iter()
        .map(|l| (values::shown(&l.name).into_owned(), l))
        .collect();
    let when = match ladder.last_date {
        Some(d) => format!("after {d} · season {}, week {}", ladder.season, ladder.week),
        None => "no matches yet".to_string(),
    };
    let score = rungs_chart::series::score_axis(ladder.rules.system());
    image::png(&image::standings_svg(title, &when, score, &named))
}

/// The leaderboard tab-separated, a header first (the app's "Copy standings").
pub fn standings_tsv(ladder: &rungs_ladder::replay::Ladder) -> String {
    let lines: Vec<Line> = rungs_ladder::standings::standings(ladder)
        .iter()
        .filter(|s| s.listed())
        .map(|s| Line::of(ladder, s))
        .collect();
    table::tab_separated(
        rungs_chart::series::score_axis(ladder.rules.system()),
        &lines,
    )
}

/// Why a site was not published.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Folder(#[from] folder::FolderError),
    #[error("the log does not replay: {0}")]
    Replay(#[from] rungs_ladder::replay::ReplayError),
}

/// What to publish: the log, how much of it the site shows, and where it came from.
pub struct Request<'a> {
    /// The ladder's first rules.
    pub initial: &'a rungs_ladder::rules::Rules,
    /// The whole log, in replay order.
    pub events: &'a [rungs_ladder::log::Effective],
    /// The site shows the ladder after `events[..cut]`.
    pub cut: usize,
    /// The day the site shows the ladder at.
    pub day: NaiveDate,
    /// The ladder file (recorded in the site, so that the next publish of this ladder into
    /// the folder measures movement from this one).
    pub ladder: &'a std::path::Path,
    /// Movement measured from the ladder after `events[..n]`, when the organiser names it.
    pub since: Option<usize>,
}

/// Publishes `request` into `dir`, whole: the folder is checked first, the pages written
/// beside it, then put in its place. Movement is measured from the last publish of this
/// ladder into `dir` (or see [`since::choose`]). Returns the folder written (a link
/// followed) and the number of player pages.
pub fn publish_site(
    request: &Request,
    options: &Options,
    dir: &std::path::Path,
) -> Result<(std::path::PathBuf, usize), PublishError> {
    // A refused target costs nothing: it is checked before the replay.
    let mut staged = folder::Staged::new(dir)?;
    let (events, cut) = (request.events, request.cut.min(request.events.len()));
    let ladder = since::ladder_id(request.ladder);
    let previous = staged.previous_mark().and_then(since::Record::from_mark);
    let since = since::choose(events, cut, &ladder, previous.as_ref(), request.since);
    let model = Model::gather(request.initial, &events[..cut], &since)?;
    let site = Site::new(&model, options, request.day);
    let target = staged.target().to_path_buf();
    render(&site, &mut staged).map_err(|e| folder::FolderError {
        dir: target.clone(),
        why: format!("cannot write: {e}"),
    })?;
    let record = since::Record {
        ladder,
        shown: since::Point::after(events, cut),
        since,
    };
    staged.commit(&record.to_mark())?;
    Ok((target, site.lines().count()))
}

/// Every file of the site, handed to `sink` one at a time: the stylesheet, index.html, the
/// season archive, a page per Swiss event, then a page per shown player.
pub fn render(site: &Site, sink: &mut dyn Sink) -> io::Result<()> {
    sink.file("rungs.css", include_str!("style.css").as_bytes())?;
    sink.file(
        "index.html",
        pages::index(site, event_page::links(site)).as_bytes(),
    )?;
    sink.file("seasons.html", pages::seasons(site).as_bytes())?;
    if let Some(page) = formats::challenges(site) {
        sink.file("challenges.html", page.as_bytes())?;
    }
    if let Some(page) = formats::boxes(site) {
        sink.file("boxes.html", page.as_bytes())?;
    }
    sink.file(
        "standings.png",
        &share_image(site).map_err(io::Error::other)?,
    )?;
    for s in &site.model.ladder.archive {
        let path = format!("seasons/{}.html", s.number);
        sink.file(&path, pages::season(site, s).as_bytes())?;
    }
    for (number, page) in event_page::pages(site) {
        sink.file(&format!("events/{number}.html"), page.as_bytes())?;
    }
    let model = site.model;
    let rules = &model.ladder.rules;
    let tiers = tier_lines(rules);
    let markers = model.index.markers();
    for (i, s) in model.standings.iter().enumerate() {
        if !site.has_page(s.id) {
            continue;
        }
        let rows = model.history(s.id);
        let single_day = rows
            .iter()
            .skip(1)
            .map(|r| r.date)
            .try_fold(None, |day, d| match day {
                None => Some(Some(d)),
                Some(x) if x == d => Some(Some(x)),
                Some(_) => None,
            })
            .is_some();
        let mode = if single_day {
            XMode::Match
        } else {
            XMode::Date
        };
        let series = PlayerSeries::new(rows, &model.index, mode);
        let placed: Vec<(f64, String)> = series
            .placed_markers(markers)
            .into_iter()
            .map(|(x, m)| (x, m.label.clone()))
            .collect();
        // Peaks under the system the ladder runs now (another system's units differ).
        let peak = series
            .segments
            .last()
            .filter(|seg| seg.system == rules.system())
            .map(|seg| pages::Peak {
                rating: seg.rating.iter().map(|p| p[1]).reduce(f64::max),
                score: seg.score.iter().map(|p| p[1]).reduce(f64::max),
            })
            .unwrap_or_default();
        let plot = svg::history(&series, &placed, &tiers, rules.system());
        let record = model.record(s.id);
        let page = pages::player(site, i, plot, &record, peak);
        sink.file(&format!("players/{}.html", s.id), page.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::{Event, Match, MatchResult};
    use rungs_ladder::replay::Ladder;
    use rungs_ladder::rules::{Rules, System};
    use rungs_rating::Outcome;

    #[test]
    fn initials_keep_the_first_name_and_shorten_the_rest() {
        assert_eq!(initials("Ann Lee"), "Ann L.");
        assert_eq!(initials("José María López"), "José M. L.");
        assert_eq!(initials("Bo"), "Bo");
    }

    /// Ann beats Bo under Elo K=32: Ann 1516, Bo 1484. The tab-separated standings name
    /// them in that order, and the share image is a PNG with ink on it (the text drawn in
    /// the embedded font, not left blank).
    #[test]
    fn copied_standings_and_the_share_image_show_the_leaderboard() {
        let mut ladder = Ladder::new(Rules::defaults(System::Elo));
        let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let events = [
            Event::Player {
                id: 0,
                name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                undated: false,
            },
            Event::Player {
                id: 1,
                name: rungs_ladder::values::PlayerName::parse("Bo").unwrap(),
                undated: false,
            },
            Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win))),
        ];
        for (i, e) in events.iter().enumerate() {
            ladder.apply(day, i as u64 + 1, e, &mut Vec::new()).unwrap();
        }
        let tsv = standings_tsv(&ladder);
        let rows: Vec<&str> = tsv.lines().collect();
        assert_eq!(rows[0].split('\t').nth(3), Some("rating"));
        // The score as every door writes it, in whole points (1500 + 32 · ½ = 1516); beside
        // it the rating as a spreadsheet's number, to a tenth.
        assert!(
            rows[1].starts_with("1\tAnn\t\t1516\t1516.0\t\t1\t0\t0\t2026-01-01"),
            "{}",
            rows[1]
        );
        assert!(rows[2].starts_with("2\tBo\t"), "{}", rows[2]);
        let png = standings_image(&ladder, "Club").unwrap();
        let decoder = ::png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.width, 1080);
        // Dark text pixels: the title, the names and figures.
        let dark = buf[..info.buffer_size()]
            .chunks(4)
            .filter(|p| p[0] < 120 && p[1] < 120 && p[2] < 120)
            .count();
        assert!(dark > 500, "{dark} dark pixels");
    }
}
