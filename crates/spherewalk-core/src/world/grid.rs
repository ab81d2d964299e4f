//! The world's uniform cell grid: the broad phase of colliders marked
//! [`super::ColliderFlags::grid`], small colliders that all move every step (a crowd's bodies).
//!
//! Each collider sits in the one cell holding its box's centre. A query looks in every cell
//! its box, grown by the largest half extent of any collider on the grid, touches, and tests
//! the boxes found there; a query box covering more cells than the grid has filled ones scans
//! the filled ones instead, so no box, however large, costs more than one pass over the grid.
//! Moving a collider costs a hash lookup (two when it changes cell), where a BVH leaf would
//! need its ancestors refitted; a lookup reads one short array of boxes, where a BVH descent
//! reads a node per level.

use super::boxes_overlap_counted;
use crate::math::{Real, Vec3};
use parry3d::bounding_volume::Aabb;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Cell edge in widths of the widest collider on the grid: wide enough that a query box the
/// size of a character, grown by the reach, meets about eight cells (in a 10,000-walker crowd
/// this beat one width by 10 % and lost 2 % to three).
const CELL_WIDTHS: Real = 2.0;

/// Least factor by which the cell edge grows when a wider collider arrives (so a run of ever
/// so slightly wider colliders re-files the grid a bounded number of times).
const GROWTH: Real = 1.25;

/// A cell's integer coordinates (cell edges from the world origin, per axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell([i32; 3]);

impl Hash for Cell {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [x, y, z] = self.0.map(|c| u64::from(c as u32));
        state.write_u64(x ^ (y << 21) ^ (z << 42) ^ (z >> 22));
    }
}

/// Hashes a [`Cell`]'s packed coordinates (murmur3's 64-bit finaliser, so both the low
/// bits that pick a bucket and the high bits of the map's tags vary).
#[derive(Clone, Copy, Debug, Default)]
struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x1000_0000_01b3);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
}

/// One collider on the grid: its slot, generation and layers (so a query filters without
/// reading the collider) and its box (world, m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    /// Slot index of the collider in the world.
    pub index: u32,
    /// Generation of the collider's id.
    pub generation: u32,
    /// Layer membership bits.
    pub layers: u32,
    /// World box (m).
    pub aabb: Aabb,
}

/// Where one collider is filed: its cell and its place in the cell's list, with its id's
/// generation (which [`CellGrid::holds_only`] checks without looking the cell up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Home {
    cell: Cell,
    at: u32,
    generation: u32,
}

/// The grid: filled cells, where each collider is, and how far a box reaches from its cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct CellGrid {
    /// Cell edge (m); 0 until the first collider arrives.
    edge: Real,
    /// Largest half extent per axis (m) of any collider put on the grid since it was last
    /// rebuilt: a query box grown by it meets every cell whose colliders can overlap it.
    reach: Vec3,
    cells: HashMap<Cell, Vec<Entry>, BuildHasherDefault<CellHasher>>,
    /// Every layer bit of a collider put on the grid since it was last rebuilt: a query whose
    /// mask shares none of them can skip the grid.
    layers: u32,
    /// The cell of each slot index on the grid, and its place in that cell's list.
    homes: Vec<Option<Home>>,
    /// Number of colliders on the grid.
    count: usize,
}

impl CellGrid {
    /// Number of colliders on the grid.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the grid holds `index`'s collider of generation `generation` and no other: a
    /// lone character's grid, which its own queries (that leave its body out) can skip.
    pub fn holds_only(&self, index: u32, generation: u32) -> bool {
        if self.count != 1 {
            return false;
        }
        let home = self.homes.get(index as usize).copied().flatten();
        home.is_some_and(|home| home.generation == generation)
    }

    /// Puts `entry` on the grid (its slot must not be on it yet). The first collider, and any
    /// collider wider than half a cell, sets the cell edge to [`CELL_WIDTHS`] of its largest
    /// extent (at least [`GROWTH`] times the old edge), and every collider is re-filed.
    pub fn insert(&mut self, entry: Entry) {
        self.layers |= entry.layers;
        let half = entry.aabb.half_extents();
        self.reach = self.reach.sup(&half);
        if self.too_wide(&half) {
            let edge = (CELL_WIDTHS * 2.0 * half.max())
                .max(GROWTH * self.edge)
                .max(Real::MIN_POSITIVE);
            self.refile(edge);
        }
        self.file(entry);
    }

    /// Takes slot `index` off the grid; nothing when it is not on it.
    pub fn remove(&mut self, index: u32) {
        self.take(index);
    }

