//! `CollisionWorld`: insertion and its errors, AABB overlap with filters, closest point with
//! sidedness on every shape kind, sphere penetration, sphere and ray casts, and `set_pose`.
//! One module per query; shared worlds, filters and tolerances are in [`fixtures`].

mod closest_point;
mod fixtures;
mod mutation;
mod overlap;
mod penetration;
mod ray_cast;
mod sphere_cast;
