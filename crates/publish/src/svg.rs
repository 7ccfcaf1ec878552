//! A player's history as an inline SVG: the same series the app's History draws, from
//! [`rungs_chart`] — the rating with its band above, the score with its tier lines below
//! (one plot where the score is the rating), the resets, migrations and rules changes as
//! dashed markers — thinned to the plot's pixels as History thins them. Only numbers and
//! escaped words go into the markup.

use rungs_chart::series::{band_label, rating_axis, score_axis, score_is_rating};
use rungs_chart::{PlayerSeries, Segment, TierLine, XMode, format_x};
use rungs_chart::{axis, markers::tier_rgb};
use rungs_ladder::rules::System;
use std::fmt::Write;

/// The drawing's width in its own units; at its usual size one unit is one pixel, so the
/// curves keep one bucket of points per unit of width.
const WIDTH: f64 = 720.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 108.0;
const RATING_H: f64 = 200.0;
const SCORE_H: f64 = 140.0;
const GAP: f64 = 34.0;
const TOP: f64 = 12.0;

/// Text escaped for SVG markup.
pub fn esc(text: &str) -> String {
    maud::html! { (text) }.into_string()
}

/// The plot of `series`, `None` when it has no point to draw.
pub fn history(
    series: &PlayerSeries,
    markers: &[(f64, String)],
    tiers: &[TierLine],
    system: System,
) -> Option<String> {
    let first = series.points.first()?;
    let last = series.points.last()?;
    let (mut x0, mut x1) = (first.x, last.x);
    if x1 <= x0 {
        (x0, x1) = (x0 - 1.0, x1 + 1.0);
    }
    let plot_w = WIDTH - LEFT - RIGHT;
    let thin: Vec<Segment> = series
        .segments
        .iter()
        .map(|s| s.decimated(x0, x1, plot_w as usize))
        .collect();
    let two = !score_is_rating(system);
    let height = TOP + RATING_H + if two { GAP + SCORE_H } else { 0.0 } + 28.0;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="plot" viewBox="0 0 {WIDTH} {height:.0}" role="img" aria-labelledby="plot-title"><title id="plot-title">{}</title>"#,
        esc(&format!(
            "{} over time{}",
            rating_axis(system),
            if two {
                format!(" (above) and {} (below)", score_axis(system))
            } else {
                String::new()
            }
        ))
    );
    let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
    // The rating panel, with its band.
    let rating_pts = thin.iter().flat_map(|s| {
        let band = s
            .band
            .iter()
            .flat_map(|b| b.lower.iter().chain(b.upper.iter()));
        s.rating.iter().chain(band).map(|p| p[1])
    });
    let panel = Panel::new(rating_pts, TOP, RATING_H);
    panel.frame(&mut out, rating_axis(system), LEFT, plot_w);
    for s in &thin {
        if let Some(b) = &s.band {
            let mut d = String::from("M");
            for p in b.upper.iter().chain(b.lower.iter().rev()) {
                let _ = write!(d, "{:.1},{:.1} ", sx(p[0]), panel.y(p[1]));
            }
            let _ = write!(
                out,
                r#"<path class="band" d="{}Z"><title>{}</title></path>"#,
                d.trim_end(),
                esc(band_label(s.system).unwrap_or(""))
            );
        }
        out.push_str(&polyline("rating", &s.rating, &sx, &panel));
    }
    let bottom = if two {
        let score_pts = thin.iter().flat_map(|s| s.score.iter().map(|p| p[1]));
        let top = TOP + RATING_H + GAP;
        let mut lines: Vec<&TierLine> = Vec::new();
        let score_panel = Panel::new(score_pts, top, SCORE_H);
        for t in tiers {
            if t.value >= score_panel.lo && t.value <= score_panel.hi {
                lines.push(t);
            }
        }
        score_panel.frame(&mut out, score_axis(system), LEFT, plot_w);
        for t in lines {
            let [r, g, b] = tier_rgb(t.tier);
            let y = score_panel.y(t.value);
            let _ = write!(
                out,
                r#"<line class="tier" x1="{LEFT}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="rgb({r},{g},{b})"/><text class="tier-name" x="{:.1}" y="{:.1}">{}</text>"#,
                LEFT + plot_w,
                LEFT + plot_w + 4.0,
                y + 4.0,
                esc(t.label)
            );
        }
        for s in &thin {
            out.push_str(&polyline("score", &s.score, &sx, &score_panel));
        }
        top + SCORE_H
    } else {
        TOP + RATING_H
    };
    for (x, label) in markers {
        if *x < x0 || *x > x1 {
            continue;
        }
        let _ = write!(
            out,
            r#"<line class="marker" x1="{0:.1}" x2="{0:.1}" y1="{TOP}" y2="{bottom:.1}"><title>{1}</title></line>"#,
            sx(*x),
            esc(label)
        );
    }
    x_ticks(&mut out, series.mode, x0, x1, bottom, &sx);
    out.push_str("</svg>");
    Some(out)
}

