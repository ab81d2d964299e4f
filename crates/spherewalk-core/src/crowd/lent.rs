//! [`Lent`]: working buffers a host keeps per thread from one step to the next.

use std::cell::RefCell;
use std::mem::take;
use std::ops::{Deref, DerefMut};
use std::thread::LocalKey;

/// A working buffer borrowed from the spare one its thread keeps in `home` (a
/// `thread_local!`) for as long as it lives, and given back when dropped (even on unwinding):
/// buffers keep their capacity from one step to the next instead of growing anew each step,
/// on the calling thread and on every pool worker alike (the runtime's body moves). Two lent
/// at once on one thread only means the second starts empty.
pub struct Lent<S: Default + 'static> {
    value: S,
    home: &'static LocalKey<RefCell<S>>,
}

impl<S: Default + 'static> Lent<S> {
    /// Takes this thread's spare buffer from `home` (an empty one when it is out).
    pub fn take(home: &'static LocalKey<RefCell<S>>) -> Self {
        let value = home.with(|spare| spare.try_borrow_mut().map(|mut s| take(&mut *s)));
        Self {
            value: value.unwrap_or_default(),
            home,
        }
    }
}

impl<S: Default + 'static> Deref for Lent<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.value
    }
}

impl<S: Default + 'static> DerefMut for Lent<S> {
    fn deref_mut(&mut self) -> &mut S {
        &mut self.value
    }
}

impl<S: Default + 'static> Drop for Lent<S> {
    fn drop(&mut self) {
        // Swapped, not moved: the spare's place holds the empty value `take` left, which
        // then drops with this one, at no cost.
        // NOTE: a thread being torn down has no spare left to fill; the buffer just goes.
        let _ = self.home.try_with(|spare| {
            if let Ok(mut s) = spare.try_borrow_mut() {
                std::mem::swap(&mut *s, &mut self.value);
            }
        });
    }
}
