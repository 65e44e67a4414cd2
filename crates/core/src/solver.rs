//! The front door of the core: a validated [`Request`], a [`Plan`] from the planner, the run,
//! and a solution replayed before it is returned. The CLI, the web server, the bindings and the
//! tests all enter through [`solve`] (or [`crate::plan`] then [`Plan::run`], to show the plan
//! first).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::clock::Instant;

use crate::algorithm::Algorithm;
use crate::board::Board;
use crate::heuristic::{HeuristicKind, Incremental, LinearConflict, Manhattan, Misplaced};
use crate::limits::{LimitHit, Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::pdb::BuildPolicy;
use crate::planner::Plan;
use crate::request::Request;
use crate::search::idastar::{idastar_between, Between};
use crate::search::parallel::{idastar_parallel_between, threads_or_cores};
use crate::search::puzzle_graph::{graph_solution, IncrementalPuzzleGraph, PuzzleGraph};
use crate::search::{astar, bfs, CheckpointFile, Path};
use crate::solution::{Solution, SolveError};
use crate::solvers::anytime::{run_detached, BeamIncumbent, Best, BEAMS_BEYOND_CELLS};
use crate::symmetry::Symmetry;
use crate::tables::Tables;

/// The first answer of an anytime run whose tables turned out damaged, kept for the plan run
/// instead of it ([`Plan::run`]).
type FirstAnswer = RefCell<Option<Vec<Move>>>;

/// How many boards the caller will solve with the same tables: a table that builds in a second
/// pays off over a benchmark, not always over one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Workload {
    /// One board (a single `taquin solve`).
    #[default]
    One,
    /// Many boards (a benchmark, a batch, a server).
    Many,
}

/// What a solve is asked to do besides the boards and limits: the algorithm and heuristic
/// (`None`: the planner chooses), and the knobs of some algorithms.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOptions {
    /// The search; `None` lets the planner choose.
    pub algorithm: Option<Algorithm>,
    /// The heuristic; `None` lets the planner choose.
    pub heuristic: Option<HeuristicKind>,
    /// Weight w >= 1 of weighted A* (f = g + w·h); other algorithms ignore it.
    pub weight: f64,
    /// Look-ahead depth of the real-time players; other algorithms ignore it.
    pub depth: usize,
    /// Threads for one search: 1 runs the sequential IDA*, more (or 0 for every core) runs
    /// [`crate::search::idastar_parallel`], which returns the same moves. More than
    /// [`crate::limits::MAX_THREADS`] are taken as that many (a count a user typed is better
    /// checked with [`crate::limits::thread_count`], which refuses it). Other algorithms
    /// ignore it.
    pub threads: usize,
    /// How many boards will be solved with the same tables (see [`Workload`]).
    pub workload: Workload,
    /// Where IDA* keeps its place as it goes, and resumes from ([`crate::search::checkpoint`]):
    /// a search too long for one sitting goes on where the last one stopped. IDA* then runs
    /// on the parallel engine, with `threads` threads (1 included). Other algorithms ignore it.
    pub checkpoint: Option<Arc<CheckpointFile>>,
}

impl Default for SolveOptions {
    /// Everything left to the planner, one thread, one board.
    fn default() -> SolveOptions {
        SolveOptions {
            algorithm: None,
            heuristic: None,
            weight: SolveOptions::DEFAULT_WEIGHT,
            depth: SolveOptions::DEFAULT_DEPTH,
            threads: 1,
            workload: Workload::One,
            checkpoint: None,
        }
    }
}

impl SolveOptions {
    /// Default weight of weighted A*.
    pub const DEFAULT_WEIGHT: f64 = 2.0;
    /// Largest weight offered: past it weighted A* is greedy search in all but name, and the
    /// proven factor (the weight) says nothing useful.
    pub const MAX_WEIGHT: f64 = 100.0;
    /// Default look-ahead depth (the four moves of the look-ahead player's report).
    pub const DEFAULT_DEPTH: usize = 4;

    /// Options asking for `algorithm` with `heuristic`, default weight and depth.
    pub fn new(algorithm: Algorithm, heuristic: HeuristicKind) -> SolveOptions {
        SolveOptions {
            algorithm: Some(algorithm),
            heuristic: Some(heuristic),
            ..SolveOptions::default()
        }
    }
}

