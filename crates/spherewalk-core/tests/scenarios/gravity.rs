//! Gravity fields: priorities, volumes, point pulls and validation.

use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    GravityError, GravityField, GravityFields, Point3, Real, Vec3, gravity::Pull, gravity::Surface,
    gravity::Volume, math::Iso,
};

#[test]
fn the_highest_priority_field_containing_the_point_wins() {
    let mut fields = GravityFields::new();
    fields
        .add(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))
        .expect("uniform");
    let planet = Point3::new(100.0, 0.0, 0.0);
    fields
        .add(GravityField::planet(planet, 5.0, 40.0))
        .expect("planet");
    // Far from the planet: the level's uniform default (exact: copied).
    assert_eq!(
        fields.at(&Point3::new(0.0, 3.0, 0.0)),
        Vec3::new(0.0, -9.81, 0.0)
    );
    // Inside the planet's 40 m ball: 5 m/s² toward its centre (1e-6: one normalisation).
    let g = fields.at(&Point3::new(100.0, 0.0, 30.0));
    assert_abs_diff_eq!(g, Vec3::new(0.0, 0.0, -5.0), epsilon = 1e-6);
    // Exactly on the ball's boundary counts as inside.
    assert_eq!(fields.field_at(&Point3::new(140.0, 0.0, 0.0)), Some(1));
    // At the centre itself the pull is zero, never NaN.
    assert_eq!(fields.at(&planet), Vec3::zeros());
}

#[test]
fn equal_priorities_go_to_the_field_added_first_and_no_field_is_zero_gravity() {
    let mut fields = GravityFields::new();
    let volume = Volume::Box {
        mins: Point3::new(-1.0, -1.0, -1.0),
        maxs: Point3::new(1.0, 1.0, 1.0),
    };
    let a = GravityField {
        pull: Pull::Uniform(Vec3::x()),
        volume: volume.clone(),
        priority: 2,
    };
    let b = GravityField {
        pull: Pull::Uniform(Vec3::y()),
        volume,
        priority: 2,
    };
    fields.add(a).expect("a");
    fields.add(b).expect("b");
    assert_eq!(fields.at(&Point3::origin()), Vec3::x());
    assert_eq!(fields.at(&Point3::new(2.0, 0.0, 0.0)), Vec3::zeros());
}

#[test]
fn bad_fields_are_refused_with_their_value() {
    let mut fields = GravityFields::new();
    let nan = Real::NAN;
    let e = fields
        .add(GravityField::uniform(Vec3::new(0.0, nan, 0.0)))
        .expect_err("NaN");
    assert!(matches!(e, GravityError::NonFiniteAcceleration(_)));
    let e = fields
        .add(GravityField::planet(Point3::origin(), -1.0, 10.0))
        .expect_err("negative");
    assert_eq!(e, GravityError::BadStrength(-1.0));
    let e = fields
        .add(GravityField::planet(Point3::origin(), 9.81, 0.0))
        .expect_err("radius 0");
    assert_eq!(e, GravityError::BadSphere(0.0));
    let inverted = Volume::Box {
        mins: Point3::new(1.0, 0.0, 0.0),
        maxs: Point3::origin(),
    };
    let e = fields.add(GravityField {
        volume: inverted,
        ..GravityField::uniform(Vec3::zeros())
    });
    assert!(matches!(e, Err(GravityError::BadBox { .. })));
    let ball = || SharedShape::ball(1.0);
    let surface = |shape, x: Real| Surface::new(shape, Iso::translation(x, 0.0, 0.0));
    let e = fields.add(GravityField::surface(surface(ball(), nan), 9.81, 2.0));
    assert_eq!(e, Err(GravityError::BadSurface));
    let e = fields.add(GravityField::surface(
        surface(SharedShape::ball(nan), 0.0),
        9.81,
        2.0,
    ));
    assert_eq!(e, Err(GravityError::BadSurface));
    let e = fields.add(GravityField::surface(
        surface(ball(), 0.0),
        Real::INFINITY,
        2.0,
    ));
    assert_eq!(e, Err(GravityError::BadStrength(Real::INFINITY)));
    let e = fields.add(GravityField::surface(surface(ball(), 0.0), 9.81, -1.0));
    assert_eq!(e, Err(GravityError::BadReach(-1.0)));
    assert!(fields.fields().is_empty(), "nothing bad was kept");
}

