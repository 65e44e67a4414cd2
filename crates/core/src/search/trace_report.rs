//! The machine-readable shape of an A* search tree ([`super::trace::astar_trace`] on a
//! [`PuzzleGraph`]), shared by the web API's `/api/trace` and the WebAssembly build so the page
//! reads one shape: nodes numbered in the order they were added, each with its tiles, g, h, f,
//! state (`expanded`, `frontier`, `superseded`, `goal`) and whether it lies on the final path.

use std::collections::HashSet;

use super::puzzle_graph::{PackedBoard, PuzzleGraph};
use super::trace::{Trace, TraceState};
use crate::board::{Board, Tile, BLANK};
use crate::moves::Move;

/// One node of the tree as reported.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TraceNodeReport {
    /// Number in the order the node was added (the root is 0).
    pub id: usize,
    /// The node it was reached from.
    pub parent: Option<usize>,
    /// Its tiles, row by row, the blank as 0.
    pub tiles: Vec<Tile>,
    /// The blank's move from the parent (`U`, `D`, `L`, `R`).
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: Option<String>,
    /// Cost so far.
    pub g: u32,
    /// Heuristic estimate.
    pub h: u32,
    /// `g + h`.
    pub f: u32,
    /// `expanded`, `frontier`, `superseded` or `goal`.
    pub state: &'static str,
    /// Order of expansion, for expanded nodes.
    pub order: Option<usize>,
    /// On the path from the root to the goal.
    pub on_path: bool,
}

/// A search tree as reported.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TraceReport {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The heuristic's name.
    pub heuristic: String,
    /// The tie order's name (`fifo`, `deepest`).
    pub tie_break: &'static str,
    /// True when the search reached the goal within the node limit.
    pub complete: bool,
    /// Ids of the nodes from the root to the goal.
    pub path: Vec<usize>,
    /// The path's moves (blank letters).
    pub moves: String,
    /// Every node, by id.
    pub nodes: Vec<TraceNodeReport>,
}

impl TraceReport {
    /// The report of `trace`, a tree searched from `board` on `graph`; `heuristic` and
    /// `tie_break` are the names to report.
    pub fn new(
        board: &Board,
        graph: &PuzzleGraph,
        trace: &Trace<PackedBoard>,
        heuristic: String,
        tie_break: &'static str,
    ) -> TraceReport {
        let on_path: HashSet<usize> = trace.path.iter().copied().collect();
        let (w, h) = (board.width(), board.height());
        let mut tiles = Vec::new();
        let mut blanks = Vec::with_capacity(trace.nodes.len());
        let nodes: Vec<TraceNodeReport> = trace
            .nodes
            .iter()
            .map(|n| {
                graph.unpack(&n.node, &mut tiles);
                let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
                blanks.push(blank);
                // The move is the one that takes the parent's blank to this node's blank.
                let mv = n.parent.and_then(|p| {
                    Move::ALL
                        .into_iter()
                        .find(|m| m.target(blanks[p], w, h) == Some(blank))
                });
                let (state, order) = match n.state {
                    TraceState::Frontier => ("frontier", None),
                    TraceState::Expanded(k) => ("expanded", Some(k)),
                    TraceState::Superseded => ("superseded", None),
                    TraceState::Goal => ("goal", None),
                };
                TraceNodeReport {
                    id: n.id,
                    parent: n.parent,
                    tiles: tiles.clone(),
                    mv: mv.map(|m| m.letter().to_string()),
                    g: n.g,
                    h: n.h,
                    f: n.g + n.h,
                    state,
                    order,
                    on_path: on_path.contains(&n.id),
                }
            })
            .collect();
        let moves = trace
            .path
            .iter()
            .skip(1)
            .filter_map(|&id| nodes[id].mv.as_deref())
            .collect();
        TraceReport {
            width: w,
            height: h,
            heuristic,
            tie_break,
            complete: trace.complete,
            path: trace.path.clone(),
            moves,
            nodes,
        }
    }
}
