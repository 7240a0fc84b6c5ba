//! A thread-caching allocator for small blocks, over the system allocator.
//!
//! Parsing an answer builds a tree of small boxes and drops it moments later, and a batch does
//! that thousands of times. Each thread keeps the small blocks it frees in magazines, two per
//! size class (a loaded one that allocations take from and frees put back into, and a full
//! spare), and hands them out again, so that most of these allocations never reach `malloc`.
//! A thread whose two magazines of a class are full passes a full one to a shared depot; a
//! thread whose magazines are empty takes a full one from there before it asks `malloc`
//! (Bonwick and Adams' magazines, as in Solaris' and tcmalloc's allocators). The depot is what
//! makes blocks built on one thread and freed on another come back: a batch's answers are
//! parsed on the pool's workers and freed on the calling thread, and without it the workers
//! took every block from `malloc` and the caller sent every one back (glibc's `malloc` and
//! `free` were a quarter of a two-thread outcome batch's samples, and two threads were slower
//! than one; `docs/speed-history.md` has the runs).
//!
//! A block of at most [`MAX_SMALL`] bytes (alignment at most 16) is a `malloc`ed block of its
//! size rounded up to a multiple of 16, whichever thread or magazine holds it, so any thread
//! may reuse it or free it; larger or more aligned blocks go straight to the system allocator.
//! A magazine holds [`magazine_blocks`] blocks (about [`MAGAZINE_BYTES`]), so a thread keeps at
//! most about 1 MiB; the depot keeps at most [`DEPOT_BYTES`] and frees what comes beyond. The
//! depot's lock is held for a few instructions per magazine (a magazine moves as one list),
//! and `fork()` takes it first, so a child never inherits it locked.
//!
//! Why a cache at all: in a Python process glibc's heap is large and fragmented, and its bin
//! searches and consolidations took a fifth of the outcome check's time there (the same native
//! batch: 6.1 µs per rollout in Python against 4.5 in a Rust harness).
//!
//! The extension and the core's own tests use it ([`crate`]'s `#[global_allocator]`, Linux
//! with glibc only, where a thread-local destructor is registered without allocating); a Rust
//! program that links the core as a library keeps its own allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, UnsafeCell};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest block served from the magazines, in bytes.
pub const MAX_SMALL: usize = 1024;
/// Size classes are multiples of this (and blocks are aligned to it, as `malloc`'s are).
const GRANULE: usize = 16;
const CLASSES: usize = MAX_SMALL / GRANULE;
/// About the bytes of one magazine ([`magazine_blocks`]).
pub const MAGAZINE_BYTES: usize = 8 << 10;
/// The most bytes the depot keeps in full magazines, all classes together.
pub const DEPOT_BYTES: usize = 16 << 20;

/// The size class of a layout (its size rounded up to [`GRANULE`], minus one granule), or None
/// for a block the magazines do not hold.
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

/// The blocks of a full magazine of `class`: [`MAGAZINE_BYTES`] worth, 8 to 64 of them.
#[inline]
pub const fn magazine_blocks(class: usize) -> usize {
    let n = MAGAZINE_BYTES / class_size(class);
    if n < 8 {
        8
    } else if n > 64 {
        64
    } else {
        n
    }
}

#[inline]
fn class_layout(class: usize) -> Layout {
    // SAFETY: the size is a nonzero multiple of 16 (at most MAX_SMALL) and 16 a power of two.
    unsafe { Layout::from_size_align_unchecked(class_size(class), GRANULE) }
}

/// The block after `block` in its magazine (its first word), null at the end.
///
/// # Safety
/// `block` is a free block of a magazine (at least 16 bytes, 16-aligned, not in use).
#[inline]
unsafe fn next_of(block: *mut u8) -> *mut u8 {
    *(block as *mut *mut u8)
}

/// Frees every block of the list that starts at `block` (of `class`).
///
/// # Safety
/// Each block of the list came from `System.alloc(class_layout(class))` and is no longer in use.
unsafe fn free_list(mut block: *mut u8, class: usize) {
    while !block.is_null() {
        let next = next_of(block);
        System.dealloc(block, class_layout(class));
        block = next;
    }
}

/// Full magazines shared by all threads: per class, a stack of magazines linked through the
/// second word of each magazine's first block (the first word links the magazine's blocks).
struct Depot {
    locked: AtomicBool,
    /// Guarded by `locked`.
    state: UnsafeCell<DepotState>,
}

