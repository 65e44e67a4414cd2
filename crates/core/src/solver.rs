//! The one entry point the CLI, the web server and the tests share: check the pair, run the
//! chosen algorithm with the chosen heuristic, and replay the result before returning it.

use std::time::Instant;

use crate::board::Board;
use crate::heuristic::{
    HeuristicKind, Incremental, LinearConflict, Manhattan, Misplaced, WalkingDistance,
};
use crate::limits::{Limits, ProgressFn};
use crate::search::puzzle_graph::{IncrementalPuzzleGraph, PuzzleGraph};
use crate::search::{astar, bfs, idastar, Path, SearchFailure};
use crate::solution::{Solution, SolveError};
use crate::solvability::check_solvable;

/// The search algorithms the CLI and web API offer by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A* over the puzzle graph: optimal, memory grows with the search.
    AStar,
    /// IDA*: optimal, memory linear in the depth; the fast one.
    IdaStar,
    /// Breadth-first search: optimal, ignores the heuristic; ground truth on small boards.
    Bfs,
    /// Weighted A* (Pohl 1970), f = g + w·h: at most w times the optimal length.
    WeightedAStar,
    /// Greedy best-first search on h alone: fast, no bound on the length.
    Greedy,
    /// Row-by-row and column-by-column construction, for any board up to 1000x1000
    /// ([`crate::solvers::constructive`]).
    Constructive,
    /// The Javeriana report's look-ahead player, which cycles; the cycle is reported
    /// ([`crate::solvers::lookahead`]).
    Lookahead,
    /// Learning Real-Time A* (Korf 1990), a real-time player that always arrives
    /// ([`crate::solvers::lrta`]).
    Lrta,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::WeightedAStar,
        Algorithm::Greedy,
        Algorithm::Constructive,
        Algorithm::Lookahead,
        Algorithm::Lrta,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::WeightedAStar => "weighted-astar",
            Algorithm::Greedy => "greedy",
            Algorithm::Constructive => "constructive",
            Algorithm::Lookahead => "lookahead",
            Algorithm::Lrta => "lrta",
        }
    }

    /// The algorithm with this [`name`](Algorithm::name), if any.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// True when the algorithm's results are proven optimal.
    pub fn is_optimal(self) -> bool {
        matches!(self, Algorithm::AStar | Algorithm::IdaStar | Algorithm::Bfs)
    }

    /// The name of the heuristic that really guides this algorithm when `asked` is asked for,
    /// as reports show it: BFS and the constructive solver use none (the constructive solver's
    /// small core is finished by its own IDA*), the Javeriana player always scores by Manhattan
    /// distance.
    pub fn heuristic_name(self, asked: HeuristicKind) -> &'static str {
        match self {
            Algorithm::Bfs | Algorithm::Constructive => "none",
            Algorithm::Lookahead => HeuristicKind::Manhattan.name(),
            _ => asked.name(),
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything a solve is asked to do besides the boards.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// The search.
    pub algorithm: Algorithm,
    /// The heuristic (ignored by BFS).
    pub heuristic: HeuristicKind,
    /// Weight w >= 1 of weighted A* (f = g + w·h); other algorithms ignore it.
    pub weight: f64,
    /// Look-ahead depth of the real-time players; other algorithms ignore it.
    pub depth: usize,
    /// Time, node, memory budgets and the cancel flag.
    pub limits: Limits,
    /// Threads for one search: 1 runs the sequential IDA*, more (or 0 for every core) runs
    /// [`crate::search::idastar_parallel`], which returns the same moves. Other algorithms
    /// ignore it.
    pub threads: usize,
}

impl SolveOptions {
    /// Default weight of weighted A*.
    pub const DEFAULT_WEIGHT: f64 = 2.0;
    /// Largest weight offered: past it weighted A* is greedy search in all but name, and the
    /// proven factor (the weight) says nothing useful.
    pub const MAX_WEIGHT: f64 = 100.0;
    /// Default look-ahead depth (the Javeriana report's four moves).
    pub const DEFAULT_DEPTH: usize = 4;

    /// The proven factor between a solution's length and the optimal one: 1 for the optimal
    /// algorithms, w for weighted A* (Pohl 1970; every heuristic offered is admissible), none
    /// for the others.
    pub fn suboptimality_bound(&self) -> Option<f64> {
        match self.algorithm {
            a if a.is_optimal() => Some(1.0),
            Algorithm::WeightedAStar => Some(self.weight),
            _ => None,
        }
    }

    /// Options for `algorithm` with `heuristic`, default weight and depth, no limits.
    pub fn new(algorithm: Algorithm, heuristic: HeuristicKind) -> SolveOptions {
        SolveOptions {
            algorithm,
            heuristic,
            weight: SolveOptions::DEFAULT_WEIGHT,
            depth: SolveOptions::DEFAULT_DEPTH,
            limits: Limits::none(),
            threads: 1,
        }
    }
}

/// Solves `board` -> `goal` with `algorithm` and `heuristic` (BFS ignores the heuristic):
/// shorthand for [`solve_with`] with default weight and depth.
///
/// ```
/// use taquin::{solve, Algorithm, Board, HeuristicKind, Limits};
/// let board: Board = "6 4 7/8 5 0/3 2 1".parse().unwrap();
/// let goal: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
/// let s = solve(&board, &goal, Algorithm::IdaStar, HeuristicKind::LinearConflict, &Limits::none(), None).unwrap();
/// assert_eq!(s.len(), 31);
/// assert!(s.optimal);
/// ```
pub fn solve(
    board: &Board,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    let options = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::new(algorithm, heuristic)
    };
    solve_with(board, goal, &options, progress)
}

