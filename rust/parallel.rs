//! Data-parallel batch execution on a private rayon pool.
//!
//! Why a private pool and not rayon's global one: after `fork()` a child process inherits the
//! pool's bookkeeping but none of its threads, so a child that touched the parent's pool would
//! wait forever. Each pool is tagged with the pid that built it; a forked child sees a foreign
//! pid, abandons (leaks) the parent's pools without touching them, and builds its own.
//!
//! Thread count: an explicit argument wins, then the `APR_FAST_NUM_THREADS` environment
//! variable, then the number of CPUs the process may use.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

/// Environment variable that sets the default number of worker threads.
pub const THREADS_ENV: &str = "APR_FAST_NUM_THREADS";

struct PoolEntry {
    pid: u32,
    threads: usize,
    pool: Arc<rayon::ThreadPool>,
}

static POOLS: Mutex<Vec<PoolEntry>> = Mutex::new(Vec::new());

/// The thread count used when the caller gives none: the environment variable (read on every
/// call, so a change takes effect), else [`cpu_count`].
pub fn default_threads() -> usize {
    std::env::var(THREADS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(cpu_count)
}

/// The number of CPUs this process may use, read once per process: `available_parallelism`
/// reads the affinity mask and the cgroup quota files on every call (11 system calls, ~35 µs
/// here), which a call scoring one rollout (verl's per-sample `compute_score`) paid each time.
pub fn cpu_count() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `requested` if given and positive, else [`default_threads`].
pub fn resolve_threads(requested: Option<usize>) -> usize {
    match requested {
        Some(n) if n > 0 => n,
        _ => default_threads(),
    }
}

fn pool_for(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    let pid = std::process::id();
    // Held only to look up or insert an entry, never while work runs.
    let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if pools.iter().any(|p| p.pid != pid) {
        // We are a forked child: the parent's worker threads do not exist here, and dropping
        // their pools could wait on them. Leak them deliberately.
        for entry in pools.drain(..) {
            std::mem::forget(entry.pool);
        }
    }
    if let Some(entry) = pools.iter().find(|p| p.threads == threads) {
        return Ok(Arc::clone(&entry.pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("apr-fast-{i}"))
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let pool = Arc::new(pool);
    pools.push(PoolEntry { pid, threads, pool: Arc::clone(&pool) });
    Ok(pool)
}

/// How many leaves (runs of items one thread takes at once) each thread's share of a batch is
/// cut into at least, so that the threads finish together.
const LEAVES_PER_THREAD: usize = 64;

/// A panic caught while processing one item of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemPanic(pub String);

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> ItemPanic {
    let msg = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    };
    ItemPanic(msg)
}

/// Applies `f` to every item, in parallel on `threads` workers (see [`resolve_threads`]),
/// keeping input order. A panic in one item becomes `Err` for that item only: the rest of the
/// batch is unaffected and no panic escapes. Single-item batches and `threads == 1` run on the
/// calling thread.
pub fn map_items<T, R, F>(items: &[T], threads: Option<usize>, f: F) -> Vec<Result<R, ItemPanic>>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    map_items_in_shares(items, threads, 1, f)
}

/// The fewest items a worker gets in [`map_cheap_items`].
pub const CHEAP_ITEMS_PER_THREAD: usize = 128;

/// [`map_items`] for items of about a microsecond each (a final answer found, an answer
/// parsed, two answers compared): each worker gets at least [`CHEAP_ITEMS_PER_THREAD`] of
/// them, so a small batch runs on the calling thread. Waking the pool's parked workers costs
/// tens of microseconds: a one-response outcome check took 33 µs instead of 11 when its two
/// answer texts were parsed on two threads. 128 was measured on 2 vCPUs: with 32, two workers
/// made `equivalent_batch` of 200 pairs 305 µs against 201 on one, and `is_correct_batch` of
/// 100 responses 692 against 474; with 128 they cost nothing there and still gain from about
/// 500 responses or 1,000 pairs; with 512 the gain at 1,000 pairs was gone.
pub fn map_cheap_items<T, R, F>(items: &[T], threads: Option<usize>, f: F) -> Vec<Result<R, ItemPanic>>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    map_items_in_shares(items, threads, CHEAP_ITEMS_PER_THREAD, f)
}

/// [`map_cheap_items`] for items taken by value: each is moved into `f`, which can keep its
/// parts without copying them (a final answer's text moved into its outcome instead of cloned).
pub fn map_cheap_owned<T, R, F>(items: Vec<T>, threads: Option<usize>, f: F) -> Vec<Result<R, ItemPanic>>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync + Send,
{
    let guarded = |item: T| catch_unwind(AssertUnwindSafe(|| f(item))).map_err(panic_message);
    match pool_and_leaf_len(items.len(), threads, CHEAP_ITEMS_PER_THREAD) {
        Some((pool, max_len)) => {
            pool.install(|| items.into_par_iter().with_min_len(1).with_max_len(max_len).map(guarded).collect())
        }
        None => items.into_iter().map(guarded).collect(),
    }
}

/// Drops `items` on `threads` workers, about a microsecond each (parsed answers: trees of
/// small blocks). The blocks then go back to the workers that will build the next batch's
/// trees, instead of all to the calling thread, which would have to pass them on through the
/// allocator's depot ([`crate::alloc`]); and the calling thread does not free them alone.
pub fn drop_cheap_items<T: Send>(items: Vec<T>, threads: Option<usize>) {
    map_cheap_owned(items, threads, drop);
}