    /// Moves slot `index` (on the grid) to its new box `aabb` (world, m).
    pub fn update(&mut self, index: u32, aabb: Aabb) {
        let Some(Some(home)) = self.homes.get(index as usize).copied() else {
            return;
        };
        let half = aabb.half_extents();
        if !self.too_wide(&half) && self.cell_of(&aabb) == home.cell {
            self.reach = self.reach.sup(&half);
            let list = self.cells.get_mut(&home.cell);
            if let Some(e) = list.and_then(|list| list.get_mut(home.at as usize)) {
                e.aabb = aabb;
            }
            return;
        }
        if let Some(entry) = self.take(index) {
            self.insert(Entry { aabb, ..entry });
        }
    }

    /// Every layer bit of the colliders on the grid (and perhaps of some that left it since
    /// the last [`Self::rebuild`]).
    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// Rebuilds the grid from its own colliders with the tightest reach and layers, and a cell
    /// edge of [`CELL_WIDTHS`] of the widest extent among them.
    pub fn rebuild(&mut self) {
        let halves = self.entries().map(|e| e.aabb.half_extents());
        self.reach = halves.fold(Vec3::zeros(), |r, h| r.sup(&h));
        self.layers = self.entries().fold(0, |l, e| l | e.layers);
        let edge = CELL_WIDTHS * 2.0 * self.reach.max();
        self.refile(edge.max(Real::MIN_POSITIVE));
    }

