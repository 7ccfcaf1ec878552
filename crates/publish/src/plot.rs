//! A standalone line plot as SVG (and PNG through [`crate::image::png`]): the simulation's
//! plots as Simulate exports them. Unlike the published pages' SVG, which a stylesheet
//! dresses, every colour and font is written on the element, so the file reads the same in
//! any viewer. Only numbers and escaped words go into the markup.

use crate::svg::esc;
use rungs_chart::simulated::{Curve, SimPlot};
use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 130.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 48.0;
const FONT: &str = r#"font-family="Ubuntu, sans-serif" font-size="12""#;

/// How the points of a curve are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    /// Straight lines from point to point.
    Lines,
    /// A step: each value holds until the next point's x (a count that only rises).
    Steps,
}

/// About five round tick values across [lo, hi] (1, 2, 2.5 or 5 times a power of ten apart).
pub fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    // 2.5 only from 25 up: weeks and match counts read in whole numbers.
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .filter(|m| *m != 2.5 || power >= 10.0)
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

fn label(v: f64) -> String {
    let v = if v.abs() < 1e-9 { 0.0 } else { v };
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The plot of `curves` under `title`, its axes named `x_label` and `y_label`, a legend on
/// the right; the y range takes in 0 and every point. Non-finite points are left out.
pub fn lines(title: &str, x_label: &str, y_label: &str, curves: &[Curve], join: Join) -> String {
    let finite = |p: &&[f64; 2]| p[0].is_finite() && p[1].is_finite();
    let all: Vec<[f64; 2]> = curves
        .iter()
        .flat_map(|c| c.points.iter().filter(finite).copied())
        .collect();
    let (mut x0, mut x1) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p[0]), b.max(p[0]))
        });
    let (mut y0, mut y1) = all
        .iter()
        .fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p[1]), b.max(p[1])));
    if !(x0.is_finite() && x1.is_finite()) {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 <= x0 {
        (x0, x1) = (x0 - 1.0, x1 + 1.0);
    }
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let pad = (y1 - y0) * 0.05;
    (y0, y1) = (if y0 < 0.0 { y0 - pad } else { y0 }, y1 + pad);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
    let sy = |y: f64| TOP + (y1 - y) / (y1 - y0) * plot_h;
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"><title>{t}</title><rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/><text x="{LEFT}" y="22" font-family="Ubuntu, sans-serif" font-size="14" font-weight="bold" fill="#202020">{t}</text>"##,
        t = esc(title)
    );
    for y in ticks(y0, y1) {
        let py = sy(y);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{py:.1}" y2="{py:.1}" stroke="#e0e0e0"/><text x="{:.1}" y="{:.1}" {FONT} text-anchor="end" fill="#404040">{}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            py + 4.0,
            label(y)
        );
    }
    for x in ticks(x0, x1) {
        let px = sx(x);
        let _ = write!(
            out,
            r##"<line x1="{px:.1}" x2="{px:.1}" y1="{TOP}" y2="{:.1}" stroke="#eeeeee"/><text x="{px:.1}" y="{:.1}" {FONT} text-anchor="middle" fill="#404040">{}</text>"##,
            TOP + plot_h,
            TOP + plot_h + 16.0,
            label(x)
        );
    }
    let _ = write!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#909090"/><text x="{:.1}" y="{:.1}" {FONT} text-anchor="middle" fill="#202020">{}</text><text transform="translate(16 {:.1}) rotate(-90)" {FONT} text-anchor="middle" fill="#202020">{}</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 10.0,
        esc(x_label),
        TOP + plot_h / 2.0,
        esc(y_label)
    );
    if y0 < 0.0 && y1 > 0.0 {
        let py = sy(0.0);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{py:.1}" y2="{py:.1}" stroke="#909090"/>"##,
            LEFT + plot_w
        );
    }
    for (i, c) in curves.iter().enumerate() {
        let [r, g, b] = c.rgb;
        let mut d = String::new();
        let mut last: Option<f64> = None;
        for p in c.points.iter().filter(finite) {
            if let (Join::Steps, Some(y)) = (join, last) {
                let _ = write!(d, "{:.1},{:.1} ", sx(p[0]), sy(y));
            }
            let _ = write!(d, "{:.1},{:.1} ", sx(p[0]), sy(p[1]));
            last = Some(p[1]);
        }
        let _ = write!(
            out,
            r#"<polyline fill="none" stroke="rgb({r},{g},{b})" stroke-width="2" points="{}"><title>{}</title></polyline>"#,
            d.trim_end(),
            esc(&c.name)
        );
        let ly = TOP + 8.0 + 18.0 * i as f64;
        let lx = LEFT + plot_w + 12.0;
        let _ = write!(
            out,
            r##"<line x1="{lx:.1}" x2="{:.1}" y1="{ly:.1}" y2="{ly:.1}" stroke="rgb({r},{g},{b})" stroke-width="3"/><text x="{:.1}" y="{:.1}" {FONT} fill="#202020">{}</text>"##,
            lx + 18.0,
            lx + 24.0,
            ly + 4.0,
            esc(&c.name)
        );
    }
    out.push_str("</svg>");
    out
}

/// Simulate's plot `plot` of `curves` (its [`SimPlot::curves`]) as SVG markup.
pub fn simulation(plot: SimPlot, curves: &[Curve]) -> String {
    let join = if plot.steps() {
        Join::Steps
    } else {
        Join::Lines
    };
    lines(plot.title(), plot.x_label(), plot.y_label(), curves, join)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first round step at least a fifth of the range: 0–100 by 20; −32–79 (a fifth is
    /// 22.2) by 25; −3.2–7.9 by 5, not 2.5 (weeks are whole); 0–1 by 0.2.
    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 100.0), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(-32.0, 79.0), vec![-25.0, 0.0, 25.0, 50.0, 75.0]);
        assert_eq!(ticks(-3.2, 7.9), vec![0.0, 5.0]);
        assert_eq!(ticks(0.0, 1.0).len(), 6);
        assert_eq!(ticks(5.0, 5.0), vec![5.0]);
        assert_eq!(ticks(f64::NAN, 1.0).len(), 1);
    }

    /// The markup names each curve once in the legend and once on its line, escapes names,
    /// and renders to a PNG of the drawing's size.
    #[test]
    fn a_plot_renders_with_its_legend() {
        let curves = vec![
            Curve {
                name: "Trainee I".into(),
                rgb: [120, 170, 110],
                points: vec![[1.0, 10.0], [3.0, 40.0], [f64::NAN, 2.0]],
            },
            Curve {
                name: "<b>".into(),
                rgb: [200, 90, 200],
                points: vec![[2.0, 5.0]],
            },
        ];
        let svg = lines("Climb", "matches", "% of players", &curves, Join::Steps);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches(">Trainee I<").count(), 2);
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert!(!svg.contains("NaN"));
        // The step: (1, 10) then (3, 10) before rising to (3, 40).
        let png = crate::image::png(&svg).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        // The header's width and height (bytes 16–23): the drawing's 720 × 400.
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        assert_eq!((be(16), be(20)), (720, 400));
    }
}