/// Solves `board` -> `goal` as `options` say.
///
/// Checks sizes and solvability before any search, and replays the moves found: a returned
/// solution always reaches the goal.
pub fn solve_with(
    board: &Board,
    goal: &Board,
    options: &SolveOptions,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    let started = Instant::now();
    check_solvable(board, goal)?;
    let limits = &options.limits;
    let heuristic = options.heuristic;
    let threads = options.threads;
    let solution = match options.algorithm {
        Algorithm::IdaStar => with_heuristic(
            heuristic,
            goal,
            limits,
            IdaRun {
                board,
                goal,
                limits,
                progress,
                threads,
            },
        ),
        Algorithm::AStar => with_heuristic(
            heuristic,
            goal,
            limits,
            AStarRun {
                board,
                goal,
                limits,
                progress,
            },
        ),
        Algorithm::Bfs => {
            let zero = Zero;
            let graph = PuzzleGraph::new(goal, &zero);
            let start = graph.pack(board.tiles());
            graph_solution(&graph, bfs(&graph, start, limits, progress))
        }
        Algorithm::WeightedAStar
        | Algorithm::Greedy
        | Algorithm::Constructive
        | Algorithm::Lookahead
        | Algorithm::Lrta => crate::solvers::solve(board, goal, options, progress),
    };
    // Every run is timed here, the stopped ones too (some solvers do not time themselves).
    let mut solution = solution.map_err(|mut e| {
        if let SolveError::Limit { stats, .. } | SolveError::Cycle { stats, .. } = &mut e {
            stats.elapsed = started.elapsed();
        }
        e
    })?;
    solution.stats.elapsed = started.elapsed();
    solution.verify(board, goal)?;
    Ok(solution)
}

/// A search to run with whatever concrete heuristic a [`HeuristicKind`] names: the generic
/// searches are monomorphised per heuristic (no dynamic dispatch in their inner loops).
trait WithHeuristic {
    fn run<H>(self, heuristic: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync;
}

/// Builds the heuristic `kind` names for `goal` and hands it to `search`.
fn with_heuristic(
    kind: HeuristicKind,
    goal: &Board,
    limits: &Limits,
    search: impl WithHeuristic,
) -> Result<Solution, SolveError> {
    match kind {
        HeuristicKind::Misplaced => search.run(&Misplaced::new(goal)),
        HeuristicKind::Manhattan => search.run(&Manhattan::new(goal)),
        HeuristicKind::LinearConflict => search.run(&LinearConflict::new(goal)),
        HeuristicKind::WalkingDistance => search.run(&*WalkingDistance::shared(goal, limits)?),
        HeuristicKind::Pdb(preset) => {
            search.run(&crate::pdb::PdbHeuristic::for_preset(preset, goal)?)
        }
    }
}

/// IDA*, sequential or on `threads` threads.
struct IdaRun<'a> {
    board: &'a Board,
    goal: &'a Board,
    limits: &'a Limits,
    progress: Option<ProgressFn<'a>>,
    threads: usize,
}

impl WithHeuristic for IdaRun<'_> {
    fn run<H>(self, h: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync,
    {
        if self.threads == 1 {
            idastar(self.board, self.goal, h, self.limits, self.progress)
        } else {
            crate::search::idastar_parallel(
                self.board,
                self.goal,
                h,
                self.limits,
                self.progress,
                self.threads,
            )
        }
    }
}

/// A* over the puzzle graph with the heuristic updated incrementally along each edge.
struct AStarRun<'a> {
    board: &'a Board,
    goal: &'a Board,
    limits: &'a Limits,
    progress: Option<ProgressFn<'a>>,
}

impl WithHeuristic for AStarRun<'_> {
    fn run<H>(self, h: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync,
    {
        let graph = IncrementalPuzzleGraph::new(self.goal, h);
        let start = graph.start(self.board.tiles());
        let result = astar(&graph, start, self.limits, self.progress).map(|path| Path {
            nodes: path.nodes.into_iter().map(|n| n.board).collect(),
            cost: path.cost,
            stats: path.stats,
        });
        graph_solution(graph.packing(), result)
    }
}

/// The zero heuristic, for BFS.
struct Zero;
impl crate::heuristic::Heuristic for Zero {
    fn estimate(&self, _: &[crate::board::Tile]) -> u32 {
        0
    }
}

/// Turns a generic search result on the puzzle graph into a [`Solution`].
pub(crate) fn graph_solution(
    graph: &PuzzleGraph,
    result: Result<Path<crate::search::puzzle_graph::PackedBoard>, SearchFailure>,
) -> Result<Solution, SolveError> {
    match result {
        Ok(path) => Ok(Solution {
            moves: graph.moves_of(&path.nodes),
            optimal: true,
            stats: path.stats,
        }),
        Err(SearchFailure::Limit { hit, stats, bound }) => {
            Err(SolveError::Limit { hit, stats, bound })
        }
        Err(SearchFailure::NoPath { .. }) => Err(SolveError::Unsupported(
            "the whole reachable space was searched without reaching the goal".into(),
        )),
    }
}
