//! A walker's body: the collider the other characters meet during their own steps, where it
//! stands, and the filters that leave it (or every body) out of a motor's queries.

use crate::world::QueryFilter;
use crate::{ColliderDesc, ColliderId, Pose, SphereStack, math::Iso};

/// Layer bit of characters' body colliders: a [`QueryFilter`] whose mask lacks it ignores
/// characters.
pub const CHARACTER_LAYER: u32 = 1 << 31;

/// The world pose of the body collider of a character at `pose`: the character's own frame
/// (its feet at the origin, its up along local +Y).
pub fn body_pose(pose: &Pose) -> Iso {
    pose.iso()
}

/// The body collider of a character of `stack` at `pose` (world): the compound of its spheres
/// ([`SphereStack::body_shape`]), on [`CHARACTER_LAYER`] only, not walkable (nobody stands on
/// a head), filed in the world's cell grid (bodies move every step), flagged as a character's
/// body (it yields: [`crate::world::ColliderFlags::character`]).
pub fn body_collider(stack: &SphereStack, pose: &Pose) -> ColliderDesc {
    ColliderDesc::new(stack.body_shape())
        .pose(body_pose(pose))
        .layers(CHARACTER_LAYER)
        .not_walkable()
        .on_grid()
        .character_body()
}

/// The filter of a solid character's motor whose own filter is `own`: the same layers, its
/// own body (`body`) left out.
pub fn solid_filter(own: &QueryFilter, body: ColliderId) -> QueryFilter {
    QueryFilter {
        mask: own.mask,
        exclude: Some(body),
    }
}

/// The filter of a soft character's motor whose own filter is `own`: it walks through the
/// other characters' bodies and meets them only in the separation pass.
pub fn soft_filter(own: &QueryFilter) -> QueryFilter {
    QueryFilter {
        mask: own.mask & !CHARACTER_LAYER,
        exclude: own.exclude,
    }
}
