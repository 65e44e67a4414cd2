//! A* that records its search tree, for teaching: every node is numbered in the order it was
//! added, keeps its g and h, and ends up expanded, still on the frontier, or on the final path.
//!
//! This is the tree a textbook draws (and the web game's search view shows): a successor is added
//! as a new tree node unless its state is already in the tree at an equal or smaller g, so the
//! blank never goes straight back and each state appears once per improvement of its cost. The
//! open list takes the smallest f = g + h first; among equal f, as [`TieBreak`] says: first
//! added first (a tutorial's priority queue, the default), or the deepest first, then first
//! added (like [`astar()`](super::astar())). Either way the same board always draws the same tree.
//!
//! It stores a whole node per tree entry and is meant for small boards and small budgets; the
//! solvers do not use it.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::Graph;

/// What became of a node of the tree by the time the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceState {
    /// Still waiting on the open list (the frontier).
    Frontier,
    /// Taken off the open list and expanded; the number is the order of expansion (0 first).
    Expanded(usize),
    /// Taken off the open list after a cheaper path to its state had been found, so not expanded.
    Superseded,
    /// The goal, taken off the open list: the search ends there.
    Goal,
}

/// Which node of equal f the open list takes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// The one added first: a first-in first-out priority queue, as tutorials draw A*.
    #[default]
    FirstIn,
    /// The one with the larger g (deepest), then the one added first: the order of the solvers'
    /// A*, which reaches the goal sooner.
    Deepest,
}

impl TieBreak {
    /// The name used in the web API: `fifo` or `deepest`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::FirstIn => "fifo",
            TieBreak::Deepest => "deepest",
        }
    }

    /// The order named `name`, if any.
    pub fn from_name(name: &str) -> Option<TieBreak> {
        [TieBreak::FirstIn, TieBreak::Deepest]
            .into_iter()
            .find(|t| t.name() == name)
    }

    /// The open list's second key after f (larger first).
    fn key(self, g: u32) -> u32 {
        match self {
            TieBreak::FirstIn => 0,
            TieBreak::Deepest => g,
        }
    }
}

/// One node of the recorded tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceNode<N> {
    /// The node's number: its position in the order nodes were added (the start is 0).
    pub id: usize,
    /// The node it was generated from (`None` for the start).
    pub parent: Option<usize>,
    /// The graph node (for the puzzle, a packed board).
    pub node: N,
    /// Cost from the start.
    pub g: u32,
    /// The heuristic's estimate to the goal.
    pub h: u32,
    /// What became of it.
    pub state: TraceState,
}

/// A recorded A* search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace<N> {
    /// Every node added, in the order it was added (`nodes[i].id == i`).
    pub nodes: Vec<TraceNode<N>>,
    /// Ids of the nodes from the start to the goal when one was reached, else empty.
    pub path: Vec<usize>,
    /// False when `max_nodes` stopped the search before it reached a goal (or exhausted the graph).
    pub complete: bool,
}

