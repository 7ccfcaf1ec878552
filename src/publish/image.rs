//! The share image: the top of the standings drawn as SVG and rendered to PNG by resvg, in
//! pure Rust, with the font egui already ships (Ubuntu Light) embedded — no system font is
//! looked up, so the picture is the same on every machine.

use super::svg::esc;
use super::table::Line;
use crate::chart::markers::tier_rgb;
use resvg::{tiny_skia, usvg};
use std::fmt::Write;

/// Lines the image shows at most (a picture for a group chat, not the whole ladder).
pub const MAX_LINES: usize = 25;
const WIDTH: u32 = 1080;
const ROW: u32 = 44;
const HEAD: u32 = 120;

/// The image as SVG: `title`, the `when` line, and up to [`MAX_LINES`] of `lines` (place,
/// tier colour, name, score, W-D-L). Names are given as the page shows them.
pub fn standings_svg(
    title: &str,
    when: &str,
    score_name: &str,
    lines: &[(String, &Line)],
) -> String {
    let shown = lines.len().min(MAX_LINES);
    let height = HEAD + ROW * shown as u32 + 40;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="Ubuntu"><rect width="100%" height="100%" fill="white"/><text x="40" y="62" font-size="40" font-weight="bold" fill="rgb(29,29,31)">{}</text><text x="40" y="98" font-size="22" fill="rgb(95,99,104)">{}</text>"#,
        esc(title),
        esc(when)
    );
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="18" fill="rgb(95,99,104)" text-anchor="end">{}</text><text x="{}" y="{}" font-size="18" fill="rgb(95,99,104)" text-anchor="end">W-D-L</text>"#,
        WIDTH - 220,
        HEAD - 4,
        esc(score_name),
        WIDTH - 40,
        HEAD - 4
    );
    for (k, (name, l)) in lines.iter().take(shown).enumerate() {
        let y = HEAD + ROW * k as u32;
        if k % 2 == 0 {
            let _ = write!(
                s,
                r#"<rect x="24" y="{y}" width="{}" height="{ROW}" fill="rgb(245,246,248)"/>"#,
                WIDTH - 48
            );
        }
        if let Some(t) = l.tier {
            let [r, g, b] = tier_rgb(t);
            let _ = write!(
                s,
                r#"<rect x="24" y="{y}" width="8" height="{ROW}" fill="rgb({r},{g},{b})"/>"#
            );
        }
        let base = y + ROW - 14;
        let place = l.place.map_or("—".to_string(), |p| p.to_string());
        let tier = l.tier.map_or(String::new(), |t| t.name().to_string());
        let _ = write!(
            s,
            r#"<text x="96" y="{base}" font-size="24" text-anchor="end" fill="rgb(95,99,104)">{}</text><text x="120" y="{base}" font-size="24" fill="rgb(29,29,31)">{}</text><text x="{}" y="{base}" font-size="18" fill="rgb(95,99,104)" text-anchor="end">{}</text><text x="{}" y="{base}" font-size="24" text-anchor="end" fill="rgb(29,29,31)">{}</text><text x="{}" y="{base}" font-size="22" text-anchor="end" fill="rgb(95,99,104)">{}</text>"#,
            esc(&place),
            esc(&clip(name, 34)),
            WIDTH - 380,
            esc(&tier),
            WIDTH - 220,
            esc(&l.score),
            WIDTH - 40,
            esc(&l.wdl())
        );
    }
    if lines.len() > shown {
        let _ = write!(
            s,
            r#"<text x="40" y="{}" font-size="18" fill="rgb(95,99,104)">… and {} more</text>"#,
            HEAD + ROW * shown as u32 + 28,
            lines.len() - shown
        );
    }
    s.push_str("</svg>");
    s
}

/// `text` cut to `n` characters with an ellipsis.
fn clip(text: &str, n: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(n).collect();
    if chars.next().is_some() {
        head + "…"
    } else {
        head
    }
}

/// The SVG rendered to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut opt = usvg::Options {
        font_family: "Ubuntu".into(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut()
        .load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    opt.fontdb_mut()
        .load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the image has no size".to_string())?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_long_names_with_an_ellipsis() {
        assert_eq!(clip("Ann", 5), "Ann");
        assert_eq!(clip("Annabelle", 4), "Anna…");
    }
}
