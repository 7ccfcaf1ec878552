//! The area between two curves as triangles, for drawing a band as one mesh.
//!
//! A polygon fill assumes a convex outline, which a band along a history is not. Cut at
//! every x of the curves, though, the band is a row of trapezoids with vertical sides, and
//! each is convex when its upper edge is at or above its lower one: two triangles each, no
//! overlaps, no gaps.

/// The band as a mesh: two vertices per x (upper at `2i`, lower at `2i + 1`) and two
/// triangles per step between consecutive x.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BandMesh {
    pub vertices: Vec<[f64; 2]>,
    pub triangles: Vec<[u32; 3]>,
}

impl BandMesh {
    /// Step `i`'s trapezoid: upper i, lower i, lower i+1, upper i+1 (a simple outline).
    pub fn quad(&self, i: usize) -> Option<[[f64; 2]; 4]> {
        let v = |k: usize| self.vertices.get(k).copied();
        Some([v(2 * i)?, v(2 * i + 1)?, v(2 * i + 3)?, v(2 * i + 2)?])
    }

    /// Steps (trapezoids) in the band.
    pub fn quads(&self) -> usize {
        (self.vertices.len() / 2).saturating_sub(1)
    }
}

/// The mesh of the band between `lower` and `upper` (`[x, y]` at the same x, in x order).
/// Pairs are read up to the shorter curve; a pair with a coordinate that is not finite is
/// left out (the band then bridges the gap); the x is the lower curve's. Where the lower
/// edge lies above the upper (bad data only), both edges take their midpoint there, so a
/// trapezoid never twists into a bow tie.
pub fn band_mesh(lower: &[[f64; 2]], upper: &[[f64; 2]]) -> BandMesh {
    let mut vertices = Vec::with_capacity(2 * lower.len().min(upper.len()));
    for (lo, hi) in lower.iter().zip(upper) {
        let (x, mut a, mut b) = (lo[0], lo[1], hi[1]);
        if !(x.is_finite() && a.is_finite() && b.is_finite()) {
            continue;
        }
        if a > b {
            let mid = a / 2.0 + b / 2.0;
            (a, b) = (mid, mid);
        }
        vertices.push([x, b]);
        vertices.push([x, a]);
    }
    let steps = (vertices.len() / 2).saturating_sub(1);
    let mut triangles = Vec::with_capacity(2 * steps);
    for i in 0..steps {
        let Ok(top) = u32::try_from(2 * i + 3) else {
            break;
        };
        let u = top - 3;
        // upper i, lower i, upper i+1; then lower i, lower i+1, upper i+1.
        triangles.push([u, u + 1, u + 2]);
        triangles.push([u + 1, u + 3, u + 2]);
    }
    BandMesh {
        vertices,
        triangles,
    }
}
