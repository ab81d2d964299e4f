//! Every pair of overlapping boxes in one set, found in one pass without a hash: the broad
//! phase of the separation pass, which looks at all characters at once after they moved.
//!
//! Boxes are filed by the cell of their lowest corner in a grid whose cell edge along each
//! axis exceeds every "small" box's extent along it (standing characters get cells as slim
//! as they are), so two overlapping small boxes lie in the same or adjacent cells. The
//! filled cells, sorted, are joined with themselves shifted by each of the 13 neighbour
//! offsets that come after the cell in that order (a merge join, two pointers moving
//! forwards, one pass per row of three neighbours along z), so each pair of cells, and each
//! pair of boxes, is looked at once. Boxes wider than twice the mean width are "large":
//! each is tested against every other box, so one huge box cannot make the cells huge.
//!
//! A few hundred boxes or fewer are swept instead: sorted by their lowest x, each tested
//! against those that start before it ends along x. For a crowd that small the grid's
//! neighbour rows cost more than the pairs they find.

use super::{Pool, jobs};
use crate::world::geometry::boxes_overlap;
use crate::{Real, Vec3};
use parry3d::bounding_volume::Aabb;
use std::ops::{Range, RangeInclusive};

/// Cell edge over the small boxes' widest extent along its axis: a margin so that rounding
/// in `corner / edge` (made in `f64`) can never put two overlapping small boxes two cells
/// apart.
const EDGE_MARGIN: f64 = 1.0625;

/// The 13 neighbours that come after a cell in lexicographic order, as rows along z: cell
/// offsets `(dx, dy)` and the range of `dz`. With the cell itself they visit each adjacent
/// pair of cells once, and a row's cells lie next to each other in sorted order, so one
/// search finds all of them.
const FORWARD_ROWS: [(i64, i64, RangeInclusive<i64>); 5] = [
    (0, 0, 1..=1),
    (0, 1, -1..=1),
    (1, -1, -1..=1),
    (1, 0, -1..=1),
    (1, 1, -1..=1),
];

/// Bits of one axis's cell index in a [`Key`].
const AXIS_BITS: u32 = 21;

/// Cell indices per axis: `0..AXIS_CELLS`, the cell of the origin's corner in the middle.
/// A box beyond the last cell (about a million box widths from the origin) is filed in it:
/// clamping keeps two overlapping boxes in the same or adjacent cells, so only the speed of
/// such far-flung crowds suffers, never the pairs.
const AXIS_CELLS: i64 = 1 << AXIS_BITS;

/// A cell's x, y and z indices packed high to low: keys sort as cells do, lexicographically.
type Key = u64;

/// The key of cell `[x, y, z]` (each in `0..AXIS_CELLS`).
fn key([x, y, z]: [i64; 3]) -> Key {
    ((x as Key) << (2 * AXIS_BITS)) | ((y as Key) << AXIS_BITS) | z as Key
}

/// The cell indices of `key`.
fn cell(key: Key) -> [i64; 3] {
    let mask = (AXIS_CELLS - 1) as Key;
    [2 * AXIS_BITS, AXIS_BITS, 0].map(|shift| ((key >> shift) & mask) as i64)
}

/// The key of the cell of sides `edge` (m, per axis) that holds the lowest corner of `b`
/// (finite).
fn key_of(b: &Aabb, edge: &[f64; 3]) -> Key {
    let index = |v: Real, edge: f64| {
        let scaled = f64::from(v) / edge;
        // The floor, without a call to libm: truncation, one down for negative fractions.
        // Beyond `i64`'s range `as` saturates, which the clamp below absorbs.
        let whole = scaled as i64;
        let floor = whole.saturating_sub(i64::from((whole as f64) > scaled));
        let half = AXIS_CELLS / 2;
        floor.clamp(-half, half - 1) + half
    };
    key([
        index(b.mins.x, edge[0]),
        index(b.mins.y, edge[1]),
        index(b.mins.z, edge[2]),
    ])
}

/// Widest width (m) of `aabb` along any axis.
fn width(aabb: &Aabb) -> Real {
    (aabb.maxs - aabb.mins).max()
}