/// Plans and solves `request`: the front door.
///
/// The planner fills in what `options` leave open; the run checks the request's limits and
/// cancel flag; the moves are replayed before they are returned, so a returned solution always
/// reaches the goal, and `optimal` is true only when the search proved it.
///
/// Time: the request's deadline, if it has one. Without one, a board of up to 16 cells is
/// searched until it is solved (or another limit stops it), and a larger one, given to the
/// anytime search (the planner's choice there, or asked for), is searched for
/// [`crate::planner::ANYTIME_BUDGET`] (10 s), then answered with the best solution found: set a
/// deadline ([`Limits::with_timeout`]) to choose another time.
///
/// ```
/// use taquin::{solve, Board, Limits, Request, SolveOptions, Tables};
/// let tables = Tables::in_memory();
/// let request = Request::new("6 4 7/8 5 0/3 2 1".parse()?, Board::solved(3, 3)?, Limits::none())?;
/// let solution = solve(&request, &SolveOptions::default(), &tables, None)?;
/// assert_eq!((solution.len(), solution.optimal, solution.lower_bound), (31, true, 31));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    request: &Request,
    options: &SolveOptions,
    tables: &Tables,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    crate::planner::plan(request, options, tables)?.run(request, tables, progress)
}

impl Plan {
    /// Runs the plan on `request` with the tables of `tables`: the search, then the replay of
    /// its moves. The solution records the plan's algorithm, heuristic and reason, and the best
    /// proven lower bound (the length itself when optimal).
    ///
    /// When the plan's tables are the planner's choice of a large set and one of their files
    /// turns out damaged at its load, the run goes on with the planner's next choice, within
    /// the same deadline: the answer's plan says so, with the command that rebuilds the set,
    /// and the tables' observer hears of the file at once.
    pub fn run(
        &self,
        request: &Request,
        tables: &Tables,
        progress: Option<ProgressFn>,
    ) -> Result<Solution, SolveError> {
        // The plan's budget, where the request sets no deadline: one deadline for the plan and
        // for any plan run instead of it.
        let budgeted;
        let request = match self.budget {
            Some(budget) if request.limits().deadline.is_none() => {
                budgeted = request
                    .clone()
                    .with_limits(request.limits().clone().with_timeout(budget));
                &budgeted
            }
            _ => request,
        };
        let started = Instant::now();
        if let (true, Some(deadline)) = (self.anytime_after_half, request.limits().deadline) {
            return self.run_then_anytime(started, deadline, request, tables, progress);
        }
        self.run_since(started, request, tables, progress, &FirstAnswer::default())
    }

    /// The plan's optimal search until half the time to `deadline` is gone, then, if it has
    /// not ended, the anytime search with the same heuristic until the deadline
    /// ([`Plan::anytime_after_half`]). The answer counts the nodes of both and keeps the
    /// larger of their proven bounds, and its plan says what happened.
    fn run_then_anytime(
        &self,
        started: Instant,
        deadline: Instant,
        request: &Request,
        tables: &Tables,
        progress: Option<ProgressFn>,
    ) -> Result<Solution, SolveError> {
        let half = deadline.saturating_duration_since(started) / 2;
        let first_half = request
            .clone()
            .with_limits(request.limits().clone().with_timeout(half));
        let first = FirstAnswer::default();
        let (bound, spent) = match self.run_since(started, &first_half, tables, progress, &first) {
            // Only its own deadline: the request's limits hold, and half the time is left.
            Err(SolveError::Limit {
                hit: LimitHit::Time,
                stats,
                bound,
            }) if request.limits().check(stats.generated).is_ok() => (bound, stats),
            other => return other,
        };
        let instead = Plan {
            algorithm: Algorithm::Anytime,
            anytime_after_half: false,
            reason: format!(
                // In words, as the planner's reasons are: the page shows them as they come.
                "{}; IDA* did not end in half the time limit (it proved at least {bound} moves), \
                 so the anytime search gave the best solution it found in the rest",
                self.reason
            ),
            ..self.clone()
        };
        let rest = request
            .clone()
            .with_limits(request.limits().clone().after(spent.generated));
        let mut solution = instead.run_since(started, &rest, tables, progress, &first)?;
        solution.lower_bound = solution
            .lower_bound
            .max(u64::from(bound))
            .min(solution.len() as u64);
        solution.optimal |= solution.lower_bound == solution.len() as u64;
        solution.stats.generated += spent.generated;
        solution.stats.expanded += spent.expanded;
        Ok(solution)
    }

