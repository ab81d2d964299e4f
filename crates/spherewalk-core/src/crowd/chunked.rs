//! [`Chunked`]: a [`Pool`] on a host's own thread pool, which only has to run a batch of jobs
//! ([`Spawner`]); the core cuts the work into chunks, gathers the results in order and lends
//! each thread its working buffers.

use super::threads::{chunk_len, lend_scratch};
use super::{Pool, in_order};
use crate::step::StepScratch;

/// Chunks per thread a parallel run cuts its items into: half of [`super::Threads`]' eight,
/// since a host pool's task costs more to start than one of rayon's splits (the Bevy plugin's
/// fixed step of 100 characters on two threads took 6 % longer with eight).
const CHUNKS_PER_THREAD: usize = 4;

/// One job of a [`Spawner`]'s batch: a chunk of a crowd pass's work.
pub type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// A host's thread pool, as little of it as [`Chunked`] needs: how many threads it runs jobs
/// on, and a batch of jobs run to the end.
pub trait Spawner: Sync {
    /// How many threads run its jobs (1 or 0: only the calling thread).
    fn threads(&self) -> usize;

    /// Runs every job of `jobs`, in any order and on any of its threads, and returns once
    /// all have finished.
    fn run_all<'a>(&self, jobs: Vec<Job<'a>>);
}

/// A [`Pool`] on a host's [`Spawner`] (the Bevy plugin's compute task pool, say): a parallel
/// run cuts its items into four chunks per thread, one job each, and keeps their order;
/// each thread lends its jobs the spare [`StepScratch`] it keeps from step to step (as
/// [`super::Threads`] does). With one thread, everything runs in order on the calling thread.
/// The results are the same bits either way.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chunked<S>(pub S);

impl<S: Spawner> Chunked<S> {
    /// The chunk length for `len` items: all of them at once with one thread.
    fn chunk(&self, len: usize) -> usize {
        match self.0.threads() {
            0 | 1 => len.max(1),
            threads => chunk_len(len, threads, CHUNKS_PER_THREAD),
        }
    }
}

impl<S: Spawner> Pool for Chunked<S> {
    fn is_parallel(&self) -> bool {
        self.0.threads() > 1
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        let chunk = self.chunk(items.len());
        if chunk >= items.len() {
            return items.iter().map(f).collect();
        }
        let mut parts: Vec<Vec<U>> = items.chunks(chunk).map(|_| Vec::new()).collect();
        let f = &f;
        let jobs = items
            .chunks(chunk)
            .zip(&mut parts)
            .map(|(chunk, out)| Box::new(move || out.extend(chunk.iter().map(f))) as Job<'_>);
        self.0.run_all(jobs.collect());
        parts.into_iter().flatten().collect()
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        items.sort_unstable();
    }

    fn lend<R>(&self, f: impl FnOnce(&mut StepScratch) -> R) -> R {
        lend_scratch(f)
    }

    fn for_each<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut StepScratch, &mut T) + Sync + Send,
    ) {
        let chunk = self.chunk(items.len());
        if chunk >= items.len() {
            return in_order(self, items, f);
        }
        let f = &f;
        let jobs = items
            .chunks_mut(chunk)
            .map(|chunk| Box::new(move || in_order(self, chunk, f)) as Job<'_>);
        self.0.run_all(jobs.collect());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A spawner that runs its jobs backwards on the calling thread, counting them, and
    /// claims `threads` threads.
    struct Backwards {
        threads: usize,
        jobs: AtomicUsize,
    }

    impl Spawner for Backwards {
        fn threads(&self) -> usize {
            self.threads
        }

        fn run_all<'a>(&self, jobs: Vec<Job<'a>>) {
            self.jobs.fetch_add(jobs.len(), Ordering::Relaxed);
            jobs.into_iter().rev().for_each(|job| job());
        }
    }

    /// Jobs run in any order still give every result in the items' order: 100 items on two
    /// "threads" go out as 8 chunks of 13 (8 chunks asked for: 100 / 8 rounded up), and with
    /// one thread none is spawned.
    #[test]
    fn results_keep_the_items_order_whatever_the_jobs_order() {
        let pool = Chunked(Backwards {
            threads: 2,
            jobs: AtomicUsize::new(0),
        });
        let items: Vec<u32> = (0..100).collect();
        let squares = pool.map(&items, |k| k * k);
        assert_eq!(squares, items.iter().map(|k| k * k).collect::<Vec<_>>());
        assert_eq!(pool.0.jobs.load(Ordering::Relaxed), 8);
        let mut doubled = items.clone();
        pool.for_each(&mut doubled, |_, k| *k *= 2);
        assert_eq!(doubled, items.iter().map(|k| k * 2).collect::<Vec<_>>());
        assert_eq!(pool.0.jobs.load(Ordering::Relaxed), 16);
        let alone = Chunked(Backwards {
            threads: 1,
            jobs: AtomicUsize::new(0),
        });
        assert_eq!(alone.map(&items, |k| k + 1)[99], 100);
        assert_eq!(alone.0.jobs.load(Ordering::Relaxed), 0);
        assert!(!alone.is_parallel());
    }
}