/// Every pair `(i, j)`, `i < j`, of indices into `boxes` (world, m) whose boxes overlap or
/// touch, once each, in no set order. Boxes holding NaN overlap nothing. Up to 256 boxes are
/// swept along x on the calling thread; more are filed in the grid, and on a parallel `pool`
/// the filing, the sort and the join run on it, the join in chunks of 64 cells. The pairs
/// are the same either way.
pub fn overlapping_pairs(boxes: &[Aabb], pool: &impl Pool) -> Vec<(u32, u32)> {
    if boxes.len() <= SWEEP_MAX {
        swept_pairs(boxes)
    } else {
        grid_pairs(boxes, pool)
    }
}

/// Most boxes [`overlapping_pairs`] sweeps along one axis rather than filing them in its
/// grid: with a hundred characters the sweep takes a quarter of the grid's
/// instructions (the grid's 13 neighbour rows per cell cost more than the few boxes they
/// find), and with a few hundred it still tests few pairs.
const SWEEP_MAX: usize = 256;

/// [`overlapping_pairs`] by a sweep: the boxes sorted by their lowest x, each tested against
/// the ones after it that start before it ends along x.
fn swept_pairs(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    // Each box's lowest x as bits that sort as the floats do (`total_cmp`'s order), above
    // its index: one integer sort.
    let sortable = |x: Real| {
        let bits = x.to_bits();
        if bits >> 31 == 1 {
            !bits
        } else {
            bits | 1 << 31
        }
    };
    let mut order: Vec<u64> = (0..boxes.len())
        .filter(|&i| !width(&boxes[i]).is_nan())
        .map(|i| u64::from(sortable(boxes[i].mins.x)) << 32 | i as u64)
        .collect();
    order.sort_unstable();
    let index = |key: u64| key as u32;
    let mut out = Vec::new();
    for (k, &key) in order.iter().enumerate() {
        let a = (boxes[index(key) as usize], index(key));
        for &later in &order[k + 1..] {
            let b = (boxes[index(later) as usize], index(later));
            if b.0.mins.x > a.0.maxs.x {
                break;
            }
            report(&a, &b, &mut out);
        }
    }
    out
}

/// [`overlapping_pairs`] through the grid of cells.
fn grid_pairs(boxes: &[Aabb], pool: &impl Pool) -> Vec<(u32, u32)> {
    let widths: Vec<Real> = boxes.iter().map(width).collect();
    let finite = widths.iter().filter(|w| w.is_finite());
    let (sum, count) = finite.fold((0.0, 0), |(s, n), w| (s + w, n + 1));
    let small_limit = 2.0 * sum / Real::max(count as Real, 1.0);
    let small = |i: usize| widths[i] <= small_limit;
    // Each axis's cell edge covers the small boxes' widest extent along it, which is often
    // well under the limit: a crowd's tall, slim boxes get cells as slim as they are.
    let widest = (0..boxes.len())
        .filter(|&i| small(i))
        .fold(Vec3::zeros(), |w, i| {
            w.sup(&(boxes[i].maxs - boxes[i].mins))
        });
    let edge: [f64; 3] = std::array::from_fn(|axis| {
        (EDGE_MARGIN * f64::from(widest[axis])).max(f64::from(Real::MIN_POSITIVE))
    });
    // (cell, box index) of every small box, sorted by cell then index; the rest are large.
    // Two small boxes that overlap have lowest corners at most `widest` apart per axis.
    let filed = pool.map(&jobs(boxes.len(), FILE_CHUNK, pool), |range| {
        let mine = range.clone().filter(|&i| small(i));
        mine.map(|i| (key_of(&boxes[i], &edge), i as u32))
            .collect::<Vec<_>>()
    });
    let mut filed: Vec<(Key, u32)> = filed.concat();
    let large: Vec<u32> = (0..boxes.len())
        .filter(|&i| !small(i) && !widths[i].is_nan())
        .map(|i| i as u32)
        .collect();
    pool.sort_unstable(&mut filed);
    // The small boxes in filed order (so a cell's boxes are read from one stretch of memory),
    // and each filled cell with the range of them it holds.
    let sorted: Vec<(Aabb, u32)> = filed.iter().map(|&(_, i)| (boxes[i as usize], i)).collect();
    let mut cells: Vec<(Key, Range<usize>)> = Vec::new();
    for (k, (cell, _)) in filed.iter().enumerate() {
        match cells.last_mut() {
            Some((last, range)) if last == cell => range.end = k + 1,
            _ => cells.push((*cell, k..k + 1)),
        }
    }
    let grid = Filed {
        cells: &cells,
        sorted: &sorted,
    };
    let joined = pool.map(&jobs(cells.len(), CHUNK, pool), |chunk| {
        let mut out = Vec::new();
        grid.join(chunk.clone(), &mut out);
        out
    });
    let mut out: Vec<(u32, u32)> = joined.concat();
    let entry = |i: u32| (boxes[i as usize], i);
    for (n, &i) in large.iter().enumerate() {
        let a = entry(i);
        for b in &sorted {
            report(&a, b, &mut out);
        }
        for &j in &large[n + 1..] {
            report(&a, &entry(j), &mut out);
        }
    }
    out
}