/// The pool for a batch of `len` items (at most one worker per `min_share` of them) and the
/// most items in one leaf, or None when the batch runs on the calling thread: one worker is
/// enough, or no thread could be started (resource limits; the batch is still answered).
///
/// A leaf (a run of items one thread takes at once) holds at most 1/LEAVES_PER_THREAD of a
/// thread's share: rayon's adaptive splitting alone stops at about a quarter of the batch per
/// leaf for two threads, so when items differ in cost (a 30k-token rollout beside 1k-token
/// ones) one thread could sit idle while the other runs a long last leaf (seen: 2-thread reward
/// batches at 1.80x, 1.9x with bounded leaves).
fn pool_and_leaf_len(len: usize, threads: Option<usize>, min_share: usize) -> Option<(Arc<rayon::ThreadPool>, usize)> {
    let most = len / min_share.max(1);
    if most <= 1 {
        return None;
    }
    let n = resolve_threads(threads).min(most);
    if n <= 1 {
        return None;
    }
    // (A ceiling division written out: `usize::div_ceil` needs Rust 1.73, the crate's MSRV is 1.70.)
    let leaves = n * LEAVES_PER_THREAD;
    let max_len = ((len + leaves - 1) / leaves).max(1);
    pool_for(n).ok().map(|pool| (pool, max_len))
}

/// [`map_items`] on at most one worker per `min_share` items.
fn map_items_in_shares<T, R, F>(
    items: &[T],
    threads: Option<usize>,
    min_share: usize,
    f: F,
) -> Vec<Result<R, ItemPanic>>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    let guarded = |item: &T| catch_unwind(AssertUnwindSafe(|| f(item))).map_err(panic_message);
    match pool_and_leaf_len(items.len(), threads, min_share) {
        Some((pool, max_len)) => {
            pool.install(|| items.par_iter().with_min_len(1).with_max_len(max_len).map(guarded).collect())
        }
        None => items.iter().map(guarded).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_for_every_thread_count() {
        let items: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [1, 2, 3, 8] {
            let got: Vec<u64> = map_items(&items, Some(threads), |x| x * x).into_iter().map(Result::unwrap).collect();
            assert_eq!(got, expected, "threads={threads}");
        }
    }

    #[test]
    fn cheap_items_stay_on_the_calling_thread_in_small_batches() {
        let caller = std::thread::current().id();
        let on_caller = |n: usize| {
            let items: Vec<usize> = (0..n).collect();
            map_cheap_items(&items, Some(2), |_| std::thread::current().id() == caller)
                .into_iter()
                .map(Result::unwrap)
                .collect::<Vec<bool>>()
        };
        assert!(on_caller(2 * CHEAP_ITEMS_PER_THREAD - 1).iter().all(|&here| here));
        // Enough for two shares: the pool's workers take them all.
        assert!(on_caller(2 * CHEAP_ITEMS_PER_THREAD).iter().all(|&here| !here));
        let items: Vec<usize> = (0..3).collect();
        assert!(map_items(&items, Some(2), |_| std::thread::current().id() == caller)
            .into_iter()
            .all(|here| !here.unwrap()));
    }

    #[test]
    fn a_panicking_item_does_not_poison_the_batch() {
        let items = vec![1, 2, 3, 4];
        let out = map_items(&items, Some(2), |&x| {
            if x == 3 {
                panic!("boom at {x}");
            }
            x
        });
        assert_eq!(out[0], Ok(1));
        assert_eq!(out[1], Ok(2));
        assert_eq!(out[2], Err(ItemPanic("boom at 3".into())));
        assert_eq!(out[3], Ok(4));
    }

    #[test]
    fn owned_items_keep_order_and_a_panic_stays_with_its_item() {
        for threads in [1, 2, 3] {
            let items: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
            let out = map_cheap_owned(items, Some(threads), |s| {
                if s == "500" {
                    panic!("boom at {s}");
                }
                s
            });
            assert_eq!(out.len(), 1000);
            for (i, r) in out.into_iter().enumerate() {
                match r {
                    Ok(s) => assert_eq!(s, i.to_string()),
                    Err(panic) => assert_eq!((i, panic.0), (500, "boom at 500".to_string())),
                }
            }
        }
        // Enough items for two shares: the pool's workers drop them.
        let caller = std::thread::current().id();
        struct Noted(std::sync::Arc<std::sync::Mutex<Vec<bool>>>, std::thread::ThreadId);
        impl Drop for Noted {
            fn drop(&mut self) {
                self.0.lock().unwrap().push(std::thread::current().id() == self.1);
            }
        }
        let on_caller = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let items: Vec<Noted> = (0..2 * CHEAP_ITEMS_PER_THREAD).map(|_| Noted(on_caller.clone(), caller)).collect();
        drop_cheap_items(items, Some(2));
        let noted = on_caller.lock().unwrap();
        assert_eq!(noted.len(), 2 * CHEAP_ITEMS_PER_THREAD);
        assert!(noted.iter().all(|&here| !here));
    }

    #[test]
    fn explicit_thread_count_beats_default() {
        assert_eq!(resolve_threads(Some(3)), 3);
        assert!(resolve_threads(None) >= 1);
        assert!(resolve_threads(Some(0)) >= 1);
    }
}
