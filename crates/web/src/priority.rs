//! Searches and table builds run at a lower OS scheduling priority (nice 10) than the threads
//! that accept connections and answer quick requests. With every core busy searching, the
//! scheduler would otherwise share the cores evenly between the searches and the async
//! threads, and a request such as `GET /api/info`, which needs microseconds of CPU, would wait
//! for the searches' time slices (a p95 over 100 ms under load). A lower priority only
//! reorders who runs first: the searches still get every core the server does not need.

use std::cell::Cell;

use thread_priority::{set_current_thread_priority, ThreadPriority, ThreadPriorityValue};

/// The niceness searches run at: low enough that a waking async thread preempts them at once,
/// not so low that other programs on the machine starve them (nice 19 is that).
pub const SEARCH_NICENESS: i32 = 10;

/// `thread_priority`'s portable scale (0 lowest to 99 highest) maps linearly onto niceness 19
/// to -20; this is the value that lands on [`SEARCH_NICENESS`] (checked by a test).
const SEARCH_PRIORITY: u8 = 22;

/// Lowers the calling thread to [`SEARCH_NICENESS`], once per thread (the blocking pool reuses
/// its threads). Threads it then spawns (the anytime search's, a table build's) inherit it. A
/// failure (a platform without niceness) leaves the thread as it was: slower answers under
/// load, never a refused search.
pub fn lower_current_thread() {
    thread_local! {
        static LOWERED: Cell<bool> = const { Cell::new(false) };
    }
    LOWERED.with(|lowered| {
        if !lowered.replace(true) {
            if let Ok(value) = ThreadPriorityValue::try_from(SEARCH_PRIORITY) {
                let _ = set_current_thread_priority(ThreadPriority::Crossplatform(value));
            }
        }
    });
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The calling thread's niceness, read from the kernel (field 19 of its stat line).
    fn niceness() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The command name (field 2) may hold spaces: count the fields after its ')'.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        after.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[test]
    fn a_lowered_thread_runs_at_the_search_niceness_and_its_children_too() {
        let process = niceness();
        std::thread::spawn(|| {
            let before = niceness();
            lower_current_thread();
            assert_eq!(niceness(), SEARCH_NICENESS.max(before));
            lower_current_thread();
            assert_eq!(niceness(), SEARCH_NICENESS.max(before));
            let child = std::thread::spawn(niceness).join().unwrap();
            assert_eq!(child, SEARCH_NICENESS.max(before));
        })
        .join()
        .unwrap();
        // Other threads are left alone (at the process's niceness, whatever it was started with).
        std::thread::spawn(move || assert_eq!(niceness(), process))
            .join()
            .unwrap();
    }
}