    /// [`Plan::run`] of a run that began at `started` (a plan run instead of a damaged one
    /// counts its time from the first one's start, and starts from its first answer).
    fn run_since(
        &self,
        started: Instant,
        request: &Request,
        tables: &Tables,
        progress: Option<ProgressFn>,
        first: &FirstAnswer,
    ) -> Result<Solution, SolveError> {
        match self.run_once(started, request, tables, progress, first) {
            // A limit stopped the search, not a table.
            Err(e) if !matches!(e, SolveError::Limit { .. }) => {
                match self.instead_of_damaged(request, tables) {
                    Some(instead) => instead.run_since(started, request, tables, progress, first),
                    None => Err(e),
                }
            }
            result => result,
        }
    }

    fn run_once(
        &self,
        started: Instant,
        request: &Request,
        tables: &Tables,
        progress: Option<ProgressFn>,
        carried: &FirstAnswer,
    ) -> Result<Solution, SolveError> {
        let symmetry = self.table_symmetry(request.goal());
        if !symmetry.is_identity() {
            return self.run_on_image(symmetry, started, request, tables, progress, carried);
        }
        let (board, goal, limits) = (request.board(), request.goal(), request.limits());
        let manhattan = crate::solvers::manhattan_lower_bound(board, goal);
        let solution = match self.algorithm {
            Algorithm::Anytime => {
                // The first answer comes before any table is loaded, and stays the answer if
                // loading them takes all the time there is.
                // Out of time before even this answer (a 1000x1000 board takes about a
                // minute), the error is timed and bounded like any other. A plan run instead
                // of one whose tables were damaged starts from that run's first answer.
                let carried_first = carried.borrow_mut().take();
                let first = match carried_first
                    .map_or_else(|| crate::solvers::anytime::first_solution(request), Ok)
                {
                    Ok(first) => first,
                    Err(e) => return self.finish(Err(e), request, started, manhattan),
                };
                let bound = u32::try_from(manhattan).unwrap_or(u32::MAX);
                if let Some(p) = progress {
                    p(Progress {
                        generated: 0,
                        expanded: 0,
                        bound,
                        elapsed: started.elapsed(),
                        best: Some(first.len() as u32),
                        best_moves: Some(first.as_slice().into()),
                    });
                }
                if first.len() as u64 <= manhattan {
                    // As short as the Manhattan distance: optimal, and no table is needed.
                    let solution = Solution {
                        moves: first,
                        optimal: true,
                        ..Solution::default()
                    };
                    return self.finish(Ok(solution), request, started, manhattan);
                }
                // The search ends early enough for its answer, no longer than this one, to be
                // replayed by the deadline (`finish`; a second on a 300 x 300 board).
                let limits =
                    &limits.ending_earlier(crate::solution::replay_reserve(first.len(), 1));
                let best = Arc::new(Best::new(first, bound, started));
                let searching = Arc::new(AtomicBool::new(false));
                // A deadline already past (or reached while the first answer was worked out)
                // leaves no time for a search: none is started, so that the answer is named
                // the same way every time rather than by whether the search's thread got to
                // begin before it saw the deadline.
                let out_of_time = matches!(limits.check(0), Err(LimitHit::Time));
                let answer = if out_of_time {
                    Ok(best.solution())
                } else {
                    // The tables are opened and searched on a thread of their own, so that a
                    // read from a cold disk cannot hold the answer past the deadline.
                    let (kind, policy) = (self.heuristic, self.build);
                    let (asked, tables, run_best) = (request.clone(), tables.clone(), best.clone());
                    let run_searching = searching.clone();
                    run_detached(limits, &best, progress, move |limits, progress| {
                        let request = asked.with_limits(limits.clone());
                        let run = AnytimeRun {
                            request: &request,
                            progress: Some(progress),
                            best: &run_best,
                            searching: &run_searching,
                        };
                        with_heuristic(kind, request.goal(), &tables, policy, limits, run)
                    })
                };
                if answer.is_ok() && !searching.load(Ordering::Relaxed) {
                    // No search began by the deadline (none was started, the deadline having
                    // passed already, or the tables were still being built or read): the
                    // answer is the first one, and says so rather than name tables that had
                    // no part in it.
                    let mut solution = self.finish(answer, request, started, manhattan)?;
                    solution.algorithm = Algorithm::Constructive.name().to_string();
                    solution.heuristic = "none".to_string();
                    let why = if out_of_time {
                        "no time was left for the anytime search".to_string()
                    } else {
                        format!("{} was not ready in time", self.heuristic_name())
                    };
                    solution.plan = format!(
                        "{}; {why}, so this is the constructive solver's first answer",
                        solution.plan
                    );
                    return Ok(solution);
                }
                if let Err(e) = &answer {
                    // Tables found damaged before any search began: the answer in hand is the
                    // first one, which the plan run instead of this one starts from (worked
                    // out again, it could take the last milliseconds before the deadline and
                    // leave no answer at all).
                    if !matches!(e, SolveError::Limit { .. }) && !searching.load(Ordering::Relaxed)
                    {
                        *carried.borrow_mut() = Some(best.solution().moves);
                    }
                }
                answer
            }
            Algorithm::IdaStar => {
                // Built while the tables are opened: a few milliseconds either way.
                crate::search::fsm::Fsm::build_beside(board.len());
                with_heuristic(
                    self.heuristic,
                    goal,
                    tables,
                    self.build,
                    limits,
                    IdaRun {
                        board,
                        goal,
                        limits,
                        progress,
                        threads: self.threads,
                        checkpoint: self.checkpoint.as_deref(),
                    },
                )
            }
            Algorithm::AStar => with_heuristic(
                self.heuristic,
                goal,
                tables,
                self.build,
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
            other => {
                let heuristic = if other.takes_heuristic() {
                    Some(self.heuristic.build(goal, tables, self.build, limits)?)
                } else {
                    None
                };
                // Every heuristic offered is admissible: its value at the start is a proven
                // bound, stronger than the Manhattan distance for the pattern databases.
                let at_start = heuristic
                    .as_deref()
                    .map_or(0, |h| u64::from(h.estimate(board.tiles())));
                crate::solvers::run(
                    other,
                    request,
                    heuristic.as_deref(),
                    self.weight,
                    self.depth,
                    progress,
                )
                .map(|mut s| {
                    s.lower_bound = s.lower_bound.max(at_start);
                    s
                })
            }
        };
        self.finish(solution, request, started, manhattan)
    }

    /// A run's result as the front door returns it: timed (the stopped ones too: some solvers
    /// do not time themselves), a stopped one's bound at least the Manhattan distance (a run
    /// stopped while its tables were being built proved nothing itself), the moves replayed,
    /// and the plan recorded.
    fn finish(
        &self,
        solution: Result<Solution, SolveError>,
        request: &Request,
        started: Instant,
        manhattan: u64,
    ) -> Result<Solution, SolveError> {
        let mut solution = solution.map_err(|mut e| {
            if let SolveError::Limit { bound, .. } = &mut e {
                *bound = (*bound).max(manhattan.min(u64::from(u32::MAX)) as u32);
            }
            if let SolveError::Limit { stats, .. } | SolveError::Cycle { stats, .. } = &mut e {
                stats.elapsed = stats.elapsed.max(started.elapsed());
            }
            e
        })?;
        solution.verify(request.board(), request.goal())?;
        // Taken after the replay, which takes seconds on the largest boards: the time the
        // caller waited. The larger: a search resumed from a checkpoint counts its earlier
        // sittings too.
        solution.stats.elapsed = solution.stats.elapsed.max(started.elapsed());
        solution.lower_bound = if solution.optimal {
            solution.len() as u64
        } else {
            manhattan
                .max(solution.lower_bound)
                .min(solution.len() as u64)
        };
        // As long as a proven bound: optimal, whichever search found it.
        solution.optimal |= solution.lower_bound == solution.len() as u64;
        solution.algorithm = self.algorithm.name().to_string();
        solution.heuristic = self.heuristic_name();
        solution.plan = self.explain();
        solution.plan_factor = self.suboptimality_bound();
        Ok(solution)
    }
}

impl Plan {
    /// The symmetry a run maps its board and goal by to use the tables of a canonical goal
    /// ([`crate::symmetry`]): every search guided by pattern databases, whose tables depend on
    /// the goal's blank cell; the identity for every other run.
    pub fn table_symmetry(&self, goal: &Board) -> Symmetry {
        match self.heuristic {
            HeuristicKind::Pdb(_) if self.algorithm.takes_heuristic() => Symmetry::for_tables(goal),
            _ => Symmetry::IDENTITY,
        }
    }

