//! Orbit camera that follows a character and takes the character's up as its own, so on a
//! planet the horizon stays level. It never goes into the scenery: a sphere cast from the look
//! target toward the eye pulls the eye in on a hit.

use spherewalk::world::{Sweep, WorldQueries};
use spherewalk::{CollisionWorld, Point3, Pose, Quat, Real, UnitVec3, Vec3, na};

use crate::render::View;

/// Vertical field of view (radians).
const FOV_Y: Real = 1.0;
const NEAR: Real = 0.05;
const FAR: Real = 800.0;

/// Radius of the sphere cast from the target to the eye (m): wider than the near plane's
/// corners (0.08 m from the eye at the widest window), so they stay out of walls too.
pub const EYE_RADIUS: Real = 0.2;

/// Gap kept between the cast sphere and what it hit (m).
const EYE_GAP: Real = 0.05;

/// Lowest pitch (rad): looking up at the target from 26 degrees below its horizon.
pub const MIN_PITCH: Real = -0.45;
/// Highest pitch (rad): looking down from 77 degrees above the target's horizon.
pub const MAX_PITCH: Real = 1.35;

/// How fast a pulled-in eye eases back out (1/s); pulling in is immediate.
const EASE_OUT: Real = 4.0;

/// A camera orbiting a target at `distance`, `pitch` above the target's horizon, looking
/// along `heading`.
#[derive(Clone, Debug)]
pub struct OrbitCamera {
    up: UnitVec3,
    heading: UnitVec3,
    /// Elevation above the horizon (radians, positive = looking down at the target).
    pub pitch: Real,
    /// Distance to the target (m) the eye keeps when nothing is in the way.
    pub distance: Real,
    /// Distance the eye is at now (m): `distance`, or less where scenery is in the way.
    pulled: Real,
    /// Heading turn (rad about up, positive left) applied when the camera first follows.
    start_yaw: Real,
    target: Point3,
    started: bool,
}

impl OrbitCamera {
    /// A camera `distance` metres from its target, `pitch` radians above the horizon.
    pub fn new(distance: Real, pitch: Real) -> Self {
        Self {
            up: Vec3::y_axis(),
            heading: -Vec3::z_axis(),
            pitch: pitch.clamp(MIN_PITCH, MAX_PITCH),
            distance,
            pulled: distance,
            start_yaw: 0.0,
            target: Point3::origin(),
            started: false,
        }
    }

    /// The camera a scene asks for at its start: `distance` m from the character, `pitch` rad
    /// above its horizon, looking along its forward turned `yaw` rad to the left.
    pub fn looking(distance: Real, pitch: Real, yaw: Real) -> Self {
        Self {
            start_yaw: yaw,
            ..Self::new(distance, pitch)
        }
    }

    /// Follows a character at `pose`, looking at `height` metres above its feet. The camera's
    /// up turns towards the character's up (smoothly over `dt`; at once on the first call,
    /// which also looks along the character's forward), carrying the heading with it.
    pub fn follow(&mut self, pose: &Pose, height: Real, dt: Real) {
        let up = pose.up();
        if !self.started {
            self.started = true;
            self.up = up;
            let yaw = Quat::from_axis_angle(&up, self.start_yaw);
            self.heading = UnitVec3::new_normalize(yaw * pose.forward().into_inner());
        } else {
            let t = 1.0 - (-dt.max(0.0) * 6.0).exp();
            let turn = Quat::rotation_between_axis(&self.up, &up)
                .map(|q| q.powf(t))
                .unwrap_or_else(Quat::identity);
            self.up = UnitVec3::new_normalize(turn * self.up.into_inner());
            self.heading = UnitVec3::new_normalize(turn * self.heading.into_inner());
        }
        // Keep the heading on the horizon of the (new) up.
        let flat = spherewalk::math::project_on_plane(&self.heading, &self.up);
        self.heading = UnitVec3::try_new(flat, 1e-4)
            .unwrap_or_else(|| spherewalk::math::any_perpendicular(&self.up));
        self.target = pose.position + up.into_inner() * height;
    }

    /// Turns by mouse movement: `dx` yaws about up, `dy` pitches (pixels).
    pub fn orbit(&mut self, dx: Real, dy: Real) {
        let yaw = Quat::from_axis_angle(&self.up, -dx * 0.005);
        self.heading = UnitVec3::new_normalize(yaw * self.heading.into_inner());
        self.pitch = (self.pitch + dy * 0.005).clamp(MIN_PITCH, MAX_PITCH);
    }

