//! Contact collection for one sphere: the leaf that pushback, the wedge escape and the ground
//! phase's looks around the feet share.

use super::StepContext;
use crate::math::{Point3, Real};
use crate::world::sphere_box;
use crate::world::{SurfacePoint, WorldQueries, measure};

/// A sphere where a phase measures it: its centre (world, m), where the centre started its
/// move (world, m; the centre itself for a sphere at rest; see
/// [`crate::backend::Primitive::holds`]) and its radius (m).
#[derive(Clone, Copy, Debug)]
pub(super) struct SphereAt {
    pub(super) centre: Point3,
    pub(super) from: Point3,
    pub(super) radius: Real,
}

impl SphereAt {
    /// Fills `out` with every primitive this sphere penetrates by more than `tol`, with its
    /// closest point, deepest first (ties by index, so the order is deterministic). Returns
    /// the deepest penetration (m, >= 0) of any primitive that holds the sphere, `tol` or not.
    // NOTE: always inlined: called out of line from its three callers, it cost the planet
    // step bench about 5 %.
    #[inline(always)]
    pub(super) fn contacts(
        &self,
        ctx: &StepContext<'_>,
        tol: Real,
        out: &mut Vec<(usize, SurfacePoint)>,
    ) -> Real {
        let (centre, from, radius) = (&self.centre, &self.from, self.radius);
        out.clear();
        let mut deepest: Real = 0.0;
        let bounds = sphere_box(centre, radius);
        crate::world::each_overlapping(ctx.prims, &bounds, |k| {
            let held = measure::held_contact(ctx.world, &ctx.prims[k], centre, radius, from);
            if let Some(sp) = held {
                let depth = radius - sp.distance;
                deepest = deepest.max(depth);
                if depth > tol {
                    out.push((k, sp));
                }
            }
        });
        if out.len() > 1 {
            out.sort_by(|a, b| a.1.distance.total_cmp(&b.1.distance).then(a.0.cmp(&b.0)));
        }
        deepest
    }
}

/// Every primitive's closest point within `reach` (m) of `centre` (world) that holds a sphere
/// at rest there (see [`crate::backend::Primitive::holds`]), with the primitive's index, in primitive
/// order. Primitives whose box lies further than `reach` are skipped before any query.
pub(super) fn surface_near<'c>(
    ctx: &'c StepContext<'_>,
    centre: Point3,
    reach: Real,
) -> impl Iterator<Item = (usize, SurfacePoint)> + 'c {
    let bounds = sphere_box(&centre, reach);
    ctx.prims
        .iter()
        .enumerate()
        .filter(move |(_, prim)| crate::world::boxes_overlap(&prim.aabb, &bounds))
        .filter_map(move |(k, prim)| {
            ctx.world
                .closest_primitive(prim, &centre, reach)
                .filter(|sp| prim.holds(sp, &centre))
                .map(|sp| (k, sp))
        })
}
