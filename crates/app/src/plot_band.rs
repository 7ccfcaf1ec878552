//! A shaded band between two curves (a rating's uncertainty) as an egui_plot item.
//!
//! `Polygon` fills assume a convex outline, which a band along a history is not; this item
//! draws the band as one triangle mesh from [`rungs_chart::band_mesh`] (two triangles per
//! step between consecutive x), so any shape fills exactly. egui_plot's own `FilledArea`
//! does much the same but panics on curves of different lengths and draws whatever it is
//! given; this one takes the band straight from [`rungs_chart::Band`] and cleans it first.

use eframe::egui::{self, Color32, Mesh, Shape, Stroke};
use egui_plot::{PlotBounds, PlotGeometry, PlotItem, PlotItemBase, PlotPoint, PlotTransform};
use rungs_chart::{self as chart, BandMesh};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// How opaque the fill is, normally and while its legend entry is hovered.
const FILL_ALPHA: f32 = 0.18;
const HIGHLIGHT_ALPHA: f32 = 0.32;

/// A filled band with a legend entry.
pub struct BandItem {
    base: PlotItemBase,
    mesh: Arc<BandMesh>,
    colour: Color32,
    fill_alpha: f32,
    edge: Option<Stroke>,
}

impl BandItem {
    /// The band drawn by `mesh` (built once by [`band_mesh`] and kept while the view
    /// stays), named `name` in the legend (an empty name: no legend entry). The plot
    /// identifies items by name, so two bands in one plot need different names.
    pub fn from_mesh(name: impl Into<String>, mesh: Arc<BandMesh>) -> BandItem {
        BandItem {
            base: PlotItemBase::new(name.into()),
            mesh,
            colour: Color32::from_rgb(100, 150, 230),
            fill_alpha: FILL_ALPHA,
            edge: None,
        }
    }

    /// The band's colour: the legend shows it as is, the fill at `fill_alpha`.
    pub fn color(mut self, colour: impl Into<Color32>) -> BandItem {
        self.colour = colour.into();
        self
    }

    /// How opaque the fill is, 0 to 1 (default 0.18).
    pub fn fill_alpha(mut self, alpha: f32) -> BandItem {
        if alpha.is_finite() {
            self.fill_alpha = alpha.clamp(0.0, 1.0);
        }
        self
    }

    /// Also draw both edges with `stroke`.
    pub fn edges(mut self, stroke: impl Into<Stroke>) -> BandItem {
        self.edge = Some(stroke.into());
        self
    }

    fn edge_line(&self, transform: &PlotTransform, offset: usize) -> Vec<egui::Pos2> {
        self.mesh
            .vertices
            .iter()
            .skip(offset)
            .step_by(2)
            .map(|v| transform.position_from_point(&PlotPoint::new(v[0], v[1])))
            .collect()
    }
}

/// The mesh of a chart band as it comes from [`rungs_chart::Segment`]: a player's figures
/// hold from one of their events to the next, so the band does too, and changes at the
/// event — a reset or a long gap is a step, not a wedge filled across the gap.
pub fn band_mesh(band: &chart::Band, end: f64) -> BandMesh {
    // Held on to `end` as the curve over it is: the band stopped at the player's last
    // match while their curve ran on to now.
    chart::band_mesh(&stepped_to(&band.lower, end), &stepped_to(&band.upper, end))
}

/// `points` as steps: each value holds until the next point's x.
pub fn stepped(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for pair in points.windows(2) {
        out.push(pair[0]);
        if pair[1][0] > pair[0][0] {
            out.push([pair[1][0], pair[0][1]]);
        }
    }
    out.extend(points.last());
    out
}

/// [`stepped`], the last value held on to `end` where that lies beyond it: a curve whose
/// last event moved it ended in a bare vertical stroke, read as a spike rather than as the
/// value the player now stands at.
pub fn stepped_to(points: &[[f64; 2]], end: f64) -> Vec<[f64; 2]> {
    let mut out = stepped(points);
    if let Some(&[x, y]) = points.last()
        && end > x
    {
        out.push([end, y]);
    }
    out
}

