//! A global allocator for tests of memory budgets: the system allocator, counting the bytes
//! held and their peak, on the threads marked to count ([`measure_on_this_thread`]) or on every
//! thread ([`measure_everywhere`]: a search that runs on threads of its own). A test binary that
//! includes this module (`#[path = "support/counting.rs"] mod counting;`) gets the allocator for
//! all its tests.
//!
//! Counting on one thread only leaves out the test harness's own threads, which allocate at
//! moments of their own (counting them made a test fail now and then by a few hundred bytes).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

// Signed: a block allocated before the count began may be freed while it runs.
static NOW: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static EVERYWHERE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// True on a thread whose allocations are counted, while they are.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn counting() -> bool {
    EVERYWHERE.load(Ordering::Relaxed) || COUNTING.try_with(Cell::get).unwrap_or(false)
}

fn grew(bytes: usize) {
    if counting() {
        let now = NOW.fetch_add(bytes as isize, Ordering::SeqCst) + bytes as isize;
        PEAK.fetch_max(now, Ordering::SeqCst);
    }
}

fn shrank(bytes: usize) {
    if counting() {
        NOW.fetch_sub(bytes as isize, Ordering::SeqCst);
    }
}

/// Runs `f` with the allocations of this thread counted: what it returned, and the most bytes
/// held at once while it ran, beyond those held when it began.
#[allow(dead_code)]
pub fn measure_on_this_thread<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, peak_since(base))
}

/// Runs `f` with the allocations of every thread counted (a search on threads of its own; the
/// test binary should have no other test running meanwhile): what it returned, and the most
/// bytes held at once while it ran, beyond those held when it began.
#[allow(dead_code)]
pub fn measure_everywhere<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    EVERYWHERE.store(true, Ordering::SeqCst);
    let out = f();
    EVERYWHERE.store(false, Ordering::SeqCst);
    (out, peak_since(base))
}

fn peak_since(base: isize) -> usize {
    usize::try_from(PEAK.load(Ordering::SeqCst) - base).unwrap_or(0)
}

/// The system allocator, counting the bytes held and their peak.
struct Counting;

// Counting only: every call goes to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Old and new blocks both counted while it runs, as when it copies.
        grew(new_size);
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            shrank(new_size);
        } else {
            shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;