    /// Keeps the eye out of the scenery: casts a sphere of [`EYE_RADIUS`] from the target
    /// toward where the eye wants to be, ignoring the characters' bodies, and pulls the eye in
    /// to just before the first hit at once; when the way clears it eases back out over `dt`
    /// seconds (never past what the cast allows).
    pub fn collide(&mut self, world: &CollisionWorld, dt: Real) {
        let filter = crate::scenery::scenery_filter();
        let back = self.back();
        let allowed = world
            .cast_sphere(
                &Sweep::new(self.target, EYE_RADIUS, back, self.distance),
                &filter,
            )
            .map_or(self.distance, |hit| (hit.distance - EYE_GAP).max(0.0));
        if allowed < self.pulled {
            self.pulled = allowed;
        } else {
            let t = 1.0 - (-dt.max(0.0) * EASE_OUT).exp();
            self.pulled += (allowed - self.pulled) * t;
        }
    }

    /// Unit direction from the target to the eye (world).
    fn back(&self) -> UnitVec3 {
        let back =
            -self.heading.into_inner() * self.pitch.cos() + self.up.into_inner() * self.pitch.sin();
        UnitVec3::new_normalize(back)
    }

    /// Zooms by wheel `lines` (positive = closer).
    pub fn zoom(&mut self, lines: Real) {
        self.distance = (self.distance * 0.9_f32.powf(lines)).clamp(1.5, 120.0);
    }

    /// Camera position (world, m): [`OrbitCamera::distance`] back from the target, or nearer
    /// where [`OrbitCamera::collide`] found scenery in the way.
    pub fn eye(&self) -> Point3 {
        self.target + self.back().into_inner() * self.pulled.min(self.distance)
    }

    /// Camera orientation: local -Z looks at the target, local +Y is (nearly) the up.
    pub fn orientation(&self) -> Quat {
        let look = self.target - self.eye();
        Quat::face_towards(&-look, &self.up.into_inner())
    }

    /// The view for a target of `aspect` = width / height.
    pub fn view(&self, aspect: Real) -> View {
        let eye = self.eye();
        let view = na::Isometry3::look_at_rh(&eye, &self.target, &self.up.into_inner());
        let proj = perspective(FOV_Y, aspect.max(1e-3), NEAR, FAR);
        // The sun sits high over the camera's up and off to one side, so whatever way is
        // up there is daylight.
        let side = spherewalk::math::project_on_plane(&Vec3::new(0.45, 0.2, 0.6), &self.up);
        let side = side
            .try_normalize(1e-4)
            .unwrap_or_else(|| spherewalk::math::any_perpendicular(&self.up).into_inner());
        let sun = (self.up.into_inner() * 0.8 + side * 0.6).normalize();
        View {
            view_proj: proj * view.to_homogeneous(),
            eye,
            up: self.up.into_inner(),
            sun,
        }
    }
}

/// Right-handed perspective projection to wgpu's clip space (depth 0..1).
fn perspective(fov_y: Real, aspect: Real, near: Real, far: Real) -> na::Matrix4<Real> {
    let f = 1.0 / (fov_y * 0.5).tan();
    let a = far / (near - far);
    let b = near * far / (near - far);
    na::Matrix4::new(
        f / aspect,
        0.0,
        0.0,
        0.0, //
        0.0,
        f,
        0.0,
        0.0, //
        0.0,
        0.0,
        a,
        b, //
        0.0,
        0.0,
        -1.0,
        0.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_looks_at_target_with_up() {
        let mut cam = OrbitCamera::new(5.0, 0.3);
        let pose = Pose::with_up(Point3::new(20.0, 0.0, 0.0), &Vec3::x_axis());
        cam.follow(&pose, 1.0, 1.0 / 60.0);
        let q = cam.orientation();
        let fwd = q * -Vec3::z();
        let to_target = (Point3::new(21.0, 0.0, 0.0) - cam.eye()).normalize();
        assert!((fwd - to_target).norm() < 1e-4);
        assert!((q * Vec3::y()).dot(&Vec3::x()) > 0.9);
        let v = cam.view(16.0 / 9.0);
        let clip = v.view_proj * na::Vector4::new(21.0, 0.0, 0.0, 1.0);
        assert!(clip.w > 0.0 && (clip.x / clip.w).abs() < 1e-3);
        assert!((0.0..1.0).contains(&(clip.z / clip.w)));
    }
}