impl PlotItem for BandItem {
    fn shapes(&self, _ui: &egui::Ui, transform: &PlotTransform, shapes: &mut Vec<Shape>) {
        if self.mesh.triangles.is_empty() {
            return;
        }
        let alpha = if self.highlighted() {
            HIGHLIGHT_ALPHA.max(self.fill_alpha)
        } else {
            self.fill_alpha
        };
        let fill = self.colour.gamma_multiply(alpha);
        let mut mesh = Mesh::default();
        mesh.reserve_vertices(self.mesh.vertices.len());
        mesh.reserve_triangles(self.mesh.triangles.len());
        for v in &self.mesh.vertices {
            let pos = transform.position_from_point(&PlotPoint::new(v[0], v[1]));
            mesh.colored_vertex(pos, fill);
        }
        for [a, b, c] in &self.mesh.triangles {
            mesh.add_triangle(*a, *b, *c);
        }
        shapes.push(Shape::Mesh(Arc::new(mesh)));
        if let Some(stroke) = self.edge {
            shapes.push(Shape::line(self.edge_line(transform, 0), stroke));
            shapes.push(Shape::line(self.edge_line(transform, 1), stroke));
        }
    }

    fn initialize(&mut self, _x_range: RangeInclusive<f64>) {}

    fn color(&self) -> Color32 {
        self.colour
    }

    // The band is context for the line drawn over it; hovering it would only compete with
    // the line's read-out.
    fn geometry(&self) -> PlotGeometry<'_> {
        PlotGeometry::None
    }

    fn bounds(&self) -> PlotBounds {
        let mut bounds = PlotBounds::NOTHING;
        for v in &self.mesh.vertices {
            bounds.extend_with(&PlotPoint::new(v[0], v[1]));
        }
        bounds
    }

    fn base(&self) -> &PlotItemBase {
        &self.base
    }

    fn base_mut(&mut self) -> &mut PlotItemBase {
        &mut self.base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_both_edges() {
        let lower = [[0.0, 1.0], [1.0, 2.0], [2.0, 0.5]];
        let upper = [[0.0, 3.0], [1.0, 5.0], [2.0, 1.5]];
        let item = BandItem::from_mesh("band", Arc::new(chart::band_mesh(&lower, &upper)));
        let b = item.bounds();
        assert_eq!((b.min(), b.max()), ([0.0, 0.5], [2.0, 5.0]));
        assert_eq!(item.mesh.triangles.len(), 4);
        assert_eq!(item.name(), "band");
    }

    #[test]
    fn a_curve_ends_level_at_its_last_value_not_in_a_stub() {
        let points = [[0.0, 1500.0], [10.0, 1520.0]];
        assert_eq!(
            stepped_to(&points, 12.0),
            vec![
                [0.0, 1500.0],
                [10.0, 1500.0],
                [10.0, 1520.0],
                [12.0, 1520.0]
            ]
        );
        // Nothing past the end asked for.
        assert_eq!(stepped_to(&points, 10.0), stepped(&points));
    }

    #[test]
    fn a_band_holds_until_the_next_event_and_steps_there() {
        // A reset at x = 100 after a last match at x = 0: the band holds 10..30 up to the
        // reset, then is 40..60 — no trapezoid filled across the gap.
        let lower = [[0.0, 10.0], [100.0, 40.0]];
        let upper = [[0.0, 30.0], [100.0, 60.0]];
        assert_eq!(
            stepped(&lower),
            vec![[0.0, 10.0], [100.0, 10.0], [100.0, 40.0]]
        );
        let item = BandItem::from_mesh(
            "band",
            Arc::new(band_mesh(
                &chart::Band {
                    lower: lower.to_vec(),
                    upper: upper.to_vec(),
                },
                f64::NEG_INFINITY,
            )),
        );
        // The gap's quad is the rectangle 10..30, then a zero-width step at x = 100.
        assert_eq!(
            item.mesh.vertices,
            vec![
                [0.0, 30.0],
                [0.0, 10.0],
                [100.0, 30.0],
                [100.0, 10.0],
                [100.0, 60.0],
                [100.0, 40.0]
            ]
        );
    }

    /// Held on to now (x = 12) as the curve over it is, the band ends level with it at
    /// 10..30 rather than at the last match (x = 10).
    #[test]
    fn a_band_holds_to_where_its_curve_ends() {
        let band = chart::Band {
            lower: vec![[0.0, 5.0], [10.0, 10.0]],
            upper: vec![[0.0, 25.0], [10.0, 30.0]],
        };
        let item = BandItem::from_mesh("band", Arc::new(band_mesh(&band, 12.0)));
        let b = item.bounds();
        assert_eq!((b.min(), b.max()), ([0.0, 5.0], [12.0, 30.0]));
        assert_eq!(
            item.mesh.vertices[item.mesh.vertices.len() - 2..],
            [[12.0, 30.0], [12.0, 10.0]]
        );
    }

    #[test]
    fn an_empty_band_has_no_bounds_and_draws_nothing() {
        let item = BandItem::from_mesh("", Arc::new(chart::band_mesh(&[], &[])));
        assert!(!item.bounds().is_valid());
        assert!(item.mesh.triangles.is_empty());
    }
}