struct DepotState {
    tops: [*mut u8; CLASSES],
    bytes: usize,
}

// SAFETY: `state` is only read or written while `locked` is held.
unsafe impl Sync for Depot {}

impl Depot {
    const fn new() -> Self {
        Depot {
            locked: AtomicBool::new(false),
            state: UnsafeCell::new(DepotState { tops: [null_mut(); CLASSES], bytes: 0 }),
        }
    }

    fn lock(&self) {
        if std::ptr::eq(self, &DEPOT) {
            register_fork_handlers();
        }
        self.lock_raw();
    }

    fn lock_raw(&self) {
        let mut spins = 0u32;
        while self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                // The holder may have been preempted; `yield_now` does not allocate.
                std::thread::yield_now();
            }
        }
    }

    fn unlock(&self) {
        self.locked.store(false, Ordering::Release);
    }

    /// A full magazine of `class`, or null when there is none.
    fn take(&self, class: usize) -> *mut u8 {
        self.lock();
        // SAFETY: the lock is held; a listed magazine's first block is free and its second
        // word was written by `give`.
        let magazine = unsafe {
            let state = &mut *self.state.get();
            let top = state.tops[class];
            if !top.is_null() {
                state.tops[class] = *(top as *mut *mut u8).add(1);
                state.bytes -= magazine_blocks(class) * class_size(class);
            }
            top
        };
        self.unlock();
        magazine
    }

    /// Keeps a full magazine of `class` (a list of [`magazine_blocks`] free blocks), or frees
    /// its blocks when the depot holds [`DEPOT_BYTES`].
    ///
    /// # Safety
    /// `magazine` starts a list of exactly `magazine_blocks(class)` free blocks of `class`,
    /// each from `System.alloc(class_layout(class))`, that no thread uses or lists.
    unsafe fn give(&self, class: usize, magazine: *mut u8) {
        let bytes = magazine_blocks(class) * class_size(class);
        self.lock();
        let state = &mut *self.state.get();
        let kept = state.bytes + bytes <= DEPOT_BYTES;
        if kept {
            *(magazine as *mut *mut u8).add(1) = state.tops[class];
            state.tops[class] = magazine;
            state.bytes += bytes;
        }
        self.unlock();
        if !kept {
            free_list(magazine, class);
        }
    }

    /// The bytes in the depot's magazines.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock();
        // SAFETY: the lock is held.
        let bytes = unsafe { (*self.state.get()).bytes };
        self.unlock();
        bytes
    }
}

static DEPOT: Depot = Depot::new();

extern "C" {
    fn pthread_atfork(
        prepare: Option<unsafe extern "C" fn()>,
        parent: Option<unsafe extern "C" fn()>,
        child: Option<unsafe extern "C" fn()>,
    ) -> i32;
}

unsafe extern "C" fn lock_depot_for_fork() {
    DEPOT.lock_raw();
}

unsafe extern "C" fn unlock_depot_after_fork() {
    DEPOT.unlock();
}

/// Registers the global depot's `fork()` handlers, once, when the depot is first used (its
/// lock is taken only when a magazine moves, never on a thread's own allocations): the forking
/// thread takes the lock before the fork, and parent and child release it, so the child's only
/// thread never finds it held by a thread that does not exist there.
fn register_fork_handlers() {
    static REGISTERED: AtomicBool = AtomicBool::new(false);
    if !REGISTERED.load(Ordering::Acquire) && !REGISTERED.swap(true, Ordering::AcqRel) {
        // SAFETY: the handlers only take and release the depot's lock; glibc's own
        // registration allocates with its `malloc`, not through this allocator.
        unsafe {
            pthread_atfork(Some(lock_depot_for_fork), Some(unlock_depot_after_fork), Some(unlock_depot_after_fork))
        };
    }
}

/// One thread's magazines: per class, a loaded one (an intrusive list of `loaded_len` free
/// blocks, each block's first word pointing to the next) and a spare one, full or null.
struct ThreadCache {
    loaded: [Cell<*mut u8>; CLASSES],
    loaded_len: [Cell<u8>; CLASSES],
    spare: [Cell<*mut u8>; CLASSES],
}

