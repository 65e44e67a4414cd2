//! What the web test suites share.
#![allow(dead_code)]

use std::time::Duration;

use taquin_web::Config;

/// The article's board (31 moves to the standard goal).
pub const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";

/// A small server: two workers, a short queue wait, tables in memory.
pub fn config() -> Config {
    Config {
        workers: 2,
        queue_wait: Duration::from_millis(50),
        ..Config::default()
    }
}