/// Cells the join hands to one job of a parallel pool (a serial join takes them all at once).
const CHUNK: usize = 64;

/// Boxes one job of a parallel pool files.
const FILE_CHUNK: usize = 1024;

/// The small boxes filed by cell: each filled cell, sorted, with the range of `sorted` (boxes
/// and their indices, in cell order) it holds.
struct Filed<'a> {
    cells: &'a [(Key, Range<usize>)],
    sorted: &'a [(Aabb, u32)],
}

impl Filed<'_> {
    /// Appends to `out` the overlapping pairs of the cells in `chunk` (indices into `cells`):
    /// within each cell, and with each of the cell's forward neighbours.
    fn join(&self, chunk: Range<usize>, out: &mut Vec<(u32, u32)>) {
        let cells = self.cells;
        let boxes = |range: &Range<usize>| &self.sorted[range.clone()];
        for (_, range) in &cells[chunk.clone()] {
            let here = boxes(range);
            for (n, a) in here.iter().enumerate() {
                for b in &here[n + 1..] {
                    report(a, b, out);
                }
            }
        }
        for (dx, dy, dz) in FORWARD_ROWS {
            let mut j: Option<usize> = None;
            for (here, range) in &cells[chunk.clone()] {
                // The row of cells `(x + dx, y + dy, z + dz)` within the grid: cells at its
                // edge have no neighbour beyond it. The rest keep their order when shifted,
                // so `j` only moves forwards once found.
                let [x, y, z] = cell(*here);
                let (x, y) = (x + dx, y + dy);
                let (lo, hi) = ((z + dz.start()).max(0), (z + dz.end()).min(AXIS_CELLS - 1));
                let inside = |v: i64| (0..AXIS_CELLS).contains(&v);
                if !(inside(x) && inside(y)) || lo > hi {
                    continue;
                }
                let (from, to) = (key([x, y, lo]), key([x, y, hi]));
                let mut at = j.unwrap_or_else(|| cells.partition_point(|(c, _)| *c < from));
                while at < cells.len() && cells[at].0 < from {
                    at += 1;
                }
                j = Some(at);
                for (_, others) in cells[at..].iter().take_while(|(other, _)| *other <= to) {
                    for a in boxes(range) {
                        for b in boxes(others) {
                            report(a, b, out);
                        }
                    }
                }
            }
        }
    }
}