/// Runs A* from `start`, recording at most `max_nodes` tree nodes (at least the start), taking
/// nodes of equal f in the order `tie` says.
///
/// ```
/// use taquin::search::trace::{astar_trace, TraceState};
/// use taquin::search::puzzle_graph::PuzzleGraph;
/// use taquin::{heuristic::Manhattan, Board};
/// let goal = Board::solved(3, 3)?;
/// let start: Board = "1 2 3/4 5 6/0 7 8".parse()?;
/// let h = Manhattan::new(&goal);
/// let graph = PuzzleGraph::new(&goal, &h);
/// let trace = astar_trace(&graph, graph.pack(start.tiles()), 100, Default::default());
/// assert!(trace.complete);
/// assert_eq!(trace.path.len(), 3); // two moves: start, one step, goal
/// assert_eq!(trace.nodes[*trace.path.last().unwrap()].state, TraceState::Goal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn astar_trace<G: Graph>(
    graph: &G,
    start: G::Node,
    max_nodes: usize,
    tie: TieBreak,
) -> Trace<G::Node> {
    let max_nodes = max_nodes.max(1);
    let mut nodes: Vec<TraceNode<G::Node>> = Vec::new();
    // Best g known for each state, to decide whether a successor is worth a new tree node.
    let mut best: HashMap<G::Node, u32> = HashMap::new();
    // (Reverse(f), tie key, Reverse(id)): smallest f, then the tie-break, then first added.
    let mut open: BinaryHeap<(Reverse<u32>, u32, Reverse<usize>)> = BinaryHeap::new();
    let h0 = graph.heuristic(&start);
    best.insert(start.clone(), 0);
    nodes.push(TraceNode {
        id: 0,
        parent: None,
        node: start,
        g: 0,
        h: h0,
        state: TraceState::Frontier,
    });
    open.push((Reverse(h0), 0, Reverse(0)));
    let mut expansions = 0;
    let mut successors = Vec::new();

    while let Some((_, _, Reverse(id))) = open.pop() {
        let g = nodes[id].g;
        if best.get(&nodes[id].node).is_some_and(|&b| b < g) {
            nodes[id].state = TraceState::Superseded;
            continue;
        }
        if graph.is_goal(&nodes[id].node) {
            nodes[id].state = TraceState::Goal;
            let mut path = vec![id];
            let mut at = id;
            while let Some(p) = nodes[at].parent {
                path.push(p);
                at = p;
            }
            path.reverse();
            return Trace {
                nodes,
                path,
                complete: true,
            };
        }
        successors.clear();
        graph.neighbours(&nodes[id].node, &mut successors);
        // Checked before expanding, so that a truncated tree never shows a node marked expanded
        // with only some of its children.
        let fresh = successors
            .iter()
            .filter(|(n, step)| best.get(n).is_none_or(|&b| g + step < b))
            .count();
        if nodes.len() + fresh > max_nodes {
            // Put it back: it stays on the frontier.
            open.push((Reverse(g + nodes[id].h), tie.key(g), Reverse(id)));
            return Trace {
                nodes,
                path: Vec::new(),
                complete: false,
            };
        }
        nodes[id].state = TraceState::Expanded(expansions);
        expansions += 1;
        for (next, step) in successors.drain(..) {
            let ng = g + step;
            if best.get(&next).is_some_and(|&b| b <= ng) {
                continue;
            }
            best.insert(next.clone(), ng);
            let h = graph.heuristic(&next);
            let child = nodes.len();
            nodes.push(TraceNode {
                id: child,
                parent: Some(id),
                node: next,
                g: ng,
                h,
                state: TraceState::Frontier,
            });
            open.push((Reverse(ng + h), tie.key(ng), Reverse(child)));
        }
    }
    Trace {
        nodes,
        path: Vec::new(),
        complete: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Manhattan;
    use crate::search::puzzle_graph::PuzzleGraph;
    use crate::{solve, Algorithm, Board, HeuristicKind, Limits, Request, SolveOptions, Tables};

    fn trace_of(
        start: &str,
        goal: &Board,
        max: usize,
    ) -> Trace<super::super::puzzle_graph::PackedBoard> {
        let h = Manhattan::new(goal);
        let graph = PuzzleGraph::new(goal, &h);
        let board: Board = start.parse().unwrap();
        astar_trace(&graph, graph.pack(board.tiles()), max, TieBreak::Deepest)
    }

    #[test]
    fn path_is_optimal_and_numbered_in_order() {
        let goal = Board::solved(3, 3).unwrap();
        let start = "4 1 3/7 2 6/0 5 8";
        let trace = trace_of(start, &goal, 1000);
        assert!(trace.complete);
        let board: Board = start.parse().unwrap();
        let request = Request::new(board, goal.clone(), Limits::none()).unwrap();
        let options = SolveOptions::new(Algorithm::Bfs, HeuristicKind::Manhattan);
        let optimal = solve(&request, &options, &Tables::in_memory(), None).unwrap();
        assert_eq!(trace.path.len(), optimal.len() + 1);
        for (i, n) in trace.nodes.iter().enumerate() {
            assert_eq!(n.id, i);
            // A parent is always added before its children.
            assert!(n.parent.is_none_or(|p| p < i));
            if let Some(p) = n.parent {
                assert_eq!(n.g, trace.nodes[p].g + 1);
            }
        }
        // The path's f values never decrease with a consistent heuristic (Manhattan).
        let f: Vec<u32> = trace
            .path
            .iter()
            .map(|&i| trace.nodes[i].g + trace.nodes[i].h)
            .collect();
        assert!(f.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn budget_truncates_without_half_expanded_nodes() {
        let goal = Board::solved(3, 3).unwrap();
        let trace = trace_of("8 6 7/2 5 4/3 0 1", &goal, 20);
        assert!(!trace.complete);
        assert!(trace.path.is_empty());
        assert!(trace.nodes.len() <= 20);
        for n in &trace.nodes {
            if let TraceState::Expanded(_) = n.state {
                let children = trace
                    .nodes
                    .iter()
                    .filter(|c| c.parent == Some(n.id))
                    .count();
                assert!(children >= 1);
            }
        }
        assert!(trace.nodes.iter().any(|n| n.state == TraceState::Frontier));
    }

    #[test]
    fn first_in_order_expands_equal_f_in_the_order_added() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "4 1 3/7 2 6/0 5 8".parse().unwrap();
        let h = Manhattan::new(&goal);
        let graph = PuzzleGraph::new(&goal, &h);
        let fifo = astar_trace(&graph, graph.pack(board.tiles()), 1000, TieBreak::FirstIn);
        let deep = astar_trace(&graph, graph.pack(board.tiles()), 1000, TieBreak::Deepest);
        // Both find an optimal path.
        assert_eq!(fifo.path.len(), deep.path.len());
        // In the first-in order, among expanded nodes of equal f, ids rise with expansion order.
        let mut expanded: Vec<(usize, u32, usize)> = fifo
            .nodes
            .iter()
            .filter_map(|n| match n.state {
                TraceState::Expanded(k) => Some((k, n.g + n.h, n.id)),
                _ => None,
            })
            .collect();
        expanded.sort_unstable();
        for pair in expanded.windows(2) {
            let ((_, f1, id1), (_, f2, id2)) = (pair[0], pair[1]);
            assert!(f1 < f2 || (f1 == f2 && id1 < id2), "{pair:?}");
        }
        // The deepest-first order breaks ties otherwise on this board.
        assert_ne!(fifo.nodes.len(), 0);
        assert!(deep.nodes.len() <= fifo.nodes.len());
    }

    #[test]
    fn start_on_goal_is_a_single_node() {
        let goal = Board::solved(2, 2).unwrap();
        let trace = trace_of("1 2/3 0", &goal, 5);
        assert_eq!(trace.nodes.len(), 1);
        assert_eq!(trace.path, vec![0]);
        assert_eq!(trace.nodes[0].state, TraceState::Goal);
    }
}
