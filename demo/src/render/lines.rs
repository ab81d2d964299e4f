//! Debug line drawing: sphere wireframes, ground normal, contact points, velocity arrow.

use spherewalk::components::Walker;
use spherewalk::{Point3, Pose, Vec3};

use super::ColourVertex;

const SPHERE_COLOUR: [f32; 4] = [1.0, 1.0, 1.0, 0.8];
const NORMAL_COLOUR: [f32; 4] = [0.2, 1.0, 0.3, 1.0];
const CONTACT_COLOUR: [f32; 4] = [1.0, 0.15, 0.15, 1.0];
const VELOCITY_COLOUR: [f32; 4] = [1.0, 0.9, 0.1, 1.0];
const UP_COLOUR: [f32; 4] = [0.3, 0.6, 1.0, 1.0];

/// Line segments, two vertices each.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// The vertices.
    pub vertices: Vec<ColourVertex>,
}

impl Lines {
    /// A segment from `a` to `b`.
    pub fn segment(&mut self, a: &Point3, b: &Point3, colour: [f32; 4]) {
        self.vertices.push(ColourVertex {
            pos: [a.x, a.y, a.z],
            colour,
        });
        self.vertices.push(ColourVertex {
            pos: [b.x, b.y, b.z],
            colour,
        });
    }

    /// A circle of `radius` (m) round `centre` in the plane spanned by its two unit vectors.
    pub fn circle(
        &mut self,
        centre: &Point3,
        (u, v): (&Vec3, &Vec3),
        radius: f32,
        colour: [f32; 4],
    ) {
        const N: usize = 24;
        let at = |i: usize| {
            let a = i as f32 / N as f32 * std::f32::consts::TAU;
            centre + (u * a.cos() + v * a.sin()) * radius
        };
        for i in 0..N {
            self.segment(&at(i), &at(i + 1), colour);
        }
    }

    /// An arrow from `from` along `vector`.
    pub fn arrow(&mut self, from: &Point3, vector: &Vec3, side: &Vec3, colour: [f32; 4]) {
        let to = from + vector;
        self.segment(from, &to, colour);
        let len = vector.norm();
        if len < 1e-4 {
            return;
        }
        let back = -vector / len * (0.25 * len.min(1.0));
        let side = side.try_normalize(1e-6).unwrap_or_else(Vec3::zeros) * (0.12 * len.min(1.0));
        self.segment(&to, &(to + back + side), colour);
        self.segment(&to, &(to + back - side), colour);
    }

    /// A small three-axis cross at `p`.
    pub fn cross(&mut self, p: &Point3, size: f32, colour: [f32; 4]) {
        for axis in [Vec3::x(), Vec3::y(), Vec3::z()] {
            self.segment(&(p - axis * size), &(p + axis * size), colour);
        }
    }

    /// Debug drawing of one `walker` shown at `pose` (world; between its last two steps),
    /// the `layers` asked for: each sphere as three great circles, the ground normal at the
    /// ground point, contact points with their normals, the velocity and the up.
    pub fn character(&mut self, pose: &Pose, walker: &Walker, layers: &DebugLayers) {
        let spheres = walker.motor.stack().spheres();
        let (report, velocity) = (&walker.report, &walker.state.velocity);
        let up = pose.up().into_inner();
        let fwd = pose.forward().into_inner();
        let right = pose.right().into_inner();
        for s in spheres.iter().filter(|_| layers.spheres) {
            let c = pose.centre_at(s.offset_local);
            self.circle(&c, (&right, &fwd), s.radius, SPHERE_COLOUR);
            self.circle(&c, (&right, &up), s.radius, SPHERE_COLOUR);
            self.circle(&c, (&fwd, &up), s.radius, SPHERE_COLOUR);
        }
        if let Some(g) = report.ground_hit.as_ref().filter(|_| layers.ground) {
            self.cross(&g.point, 0.08, NORMAL_COLOUR);
            self.arrow(
                &g.point,
                &(g.surface_normal.into_inner() * 0.8),
                &right,
                NORMAL_COLOUR,
            );
        }
        for hit in report.hits.iter().filter(|_| layers.contacts) {
            self.cross(&hit.point, 0.06, CONTACT_COLOUR);
            self.segment(
                &hit.point,
                &(hit.point + hit.contact_normal.into_inner() * 0.4),
                CONTACT_COLOUR,
            );
        }
        let top = spheres
            .last()
            .map(|s| pose.centre_at(s.offset_local + s.radius))
            .unwrap_or(pose.position);
        if layers.up {
            self.arrow(&top, &(up * 0.6), &right, UP_COLOUR);
        }
        let centre = spheres
            .first()
            .map(|s| pose.centre_at(s.offset_local))
            .unwrap_or(pose.position);
        if layers.velocity {
            self.arrow(&centre, &(velocity * 0.3), &up, VELOCITY_COLOUR);
        }
    }
}

/// Which debug drawings are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugLayers {
    /// Any debug drawing at all (F1).
    pub on: bool,
    /// Spheres as wire circles.
    pub spheres: bool,
    /// The ground point and its normal.
    pub ground: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// The velocity.
    pub velocity: bool,
    /// The up.
    pub up: bool,
}

impl Default for DebugLayers {
    fn default() -> Self {
        Self {
            on: false,
            spheres: true,
            ground: true,
            contacts: true,
            velocity: true,
            up: true,
        }
    }
}
