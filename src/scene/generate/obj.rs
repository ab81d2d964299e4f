//! Triangle meshes from Wavefront OBJ text.

use spherewalk_core::parry3d::shape::{SharedShape, TriMeshBuilderError};
use spherewalk_core::{Point3, Real};
use thiserror::Error;

/// Why [`trimesh_from_obj`] refused its text. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ObjError {
    /// A vertex coordinate or face index is not a finite number, or a vertex has fewer than 3
    /// coordinates. `text` is the offending token, or the whole line when one is missing.
    #[error("line {line}: bad number `{text}`")]
    BadNumber {
        /// 1-based line number.
        line: usize,
        /// The offending text.
        text: String,
    },
    /// A face index is zero or refers to a vertex not defined before this line (`count`
    /// vertices were).
    #[error("line {line}: vertex index `{text}` is zero or out of range ({count} vertices so far)")]
    BadIndex {
        /// 1-based line number.
        line: usize,
        /// The offending index token.
        text: String,
        /// Number of vertices defined before the face.
        count: usize,
    },
    /// A face lists fewer than 3 vertices.
    #[error("line {line}: face `{text}` has fewer than 3 vertices")]
    ShortFace {
        /// 1-based line number.
        line: usize,
        /// The face line.
        text: String,
    },
    /// The text has no face line at all.
    #[error("no faces in {lines} lines")]
    NoFaces {
        /// Number of lines read (the last line's number).
        lines: usize,
    },
    /// Every triangle has zero area; `line` and `text` give the first face.
    #[error("line {line}: every triangle is degenerate (zero area), first face `{text}`")]
    AllDegenerate {
        /// 1-based line number of the first face.
        line: usize,
        /// The first face line.
        text: String,
    },
    /// parry refused the mesh (not expected after the checks above).
    #[error("parry refused the mesh: {0}")]
    Mesh(TriMeshBuilderError),
}

/// Vertices and triangles read so far by [`trimesh_from_obj`].
#[derive(Default)]
struct ObjMesh {
    vertices: Vec<Point3>,
    triangles: Vec<[u32; 3]>,
    /// Line number and text of the first face, for [`ObjError::AllDegenerate`].
    first_face: Option<(usize, String)>,
}

/// Parses Wavefront OBJ text into a parry triangle mesh, in the OBJ file's own frame and
/// units (metres, as written).
///
/// Reads `v x y z` vertices (a 4th or further value is ignored) and `f` faces: triangles, and
/// polygons `f a b c d ...` triangulated as a fan around their first vertex. Face entries may
/// be `a`, `a/t`, `a//n` or `a/t/n` (only `a` is used); negative indices count back from the
/// last vertex defined so far (`-1` is the latest). Comments (`#` to the end of the line),
/// blank lines, `vn`, `vt`, `o`, `g`, `s`, `usemtl`, `mtllib` and any other statement are
/// ignored. Triangles of zero area are skipped. The winding is kept: the counter-clockwise
/// side is the front, the only side a one-sided trimesh query hits.
///
/// # Errors
/// [`ObjError`] with the 1-based line number and offending text for a bad number, a zero or
/// out-of-range index, or a face with fewer than 3 vertices; [`ObjError::NoFaces`] when there
/// is no face and [`ObjError::AllDegenerate`] when every triangle has zero area.
pub fn trimesh_from_obj(text: &str) -> Result<SharedShape, ObjError> {
    let mut mesh = ObjMesh::default();
    let mut lines = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        lines = line;
        let content = raw.split_once('#').map_or(raw, |(before, _)| before);
        let mut tokens = content.split_whitespace();
        match tokens.next() {
            Some("v") => mesh.vertex(line, content, tokens)?,
            Some("f") => mesh.face(line, content, tokens)?,
            _ => {}
        }
    }
    if mesh.triangles.is_empty() {
        return Err(match mesh.first_face {
            None => ObjError::NoFaces { lines },
            Some((line, text)) => ObjError::AllDegenerate { line, text },
        });
    }
    SharedShape::trimesh(mesh.vertices, mesh.triangles).map_err(ObjError::Mesh)
}