impl ThreadCache {
    const fn new() -> Self {
        #[allow(clippy::declare_interior_mutable_const)]
        const EMPTY: Cell<*mut u8> = Cell::new(null_mut());
        #[allow(clippy::declare_interior_mutable_const)]
        const ZERO: Cell<u8> = Cell::new(0);
        ThreadCache { loaded: [EMPTY; CLASSES], loaded_len: [ZERO; CLASSES], spare: [EMPTY; CLASSES] }
    }

    /// A free block of `class`, or null when this thread and the depot have none.
    #[inline]
    fn pop(&self, class: usize, depot: &Depot) -> *mut u8 {
        let mut head = self.loaded[class].get();
        if head.is_null() {
            head = self.reload(class, depot);
            if head.is_null() {
                return head;
            }
        }
        // SAFETY: a listed block is at least 16 bytes, 16-aligned, not in use, and its first
        // word was written by `push` (or ends a magazine with null).
        let next = unsafe { next_of(head) };
        self.loaded[class].set(next);
        self.loaded_len[class].set(self.loaded_len[class].get() - 1);
        // The next pop reads the next block's first word, and its caller then writes the
        // block: start loading it now (a freed block is usually out of the caches).
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch has no effect on memory and does not fault on any address.
        unsafe {
            std::arch::x86_64::_mm_prefetch(next as *const i8, std::arch::x86_64::_MM_HINT_T0)
        };
        head
    }

    /// Loads the spare magazine, else one from the depot; its first block, or null.
    #[cold]
    #[inline(never)]
    fn reload(&self, class: usize, depot: &Depot) -> *mut u8 {
        let spare = self.spare[class].replace(null_mut());
        let full = if spare.is_null() { depot.take(class) } else { spare };
        if !full.is_null() {
            self.loaded[class].set(full);
            self.loaded_len[class].set(magazine_blocks(class) as u8);
        }
        full
    }

    /// Puts `block` (of `class`, no longer in use) into the loaded magazine; a full one
    /// becomes the spare first, and a spare already there goes to the depot.
    #[inline]
    fn push(&self, class: usize, block: *mut u8, depot: &Depot) {
        if self.loaded_len[class].get() as usize == magazine_blocks(class) {
            self.retire_loaded(class, depot);
        }
        // SAFETY: the block is at least 16 bytes, 16-aligned and no longer in use.
        unsafe { *(block as *mut *mut u8) = self.loaded[class].get() };
        self.loaded[class].set(block);
        self.loaded_len[class].set(self.loaded_len[class].get() + 1);
    }

    #[cold]
    #[inline(never)]
    fn retire_loaded(&self, class: usize, depot: &Depot) {
        let full = self.loaded[class].replace(null_mut());
        self.loaded_len[class].set(0);
        let spare = self.spare[class].replace(full);
        if !spare.is_null() {
            // SAFETY: a spare is a full magazine of this thread's, listed nowhere else.
            unsafe { depot.give(class, spare) };
        }
    }

    /// The bytes in this thread's magazines.
    fn bytes(&self) -> usize {
        (0..CLASSES)
            .map(|c| {
                let spare = if self.spare[c].get().is_null() { 0 } else { magazine_blocks(c) };
                (self.loaded_len[c].get() as usize + spare) * class_size(c)
            })
            .sum()
    }

    /// Gives full magazines to `depot` and frees the rest (a thread's exit).
    fn release(&self, depot: &Depot) {
        for class in 0..CLASSES {
            let loaded = self.loaded[class].replace(null_mut());
            let spare = self.spare[class].replace(null_mut());
            // SAFETY: both are this thread's magazines, listed nowhere else; the loaded one
            // holds `loaded_len` blocks, the spare one is full.
            unsafe {
                if self.loaded_len[class].replace(0) as usize == magazine_blocks(class) {
                    depot.give(class, loaded);
                } else {
                    free_list(loaded, class);
                }
                if !spare.is_null() {
                    depot.give(class, spare);
                }
            }
        }
    }
}

impl Drop for ThreadCache {
    fn drop(&mut self) {
        self.release(&DEPOT);
    }
}

thread_local! {
    static CACHE: ThreadCache = const { ThreadCache::new() };
}

/// The bytes in the calling thread's magazines (0 once they are gone, at its exit).
pub fn cached_bytes() -> usize {
    CACHE.try_with(ThreadCache::bytes).unwrap_or(0)
}

