//! A thread-caching allocator for small blocks, over the system allocator.
//!
//! Parsing an answer builds a tree of small boxes and drops it moments later, and a batch does
//! that thousands of times. Each thread keeps the small blocks it frees on free lists, one per
//! size class, and hands them out again, so that most of these allocations never reach
//! `malloc`. A block of at most [`MAX_SMALL`] bytes (alignment at most 16) is a `malloc`ed
//! block of its size rounded up to a multiple of 16, whichever thread holds it, so any thread
//! may reuse it or free it; larger or more aligned blocks go straight to the system allocator.
//! A thread's lists hold at most [`CACHE_BYTES`] bytes together (a block freed beyond that goes
//! back to `malloc`) and are freed when the thread exits.
//!
//! Why: in a Python process glibc's heap is large and fragmented, and its bin searches and
//! consolidations took a fifth of the outcome check's time there (the same native batch: 6.1
//! µs per rollout in Python against 4.5 in a Rust harness). With the cache the outcome check
//! runs 15% fewer instructions per rollout; `docs/speed-history.md` has the runs.
//!
//! The extension and the core's own tests use it ([`crate`]'s `#[global_allocator]`, Linux
//! with glibc only, where a thread-local destructor is registered without allocating); a Rust
//! program that links the core as a library keeps its own allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::null_mut;

/// The largest block served from the free lists, in bytes.
pub const MAX_SMALL: usize = 1024;
/// Size classes are multiples of this (and blocks are aligned to it, as `malloc`'s are).
const GRANULE: usize = 16;
const CLASSES: usize = MAX_SMALL / GRANULE;
/// The most bytes one thread's free lists keep together (a batch's parsed answers, freed at
/// its end, are about that much).
pub const CACHE_BYTES: usize = 4 << 20;

/// The size class of a layout (its size rounded up to [`GRANULE`], minus one granule), or None
/// for a block the lists do not hold.
#[inline]
fn class_of(layout: &Layout) -> Option<usize> {
    let size = layout.size();
    (size != 0 && size <= MAX_SMALL && layout.align() <= GRANULE).then(|| (size - 1) / GRANULE)
}

/// The bytes of a block of `class`.
#[inline]
const fn class_size(class: usize) -> usize {
    (class + 1) * GRANULE
}

#[inline]
fn class_layout(class: usize) -> Layout {
    // SAFETY: the size is a nonzero multiple of 16 (at most MAX_SMALL) and 16 a power of two.
    unsafe { Layout::from_size_align_unchecked(class_size(class), GRANULE) }
}

/// One thread's free lists: `heads[c]` starts an intrusive list of free blocks of class `c`
/// (each block's first word points to the next one).
struct ThreadCache {
    heads: [Cell<*mut u8>; CLASSES],
    /// The bytes on all lists together.
    bytes: Cell<usize>,
}

impl ThreadCache {
    const fn new() -> Self {
        #[allow(clippy::declare_interior_mutable_const)]
        const EMPTY: Cell<*mut u8> = Cell::new(null_mut());
        ThreadCache { heads: [EMPTY; CLASSES], bytes: Cell::new(0) }
    }

    /// A free block of `class`, or null when its list is empty.
    #[inline]
    fn pop(&self, class: usize) -> *mut u8 {
        let head = self.heads[class].get();
        if !head.is_null() {
            // SAFETY: a listed block is at least 16 bytes, 16-aligned, not in use, and its
            // first word was written by `push`.
            let next = unsafe { *(head as *mut *mut u8) };
            self.heads[class].set(next);
            self.bytes.set(self.bytes.get() - class_size(class));
            // The next pop reads the next block's first word, and its caller then writes the
            // block: start loading it now (a freed block is usually out of the caches).
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a prefetch has no effect on memory and does not fault on any address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(next as *const i8, std::arch::x86_64::_MM_HINT_T0)
            };
        }
        head
    }

    /// Lists `block` (of `class`, no longer in use) unless the lists are full; false when the
    /// caller must free it.
    #[inline]
    fn push(&self, class: usize, block: *mut u8) -> bool {
        let bytes = self.bytes.get() + class_size(class);
        if bytes > CACHE_BYTES {
            return false;
        }
        // SAFETY: the block is at least 16 bytes, 16-aligned and no longer in use.
        unsafe { *(block as *mut *mut u8) = self.heads[class].get() };
        self.heads[class].set(block);
        self.bytes.set(bytes);
        true
    }
}

impl Drop for ThreadCache {
    fn drop(&mut self) {
        for class in 0..CLASSES {
            loop {
                let block = self.pop(class);
                if block.is_null() {
                    break;
                }
                // SAFETY: every listed block came from `System.alloc(class_layout(class))`.
                unsafe { System.dealloc(block, class_layout(class)) };
            }
        }
    }
}