/// How many triangles [`trimesh_from_obj`] may make of `text`, counted without parsing a
/// number or allocating: a face of `n` entries is `n - 2` fan triangles. An upper bound (the
/// mesh drops zero-area triangles, and a malformed face is refused when the text is parsed),
/// saturating at `u64::MAX`.
pub(crate) fn obj_triangles(text: &str) -> u64 {
    text.lines()
        .map(|raw| {
            let content = raw.split_once('#').map_or(raw, |(before, _)| before);
            let mut tokens = content.split_whitespace();
            match tokens.next() {
                Some("f") => (tokens.count() as u64).saturating_sub(2),
                _ => 0,
            }
        })
        .fold(0u64, u64::saturating_add)
}

impl ObjMesh {
    /// Reads the coordinates of a `v` line.
    fn vertex<'a>(
        &mut self,
        line: usize,
        content: &str,
        mut tokens: impl Iterator<Item = &'a str>,
    ) -> Result<(), ObjError> {
        let mut xyz = [0.0; 3];
        for slot in &mut xyz {
            let token = tokens.next().ok_or_else(|| ObjError::BadNumber {
                line,
                text: content.trim().to_owned(),
            })?;
            *slot = token
                .parse::<Real>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| ObjError::BadNumber {
                    line,
                    text: token.to_owned(),
                })?;
        }
        self.vertices.push(Point3::from(xyz));
        Ok(())
    }

    /// Reads an `f` line and appends its fan triangles, skipping zero-area ones.
    fn face<'a>(
        &mut self,
        line: usize,
        content: &str,
        tokens: impl Iterator<Item = &'a str>,
    ) -> Result<(), ObjError> {
        let corners = tokens
            .map(|token| self.resolve(line, token))
            .collect::<Result<Vec<u32>, ObjError>>()?;
        if corners.len() < 3 {
            return Err(ObjError::ShortFace {
                line,
                text: content.trim().to_owned(),
            });
        }
        if self.first_face.is_none() {
            self.first_face = Some((line, content.trim().to_owned()));
        }
        for pair in corners[1..].windows(2) {
            let triangle = [corners[0], pair[0], pair[1]];
            if !self.is_degenerate(triangle) {
                self.triangles.push(triangle);
            }
        }
        Ok(())
    }

    /// The 0-based vertex index of one face entry (`a`, `a/t`, `a//n` or `a/t/n`).
    fn resolve(&self, line: usize, token: &str) -> Result<u32, ObjError> {
        let position = token.split('/').next().unwrap_or(token);
        let index: i64 = position.parse().map_err(|_| ObjError::BadNumber {
            line,
            text: token.to_owned(),
        })?;
        let count = self.vertices.len();
        let resolved = match index {
            1.. => Some(index - 1),
            ..=-1 => i64::try_from(count).ok().map(|n| n + index),
            0 => None,
        };
        resolved
            .filter(|&i| usize::try_from(i).is_ok_and(|i| i < count))
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| ObjError::BadIndex {
                line,
                text: token.to_owned(),
                count,
            })
    }

    /// True when the triangle has zero area up to `f32` rounding: the sine of its angle at
    /// the first corner is below `f32::EPSILON` (or an edge has zero length). Computed in
    /// `f64`, so huge or tiny finite coordinates neither overflow nor underflow.
    fn is_degenerate(&self, [a, b, c]: [u32; 3]) -> bool {
        let at = |i: u32| self.vertices[i as usize].coords.cast::<f64>();
        let (e1, e2) = (at(b) - at(a), at(c) - at(a));
        let bound = f64::from(f32::EPSILON) * e1.norm() * e2.norm();
        // f32 coordinates are finite and far from f64 overflow, so nothing here is NaN.
        e1.cross(&e2).norm() <= bound
    }
}
