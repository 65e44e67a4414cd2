//! What a front end of the API offers and may spend: the server sets these from its
//! configuration, the static page from what a browser tab can afford.

use std::time::Duration;

use taquin::Workload;

/// The limits every request is checked against, and how the planner should see the boards.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Largest board side accepted.
    pub max_side: usize,
    /// Time budget of a search when the request names none.
    pub default_timeout: Duration,
    /// Largest time budget a request may ask for.
    pub max_timeout: Duration,
    /// Largest node budget (nodes generated) of one search.
    pub max_nodes: u64,
    /// Memory budget of one search, in bytes.
    pub max_memory: usize,
    /// Largest number of cells of a board whose search tree may be traced.
    pub trace_max_cells: usize,
    /// Largest number of nodes in a traced search tree.
    pub trace_max_nodes: usize,
    /// Searches running at once (reported by `info`).
    pub workers: usize,
    /// `Many` where tables serve the boards of many people (a server): the planner then builds
    /// the standard pattern databases at once; `One` for one person's boards (a browser tab).
    pub workload: Workload,
}
