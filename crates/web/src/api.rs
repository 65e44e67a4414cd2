//! The JSON API. Field names are the CLI's `--json` ones (`moves`, `length`, `optimal`,
//! `algorithm`, `heuristic`, `expanded`, `generated`, `time_ms`); boards are text in the parser's
//! format (`"6 4 7/8 5 0/3 2 1"`), and a missing `goal` means the usual one (tiles in order, blank
//! last). Move letters name the direction the **blank** moves.
//!
//! Every request body is checked strictly (unknown fields are refused) and every failure is an
//! [`AppError`] with a JSON body.

use std::convert::Infallible;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use taquin::generate::{random_walk, uniform, Rng};
use taquin::search::puzzle_graph::PuzzleGraph;
use taquin::search::trace::{astar_trace, TraceState};
use taquin::{
    check_solvable, solve_with, Algorithm, Board, HeuristicKind, Limits, Move, Progress,
    SolveOptions, SolveReport, BLANK,
};
use tokio::sync::mpsc;

use crate::error::AppError;
use crate::state::{AppState, Job};

/// `Json` with our error shape for every rejection (bad JSON, unknown field, wrong content type,
/// body too large).
pub struct AppJson<T>(pub T);

impl<S, T> FromRequest<S> for AppJson<T>
where
    Json<T>: FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(AppJson(value))
    }
}

/// `POST /api/solve` and `/api/solve/stream`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The start board, e.g. `"6 4 7/8 5 0/3 2 1"`.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Algorithm name (`astar`, `idastar`, `bfs`, ...); default `idastar`.
    #[serde(default)]
    pub algorithm: Option<String>,
    /// Heuristic name; default `walking-distance` up to 16 cells, `linear-conflict` above.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Time budget in milliseconds; default and maximum set by the server.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Node budget (nodes generated); maximum set by the server.
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Weight of weighted A* (>= 1).
    #[serde(default)]
    pub weight: Option<f64>,
    /// Look-ahead depth of the real-time algorithms (1 to 64).
    #[serde(default)]
    pub depth: Option<usize>,
}

/// `POST /api/validate` and `/api/hint`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    /// The start board.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Time budget in milliseconds (hint only).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// `POST /api/compare`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// The start board.
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Algorithms to run; default `["astar"]`, the article's comparison.
    #[serde(default)]
    pub algorithms: Option<Vec<String>>,
    /// Heuristics to run each algorithm with; default all of them.
    #[serde(default)]
    pub heuristics: Option<Vec<String>>,
    /// Time budget of each run in milliseconds; default 3000.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// Node budget of each run.
    #[serde(default)]
    pub max_nodes: Option<u64>,
}

/// `POST /api/generate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Columns (default: the goal's, else 3).
    #[serde(default)]
    pub width: Option<usize>,
    /// Rows (default: the goal's, else 3).
    #[serde(default)]
    pub height: Option<usize>,
    /// The goal to shuffle from; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// `uniform` (a uniformly random solvable board) or `walk` (a random walk); default `uniform`.
    #[serde(default)]
    pub method: Option<String>,
    /// Length of the random walk (default 30).
    #[serde(default)]
    pub moves: Option<usize>,
    /// Seed, for a reproducible board; default: a fresh one, returned in the answer.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `POST /api/trace`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceRequest {
    /// The start board (at most the server's `trace_max_cells` cells).
    pub board: String,
    /// The goal board; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// Heuristic name; default `manhattan`, the one tutorials draw.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Largest number of tree nodes (at most the server's `trace_max_nodes`).
    #[serde(default)]
    pub max_nodes: Option<usize>,
}

