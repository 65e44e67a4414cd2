//! Asking the memory for data before it is read.
//!
//! Large tables (pattern databases of hundreds of megabytes, a beam's set of the boards it has
//! seen) are read at random: each read misses the caches and waits on the memory. A search that
//! knows several addresses before it needs their contents (the children of a node, a batch of
//! boards) asks for all of them first, so that the waits overlap.

/// Asks the processor to bring the cache line of `value` into its caches. A hint: it changes
/// nothing the program can see, and does nothing on processors without the instruction.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; the pointer comes from a
    // reference, so it is valid anyway.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
