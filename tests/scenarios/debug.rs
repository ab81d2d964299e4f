use crate::common::*;
use spherewalk::*;

#[test]
fn debug_stairs() {
    let mut scene = Scene::new(Frame::planet());
    scene.add_floor(20.0);
    for k in 0..5 {
        let x0 = 1.0 + 0.4 * k as Real;
        scene.add_box([x0, -0.5, -2.0], [8.0, 0.3 * (k + 1) as Real, 2.0]);
    }
    let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), Point3::new(6.0, 1.5, 0.0));
    r.settle(5);
    for i in 0..120 {
        r.step(Vec3::new(-3.0, 0.0, 0.0));
        println!("{i} {:?} {:?} v={:?} up={} clamp={} gh={:?} hits={:?}", r.feet_centre(), r.report.ground, r.local_velocity(), r.report.stepped_up, r.report.clamped_down, r.report.ground_hit.map(|h| (h.distance, h.contact_normal.into_inner(), h.surface_normal.into_inner())), r.report.hits.iter().map(|h| (h.sphere, h.contact_normal.into_inner(), h.depth)).collect::<Vec<_>>());
    }
}