thread_local! {
    static CACHE: ThreadCache = const { ThreadCache::new() };
}

/// The bytes on the calling thread's free lists (0 once its lists are gone, at its exit).
pub fn cached_bytes() -> usize {
    CACHE.try_with(|c| c.bytes.get()).unwrap_or(0)
}

/// The allocator: the calling thread's [`ThreadCache`] for small blocks, [`System`] for the
/// rest, and for everything while the thread's cache is being destroyed (at its exit).
pub struct ThreadCaching;

// SAFETY: every block handed out is a live `System` block of at least the layout's size and
// alignment (a small one of its class's size, 16-aligned), owned by the caller alone until it
// comes back; a listed block is reachable from one thread's lists only.
unsafe impl GlobalAlloc for ThreadCaching {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => match CACHE.try_with(|c| c.pop(class)) {
                Ok(block) if !block.is_null() => block,
                _ => System.alloc(class_layout(class)),
            },
            None => System.alloc(layout),
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => match CACHE.try_with(|c| c.pop(class)) {
                Ok(block) if !block.is_null() => {
                    block.write_bytes(0, layout.size());
                    block
                }
                _ => System.alloc_zeroed(class_layout(class)),
            },
            None => System.alloc_zeroed(layout),
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match class_of(&layout) {
            Some(class) => {
                if !CACHE.try_with(|c| c.push(class, ptr)).unwrap_or(false) {
                    System.dealloc(ptr, class_layout(class));
                }
            }
            None => System.dealloc(ptr, layout),
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees that `new_size` with this alignment is a valid layout.
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class_of(&layout), class_of(&new_layout)) {
            // The block already has its class's size.
            (Some(old), Some(new)) if old == new => ptr,
            (None, None) => System.realloc(ptr, layout, new_size),
            _ => {
                let block = self.alloc(new_layout);
                if !block.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, block, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                block
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    /// Fills a block with a pattern derived from `seed`, then checks it.
    unsafe fn fill(ptr: *mut u8, size: usize, seed: u8) {
        for i in 0..size {
            *ptr.add(i) = seed.wrapping_add(i as u8);
        }
    }
    unsafe fn holds(ptr: *const u8, size: usize, seed: u8) -> bool {
        (0..size).all(|i| *ptr.add(i) == seed.wrapping_add(i as u8))
    }

    #[test]
    fn size_classes_round_up_to_sixteen_bytes_up_to_the_limit() {
        assert_eq!(class_of(&layout(1, 1)), Some(0));
        assert_eq!(class_of(&layout(16, 8)), Some(0));
        assert_eq!(class_of(&layout(17, 8)), Some(1));
        assert_eq!(class_of(&layout(MAX_SMALL, 16)), Some(CLASSES - 1));
        assert_eq!(class_of(&layout(MAX_SMALL + 1, 8)), None);
        assert_eq!(class_of(&layout(64, 32)), None, "more than malloc's alignment");
        assert_eq!(class_of(&layout(0, 1)), None);
    }

    #[test]
    fn a_freed_small_block_is_handed_out_again_on_the_same_thread() {
        let a = ThreadCaching;
        unsafe {
            let l = layout(40, 8);
            let p = a.alloc(l);
            let before = cached_bytes();
            a.dealloc(p, l);
            assert_eq!(cached_bytes(), before + 48);
            // Any size of the same class reuses it.
            let q = a.alloc(layout(33, 4));
            assert_eq!(q, p);
            assert_eq!(cached_bytes(), before);
            a.dealloc(q, layout(33, 4));
        }
    }

    #[test]
    fn a_reused_block_is_zeroed_when_asked() {
        let a = ThreadCaching;
        unsafe {
            let l = layout(100, 8);
            let p = a.alloc(l);
            fill(p, 100, 7);
            a.dealloc(p, l);
            let q = a.alloc_zeroed(l);
            assert_eq!(q, p);
            assert!((0..100).all(|i| *q.add(i) == 0));
            a.dealloc(q, l);
        }
    }

    #[test]
    fn realloc_keeps_the_contents_across_classes_and_sizes() {
        let a = ThreadCaching;
        unsafe {
            let mut size = 1;
            let mut p = a.alloc(layout(size, 1));
            fill(p, size, 3);
            // Grow through every class and past the limit, then shrink back.
            for new in [5, 16, 17, 100, 1000, 1024, 1025, 5000, 70_000, 2000, 1024, 600, 8, 1] {
                p = a.realloc(p, layout(size, 1), new);
                assert!(!p.is_null());
                assert!(holds(p, size.min(new), 3), "{size} -> {new}");
                size = new;
                fill(p, size, 3);
            }
            a.dealloc(p, layout(size, 1));
        }
    }

    #[test]
    fn the_lists_never_keep_more_than_the_budget() {
        let a = ThreadCaching;
        std::thread::spawn(move || unsafe {
            let l = layout(MAX_SMALL, 16);
            let blocks: Vec<*mut u8> = (0..2 * CACHE_BYTES / MAX_SMALL).map(|_| a.alloc(l)).collect();
            for &b in &blocks {
                a.dealloc(b, l);
                assert!(cached_bytes() <= CACHE_BYTES);
            }
            // Full, but for less than one block of this class.
            assert!(cached_bytes() > CACHE_BYTES - MAX_SMALL);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn blocks_freed_on_another_thread_are_reused_there() {
        let a = ThreadCaching;
        let l = layout(64, 8);
        let blocks: Vec<usize> = (0..1000).map(|i| unsafe {
            let p = a.alloc(l);
            fill(p, 64, i as u8);
            p as usize
        }).collect();
        std::thread::spawn(move || unsafe {
            let before = cached_bytes();
            for (i, &b) in blocks.iter().enumerate() {
                assert!(holds(b as *const u8, 64, i as u8));
                a.dealloc(b as *mut u8, l);
            }
            assert_eq!(cached_bytes(), before + 1000 * 64);
            let reused = a.alloc(l) as usize;
            assert_eq!(reused, *blocks.last().unwrap());
            a.dealloc(reused as *mut u8, l);
        })
        .join()
        .unwrap();
    }

    #[derive(Debug, Clone)]
    enum Step {
        Alloc { size: usize, align_log2: u32, zeroed: bool },
        Realloc { slot: usize, size: usize },
        Free { slot: usize },
    }

    fn step() -> impl Strategy<Value = Step> {
        // Sizes around the class edges and the limit, and some large ones.
        let size = prop_oneof![1usize..=48, 1000usize..=1100, 1usize..=4096, Just(16), Just(1024), Just(1025)];
        prop_oneof![
            (size.clone(), 0u32..=6, any::<bool>()).prop_map(|(size, align_log2, zeroed)| Step::Alloc { size, align_log2, zeroed }),
            (any::<usize>(), size).prop_map(|(slot, size)| Step::Realloc { slot, size }),
            any::<usize>().prop_map(|slot| Step::Free { slot }),
        ]
    }

    proptest! {
        /// Any interleaving of allocations, reallocations and frees, on two threads: every live
        /// block keeps its own contents (no two live blocks overlap, none is handed out twice)
        /// and is aligned as asked.
        #[test]
        fn live_blocks_keep_their_contents(steps in proptest::collection::vec(step(), 1..300), other in proptest::collection::vec(step(), 1..300)) {
            fn run(steps: Vec<Step>) -> Result<(), String> {
                let a = ThreadCaching;
                let mut live: Vec<(usize, Layout, u8)> = Vec::new();
                for (n, s) in steps.into_iter().enumerate() {
                    let seed = n as u8;
                    unsafe {
                        match s {
                            Step::Alloc { size, align_log2, zeroed } => {
                                let l = layout(size, 1 << align_log2);
                                let p = if zeroed { a.alloc_zeroed(l) } else { a.alloc(l) };
                                if p.is_null() || p as usize % l.align() != 0 {
                                    return Err(format!("bad block for {l:?}"));
                                }
                                if zeroed && !(0..size).all(|i| *p.add(i) == 0) {
                                    return Err(format!("not zeroed: {l:?}"));
                                }
                                fill(p, size, seed);
                                live.push((p as usize, l, seed));
                            }
                            Step::Realloc { slot, size } if !live.is_empty() => {
                                let k = slot % live.len();
                                let (p, l, old_seed) = live[k];
                                let q = a.realloc(p as *mut u8, l, size);
                                if !holds(q, l.size().min(size), old_seed) {
                                    return Err(format!("realloc {l:?} -> {size} lost the contents"));
                                }
                                let nl = layout(size, l.align());
                                fill(q, size, seed);
                                live[k] = (q as usize, nl, seed);
                            }
                            Step::Free { slot } if !live.is_empty() => {
                                let (p, l, s) = live.swap_remove(slot % live.len());
                                if !holds(p as *const u8, l.size(), s) {
                                    return Err(format!("block {l:?} overwritten"));
                                }
                                a.dealloc(p as *mut u8, l);
                            }
                            _ => {}
                        }
                    }
                }
                for (p, l, s) in live {
                    unsafe {
                        if !holds(p as *const u8, l.size(), s) {
                            return Err(format!("block {l:?} overwritten"));
                        }
                        a.dealloc(p as *mut u8, l);
                    }
                }
                Ok(())
            }
            let handle = std::thread::spawn(move || run(other));
            prop_assert_eq!(run(steps), Ok(()));
            prop_assert_eq!(handle.join().unwrap(), Ok(()));
        }
    }
}