/// `GET /api/info`: what the server offers.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    let c = state.config();
    Json(json!({
        "algorithms": Algorithm::ALL.iter().map(|a| json!({"name": a.name(), "optimal": a.is_optimal()})).collect::<Vec<_>>(),
        "heuristics": HeuristicKind::ALL.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "defaults": {"algorithm": Algorithm::IdaStar.name(), "heuristic": default_heuristic(16).name()},
        "limits": {
            "max_side": c.max_side,
            "default_timeout_ms": c.default_timeout.as_millis() as u64,
            "max_timeout_ms": c.max_timeout.as_millis() as u64,
            "max_nodes": c.max_nodes,
            "max_memory_bytes": c.max_memory,
            "trace_max_cells": c.trace_max_cells,
            "trace_max_nodes": c.trace_max_nodes,
            "workers": c.workers,
        },
        "running": state.running(),
        "moves": "a move letter names the direction the blank moves: U, D, L, R",
    }))
}

/// `POST /api/validate`: parses both boards and says whether the pair is solvable (200 either
/// way; `reason` explains a refusal).
pub async fn validate(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    if req.timeout_ms.is_some() {
        return Err(AppError::bad_request(
            "bad_fields",
            "timeout_ms has no meaning for validate",
        ));
    }
    let (board, goal) = parse_pair(&state, &req.board, req.goal.as_deref())?;
    let verdict = check_solvable(&board, &goal);
    Ok(Json(json!({
        "width": board.width(),
        "height": board.height(),
        "board": board_json(&board),
        "goal": board_json(&goal),
        "solvable": verdict.is_ok(),
        "reason": verdict.err().map(|e| e.to_string()),
    })))
}

