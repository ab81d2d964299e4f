//! The fixed-timestep clock: an accumulator of frame time and the interpolation alpha.

use spherewalk_core::Real;
use thiserror::Error;

/// Why a [`FixedStep`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// The fixed step must be finite and in (0, 1] seconds.
    #[error("fixed step must be in (0, 1] s, got {0}")]
    BadStep(Real),
}

/// Turns variable frame times into a whole number of fixed steps.
///
/// `advance(frame_dt)` adds the frame's time and says how many fixed steps are due; the
/// remainder stays in the accumulator, and [`FixedStep::alpha`] says how far (0..1) the render
/// time lies between the last two steps. At most `max_steps_per_frame` steps run per frame;
/// time beyond that is dropped (a slow frame slows the game instead of spiralling).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedStep {
    dt: Real,
    accumulator: f64,
    /// Most steps one `advance` may ask for (default 8).
    pub max_steps_per_frame: u32,
}

impl FixedStep {
    /// A clock stepping every `dt` seconds.
    ///
    /// # Errors
    /// [`ScheduleError::BadStep`] unless `0 < dt <= 1`.
    pub fn new(dt: Real) -> Result<Self, ScheduleError> {
        if !(dt.is_finite() && dt > 0.0 && dt <= 1.0) {
            return Err(ScheduleError::BadStep(dt));
        }
        Ok(Self {
            dt,
            accumulator: 0.0,
            max_steps_per_frame: 8,
        })
    }

    /// The fixed step (s).
    pub fn dt(&self) -> Real {
        self.dt
    }

    /// Adds `frame_dt` seconds of real time and returns the number of fixed steps now due.
    /// Non-finite or negative frame times count as zero.
    pub fn advance(&mut self, frame_dt: Real) -> u32 {
        let frame = if frame_dt.is_finite() {
            frame_dt.max(0.0)
        } else {
            0.0
        };
        self.accumulator += f64::from(frame);
        let dt = f64::from(self.dt);
        let due = (self.accumulator / dt).floor();
        let steps = due.min(f64::from(self.max_steps_per_frame));
        self.accumulator -= steps * dt;
        if due > steps {
            // Drop what the cap did not run, keeping only the fraction for interpolation.
            self.accumulator = self.accumulator.rem_euclid(dt);
        }
        steps as u32
    }

    /// Frame time (s) carried over, not yet run as a step.
    pub(crate) fn accumulator(&self) -> f64 {
        self.accumulator
    }

    /// Sets the carried-over frame time (s), clamped to `[0, dt)`; a non-finite value is 0.
    pub(crate) fn set_accumulator(&mut self, seconds: f64) {
        let dt = f64::from(self.dt);
        self.accumulator = if seconds.is_finite() {
            seconds.clamp(0.0, dt * (1.0 - f64::EPSILON))
        } else {
            0.0
        };
    }

    /// Where the render time lies between the previous and the latest step (0..1).
    pub fn alpha(&self) -> Real {
        (self.accumulator / f64::from(self.dt)).clamp(0.0, 1.0) as Real
    }
}