    /// Runs the plan on the image of `request` under `symmetry` and maps the solution back,
    /// replayed on the original board before it is returned.
    fn run_on_image(
        &self,
        symmetry: Symmetry,
        started: Instant,
        request: &Request,
        tables: &Tables,
        progress: Option<ProgressFn>,
        carried: &FirstAnswer,
    ) -> Result<Solution, SolveError> {
        let image = Request::new(
            symmetry.board(request.board()),
            symmetry.board(request.goal()),
            request.limits().clone(),
        )?;
        // The image's best answers, as the caller's board plays them.
        let on_board = |mut p: Progress| {
            if let Some(moves) = &p.best_moves {
                p.best_moves = Some(moves.iter().map(|&m| symmetry.move_back(m)).collect());
            }
            if let Some(report) = progress {
                report(p);
            }
        };
        let progress: Option<ProgressFn> = progress.map(|_| &on_board as ProgressFn);
        // A first answer carried in or out is the caller's board's; the run plays the image.
        let map = |moves: Option<Vec<Move>>, by: fn(Symmetry, Move) -> Move| {
            moves.map(|moves| {
                moves
                    .into_iter()
                    .map(|m| by(symmetry, m))
                    .collect::<Vec<_>>()
            })
        };
        let on_image = FirstAnswer::new(map(carried.take(), Symmetry::move_to));
        // This plan only: a plan to run instead of it is the caller's (`run_since`).
        let result = self.run_once(started, &image, tables, progress, &on_image);
        carried.replace(map(on_image.into_inner(), Symmetry::move_back));
        let mut solution = result?;
        for mv in &mut solution.moves {
            *mv = symmetry.move_back(*mv);
        }
        solution.verify(request.board(), request.goal())?;
        Ok(solution)
    }