/// `POST /api/solve`: one solve; answers with the report and the two boards.
pub async fn solve(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Json<Value>, AppError> {
    let plan = SolvePlan::new(&state, &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let result = run_blocking(move || plan.run(&job, None)).await;
    // Dropping the guard here (or earlier, with the future, when the client leaves) raises the
    // cancel flag; after a finished search that is harmless.
    drop(guard);
    Ok(Json(result??))
}

/// `POST /api/solve/stream`: the same solve, answered as newline-delimited JSON: zero or more
/// `{"progress": {...}}` lines, then one `{"solution": {...}}` or `{"error": {...}}` line.
/// Input errors (bad board, unsolvable, busy) are refused before the stream starts, with their
/// own status. Closing the connection cancels the search.
pub async fn solve_stream(
    State(state): State<AppState>,
    AppJson(req): AppJson<SolveRequest>,
) -> Result<Response, AppError> {
    let plan = SolvePlan::new(&state, &req)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let (tx, rx) = mpsc::unbounded_channel::<Bytes>();
    tokio::task::spawn_blocking(move || {
        // Progress is reported every few thousand nodes; a line every 100 ms is plenty for a
        // progress bar and keeps the stream small.
        let last = Mutex::new(None::<Instant>);
        let progress_tx = tx.clone();
        let report = move |p: Progress| {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.is_some_and(|t| t.elapsed() < Duration::from_millis(100)) {
                return;
            }
            *last = Some(Instant::now());
            let line = json!({"progress": {
                "generated": p.generated,
                "expanded": p.expanded,
                "bound": p.bound,
                "time_ms": p.elapsed.as_secs_f64() * 1000.0,
            }});
            let _ = progress_tx.send(ndjson(&line));
        };
        let line = match plan.run(&job, Some(&report)) {
            Ok(solution) => json!({"solution": solution}),
            Err(e) => {
                let mut body = e.body();
                body["status"] = json!(e.status.as_u16());
                json!({"error": body})
            }
        };
        drop(job);
        let _ = tx.send(ndjson(&line));
    });
    // The guard rides in the stream's state: when the client goes away, the body is dropped and
    // with it the guard, which cancels the search.
    let stream = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv()
            .await
            .map(|line| (Ok::<_, Infallible>(line), (rx, guard)))
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

/// `POST /api/hint`: the optimal next move from `board` (IDA* with the strongest heuristic);
/// `move` is null when the board is already the goal.
pub async fn hint(
    State(state): State<AppState>,
    AppJson(req): AppJson<PairRequest>,
) -> Result<Json<Value>, AppError> {
    let (board, goal) = parse_pair(&state, &req.board, req.goal.as_deref())?;
    check_solvable(&board, &goal)?;
    let timeout = timeout_of(&state, req.timeout_ms)?;
    if board == goal {
        return Ok(Json(
            json!({"move": null, "tile": null, "remaining": 0, "moves": ""}),
        ));
    }
    let heuristic = default_heuristic(board.len());
    let plan = SolvePlan {
        board,
        goal,
        options: SolveOptions::new(Algorithm::IdaStar, heuristic),
        timeout,
        max_nodes: state.config().max_nodes,
        max_memory: state.config().max_memory,
    };
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let board = plan.board.clone();
    let result = run_blocking(move || plan.run(&job, None)).await;
    drop(guard);
    let report = result??;
    let letters = report["moves"].as_str().unwrap_or_default().to_string();
    let first = letters.chars().next().and_then(Move::from_letter);
    let tile = first
        .and_then(|m| board.target(m))
        .map(|cell| board.tiles()[cell]);
    Ok(Json(json!({
        "move": first.map(|m| m.letter().to_string()),
        "tile": tile,
        "remaining": report["length"],
        "moves": letters,
        "heuristic": report["heuristic"],
        "time_ms": report["time_ms"],
    })))
}

/// `POST /api/compare`: the same pair solved by each algorithm with each heuristic, one after the
/// other on one worker; a run stopped by its budget is reported with its error, not dropped.
pub async fn compare(
    State(state): State<AppState>,
    AppJson(req): AppJson<CompareRequest>,
) -> Result<Json<Value>, AppError> {
    let (board, goal) = parse_pair(&state, &req.board, req.goal.as_deref())?;
    check_solvable(&board, &goal)?;
    let algorithms = match &req.algorithms {
        None => vec![Algorithm::AStar],
        Some(names) => names
            .iter()
            .map(|n| algorithm_of(n))
            .collect::<Result<_, _>>()?,
    };
    let heuristics = match &req.heuristics {
        None => HeuristicKind::ALL.to_vec(),
        Some(names) => names
            .iter()
            .map(|n| heuristic_of(n))
            .collect::<Result<_, _>>()?,
    };
    if algorithms.is_empty() || heuristics.is_empty() {
        return Err(AppError::bad_request(
            "bad_fields",
            "algorithms and heuristics must not be empty",
        ));
    }
    let timeout = match req.timeout_ms {
        None => Duration::from_millis(3000).min(state.config().max_timeout),
        Some(ms) => timeout_of(&state, Some(ms))?,
    };
    let max_nodes = nodes_of(&state, req.max_nodes)?;
    let mut runs = Vec::new();
    for &algorithm in &algorithms {
        if algorithm == Algorithm::Bfs {
            // BFS ignores the heuristic: one run says all there is to say.
            runs.push((algorithm, heuristics[0]));
            continue;
        }
        runs.extend(heuristics.iter().map(|&h| (algorithm, h)));
    }
    let plans: Vec<SolvePlan> = runs
        .into_iter()
        .map(|(a, h)| SolvePlan {
            board: board.clone(),
            goal: goal.clone(),
            options: SolveOptions::new(a, h),
            timeout,
            max_nodes,
            max_memory: state.config().max_memory,
        })
        .collect();
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let results = run_blocking(move || {
        let mut results = Vec::new();
        for plan in plans {
            if job.is_cancelled() {
                break;
            }
            let algorithm = plan.options.algorithm.name();
            let heuristic = plan.heuristic_name();
            results.push(match plan.run(&job, None) {
                Ok(report) => report,
                Err(e) => {
                    let mut body = e.body();
                    body["algorithm"] = json!(algorithm);
                    body["heuristic"] = json!(heuristic);
                    body
                }
            });
        }
        results
    })
    .await?;
    drop(guard);
    Ok(Json(json!({
        "board": board.to_line(),
        "goal": goal.to_line(),
        "results": results,
    })))
}

/// `POST /api/generate`: a random board from which the goal is reachable.
pub async fn generate(
    State(state): State<AppState>,
    AppJson(req): AppJson<GenerateRequest>,
) -> Result<Json<Value>, AppError> {
    let goal = match &req.goal {
        Some(text) => {
            let goal = parse_board(&state, "goal", text)?;
            if req.width.is_some_and(|w| w != goal.width())
                || req.height.is_some_and(|h| h != goal.height())
            {
                return Err(AppError::bad_request(
                    "size_mismatch",
                    format!(
                        "width and height disagree with the goal, which is {}x{}",
                        goal.width(),
                        goal.height()
                    ),
                ));
            }
            goal
        }
        None => {
            let (w, h) = (req.width.unwrap_or(3), req.height.unwrap_or(3));
            check_side(&state, w, h)?;
            Board::solved(w, h).map_err(|e| AppError::bad_board("goal", e))?
        }
    };
    let seed = req.seed.unwrap_or_else(fresh_seed);
    let mut rng = Rng::new(seed);
    let method = req.method.as_deref().unwrap_or("uniform");
    let board = match method {
        "uniform" => {
            if req.moves.is_some() {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "moves is the length of a random walk: use it with \"method\": \"walk\"",
                ));
            }
            uniform(&goal, &mut rng)
        }
        "walk" => {
            let moves = req.moves.unwrap_or(30);
            if moves > 100_000 {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "moves must be at most 100000",
                ));
            }
            random_walk(&goal, moves, &mut rng)
        }
        other => {
            return Err(AppError::bad_request(
                "bad_method",
                format!("unknown method '{other}': use \"uniform\" or \"walk\""),
            ))
        }
    };
    Ok(Json(json!({
        "board": board.to_line(),
        "goal": goal.to_line(),
        "width": goal.width(),
        "height": goal.height(),
        "method": method,
        "moves": if method == "walk" { json!(req.moves.unwrap_or(30)) } else { Value::Null },
        "seed": seed,
    })))
}

