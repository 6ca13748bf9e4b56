//! Independent work spread over threads, with results in a fixed order, so a report never
//! depends on which thread finished first.
//!
//! How many threads is the caller's choice, made once around its work with
//! [`with_threads`]; without it, everything runs on the calling thread. That default is
//! the `catalog!` macro's, as it is `serde_derive`'s and askama's: the macro runs inside
//! rustc, whose share of the machine cargo's jobserver hands out, so threads of its own
//! would take cores cargo gave to other crates; and rustc's token API, which `syn` reaches
//! there, exists on the macro's thread only. `cargo catalog` is a program of its own and
//! chooses every core. A scope, as rayon's `ThreadPool::install` is, rather than a
//! parameter: the work is split several calls deep (parsing, checking, the lints, the
//! specs), and what it gives never depends on the choice, only how long it takes.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

thread_local! {
    /// The threads work started on this thread may run on, this one included.
    static THREADS: Cell<NonZeroUsize> = const { Cell::new(NonZeroUsize::MIN) };
}

thread_local! {
    /// Threads [`map_with`] started from this thread: what the tests read to tell whether
    /// a call ran on its caller's thread alone (a thread started by another counts there).
    pub(crate) static STARTED: Cell<usize> = const { Cell::new(0) };
}

/// How many threads the compiler's work has started from this thread so far: for the
/// code generator's tests, which check that the macro's calls start none.
#[doc(hidden)]
#[must_use]
pub fn threads_started() -> usize {
    STARTED.get()
}

/// Runs `f` with the compiler's work split over up to `threads` threads, the calling one
/// included, instead of on the calling thread alone; the results are the same either way.
/// `cargo catalog` calls it with the machine's cores. The `catalog!` macro never does: a
/// proc macro shares its cores with the rest of the build, through cargo's jobserver.
pub fn with_threads<R>(threads: NonZeroUsize, f: impl FnOnce() -> R) -> R {
    /// Puts the choice before back, when `f` returns or unwinds.
    struct Restore(NonZeroUsize);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREADS.set(self.0);
        }
    }
    let _restore = Restore(THREADS.replace(threads));
    f()
}

/// `f` of every item, in item order. Each thread takes the next item no thread has taken
/// yet, so items listed longest first keep every thread busy to the end. Without
/// [`with_threads`], or for one item, everything runs on the calling thread.
pub(crate) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_with(items, || (), |(), item| f(item))
}

/// [`map`], each thread with memory of its own that `init` makes once and `f` reuses
/// from item to item.
pub(crate) fn map_with<T: Sync, S, R: Send>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let allowed = THREADS.get();
    let threads = allowed.get().min(items.len());
    if threads <= 1 {
        let mut own = init();
        return items.iter().map(|item| f(&mut own, item)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut own = init();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(&mut own, item)));
        }
    };
    STARTED.set(STARTED.get() + threads - 1);
    let work = &work;
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        // Work split again inside a thread has the same choice as here.
        let others: Vec<_> = (1..threads)
            .map(|_| s.spawn(move || with_threads(allowed, work)))
            .collect();
        let mut done = work();
        for other in others {
            // A panic in a lint is a bug: carry it to the caller as it would be without
            // threads.
            done.extend(
                other
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p)),
            );
        }
        done
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// [`map`] of items taken by value: `f` owns each item, so it can move what the item holds
/// into what it returns.
pub(crate) fn map_owned<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    map(&slots, |slot| {
        let item = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        // `map` calls `f` once per item: every slot is still full when it is taken.
        f(item.expect("each item is taken once"))
    })
}

/// `0..len` in runs of [`RUN`] (the last one shorter): rows for [`map`] when one row is
/// too little work to be worth a turn of its own.
pub(crate) fn runs(len: usize) -> Vec<Range<usize>> {
    (0..len)
        .step_by(RUN)
        .map(|start| start..(start + RUN).min(len))
        .collect()
}

/// `f` of every row `0..len`, in row order, runs of rows (see [`runs`]) shared between the
/// threads.
pub(crate) fn each_row<R: Send>(len: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    map(&runs(len), |run| run.clone().map(&f).collect::<Vec<_>>())
        .into_iter()
        .flatten()
        .collect()
}

/// `items` cut into the runs of [`runs`], in order.
pub(crate) fn in_runs<T>(items: Vec<T>) -> Vec<Vec<T>> {
    let lengths = runs(items.len());
    let mut rest = items.into_iter();
    lengths
        .iter()
        .map(|run| rest.by_ref().take(run.len()).collect())
        .collect()
}

/// Rows in a run: many enough to outweigh taking a turn, few enough that the last runs
/// are shared between the threads; a catalog of fewer rows is worked on the calling thread.
const RUN: usize = 256;

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::{STARTED, THREADS, map, with_threads};

    #[test]
    fn results_come_back_in_item_order() {
        let items: Vec<u64> = (0..100).collect();
        let four = NonZeroUsize::new(4).unwrap();
        let squares = with_threads(four, || {
            map(&items, |&n| {
                // Uneven work, so threads finish out of order.
                std::thread::sleep(std::time::Duration::from_micros(n % 7 * 50));
                n * n
            })
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }

    /// Threads run only inside [`with_threads`], and inside it only as many as it allows,
    /// split again inside a thread too; the choice ends with the call.
    #[test]
    fn threads_run_only_where_the_caller_chose_them() {
        let items: Vec<u32> = (0..8).collect();
        // Threads started, and each item's thread with the choice it sees.
        let started = || {
            let before = STARTED.get();
            let seen = map(&items, |_| {
                (std::thread::current().id(), THREADS.get().get())
            });
            (STARTED.get() - before, seen)
        };
        let (none, seen) = started();
        assert_eq!(none, 0);
        let here = std::thread::current().id();
        assert!(seen.iter().all(|&(id, threads)| id == here && threads == 1));
        let (three, seen) = with_threads(NonZeroUsize::new(4).unwrap(), started);
        assert_eq!(three, 3);
        assert!(seen.iter().all(|&(_, threads)| threads == 4), "{seen:?}");
        assert_eq!(started().0, 0);
        let unwound = std::panic::catch_unwind(|| {
            with_threads(NonZeroUsize::new(2).unwrap(), || panic!("a lint's bug"));
        });
        assert!(unwound.is_err());
        assert_eq!(started().0, 0);
    }
}
