use crate::common::*;
use spherewalk::*;

#[test]
fn debug_flat_walk() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), Point3::new(0.0, 0.0, 0.0));
    for i in 0..10 {
        r.step(Vec3::new(5.0, 0.0, 0.0));
        println!("{i} {:?} {:?} {:?} hit={:?} pen={}", r.local(), r.report.ground, r.local_velocity(), r.report.ground_hit.map(|h| (h.distance, h.contact_normal)), r.report.max_penetration);
    }
}