fn polyline(class: &str, pts: &[[f64; 2]], sx: &dyn Fn(f64) -> f64, panel: &Panel) -> String {
    let mut d = String::with_capacity(pts.len() * 14);
    for p in pts {
        let _ = write!(d, "{:.1},{:.1} ", sx(p[0]), panel.y(p[1]));
    }
    format!(r#"<polyline class="{class}" points="{}"/>"#, d.trim_end())
}

fn x_ticks(out: &mut String, mode: XMode, x0: f64, x1: f64, y: f64, sx: &dyn Fn(f64) -> f64) {
    let ticks: Vec<(f64, String)> = match mode {
        XMode::Date => axis::date_grid(x0, x1, 6)
            .into_iter()
            .map(|[x, step]| (x, axis::format_date_tick(x, step)))
            .collect(),
        XMode::Match => nice(x0, x1, 6)
            .into_iter()
            .map(|x| (x, format_x(x, mode)))
            .collect(),
    };
    for (x, label) in ticks {
        let _ = write!(
            out,
            r#"<text class="tick" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            sx(x),
            y + 16.0,
            esc(&label)
        );
    }
}

/// One panel's vertical scale and frame.
struct Panel {
    lo: f64,
    hi: f64,
    top: f64,
    h: f64,
}

impl Panel {
    fn new(values: impl Iterator<Item = f64>, top: f64, h: f64) -> Panel {
        let (mut lo, mut hi) = values
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() || !hi.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let pad = ((hi - lo) * 0.05).max(1.0);
        Panel {
            lo: lo - pad,
            hi: hi + pad,
            top,
            h,
        }
    }

    fn y(&self, v: f64) -> f64 {
        self.top + (self.hi - v) / (self.hi - self.lo) * self.h
    }

    fn frame(&self, out: &mut String, name: &str, left: f64, w: f64) {
        let _ = write!(
            out,
            r#"<rect class="frame" x="{left}" y="{:.1}" width="{w:.1}" height="{:.1}"/>"#,
            self.top, self.h
        );
        for v in nice(self.lo, self.hi, 5) {
            let y = self.y(v);
            let _ = write!(
                out,
                r#"<line class="grid" x1="{left}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{v}</text>"#,
                left + w,
                left - 4.0,
                y + 4.0
            );
        }
        let _ = write!(
            out,
            r#"<text class="axis-name" x="4" y="{:.1}">{}</text>"#,
            self.top + 10.0,
            esc(name)
        );
    }
}

/// Round values between `lo` and `hi`, at most `n` of them (steps of 1, 2 or 5 times
/// a power of ten).
fn nice(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return Vec::new();
    }
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| (hi / s).floor() - (lo / s).ceil() + 1.0 <= n as f64)
        .unwrap_or(10.0 * mag)
        .max(1e-9);
    let mut v = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while v <= hi && out.len() < 50 {
        // Rounded to the step's own digits, so 0.30000000000000004 shows as 0.3.
        out.push((v / step).round() * step);
        v += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(
            nice(1412.0, 1688.0, 5),
            vec![1450.0, 1500.0, 1550.0, 1600.0, 1650.0]
        );
        // Steps of 2 would make six marks (0, 2, … 10): 5 makes three.
        assert_eq!(nice(0.0, 10.0, 5), vec![0.0, 5.0, 10.0]);
        assert!(nice(3.0, 3.0, 5).is_empty());
        assert!(nice(f64::NAN, 3.0, 5).is_empty());
    }

    #[test]
    fn escaped_text_is_never_markup() {
        assert_eq!(esc("<script>&\""), "&lt;script&gt;&amp;&quot;");
    }
}