/// The allocator: the calling thread's magazines (and the depot behind them) for small
/// blocks, [`System`] for the rest, and for everything while the thread's cache is being
/// destroyed (at its exit).
pub struct ThreadCaching;

// SAFETY: every block handed out is a live `System` block of at least the layout's size and
// alignment (a small one of its class's size, 16-aligned), owned by the caller alone until it
// comes back; a listed block is reachable from one magazine only, and a magazine from one
// thread's cache or the depot only.
unsafe impl GlobalAlloc for ThreadCaching {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => match CACHE.try_with(|c| c.pop(class, &DEPOT)) {
                Ok(block) if !block.is_null() => block,
                _ => System.alloc(class_layout(class)),
            },
            None => System.alloc(layout),
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            Some(class) => match CACHE.try_with(|c| c.pop(class, &DEPOT)) {
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
                if CACHE.try_with(|c| c.push(class, ptr, &DEPOT)).is_err() {
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
            a.dealloc(p, l);
            // Any size of the same class reuses it: the last block freed is the first handed out.
            let q = a.alloc(layout(33, 4));
            assert_eq!(q, p);
            a.dealloc(q, layout(33, 4));
        }
    }

    #[test]
    fn magazines_hold_about_eight_kib_of_8_to_64_blocks() {
        for class in 0..CLASSES {
            let n = magazine_blocks(class);
            assert!((8..=64).contains(&n), "class {class}: {n}");
            assert!(n * class_size(class) <= MAGAZINE_BYTES, "class {class}");
            // Used in a u8 counter.
            assert!(n < u8::MAX as usize);
        }
        assert_eq!(magazine_blocks(0), 64);
        assert_eq!(magazine_blocks(CLASSES - 1), 8);
    }

    /// `count` fresh blocks of `class`, each filled with its index.
    fn system_blocks(class: usize, count: usize) -> Vec<*mut u8> {
        (0..count)
            .map(|i| unsafe {
                let p = System.alloc(class_layout(class));
                fill(p, class_size(class), i as u8);
                p
            })
            .collect()
    }

    /// Empties `depot`, freeing its blocks.
    fn drain(depot: &Depot) {
        for class in 0..CLASSES {
            loop {
                let magazine = depot.take(class);
                if magazine.is_null() {
                    break;
                }
                unsafe { free_list(magazine, class) };
            }
        }
    }

    #[test]
    fn a_thread_keeps_two_magazines_and_another_thread_takes_the_rest_from_the_depot() {
        let depot = Depot::new();
        for class in [0, 3, 20, CLASSES - 1] {
            let per = magazine_blocks(class);
            let blocks = system_blocks(class, 5 * per);
            let freeing = ThreadCache::new();
            for &b in &blocks {
                freeing.push(class, b, &depot);
                assert!(freeing.bytes() <= 2 * per * class_size(class));
            }
            assert_eq!(freeing.bytes(), 2 * per * class_size(class));
            assert_eq!(depot.bytes(), 3 * per * class_size(class));
            // A thread with empty magazines takes whole ones from the depot, the most recently
            // given first, and gets exactly the blocks freed on the other thread.
            let taking = ThreadCache::new();
            let mut got: Vec<*mut u8> = (0..3 * per).map(|_| taking.pop(class, &depot)).collect();
            assert!(got.iter().all(|p| !p.is_null()));
            assert!(taking.pop(class, &depot).is_null(), "nothing is left in the depot");
            assert_eq!(depot.bytes(), 0);
            assert_eq!(taking.bytes(), 0);
            // The freeing thread's own two magazines come back to it, last freed first.
            let own: Vec<*mut u8> = (0..2 * per).map(|_| freeing.pop(class, &depot)).collect();
            assert_eq!(own[0], *blocks.last().unwrap());
            got.extend(own);
            got.sort();
            let mut expected = blocks.clone();
            expected.sort();
            assert_eq!(got, expected, "every block handed out once");
            for b in blocks {
                unsafe { System.dealloc(b, class_layout(class)) };
            }
        }
    }

