//! [`Threads`]: rayon's global pool as a [`Pool`] (feature `rayon`), or the calling thread,
//! for any host without a pool of its own (the hecs runtime, a game's own loop). Either way
//! the results are the same bits. Each thread lends its spare [`StepScratch`] (kept from step
//! to step, hot in cache) to the motor steps and the separation's resolves alike.

use super::{Pool, in_order};
use crate::step::StepScratch;
use std::cell::RefCell;

thread_local! {
    /// Each thread's spare working buffers for the characters' motor steps and the
    /// separation's resolves (one kind, never lent to both at once), kept between steps.
    static SCRATCH: RefCell<StepScratch> = RefCell::default();
}

/// `f` with this thread's spare [`StepScratch`], borrowed in place: what [`Threads`] and
/// [`super::Chunked`] lend their jobs. A lend within a lend on one thread gets new, empty
/// buffers; a panic in `f` leaves the spare one in place.
pub(crate) fn lend_scratch<R>(f: impl FnOnce(&mut StepScratch) -> R) -> R {
    SCRATCH.with(|spare| match spare.try_borrow_mut() {
        Ok(mut spare) => f(&mut spare),
        Err(_) => f(&mut StepScratch::default()),
    })
}

/// Rayon's global pool when `parallel` is set and the feature `rayon` is on, else the
/// calling thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threads {
    /// Run on rayon's pool (without the feature `rayon`, on the calling thread anyway).
    pub parallel: bool,
}

/// Chunks per pool thread a parallel run cuts its items into: enough for the threads to even
/// out uneven items between them, few enough that each chunk pays its set-up once for many.
#[cfg(feature = "rayon")]
const CHUNKS_PER_THREAD: usize = 8;

/// The chunk length (items) a parallel run over `len` items cuts them into: `per_thread`
/// chunks for each of `threads` threads.
pub(crate) fn chunk_len(len: usize, threads: usize, per_thread: usize) -> usize {
    len.div_ceil(threads.max(1) * per_thread).max(1)
}

impl Threads {
    /// Whether work goes to rayon's pool.
    fn pooled(self) -> bool {
        self.parallel && cfg!(feature = "rayon")
    }

    /// `f()` on one of rayon's pool threads when pooled (the calling thread waits), else on
    /// the calling thread. Parallel work that `f` starts is then split from a pool thread,
    /// which takes part in it, instead of being handed over from outside the pool and waited
    /// for each time.
    pub fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> R {
        #[cfg(feature = "rayon")]
        if self.parallel {
            return rayon::scope(|_| f());
        }
        f()
    }
}

impl Pool for Threads {
    fn is_parallel(&self) -> bool {
        self.pooled()
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        #[cfg(feature = "rayon")]
        if self.parallel {
            use rayon::prelude::*;
            let chunk = chunk_len(items.len(), rayon::current_num_threads(), CHUNKS_PER_THREAD);
            let parts: Vec<Vec<U>> = items
                .par_chunks(chunk)
                .map(|chunk| chunk.iter().map(&f).collect())
                .collect();
            return parts.into_iter().flatten().collect();
        }
        items.iter().map(f).collect()
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        #[cfg(feature = "rayon")]
        if self.parallel {
            use rayon::slice::ParallelSliceMut;
            items.par_sort_unstable();
            return;
        }
        items.sort_unstable();
    }

    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        #[cfg(feature = "rayon")]
        if self.parallel {
            return rayon::join(a, b);
        }
        (a(), b())
    }

    fn lend<R>(&self, f: impl FnOnce(&mut StepScratch) -> R) -> R {
        lend_scratch(f)
    }

    fn for_each<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut StepScratch, &mut T) + Sync + Send,
    ) {
        #[cfg(feature = "rayon")]
        if self.parallel {
            use rayon::prelude::*;
            let chunk = chunk_len(items.len(), rayon::current_num_threads(), CHUNKS_PER_THREAD);
            items
                .par_chunks_mut(chunk)
                .for_each(|chunk| in_order(self, chunk, &f));
            return;
        }
        in_order(self, items, f);
    }
}