#[test]
fn a_surface_field_pulls_toward_a_capsule_and_stops_at_its_reach() {
    // A capsule along Y (cap centres at y = +-2, radius 1): beside the shaft the pull is
    // horizontal, above a cap it points at the cap's centre (f32 rounding only).
    let capsule = Surface::new(SharedShape::capsule_y(2.0, 1.0), Iso::identity());
    let mut fields = GravityFields::new();
    fields
        .add(GravityField::surface(capsule.clone(), 5.0, 3.0))
        .expect("valid");
    let g = fields.at(&Point3::new(2.5, 1.0, 0.0));
    approx::assert_relative_eq!(g, Vec3::new(-5.0, 0.0, 0.0), epsilon = 1e-5);
    let g = fields.at(&Point3::new(0.0, 4.0, 2.0));
    approx::assert_relative_eq!(
        g,
        -Vec3::new(0.0, 2.0, 2.0).normalize() * 5.0,
        epsilon = 1e-5
    );
    // 3 m from the surface is in reach; 3.01 m is not.
    assert_ne!(fields.at(&Point3::new(4.0, 0.0, 0.0)), Vec3::zeros());
    assert_eq!(fields.at(&Point3::new(4.01, 0.0, 0.0)), Vec3::zeros());
    // On the surface itself the pull has no direction: zero.
    assert_eq!(fields.at(&Point3::new(1.0, 0.0, 0.0)), Vec3::zeros());
    // Two fields on clones of one surface compare equal; on equal but separate shapes not.
    let again = Surface::new(SharedShape::capsule_y(2.0, 1.0), Iso::identity());
    assert_eq!(capsule.clone(), capsule);
    assert_ne!(again, capsule);
}

/// `uniform` names the gravity only when `at` gives it at every point: a uniform field that
/// applies everywhere and wins everywhere (the highest priority, the first among equals).
/// Wherever it answers, `at` agrees bit for bit at points in and out of every other field's
/// volume.
#[test]
fn uniform_gravity_is_named_only_where_no_point_changes_it() {
    let down = Vec3::new(0.0, -9.81, 0.0);
    let planet = GravityField::planet(Point3::new(50.0, 0.0, 0.0), 5.0, 30.0);
    let sideways = GravityField {
        priority: 3,
        ..GravityField::uniform(Vec3::new(2.0, 0.0, 0.0))
    };
    let boxed = GravityField {
        volume: Volume::Box {
            mins: Point3::new(-5.0, -5.0, -5.0),
            maxs: Point3::new(5.0, 5.0, 5.0),
        },
        ..GravityField::uniform(Vec3::new(0.0, 4.0, 0.0))
    };
    let set = |list: &[&GravityField]| {
        let mut fields = GravityFields::new();
        for f in list {
            fields.add((*f).clone()).expect("valid");
        }
        fields
    };
    let level = GravityField::uniform(down);
    let cases: [(&[&GravityField], Option<Vec3>); 7] = [
        // No field: zero everywhere.
        (&[], Some(Vec3::zeros())),
        (&[&level], Some(down)),
        // The planet (priority 1) beats the level's default near it.
        (&[&level, &planet], None),
        // A priority-3 uniform field everywhere beats the planet.
        (
            &[&level, &planet, &sideways],
            Some(Vec3::new(2.0, 0.0, 0.0)),
        ),
        // Equal priorities: the first added wins where both apply, so a boxed one after the
        // level never shows, and one before it does.
        (&[&level, &boxed], Some(down)),
        (&[&boxed, &level], None),
        (&[&planet], None),
    ];
    let points = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(50.0, 10.0, 0.0),
        Point3::new(-100.0, 3.0, 7.0),
        Point3::new(4.0, -4.0, 4.0),
    ];
    for (k, (list, expected)) in cases.iter().enumerate() {
        let fields = set(list);
        assert_eq!(fields.uniform(), *expected, "case {k}");
        if let Some(g) = expected {
            for p in &points {
                assert_eq!(fields.at(p), *g, "case {k} at {p}");
            }
        } else {
            let differs = points.iter().any(|p| fields.at(p) != fields.at(&points[0]));
            assert!(differs, "case {k}: gravity was the same at every point");
        }
    }
}
