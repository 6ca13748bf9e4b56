//! Independent work spread over the machine's cores, with results in a fixed order, so a
//! report never depends on which thread finished first.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// `f` of every item, in item order. Each thread takes the next item no thread has taken
/// yet, so items listed longest first keep every core busy to the end. On one core, or
/// for one item, everything runs on the calling thread.
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
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cores.min(items.len());
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
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let others: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
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

/// `f` of every row `0..len`, in row order, runs of rows (see [`runs`]) on every core.
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
/// are shared between the cores; a catalog of fewer rows is worked on the calling thread.
const RUN: usize = 256;

#[cfg(test)]
mod tests {
    #[test]
    fn results_come_back_in_item_order() {
        let items: Vec<u64> = (0..100).collect();
        let squares = super::map(&items, |&n| {
            // Uneven work, so threads finish out of order.
            std::thread::sleep(std::time::Duration::from_micros(n % 7 * 50));
            n * n
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }
}
