//! The share image: the top of the standings drawn as SVG and rendered to PNG by resvg, in
//! pure Rust, with the fonts egui already ships (Ubuntu Light, Hack, Noto Emoji) embedded, so
//! the picture is the same on every machine. Only when a name has a letter none of them has
//! (Chinese, Arabic, Devanagari …) are the system's fonts looked up for it, as a browser
//! would; a machine with no font for it draws it as the font's blank.

use super::svg::esc;
use super::table::Line;
use resvg::{tiny_skia, usvg};
use rungs_chart::markers::tier_rgb;
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

/// The fonts embedded in the image, in the order a letter is looked for in them.
const EMBEDDED: [&[u8]; 3] = [
    epaint_default_fonts::UBUNTU_LIGHT,
    epaint_default_fonts::HACK_REGULAR,
    epaint_default_fonts::NOTO_EMOJI_REGULAR,
];

/// Whether `text` has a letter none of the embedded fonts has.
fn needs_system_fonts(text: &str) -> bool {
    let faces: Vec<ttf_parser::Face> = EMBEDDED
        .iter()
        .filter_map(|data| ttf_parser::Face::parse(data, 0).ok())
        .collect();
    text.chars()
        .filter(|c| !c.is_ascii_graphic() && !c.is_whitespace())
        .any(|c| !faces.iter().any(|f| f.glyph_index(c).is_some()))
}

/// Why an image could not be drawn: a fault of the SVG rungs made, never of the ladder.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("{0}")]
    Svg(#[from] usvg::Error),
    #[error("the image has no size")]
    NoSize,
    #[error("{0}")]
    Png(String),
}

/// The SVG rendered to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, ImageError> {
    let mut opt = usvg::Options {
        font_family: "Ubuntu".into(),
        ..usvg::Options::default()
    };
    for data in EMBEDDED {
        opt.fontdb_mut().load_font_data(data.to_vec());
    }
    if needs_system_fonts(svg) {
        opt.fontdb_mut().load_system_fonts();
    }
    let tree = usvg::Tree::from_str(svg, &opt)?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or(ImageError::NoSize)?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| ImageError::Png(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Latin, Greek and Cyrillic names and the image's own marks (— · … ±) are in the
    /// shipped fonts; Chinese, Arabic and Devanagari letters are not.
    #[test]
    fn only_letters_the_shipped_fonts_lack_send_for_the_system_fonts() {
        assert!(!needs_system_fonts(
            "José Ørsted · Дмитрий · Σωκράτης — 1 … ± W-D-L"
        ));
        assert!(needs_system_fonts("Ann 王芳"));
        assert!(needs_system_fonts("محمد"));
        assert!(needs_system_fonts("अनिल"));
    }

    fn dark_pixels(svg: &str) -> usize {
        let png = png(svg).unwrap();
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf[..info.buffer_size()]
            .chunks(4)
            .filter(|p| p[0] < 120 && p[3] > 0)
            .count()
    }

    /// A Chinese name is drawn with a system font that has it, where this machine has one
    /// (Debian's fonts-droid-fallback or fonts-noto-cjk); where none has, the test says so.
    #[test]
    fn a_chinese_name_is_drawn_in_a_system_font() {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let has = db.faces().any(|f| {
            db.with_face_data(f.id, |data, i| {
                ttf_parser::Face::parse(data, i)
                    .ok()
                    .and_then(|face| face.glyph_index('王'))
                    .is_some()
            })
            .unwrap_or(false)
        });
        let svg = |name: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="100%" height="100%" fill="white"/><text x="10" y="40" font-size="32" fill="black">{name}</text></svg>"#
            )
        };
        assert_eq!(dark_pixels(&svg("")), 0);
        // Latin from the shipped font, everywhere.
        assert!(dark_pixels(&svg("Ann")) > 50);
        if !has {
            eprintln!("no system font has 王: the fallback is not exercised on this machine");
            return;
        }
        // A missing letter is drawn as the font's box, the same for every letter: two
        // different names drawn alike would be boxes.
        assert!(dark_pixels(&svg("王芳")) > 50);
        let (a, b) = (png(&svg("王芳")).unwrap(), png(&svg("李明")).unwrap());
        assert!(a != b, "two Chinese names drawn alike: boxes, not letters");
    }

    #[test]
    fn clip_cuts_long_names_with_an_ellipsis() {
        assert_eq!(clip("Ann", 5), "Ann");
        assert_eq!(clip("Annabelle", 4), "Anna…");
    }
}