    /// Calls `found` with every entry whose box overlaps `aabb` (world, m), in no set order.
    pub fn query(&self, aabb: &Aabb, mut found: impl FnMut(&Entry)) {
        if self.cells.is_empty() {
            return;
        }
        let lo = self.cell_index(&(aabb.mins.coords - self.reach));
        let hi = self.cell_index(&(aabb.maxs.coords + self.reach));
        let span = |a: usize| (i64::from(hi[a]) - i64::from(lo[a]) + 1).max(0) as f64;
        let cells = span(0) * span(1) * span(2);
        let mut test = |list: &Vec<Entry>| {
            for e in list {
                if boxes_overlap_counted(&e.aabb, aabb) {
                    found(e);
                }
            }
        };
        if cells > self.cells.len() as f64 {
            self.cells.values().for_each(&mut test);
            return;
        }
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    if let Some(list) = self.cells.get(&Cell([x, y, z])) {
                        test(list);
                    }
                }
            }
        }
    }

    /// Whether a collider of half extents `half` (m) is wider than the cells allow.
    fn too_wide(&self, half: &Vec3) -> bool {
        CELL_WIDTHS * 2.0 * half.max() > self.edge
    }

    /// Takes slot `index` off the grid and returns its entry; `None` when it is not on it.
    fn take(&mut self, index: u32) -> Option<Entry> {
        let Home { cell, at, .. } = self.homes.get_mut(index as usize).and_then(Option::take)?;
        self.count -= 1;
        let list = self.cells.get_mut(&cell)?;
        let at = at as usize;
        let entry = list.swap_remove(at);
        // The list's last entry took the freed place.
        if let Some(moved) = list.get(at)
            && let Some(Some(home)) = self.homes.get_mut(moved.index as usize)
        {
            home.at = at as u32;
        }
        if list.is_empty() {
            // Emptied cells are dropped, so a crowd roaming a large world keeps only the
            // cells it stands in.
            self.cells.remove(&cell);
        }
        Some(entry)
    }

    /// Every entry on the grid, in no set order.
    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.cells.values().flatten().copied()
    }

    /// Re-files every collider under cells of edge `edge` (m).
    fn refile(&mut self, edge: Real) {
        let entries: Vec<Entry> = self.entries().collect();
        self.cells.clear();
        self.homes.iter_mut().for_each(|h| *h = None);
        self.count = 0;
        self.edge = edge;
        for entry in entries {
            self.file(entry);
        }
    }

    /// Files `entry` in the cell of its box's centre.
    fn file(&mut self, entry: Entry) {
        let cell = self.cell_of(&entry.aabb);
        let slot = entry.index as usize;
        if self.homes.len() <= slot {
            self.homes.resize(slot + 1, None);
        }
        let list = self.cells.entry(cell).or_default();
        // NOTE: a list never holds more entries than there are `u32` slot indices.
        let at = list.len() as u32;
        list.push(entry);
        let generation = entry.generation;
        self.homes[slot] = Some(Home {
            cell,
            at,
            generation,
        });
        self.count += 1;
    }

    /// The cell holding the centre of `aabb`.
    fn cell_of(&self, aabb: &Aabb) -> Cell {
        Cell(self.cell_index(&aabb.center().coords))
    }

    /// The cell coordinates of point `p` (world, m); saturated at the `i32` range (float to
    /// integer casts saturate, NaN gives 0).
    fn cell_index(&self, p: &Vec3) -> [i32; 3] {
        let index = |v: Real| {
            let scaled = v / self.edge;
            // The floor without a call to libm (this runs in every query): truncation, one
            // down for a negative fraction; `as` saturates and takes NaN to 0 as before.
            let whole = scaled as i32;
            whole.saturating_sub(i32::from((whole as Real) > scaled))
        };
        [index(p.x), index(p.y), index(p.z)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;
    use crate::world::test_rng::Lcg;
    use parry3d::bounding_volume::BoundingVolume;

    fn boxed(x: Real, y: Real, z: Real, half: Real) -> Aabb {
        let c = Point3::new(x, y, z);
        Aabb::new(c - Vec3::repeat(half), c + Vec3::repeat(half))
    }

    fn entry(index: u32, aabb: Aabb) -> Entry {
        Entry {
            index,
            generation: 0,
            layers: 1,
            aabb,
        }
    }

    /// A box of `half` width (m) somewhere in the 40 x 40 x 4 m scatter of the brute-force test.
    fn scattered(rng: &mut Lcg, half: Real) -> Aabb {
        boxed(
            rng.unit() * 40.0 - 20.0,
            rng.unit() * 40.0 - 20.0,
            rng.unit() * 4.0,
            half,
        )
    }

    fn found(grid: &CellGrid, aabb: &Aabb) -> Vec<u32> {
        let mut out = Vec::new();
        grid.query(aabb, |e| out.push(e.index));
        out.sort_unstable();
        out
    }

    /// A point's cell is the floor of its coordinates over the edge, as `f32::floor` gives
    /// it, for fractions and whole numbers on both sides of zero, and saturated or 0 (NaN)
    /// as a float cast gives it far out.
    #[test]
    fn cell_indices_are_the_floors() {
        let grid = CellGrid {
            edge: 0.75,
            ..CellGrid::default()
        };
        let mut rng = Lcg(3);
        let mut values: Vec<Real> = (0..2000).map(|_| (rng.unit() - 0.5) * 200.0).collect();
        values.extend([
            0.0, -0.0, 0.75, -0.75, 1.5, -1.5, -1e-7, 1e-7, 3.0e9, -3.0e9,
        ]);
        values.extend([
            Real::MAX,
            Real::MIN,
            Real::INFINITY,
            -Real::INFINITY,
            Real::NAN,
        ]);
        for v in values {
            let floor = |w: Real| (w / 0.75).floor() as i32;
            let expected = [floor(v), floor(-v), floor(v * 0.5)];
            assert_eq!(
                grid.cell_index(&Vec3::new(v, -v, v * 0.5)),
                expected,
                "at {v}"
            );
        }
    }

    /// The grid answers exactly what a brute-force box test answers, through inserts, moves
    /// (within a cell and across cells), growth of the cell edge and removals, for query
    /// boxes from a point to larger than the whole scatter (the full-scan path).
    #[test]
    fn queries_match_brute_force_through_moves_growth_and_removals() {
        let mut rng = Lcg(7);
        let mut grid = CellGrid::default();
        let mut boxes: Vec<Option<Aabb>> = Vec::new();
        for round in 0..2000u32 {
            let index = mutate(&mut grid, &mut boxes, &mut rng, round);
            if round % 50 == 0 {
                grid.rebuild();
            }
            let q = boxed(
                rng.unit() * 40.0 - 20.0,
                rng.unit() * 40.0 - 20.0,
                rng.unit() * 4.0,
                rng.unit() * rng.unit() * 30.0,
            );
            let expected: Vec<u32> = (0u32..)
                .zip(&boxes)
                .filter_map(|(i, b)| b.filter(|b| b.intersects(&q)).map(|_| i))
                .collect();
            assert_eq!(found(&grid, &q), expected, "round {round}");
            assert_eq!(grid.len(), boxes.iter().flatten().count());
            // The grid holds one collider only when exactly one slot is filled, and then only
            // that slot's, at its generation.
            let live: Vec<u32> = (0u32..)
                .zip(&boxes)
                .filter_map(|(i, b)| b.map(|_| i))
                .collect();
            for i in [index, live.first().copied().unwrap_or(0)] {
                assert_eq!(grid.holds_only(i, 0), live == [i], "round {round}");
                assert!(!grid.holds_only(i, 1), "round {round}");
            }
        }
    }

    /// One random change to `grid` and to its brute-force mirror `boxes` (by slot): an insert
    /// into an empty slot, else a removal, a small move (mostly within the cell) or a jump;
    /// round 1000 makes a 3 m box, which grows the cell edge. Returns the slot's index.
    fn mutate(
        grid: &mut CellGrid,
        boxes: &mut Vec<Option<Aabb>>,
        rng: &mut Lcg,
        round: u32,
    ) -> u32 {
        let roll = rng.unit();
        let index = (rng.unit() * 60.0) as u32;
        let slot = index as usize;
        if boxes.len() <= slot {
            boxes.resize(slot + 1, None);
        }
        let half = if round == 1000 {
            3.0
        } else {
            0.1 + rng.unit() * 0.5
        };
        let b = scattered(rng, half);
        match (boxes[slot], roll) {
            (None, _) => {
                grid.insert(entry(index, b));
                boxes[slot] = Some(b);
            }
            (Some(_), r) if r < 0.2 => {
                grid.remove(index);
                boxes[slot] = None;
            }
            (Some(old), r) if r < 0.6 => {
                // A small move, mostly within the same cell.
                let nudged = Aabb::new(
                    old.mins + Vec3::new(0.05, -0.03, 0.01),
                    old.maxs + Vec3::new(0.05, -0.03, 0.01),
                );
                grid.update(index, nudged);
                boxes[slot] = Some(nudged);
            }
            (Some(_), _) => {
                grid.update(index, b);
                boxes[slot] = Some(b);
            }
        }
        index
    }

    /// A lone collider is the grid's only one until a second arrives, and again once it
    /// leaves; a removed one is not.
    #[test]
    fn holds_only_follows_inserts_and_removals() {
        let mut grid = CellGrid::default();
        assert!(!grid.holds_only(0, 0));
        grid.insert(entry(3, boxed(0.0, 0.0, 0.0, 0.5)));
        assert!(grid.holds_only(3, 0));
        assert!(!grid.holds_only(3, 1), "another generation of the slot");
        assert!(!grid.holds_only(4, 0));
        grid.insert(entry(4, boxed(0.4, 0.0, 0.0, 0.5)));
        assert!(!grid.holds_only(3, 0) && !grid.holds_only(4, 0));
        grid.remove(3);
        assert!(grid.holds_only(4, 0));
        grid.update(4, boxed(50.0, 0.0, 0.0, 3.0));
        assert!(grid.holds_only(4, 0), "after a move that re-files the grid");
        grid.remove(4);
        assert!(!grid.holds_only(4, 0));
        assert_eq!(grid.len(), 0);
    }

    /// Boxes a hostile caller may pass (huge, inverted, non-finite) answer without hanging
    /// or panicking: a huge box scans the filled cells once.
    #[test]
    fn huge_inverted_and_nan_query_boxes_answer_at_once() {
        let mut grid = CellGrid::default();
        grid.insert(entry(0, boxed(1.0, 2.0, 3.0, 0.5)));
        grid.insert(entry(1, boxed(-900.0, 2.0, 3.0, 0.5)));
        let huge = boxed(0.0, 0.0, 0.0, 1.0e30);
        assert_eq!(found(&grid, &huge), [0, 1]);
        let inverted = Aabb::new(Point3::new(5.0, 5.0, 5.0), Point3::new(-5.0, -5.0, -5.0));
        assert_eq!(found(&grid, &inverted), Vec::<u32>::new());
        let nan = boxed(Real::NAN, 0.0, 0.0, 1.0);
        assert_eq!(found(&grid, &nan), Vec::<u32>::new());
    }

    /// Cells a crowd walks out of are dropped: memory follows where colliders are now.
    #[test]
    fn emptied_cells_are_dropped() {
        let mut grid = CellGrid::default();
        grid.insert(entry(0, boxed(0.0, 0.0, 0.0, 0.5)));
        for step in 1..1000 {
            grid.update(0, boxed(step as Real * 3.0, 0.0, 0.0, 0.5));
        }
        assert_eq!(grid.cells.len(), 1);
        assert_eq!(found(&grid, &boxed(2997.0, 0.0, 0.0, 0.1)), [0]);
    }

    /// The grid's layers are the union of its colliders' layers: they grow on insert, and a
    /// rebuild drops the bits of colliders that left.
    #[test]
    fn layers_are_the_union_of_the_colliders_layers() {
        let mut grid = CellGrid::default();
        assert_eq!(grid.layers(), 0);
        grid.insert(Entry {
            layers: 0b0100,
            ..entry(0, boxed(0.0, 0.0, 0.0, 0.5))
        });
        grid.insert(Entry {
            layers: 1 << 31,
            ..entry(1, boxed(3.0, 0.0, 0.0, 0.5))
        });
        assert_eq!(grid.layers(), 0b0100 | 1 << 31);
        grid.update(1, boxed(30.0, 0.0, 0.0, 0.5));
        assert_eq!(grid.layers(), 0b0100 | 1 << 31);
        grid.remove(0);
        assert_eq!(grid.layers(), 0b0100 | 1 << 31, "kept until a rebuild");
        grid.rebuild();
        assert_eq!(grid.layers(), 1 << 31);
    }
}