/// `POST /api/trace`: the A* search tree of a small board, nodes numbered in the order they were
/// added, each with its tiles, g, h, f, state (`expanded`, `frontier`, `superseded`, `goal`) and
/// whether it lies on the final path.
pub async fn trace(
    State(state): State<AppState>,
    AppJson(req): AppJson<TraceRequest>,
) -> Result<Json<Value>, AppError> {
    let (board, goal) = parse_pair(&state, &req.board, req.goal.as_deref())?;
    let c = state.config();
    if board.len() > c.trace_max_cells {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_large",
            format!(
                "the search view is for small boards: at most {} cells, this board has {}",
                c.trace_max_cells,
                board.len()
            ),
        ));
    }
    let max_nodes = match req.max_nodes {
        None => c.trace_max_nodes,
        Some(n) if (1..=c.trace_max_nodes).contains(&n) => n,
        Some(_) => {
            return Err(AppError::bad_request(
                "bad_limit",
                format!("max_nodes must be between 1 and {}", c.trace_max_nodes),
            ))
        }
    };
    let kind = match &req.heuristic {
        None => HeuristicKind::Manhattan,
        Some(name) => heuristic_of(name)?,
    };
    check_solvable(&board, &goal)?;
    let permit = state.acquire().await?;
    let (guard, job) = state.start(permit);
    let result = run_blocking(move || -> Result<Value, AppError> {
        let h = kind.build(&goal)?;
        let graph = PuzzleGraph::new(&goal, &*h);
        let trace = astar_trace(&graph, graph.pack(board.tiles()), max_nodes);
        drop(job);
        let on_path: std::collections::HashSet<usize> = trace.path.iter().copied().collect();
        let mut tiles = Vec::new();
        let mut blanks = Vec::with_capacity(trace.nodes.len());
        let nodes: Vec<Value> = trace
            .nodes
            .iter()
            .map(|n| {
                graph.unpack(&n.node, &mut tiles);
                let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
                blanks.push(blank);
                let mv = n.parent.and_then(|p| {
                    Move::ALL
                        .into_iter()
                        .find(|m| m.target(blanks[p], board.width(), board.height()) == Some(blank))
                });
                let (state, order) = match n.state {
                    TraceState::Frontier => ("frontier", None),
                    TraceState::Expanded(k) => ("expanded", Some(k)),
                    TraceState::Superseded => ("superseded", None),
                    TraceState::Goal => ("goal", None),
                };
                json!({
                    "id": n.id,
                    "parent": n.parent,
                    "tiles": tiles,
                    "move": mv.map(|m| m.letter().to_string()),
                    "g": n.g,
                    "h": n.h,
                    "f": n.g + n.h,
                    "state": state,
                    "order": order,
                    "on_path": on_path.contains(&n.id),
                })
            })
            .collect();
        let moves: String = trace
            .path
            .iter()
            .skip(1)
            .filter_map(|&id| nodes[id]["move"].as_str().map(str::to_string))
            .collect();
        Ok(json!({
            "width": board.width(),
            "height": board.height(),
            "heuristic": kind.name(),
            "complete": trace.complete,
            "path": trace.path,
            "moves": moves,
            "nodes": nodes,
        }))
    })
    .await;
    drop(guard);
    Ok(Json(result??))
}