    /// Loads or builds (as the plan allows) the tables the plan's heuristic needs for `goal`,
    /// so that a benchmark can time the searches apart from a one-time build. A run fetches
    /// them itself when this was not called.
    pub fn prepare_tables(
        &self,
        goal: &Board,
        tables: &Tables,
        limits: &Limits,
    ) -> Result<(), SolveError> {
        match self.heuristic {
            HeuristicKind::Pdb(preset) if self.algorithm.takes_heuristic() => {
                let goal = self.table_symmetry(goal).board(goal);
                crate::pdb::with_pdb_heuristic!(tables, preset, &goal, self.build, limits, |_h| ());
            }
            HeuristicKind::WalkingDistance if self.algorithm.takes_heuristic() => {
                tables.walking_distance(goal, limits)?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The heuristic table for IDA*'s and A*'s inner loops, fetched from `tables`.
fn with_heuristic(
    kind: HeuristicKind,
    goal: &Board,
    tables: &Tables,
    policy: BuildPolicy,
    limits: &Limits,
    search: impl WithHeuristic,
) -> Result<Solution, SolveError> {
    match kind {
        HeuristicKind::Misplaced => search.run(&Misplaced::new(goal)),
        HeuristicKind::Manhattan => search.run(&Manhattan::new(goal)),
        HeuristicKind::LinearConflict => search.run(&LinearConflict::new(goal)),
        HeuristicKind::WalkingDistance => search.run(&*tables.walking_distance(goal, limits)?),
        HeuristicKind::Pdb(preset) => {
            crate::pdb::with_pdb_heuristic!(tables, preset, goal, policy, limits, |h| {
                search.run(&h)
            })
        }
    }
}

/// A search to run with whatever concrete heuristic a [`HeuristicKind`] names: the generic
/// searches are monomorphised per heuristic (no dynamic dispatch in their inner loops).
trait WithHeuristic {
    fn run<H>(self, heuristic: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync;
}

/// IDA*, sequential or on `threads` threads.
struct IdaRun<'a> {
    board: &'a Board,
    goal: &'a Board,
    limits: &'a Limits,
    progress: Option<ProgressFn<'a>>,
    threads: usize,
    /// Where the search keeps its place (on the parallel engine, whatever the threads).
    checkpoint: Option<&'a CheckpointFile>,
}

impl WithHeuristic for IdaRun<'_> {
    fn run<H>(self, h: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync,
    {
        // Every pruning: the moves stay optimal, the nodes are fewer than the literature's
        // plain IDA* (which `search::idastar` still is).
        let pruning = crate::search::Pruning::full(self.board.len());
        // Beyond 16 cells, beams between the iterations look for a solution as short as the
        // next bound, which spares IDA* its last iteration (`BeamIncumbent`).
        let threads = threads_or_cores(self.threads);
        let mut beams = (self.board.len() > BEAMS_BEYOND_CELLS).then(|| {
            BeamIncumbent::new(
                self.board,
                self.goal,
                h,
                self.limits,
                threads,
                self.progress,
            )
            .keeping(self.checkpoint)
        });
        let mut hook;
        let between: Option<Between> = match beams.as_mut() {
            Some(beams) => {
                hook = |bound, sizes: &[u64], total, sitting| {
                    beams.before_iteration(bound, sizes, total, sitting)
                };
                Some(&mut hook)
            }
            None => None,
        };
        if threads == 1 && self.checkpoint.is_none() {
            idastar_between(
                self.board,
                self.goal,
                h,
                pruning,
                self.limits,
                self.progress,
                between,
            )
        } else {
            idastar_parallel_between(
                self.board,
                self.goal,
                h,
                pruning,
                self.limits,
                self.progress,
                (threads, self.checkpoint),
                between,
            )
        }
    }
}

/// The anytime search.
struct AnytimeRun<'a> {
    request: &'a Request,
    progress: Option<ProgressFn<'a>>,
    best: &'a Best,
    /// Raised once the heuristic is ready and the search begins.
    searching: &'a AtomicBool,
}

impl WithHeuristic for AnytimeRun<'_> {
    fn run<H>(self, h: &H) -> Result<Solution, SolveError>
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync,
    {
        self.searching.store(true, Ordering::Relaxed);
        Ok(crate::solvers::anytime::anytime(
            self.request,
            h,
            self.progress,
            self.best,
        ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::pdb::PdbPreset;
    use std::time::Duration;

    /// A thread count past [`crate::limits::MAX_THREADS`] is taken as that many, not started
    /// as asked (100,000 threads at each IDA* iteration).
    #[test]
    fn a_thread_count_past_the_most_is_capped() {
        use crate::limits::MAX_THREADS;
        assert_eq!(threads_or_cores(100_000), MAX_THREADS);
        assert_eq!(threads_or_cores(3), 3);
        let request = Request::new(
            "6 4 7/8 5 0/3 2 1".parse().unwrap(),
            Board::solved(3, 3).unwrap(),
            Limits::none(),
        )
        .unwrap();
        let options = SolveOptions {
            threads: 100_000,
            ..SolveOptions::new(Algorithm::IdaStar, HeuristicKind::Manhattan)
        };
        let s = solve(&request, &options, &Tables::in_memory(), None).unwrap();
        assert_eq!(s.len(), 31);
    }

    /// A plan run instead of one whose tables were damaged starts from that run's first
    /// answer, so that the answer is the same: past 32x32
    /// ([`crate::solvers::anytime::ALWAYS_FIRST_CELLS`]), were it worked out again, a deadline
    /// passing in those milliseconds would leave the solve with no answer at all; up to it, an
    /// answer is worked out again whatever the deadline (on the tables' image of the board,
    /// another one).
    #[test]
    fn a_plan_run_instead_of_a_damaged_one_keeps_the_first_answer_out_of_time() {
        let goal = Board::solved(5, 5).unwrap();
        let board = crate::generate::random_walk(&goal, 300, &mut crate::generate::Rng::new(7));
        let request = Request::new(board, goal, Limits::none()).unwrap();
        let first = crate::solvers::anytime::first_solution(&request).unwrap();
        let expired = request
            .clone()
            .with_limits(Limits::none().with_timeout(Duration::ZERO));
        let tables = Tables::in_memory();
        // The planner's own plan (linear conflict, no symmetry), and one on the tables' image
        // of the board (the standard goal turned half a turn): the answer carried in is the
        // caller's board's either way.
        let by_name = SolveOptions {
            heuristic: Some(HeuristicKind::Pdb(PdbPreset::ZP6666)),
            ..SolveOptions::default()
        };
        for options in [SolveOptions::default(), by_name] {
            let plan = crate::planner::plan(&request, &options, &tables).unwrap();
            assert_eq!(plan.algorithm, Algorithm::Anytime);
            let none = FirstAnswer::default();
            let again = plan
                .run_once(Instant::now(), &expired, &tables, None, &none)
                .unwrap();
            again.verify(request.board(), request.goal()).unwrap();
            assert!(!again.optimal);
            let carried = FirstAnswer::new(Some(first.clone()));
            let answer = plan
                .run_once(Instant::now(), &expired, &tables, None, &carried)
                .unwrap();
            assert_eq!(answer.moves, first, "{}", plan.explain());
            assert!(!answer.optimal);
        }
    }
}