/// Appends the pair of `(a, i)` and `(b, j)` (box, index) to `out`, smaller index first,
/// when the boxes overlap or touch.
fn report((a, i): &(Aabb, u32), (b, j): &(Aabb, u32), out: &mut Vec<(u32, u32)>) {
    if boxes_overlap(a, b) {
        out.push((*i.min(j), *i.max(j)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::Serial;
    use crate::{Point3, Vec3};
    use parry3d::bounding_volume::BoundingVolume;

    /// A pool that cuts the work into chunks as a parallel one does, and runs them on scoped
    /// threads, one per item: the pairs must not depend on it.
    struct Threads;

    impl Pool for Threads {
        fn is_parallel(&self) -> bool {
            true
        }

        fn map<T: Sync, U: Send + 'static>(
            &self,
            items: &[T],
            f: impl Fn(&T) -> U + Sync + Send,
        ) -> Vec<U> {
            std::thread::scope(|s| {
                let f = &f;
                let jobs: Vec<_> = items.iter().map(|item| s.spawn(move || f(item))).collect();
                jobs.into_iter().filter_map(|job| job.join().ok()).collect()
            })
        }

        fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
            items.sort();
        }
    }

    /// A tiny deterministic generator (64-bit LCG), for scatters without a dependency.
    struct Lcg(u64);

    impl Lcg {
        fn unit(&mut self) -> Real {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 40) as Real / (1u64 << 24) as Real
        }
    }

    fn cube(c: Point3, half: Real) -> Aabb {
        Aabb::new(c - Vec3::repeat(half), c + Vec3::repeat(half))
    }

    /// The pairs, sorted, after checking that the parallel join and the sweep find the same
    /// ones as the serial join (whatever the count, so both ways are tested on every set).
    fn pairs(boxes: &[Aabb]) -> Vec<(u32, u32)> {
        let sorted = |mut pairs: Vec<(u32, u32)>| {
            pairs.sort_unstable();
            pairs
        };
        let out = sorted(grid_pairs(boxes, &Serial));
        let parallel = sorted(grid_pairs(boxes, &Threads));
        assert_eq!(out, parallel, "serial and parallel joins differ");
        let swept = sorted(swept_pairs(boxes));
        assert_eq!(out, swept, "the join and the sweep differ");
        assert_eq!(out, sorted(overlapping_pairs(boxes, &Serial)));
        // Each pair once, in either way.
        for found in [&out, &swept] {
            let mut unique = found.clone();
            unique.dedup();
            assert_eq!(unique.len(), found.len(), "a pair reported twice");
        }
        out
    }

    fn brute_force(boxes: &[Aabb]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                if boxes[a].intersects(&boxes[b]) {
                    out.push((a as u32, b as u32));
                }
            }
        }
        out
    }

    /// The pairs equal a brute-force test of every pair, each once, for scatters of small
    /// boxes with a few wide ones among them, on a shell (a crowd on a planet) and in a
    /// slab, including boxes that exactly touch across a cell boundary.
    #[test]
    fn pairs_match_brute_force() {
        let mut rng = Lcg(11);
        for round in 0..40 {
            let n = 50 + round * 20;
            let mut boxes: Vec<Aabb> = (0..n)
                .map(|_| {
                    let c = if round % 2 == 0 {
                        let d = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5);
                        Point3::from(d.normalize() * 10.0)
                    } else {
                        Point3::new(rng.unit() * 30.0, rng.unit() * 30.0, rng.unit())
                    };
                    cube(c, 0.2 + 0.6 * rng.unit())
                })
                .collect();
            if round % 5 == 0 {
                boxes.push(cube(Point3::new(2.0, 3.0, 0.0), 6.0));
                boxes.push(cube(Point3::new(-4.0, 3.0, 1.0), 25.0));
            }
            // Two boxes touching exactly along x.
            boxes.push(Aabb::new(
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 1.0, 1.0),
            ));
            boxes.push(Aabb::new(
                Point3::new(1.0, 0.5, 0.5),
                Point3::new(2.0, 1.5, 1.5),
            ));
            let found = pairs(&boxes);
            let mut unique = found.clone();
            unique.dedup();
            assert_eq!(
                unique.len(),
                found.len(),
                "round {round}: a pair reported twice"
            );
            assert_eq!(found, brute_force(&boxes), "round {round}");
        }
    }

    /// Tall, slim boxes (standing characters: each axis gets its own cell edge, here about
    /// 0.64 m across and 1.9 m up) and flat ones pair exactly as the brute force does, each
    /// pair once, in a dense crowd on two floors, including boxes touching exactly across
    /// every axis.
    #[test]
    fn slim_boxes_pair_exactly() {
        let mut rng = Lcg(23);
        let slim =
            |c: Point3| Aabb::new(c - Vec3::new(0.3, 0.0, 0.3), c + Vec3::new(0.3, 1.8, 0.3));
        let mut boxes: Vec<Aabb> = (0..1500)
            .map(|k| {
                let floor = if k % 3 == 0 { 1.5 } else { 0.0 };
                slim(Point3::new(rng.unit() * 25.0, floor, rng.unit() * 25.0))
            })
            .collect();
        // Flat ones among them (a crouched crowd's low boxes), and touching pairs along each
        // axis.
        for _ in 0..100 {
            let c = Point3::new(rng.unit() * 25.0, 0.2, rng.unit() * 25.0);
            boxes.push(Aabb::new(
                c - Vec3::new(0.3, 0.0, 0.3),
                c + Vec3::new(0.3, 0.05, 0.3),
            ));
        }
        for axis in 0..3 {
            let a = slim(Point3::new(40.0, 0.0, 40.0));
            let mut shift = Vec3::zeros();
            shift[axis] = a.maxs[axis] - a.mins[axis];
            boxes.push(a);
            boxes.push(Aabb::new(a.mins + shift, a.maxs + shift));
        }
        let found = pairs(&boxes);
        let mut unique = found.clone();
        unique.dedup();
        assert_eq!(unique.len(), found.len(), "a pair reported twice");
        assert_eq!(found, brute_force(&boxes));
        assert!(
            found.len() > 1000,
            "too few pairs to mean much: {}",
            found.len()
        );
    }

    /// A crowd beyond the grid's last cells (millions of box widths from the origin, on
    /// either side) is filed in the edge cells, and its pairs are still exactly the
    /// brute-force ones, each once; near and far crowds do not meet.
    #[test]
    fn far_flung_boxes_still_pair_exactly() {
        let mut rng = Lcg(5);
        let mut boxes: Vec<Aabb> = Vec::new();
        for centre in [
            // Cells are about 3 m: the grid's edge cells lie about 3,300 km out.
            Point3::new(1.0e7, -1.2e7, 4.0e6),
            Point3::new(-9.0e6, 0.0, -2.0e7),
            Point3::origin(),
        ] {
            for _ in 0..150 {
                let d = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 12.0;
                boxes.push(cube(centre + d, 0.5 + rng.unit()));
            }
        }
        let found = pairs(&boxes);
        let mut unique = found.clone();
        unique.dedup();
        assert_eq!(unique.len(), found.len(), "a pair reported twice");
        assert_eq!(found, brute_force(&boxes));
        let far = |&(i, _): &(u32, u32)| i < 300;
        assert!(
            found.iter().filter(|p| far(p)).count() > 300,
            "too few far pairs"
        );
    }

    /// Hostile boxes answer without panicking: NaN boxes overlap nothing, an infinite box
    /// overlaps everything finite (the far box too), coordinates near `f32::MAX` saturate the cell
    /// index without overflow, and an empty set has no pairs.
    #[test]
    fn hostile_boxes_answer() {
        assert!(pairs(&[]).is_empty());
        let nan = cube(Point3::new(Real::NAN, 0.0, 0.0), 1.0);
        let everywhere = cube(Point3::origin(), Real::INFINITY);
        let far = cube(Point3::new(Real::MAX / 2.0, -Real::MAX / 2.0, 0.0), 1.0);
        let here = cube(Point3::origin(), 0.5);
        let boxes = [
            nan,
            everywhere,
            far,
            here,
            cube(Point3::new(0.5, 0.0, 0.0), 0.5),
        ];
        assert_eq!(pairs(&boxes), brute_force(&boxes));
        assert_eq!(pairs(&boxes), [(1, 2), (1, 3), (1, 4), (3, 4)]);
    }

    /// Boxes of zero width make the cells as small as a float allows, so every corner away
    /// from the origin lands in the grid's last cell: each touching pair is still reported
    /// once (the row past the last cell is empty, not the cell itself again).
    #[test]
    fn points_in_the_last_cell_pair_once() {
        let point = |x: Real| cube(Point3::new(x, 1.0, 2.0), 0.0);
        let boxes = [point(1.0), point(1.0), point(3.0), point(3.0), point(-2.0)];
        assert_eq!(pairs(&boxes), [(0, 1), (2, 3)]);
    }
}
