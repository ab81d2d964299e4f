use crate::common::*;
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::*;

#[test]
fn debug_v() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    for side in [-1.0f32, 1.0] {
        let yaw = side * 15f32.to_radians();
        let rot = Quat::from_axis_angle(&Vec3::y_axis(), yaw);
        let inner = rot * Vec3::new(-1.0, 0.0, 0.0);
        let centre = Point3::new(6.0, 1.5, 0.0) + inner * 3.0 + rot * Vec3::new(0.0, 0.0, side * 0.25);
        scene.add(SharedShape::cuboid(3.0, 2.0, 0.25), Iso::from_parts(centre.coords.into(), rot));
    }
    let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), Point3::new(0.0, 0.0, 0.3));
    r.settle(5);
    for i in 0..120 {
        r.step(Vec3::new(5.0, 0.0, 0.0));
        if i > 50 && i < 75 {
        println!("{i} {:?} {:?} v={:?} it={} pen={} up={}", r.feet_centre(), r.report.ground, r.local_velocity(), r.report.pushback_iterations, r.report.max_penetration, r.report.stepped_up);
        for h in &r.report.hits { println!("    {} {:?} {}", h.sphere, r.scene.frame.vec_to_local(&h.contact_normal), h.depth); }
        }
    }
}
