//! The HUD: a built-in 5x7 bitmap font drawn as quads (clip-space triangles).

use crate::render::ColourVertex;

/// Glyphs: seven rows of five bits each (bit 4 = leftmost column). Lowercase letters draw as
/// uppercase; characters not listed draw as `?`.
const FONT: &[(char, [u8; 7])] = &[
    (' ', [0, 0, 0, 0, 0, 0, 0]),
    ('0', [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E]),
    ('1', [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E]),
    ('2', [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F]),
    ('3', [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E]),
    ('4', [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02]),
    ('5', [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E]),
    ('6', [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E]),
    ('7', [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08]),
    ('8', [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E]),
    ('9', [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C]),
    ('A', [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11]),
    ('B', [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E]),
    ('C', [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E]),
    ('D', [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C]),
    ('E', [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F]),
    ('F', [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10]),
    ('G', [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F]),
    ('H', [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11]),
    ('I', [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E]),
    ('J', [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C]),
    ('K', [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11]),
    ('L', [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F]),
    ('M', [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11]),
    ('N', [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11]),
    ('O', [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E]),
    ('P', [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10]),
    ('Q', [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D]),
    ('R', [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11]),
    ('S', [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E]),
    ('T', [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04]),
    ('U', [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E]),
    ('V', [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04]),
    ('W', [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A]),
    ('X', [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11]),
    ('Y', [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04]),
    ('Z', [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F]),
    ('.', [0, 0, 0, 0, 0, 0x0C, 0x0C]),
    (',', [0, 0, 0, 0, 0x0C, 0x04, 0x08]),
    (':', [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0]),
    (';', [0, 0x0C, 0x0C, 0, 0x0C, 0x04, 0x08]),
    ('-', [0, 0, 0, 0x1F, 0, 0, 0]),
    ('+', [0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0]),
    ('=', [0, 0, 0x1F, 0, 0x1F, 0, 0]),
    ('/', [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0]),
    ('(', [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02]),
    (')', [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08]),
    ('[', [0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E]),
    (']', [0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E]),
    ('<', [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02]),
    ('>', [0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08]),
    ('%', [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03]),
    ('!', [0x04, 0x04, 0x04, 0x04, 0x04, 0, 0x04]),
    ('?', [0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04]),
    ('_', [0, 0, 0, 0, 0, 0, 0x1F]),
    ('*', [0, 0x04, 0x15, 0x0E, 0x15, 0x04, 0]),
    ('\'', [0x04, 0x04, 0x08, 0, 0, 0, 0]),
];

fn glyph(c: char) -> [u8; 7] {
    let c = c.to_ascii_uppercase();
    FONT.iter()
        .find(|(k, _)| *k == c)
        .or_else(|| FONT.iter().find(|(k, _)| *k == '?'))
        .map(|(_, g)| *g)
        .unwrap_or([0; 7])
}

/// Width of one character cell in font pixels (5 + 1 spacing).
const CELL_W: f32 = 6.0;
/// Height of one line in font pixels (7 + 3 spacing).
const LINE_H: f32 = 10.0;

/// Collects HUD quads for a target of `size` pixels.
pub struct Hud {
    size: (f32, f32),
    scale: f32,
    /// Clip-space triangles.
    pub vertices: Vec<ColourVertex>,
}

impl Hud {
    /// An empty HUD for a `width` x `height` target, font pixels `scale` screen pixels wide.
    pub fn new((width, height): (u32, u32), scale: f32) -> Self {
        Self {
            size: (width.max(1) as f32, height.max(1) as f32),
            scale,
            vertices: Vec::new(),
        }
    }

    /// A filled rectangle in screen pixels.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: [f32; 4]) {
        let (sw, sh) = self.size;
        let x0 = x / sw * 2.0 - 1.0;
        let x1 = (x + w) / sw * 2.0 - 1.0;
        let y0 = 1.0 - y / sh * 2.0;
        let y1 = 1.0 - (y + h) / sh * 2.0;
        let v = |x, y| ColourVertex {
            pos: [x, y, 0.0],
            colour,
        };
        self.vertices.extend([
            v(x0, y0),
            v(x1, y0),
            v(x1, y1),
            v(x0, y0),
            v(x1, y1),
            v(x0, y1),
        ]);
    }

    fn glyphs(&mut self, x: f32, y: f32, text: &str, colour: [f32; 4]) {
        let s = self.scale;
        for (i, c) in text.chars().enumerate() {
            let gx = x + i as f32 * CELL_W * s;
            for (row, bits) in glyph(c).iter().enumerate() {
                // One quad per run of set bits.
                let mut col = 0;
                while col < 5 {
                    if bits & (0x10 >> col) == 0 {
                        col += 1;
                        continue;
                    }
                    let start = col;
                    while col < 5 && bits & (0x10 >> col) != 0 {
                        col += 1;
                    }
                    let w = (col - start) as f32 * s;
                    self.rect(gx + start as f32 * s, y + row as f32 * s, w, s, colour);
                }
            }
        }
    }

    /// How many characters of text fit across `width` screen pixels at this HUD's scale.
    pub fn columns_fitting(&self, width: f32) -> usize {
        (width / (CELL_W * self.scale)).max(0.0) as usize
    }

    /// Lines of text at (`x`, `y`) screen pixels on a translucent panel.
    pub fn panel(&mut self, x: f32, y: f32, lines: &[String]) {
        let s = self.scale;
        let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f32;
        let pad = 3.0 * s;
        self.rect(
            x,
            y,
            cols * CELL_W * s + 2.0 * pad - s,
            lines.len() as f32 * LINE_H * s + 2.0 * pad - 3.0 * s,
            // 0.8 black over the brightest sky (0.88 linear) leaves 0.18 behind white text:
            // a contrast of 4.6:1.
            [0.0, 0.0, 0.0, 0.8],
        );
        for (i, line) in lines.iter().enumerate() {
            let ly = y + pad + i as f32 * LINE_H * s;
            self.glyphs(x + pad + s * 0.5, ly + s * 0.5, line, [0.0, 0.0, 0.0, 0.8]);
            self.glyphs(x + pad, ly, line, [1.0, 1.0, 1.0, 1.0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_fits_five_columns_and_text_makes_quads() {
        for (c, g) in FONT {
            assert!(g.iter().all(|r| *r < 0x20), "{c}");
        }
        let mut hud = Hud::new((320, 200), 2.0);
        hud.panel(4.0, 4.0, &["Hi 1".to_owned()]);
        assert!(hud.vertices.len() > 6);
        assert!(hud.vertices.len().is_multiple_of(6));
    }
}
