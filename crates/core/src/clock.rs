//! The clock of every time limit and timing figure. `std::time::Instant` panics in a browser
//! (wasm32-unknown-unknown has no system clock), so there it is `web_time::Instant`, which reads
//! `performance.now()`; everywhere else it is the standard one.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