/// Any other route: a JSON 404.
pub async fn not_found() -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or API route: see GET /api/info and the README's Web API section",
    )
}

/// A known route with the wrong method: a JSON 405.
pub async fn method_not_allowed() -> AppError {
    AppError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method: the API's actions are POST with a JSON body, \
         /api/info is GET",
    )
}

/// A solve, checked and ready to run.
struct SolvePlan {
    board: Board,
    goal: Board,
    options: SolveOptions,
    timeout: Duration,
    max_nodes: u64,
    max_memory: usize,
}

impl SolvePlan {
    /// Parses and checks everything a request can get wrong, before it takes a worker.
    fn new(state: &AppState, req: &SolveRequest) -> Result<SolvePlan, AppError> {
        let (board, goal) = parse_pair(state, &req.board, req.goal.as_deref())?;
        let algorithm = match &req.algorithm {
            None => Algorithm::IdaStar,
            Some(name) => algorithm_of(name)?,
        };
        let heuristic = match &req.heuristic {
            None => default_heuristic(board.len()),
            Some(name) => heuristic_of(name)?,
        };
        let mut options = SolveOptions::new(algorithm, heuristic);
        if let Some(w) = req.weight {
            if !(w.is_finite() && (1.0..=100.0).contains(&w)) {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "weight must be a number between 1 and 100",
                ));
            }
            options.weight = w;
        }
        if let Some(d) = req.depth {
            if !(1..=64).contains(&d) {
                return Err(AppError::bad_request(
                    "bad_fields",
                    "depth must be between 1 and 64",
                ));
            }
            options.depth = d;
        }
        // Refused with the reason before any search, and before taking a worker.
        check_solvable(&board, &goal)?;
        Ok(SolvePlan {
            board,
            goal,
            options,
            timeout: timeout_of(state, req.timeout_ms)?,
            max_nodes: nodes_of(state, req.max_nodes)?,
            max_memory: state.config().max_memory,
        })
    }

    fn heuristic_name(&self) -> &'static str {
        self.options
            .algorithm
            .heuristic_name(self.options.heuristic)
    }

    /// Runs the search on the current (blocking) thread; the deadline starts now, not when the
    /// request arrived, so time spent waiting for a worker is not charged to the search.
    fn run(&self, job: &Job, progress: Option<taquin::ProgressFn>) -> Result<Value, AppError> {
        let mut options = self.options.clone();
        options.limits = Limits::none()
            .with_timeout(self.timeout)
            .with_max_nodes(self.max_nodes)
            .with_max_memory(self.max_memory)
            .with_cancel(job.cancel_flag());
        let solution = solve_with(&self.board, &self.goal, &options, progress)?;
        let report = SolveReport::new(&solution, options.algorithm.name(), self.heuristic_name());
        let mut value = serde_json::to_value(report).map_err(|e| {
            AppError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })?;
        value["board"] = json!(self.board.to_line());
        value["goal"] = json!(self.goal.to_line());
        Ok(value)
    }
}

/// Runs CPU work on the blocking pool; a panic there becomes a JSON 500, never a dropped
/// connection.
async fn run_blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        AppError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the search stopped unexpectedly: {e}"),
        )
    })
}

fn ndjson(value: &Value) -> Bytes {
    let mut line = value.to_string();
    line.push('\n');
    Bytes::from(line)
}

