//! Saving part of a screenshot as a PNG: the History screen's plots, cut out of egui's
//! screenshot of the whole window.

use eframe::egui::{ColorImage, Rect};
use std::path::Path;

/// Writes the `rect` (in points) of `shot` (in pixels) to `path` as an RGBA PNG.
pub fn save_region(
    shot: &ColorImage,
    rect: Rect,
    pixels_per_point: f32,
    path: &Path,
) -> Result<(), String> {
    // Clamped to the image: egui's own region() asserts instead.
    let ppp = if pixels_per_point.is_finite() && pixels_per_point > 0.0 {
        pixels_per_point
    } else {
        1.0
    };
    let [iw, ih] = shot.size;
    let px = |v: f32, limit: usize| ((v * ppp).max(0.0) as usize).min(limit);
    let (x0, x1) = (px(rect.min.x, iw), px(rect.max.x, iw));
    let (y0, y1) = (px(rect.min.y, ih), px(rect.max.y, ih));
    if x1 <= x0 || y1 <= y0 {
        return Err("the plot is not on screen; nothing to save".into());
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let region = shot.region_by_pixels([x0, y0], [w, h]);
    let name = path.display().to_string();
    let file = std::fs::File::create(path).map_err(|e| format!("{name}: {e}"))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let bytes: Vec<u8> = region
        .pixels
        .iter()
        .flat_map(|c| c.to_srgba_unmultiplied())
        .collect();
    encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&bytes))
        .map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui::{Color32, pos2};

    /// The cut-out has the rectangle's pixels (scaled by pixels per point) and reads back as
    /// the same colours; a rectangle off the image is clamped, not a panic.
    #[test]
    fn a_region_round_trips_through_png() {
        let (w, h) = (40usize, 30usize);
        let pixels = (0..w * h)
            .map(|i| Color32::from_rgb((i % w) as u8 * 5, (i / w) as u8 * 7, 200))
            .collect();
        let shot = ColorImage::new([w, h], pixels);
        let tmp = rungs_testkit::TempDir::new("png");
        let dir = tmp.path();
        let path = dir.join("plot.png");
        let rect = Rect::from_min_max(pos2(5.0, 2.0), pos2(15.0, 12.0));
        save_region(&shot, rect, 2.0, &path).unwrap();
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (20, 20));
        // Pixel (0, 0) of the cut-out is pixel (10, 4) of the shot.
        assert_eq!(&buf[..4], &[50, 28, 200, 255]);
        let off = Rect::from_min_max(pos2(30.0, 20.0), pos2(90.0, 90.0));
        save_region(&shot, off, 1.0, &path).unwrap();
        let far = Rect::from_min_max(pos2(100.0, 100.0), pos2(120.0, 120.0));
        assert!(save_region(&shot, far, 1.0, &path).is_err());
    }
}