    #[test]
    fn the_depot_frees_what_comes_beyond_its_budget() {
        let depot = Depot::new();
        let class = CLASSES - 1;
        let magazine_bytes = magazine_blocks(class) * class_size(class);
        let cache = ThreadCache::new();
        for b in system_blocks(class, (DEPOT_BYTES / magazine_bytes + 4) * magazine_blocks(class)) {
            cache.push(class, b, &depot);
            assert!(depot.bytes() <= DEPOT_BYTES);
        }
        assert_eq!(depot.bytes(), DEPOT_BYTES / magazine_bytes * magazine_bytes);
        cache.release(&depot);
        assert_eq!(cache.bytes(), 0);
        drain(&depot);
        assert_eq!(depot.bytes(), 0);
    }

    #[test]
    fn a_partly_used_magazine_is_freed_at_exit_and_full_ones_go_to_the_depot() {
        let depot = Depot::new();
        let class = 5;
        let per = magazine_blocks(class);
        let cache = ThreadCache::new();
        for b in system_blocks(class, per + per / 2) {
            cache.push(class, b, &depot);
        }
        cache.release(&depot);
        assert_eq!(depot.bytes(), per * class_size(class), "the full spare is kept");
        assert_eq!(cache.bytes(), 0);
        drain(&depot);
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
    fn blocks_freed_on_another_thread_are_reused_there() {
        let a = ThreadCaching;
        let l = layout(64, 8);
        let blocks: Vec<usize> = (0..1000)
            .map(|i| unsafe {
                let p = a.alloc(l);
                fill(p, 64, i as u8);
                p as usize
            })
            .collect();
        std::thread::spawn(move || unsafe {
            for (i, &b) in blocks.iter().enumerate() {
                assert!(holds(b as *const u8, 64, i as u8));
                a.dealloc(b as *mut u8, l);
            }
            assert!(cached_bytes() <= 2 * 1024 * 1024, "a thread keeps two magazines per class");
            let reused = a.alloc(l) as usize;
            assert_eq!(reused, *blocks.last().unwrap());
            a.dealloc(reused as *mut u8, l);
        })
        .join()
        .unwrap();
    }

    extern "C" {
        fn fork() -> i32;
        fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
        fn kill(pid: i32, signal: i32) -> i32;
        fn _exit(code: i32) -> !;
    }

    #[test]
    fn a_child_forked_while_other_threads_use_the_depot_can_allocate() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        // One thread allocates blocks and another frees them: magazines go to the depot and
        // come back from it all the time, so a fork often finds its lock taken.
        let stop = Arc::new(AtomicBool::new(false));
        let (send, receive) = std::sync::mpsc::sync_channel::<Vec<Box<[u8; 48]>>>(4);
        let producer = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let blocks: Vec<Box<[u8; 48]>> = (0..512).map(|i| Box::new([i as u8; 48])).collect();
                    if send.send(blocks).is_err() {
                        break;
                    }
                }
            })
        };
        let consumer = std::thread::spawn(move || while receive.recv().is_ok() {});
        for _ in 0..300 {
            // SAFETY: the child only allocates, frees and exits.
            let pid = unsafe { fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                // More blocks than two magazines, so the child's thread takes from the depot
                // and gives to it.
                let blocks: Vec<Box<[u8; 48]>> = (0..2000).map(|i| Box::new([i as u8; 48])).collect();
                let ok = blocks.iter().enumerate().all(|(i, b)| b[47] == i as u8);
                drop(blocks);
                // SAFETY: ends the child without running the parent's destructors.
                unsafe { _exit(if ok { 0 } else { 1 }) };
            }
            let started = std::time::Instant::now();
            let mut status = 0;
            loop {
                // SAFETY: waits for our own child without blocking (WNOHANG = 1).
                let done = unsafe { waitpid(pid, &mut status, 1) };
                if done == pid {
                    break;
                }
                if started.elapsed() > std::time::Duration::from_secs(10) {
                    // SAFETY: kills our own child (SIGKILL = 9).
                    unsafe { kill(pid, 9) };
                    stop.store(true, Ordering::Relaxed);
                    panic!("a forked child hung on the allocator's depot");
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            assert_eq!(status, 0, "the child's blocks lost their contents");
        }
        stop.store(true, Ordering::Relaxed);
        producer.join().unwrap();
        consumer.join().unwrap();
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
            (size.clone(), 0u32..=6, any::<bool>()).prop_map(|(size, align_log2, zeroed)| Step::Alloc {
                size,
                align_log2,
                zeroed
            }),
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
