//! Seams: edge-to-edge boxes and a flat trimesh are as smooth as one plane.

use crate::common::*;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{MotorSettings, Point3, Real, Vec3, math::Iso};

/// 40 x 40 edge-to-edge 0.5 m cubes, tops at y = 0, spanning x, z in [-10, 10].
fn cube_floor(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    let half = 0.25;
    for i in 0..40 {
        for j in 0..40 {
            let x = -10.0 + half + 0.5 * i as Real;
            let z = -10.0 + half + 0.5 * j as Real;
            scene.add(
                SharedShape::cuboid(half, half, half),
                Iso::translation(x, -half, z),
            );
        }
    }
    scene.world.optimize();
    scene
}

/// A flat 20 m x 20 m trimesh floor at y = 0 of 0.5 m cells (two triangles each), wound
/// counter-clockwise seen from above.
fn mesh_floor(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    let n = 40;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(Point3::new(
                -10.0 + 0.5 * i as Real,
                0.0,
                -10.0 + 0.5 * j as Real,
            ));
        }
    }
    let id = |i: u32, j: u32| i * (n + 1) + j;
    let mut indices = Vec::new();
    for i in 0..n {
        for j in 0..n {
            indices.push([id(i, j), id(i, j + 1), id(i + 1, j)]);
            indices.push([id(i + 1, j), id(i, j + 1), id(i + 1, j + 1)]);
        }
    }
    let mesh = SharedShape::trimesh(vertices, indices).expect("valid mesh");
    scene.add(mesh, Iso::identity());
    scene
}

/// Walks straight and diagonally across the floor and returns (vertical range of the feet
/// centre, worst relative speed error) over the crossing.
fn cross(scene: Scene, frame: Frame) -> (Real, Real) {
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(-3.0, 0.0, -2.0),
    );
    r.settle(10);
    let (mut lo, mut hi) = (Real::MAX, Real::MIN);
    let mut worst: Real = 0.0;
    // Diagonal, so the feet cross seams and cube corners at every angle.
    let velocity = Vec3::new(4.0, 0.0, 3.0);
    for _ in 0..60 {
        // The feet point: grounded up-frame turns pivot about the ground contact under it.
        let before = r.pose.position;
        r.step(velocity);
        let up = r.pose.up();
        let d = r.pose.position - before;
        let tangential = (d - up.into_inner() * d.dot(&up)).norm() / DT;
        let intent = frame.vec_to_world(&velocity);
        let expected = (intent - up.into_inner() * intent.dot(&up)).norm();
        worst = worst.max((tangential / expected - 1.0).abs());
        let y = r.feet_centre().y;
        lo = lo.min(y);
        hi = hi.max(y);
        assert!(r.report.is_grounded(), "{}: lost the ground", frame.name);
    }
    (hi - lo, worst)
}

#[test]
fn crosses_edge_to_edge_cubes_without_bumps() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (bump, speed_error) = cross(cube_floor(frame), frame);
        // The bounds: no vertical bump over 1 mm, no speed loss over 1 %.
        assert!(bump < 1e-3, "{}: vertical range {bump} m", frame.name);
        assert!(
            speed_error < 0.01,
            "{}: speed error {speed_error}",
            frame.name
        );
    }
}

#[test]
fn crosses_a_flat_trimesh_without_bumps() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (bump, speed_error) = cross(mesh_floor(frame), frame);
        assert!(bump < 1e-3, "{}: vertical range {bump} m", frame.name);
        assert!(
            speed_error < 0.01,
            "{}: speed error {speed_error}",
            frame.name
        );
    }
}

#[test]
fn crosses_cubes_on_a_planet_pole_within_curvature() {
    let frame = Frame::planet();
    let (_, speed_error) = cross(cube_floor(frame), frame);
    assert!(
        speed_error < 0.01,
        "{}: speed error {speed_error}",
        frame.name
    );
}