fn board_json(board: &Board) -> Value {
    json!({"line": board.to_line(), "tiles": board.tiles()})
}

/// The strongest built-in heuristic that stays cheap to set up at this size (the CLI's default).
fn default_heuristic(cells: usize) -> HeuristicKind {
    if cells <= 16 {
        HeuristicKind::WalkingDistance
    } else {
        HeuristicKind::LinearConflict
    }
}

fn algorithm_of(name: &str) -> Result<Algorithm, AppError> {
    Algorithm::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        AppError::bad_request(
            "bad_algorithm",
            format!(
                "unknown algorithm '{name}': use one of {}",
                names.join(", ")
            ),
        )
        .with("field", "algorithm")
    })
}

fn heuristic_of(name: &str) -> Result<HeuristicKind, AppError> {
    // The server offers exactly `HeuristicKind::ALL`: the kinds outside it (pattern databases)
    // may spend minutes and gigabytes building tables on first use, which no web request should
    // start; the CLI builds them on purpose.
    let kind = HeuristicKind::from_name(name);
    if kind.is_some_and(|k| !HeuristicKind::ALL.contains(&k)) {
        return Err(AppError::bad_request(
            "bad_heuristic",
            format!(
                "'{name}' needs tables that take minutes to build, which the web server does not \
                 do: use it from the command line (taquin solve --heuristic {name})"
            ),
        )
        .with("field", "heuristic"));
    }
    kind.ok_or_else(|| {
        let names: Vec<&str> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
        AppError::bad_request(
            "bad_heuristic",
            format!(
                "unknown heuristic '{name}': use one of {}",
                names.join(", ")
            ),
        )
        .with("field", "heuristic")
    })
}

fn timeout_of(state: &AppState, ms: Option<u64>) -> Result<Duration, AppError> {
    let max = state.config().max_timeout;
    match ms {
        None => Ok(state.config().default_timeout.min(max)),
        Some(ms) if ms >= 1 && Duration::from_millis(ms) <= max => Ok(Duration::from_millis(ms)),
        Some(_) => Err(AppError::bad_request(
            "bad_limit",
            format!("timeout_ms must be between 1 and {}", max.as_millis()),
        )
        .with("field", "timeout_ms")),
    }
}

fn nodes_of(state: &AppState, nodes: Option<u64>) -> Result<u64, AppError> {
    let max = state.config().max_nodes;
    match nodes {
        None => Ok(max),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(AppError::bad_request(
            "bad_limit",
            format!("max_nodes must be between 1 and {max}"),
        )
        .with("field", "max_nodes")),
    }
}

fn check_side(state: &AppState, width: usize, height: usize) -> Result<(), AppError> {
    let max = state.config().max_side;
    if (2..=max).contains(&width) && (2..=max).contains(&height) {
        Ok(())
    } else {
        Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_large",
            format!(
                "a {width}x{height} board is not served here: width and height must each be \
                 between 2 and {max}"
            ),
        ))
    }
}

fn parse_board(state: &AppState, field: &str, text: &str) -> Result<Board, AppError> {
    let board = Board::parse(text).map_err(|e| AppError::bad_board(field, e))?;
    check_side(state, board.width(), board.height()).map_err(|e| e.with("field", field))?;
    Ok(board)
}

fn parse_pair(
    state: &AppState,
    board: &str,
    goal: Option<&str>,
) -> Result<(Board, Board), AppError> {
    let board = parse_board(state, "board", board)?;
    let goal = match goal {
        Some(text) => parse_board(state, "goal", text)?,
        None => Board::solved(board.width(), board.height())
            .map_err(|e| AppError::bad_board("goal", e))?,
    };
    board
        .check_same_size(&goal)
        .map_err(|e| AppError::bad_request("size_mismatch", e.to_string()))?;
    Ok((board, goal))
}

fn fresh_seed() -> u64 {
    // Not for security: only so that two shuffles in a row differ.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut rng = Rng::new(nanos ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64() >> 11 // stays exact in JavaScript numbers, for the share link
}
