//! The answers of the web API's routes, computed in the browser: each takes the route's request
//! body and gives the route's JSON answer (or its error), so the page reads one shape from both.

use std::sync::Mutex;

use serde_json::{json, Value};
use taquin::clock::Instant;
use taquin::generate::{random_walk, uniform, Rng};
use taquin::search::puzzle_graph::PuzzleGraph;
use taquin::search::trace::{astar_trace, TieBreak};
use taquin::search::trace_report::TraceReport;
use taquin::{
    check_solvable, Algorithm, Board, HeuristicKind, Limits, Move, Progress, Request, SolveOptions,
    SolveReport, Tables,
};

use crate::error::ApiError;
use crate::request::*;

thread_local! {
    /// The tables of this worker, built in memory on first use and kept for the next searches
    /// (a browser has no directory to save them in).
    static TABLES: Tables = Tables::in_memory();
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, ApiError> {
    serde_json::to_value(value).map_err(|e| ApiError::new("internal", e.to_string()))
}

/// `GET /api/info`: what this build offers.
pub fn info() -> Value {
    json!({
        "algorithms": Algorithm::ALL.iter().map(|a| json!({"name": a.name(), "optimal": a.is_optimal()})).collect::<Vec<_>>(),
        "heuristics": HeuristicKind::ALL.iter().map(|h| h.name()).collect::<Vec<_>>(),
        "defaults": {"algorithm": "auto", "heuristic": "auto"},
        "auto": "the planner picks the algorithm, heuristic and tables for each board (the plan field of a solve says which and why)",
        "tables": [],
        "limits": {
            "max_side": MAX_SIDE,
            "default_timeout_ms": DEFAULT_TIMEOUT.as_millis() as u64,
            "max_timeout_ms": MAX_TIMEOUT.as_millis() as u64,
            "max_nodes": MAX_NODES,
            "max_memory_bytes": MAX_MEMORY,
            "trace_max_cells": TRACE_MAX_CELLS,
            "trace_max_nodes": TRACE_MAX_NODES,
            "trace_tie_breaks": ["fifo", "deepest"],
            "workers": 1,
        },
        "running": 0,
        "moves": "a move letter names the direction the blank moves: U, D, L, R",
        "notations": ["blank", "tiles"],
        "static": true,
    })
}

/// `POST /api/validate`.
pub fn validate(body: &str) -> Result<Value, ApiError> {
    let req: PairRequest = parse_body(body)?;
    if req.timeout_ms.is_some() || req.notation.is_some() {
        return Err(ApiError::new(
            "bad_fields",
            "timeout_ms and notation have no meaning for validate",
        ));
    }
    let (board, goal) = parse_pair(&req.board, req.goal.as_deref())?;
    let verdict = check_solvable(&board, &goal);
    let board_json = |b: &Board| json!({"line": b.to_line(), "tiles": b.tiles()});
    Ok(json!({
        "width": board.width(),
        "height": board.height(),
        "board": board_json(&board),
        "goal": board_json(&goal),
        "solvable": verdict.is_ok(),
        "reason": verdict.err().map(|e| e.to_string()),
    }))
}

/// `POST /api/solve` and, with `progress`, `/api/solve/stream`: `progress` receives the
/// stream's `{"progress": ...}` and `{"improved": ...}` lines as JSON values.
pub fn solve(body: &str, progress: Option<fn(Value)>) -> Result<Value, ApiError> {
    let req: SolveRequest = parse_body(body)?;
    let (board, goal) = parse_pair(&req.board, req.goal.as_deref())?;
    let (algorithm, heuristic) = choice_of(req.algorithm.as_deref(), req.heuristic.as_deref())?;
    let notation = notation_of(req.notation.as_deref())?;
    let mut options = SolveOptions {
        algorithm,
        heuristic,
        ..SolveOptions::default()
    };
    if let Some(w) = req.weight {
        let max = SolveOptions::MAX_WEIGHT;
        if !(w.is_finite() && (1.0..=max).contains(&w)) {
            return Err(ApiError::new(
                "bad_fields",
                format!("weight must be a number between 1 and {max}"),
            ));
        }
        options.weight = w;
    }
    if let Some(d) = req.depth {
        let max = taquin::solvers::MAX_DEPTH;
        if !(1..=max).contains(&d) {
            return Err(ApiError::new(
                "bad_fields",
                format!("depth must be between 1 and {max}"),
            ));
        }
        options.depth = d;
    }
    let mut limits = Limits::none()
        .with_timeout(timeout_of(req.timeout_ms)?)
        .with_max_memory(MAX_MEMORY);
    // A node budget only when asked for: the anytime search reads one as "improve only", and
    // would not run its prover (the time and memory limits bound every search here).
    match req.max_nodes {
        None => {}
        Some(n) if (1..=MAX_NODES).contains(&n) => limits = limits.with_max_nodes(n),
        Some(_) => {
            return Err(ApiError::new(
                "bad_limit",
                format!("max_nodes must be between 1 and {MAX_NODES}"),
            )
            .with("field", "max_nodes"))
        }
    }
    let request = Request::new(board.clone(), goal.clone(), limits)?;
    // Progress every 100 ms at most, every improvement at once: the stream's rhythm.
    // (Mutexes, not cells: the core asks for a callback that threads may share.)
    let last = Mutex::new(None::<Instant>);
    let last_best = Mutex::new(None::<u32>);
    let report = |p: Progress| {
        let Some(send) = progress else { return };
        if let Some(best) = p.best {
            let mut last_best = last_best.lock().unwrap_or_else(|e| e.into_inner());
            if last_best.replace(best) != Some(best) {
                send(json!({"improved": {
                    "length": best,
                    "lower_bound": p.bound,
                    "time_ms": p.elapsed.as_secs_f64() * 1000.0,
                }}));
                return;
            }
        }
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed().as_millis() < 100) {
            return;
        }
        *last = Some(Instant::now());
        send(json!({"progress": {
            "generated": p.generated,
            "expanded": p.expanded,
            "bound": p.bound,
            "time_ms": p.elapsed.as_secs_f64() * 1000.0,
        }}));
    };
    let solution =
        TABLES.with(|tables| taquin::solve(&request, &options, tables, Some(&report)))?;
    let mut value = to_json(&SolveReport::new(&solution).in_notation(&solution, notation))?;
    value["board"] = json!(board.to_line());
    value["goal"] = json!(goal.to_line());
    Ok(value)
}

/// `POST /api/hint`: the first move of an optimal solution.
pub fn hint(body: &str) -> Result<Value, ApiError> {
    let req: PairRequest = parse_body(body)?;
    let (board, goal) = parse_pair(&req.board, req.goal.as_deref())?;
    check_solvable(&board, &goal)?;
    let notation = notation_of(req.notation.as_deref())?;
    if board == goal {
        return Ok(json!({"move": null, "tile": null, "remaining": 0, "moves": ""}));
    }
    let limits = Limits::none()
        .with_timeout(timeout_of(req.timeout_ms)?)
        .with_max_memory(MAX_MEMORY);
    let request = Request::new(board.clone(), goal, limits)?;
    let options = SolveOptions {
        algorithm: Some(Algorithm::IdaStar),
        ..SolveOptions::default()
    };
    let solution = TABLES.with(|tables| taquin::solve(&request, &options, tables, None))?;
    let first: Option<Move> = solution.moves.first().copied();
    let tile = first
        .and_then(|m| board.target(m))
        .map(|cell| board.tiles()[cell]);
    Ok(json!({
        "move": first.map(|m| m.letter().to_string()),
        "tile": tile,
        "remaining": solution.len(),
        "moves": notation.format(&solution.moves),
        "heuristic": solution.heuristic,
        "time_ms": solution.stats.elapsed.as_secs_f64() * 1000.0,
    }))
}

/// `POST /api/generate`: a random solvable board; `fresh_seed` gives the seed when the request
/// names none.
pub fn generate(body: &str, fresh_seed: u64) -> Result<Value, ApiError> {
    let req: GenerateRequest = parse_body(body)?;
    let goal = match &req.goal {
        Some(text) => {
            let goal = Board::parse(text).map_err(|e| ApiError::bad_board("goal", e))?;
            check_side(goal.width(), goal.height())?;
            if req.width.is_some_and(|w| w != goal.width())
                || req.height.is_some_and(|h| h != goal.height())
            {
                return Err(ApiError::new(
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
            check_side(w, h)?;
            Board::solved(w, h).map_err(|e| ApiError::bad_board("goal", e))?
        }
    };
    // Seeds stay exact as JavaScript numbers (2^53 - 1 at most), for the share link.
    const MAX_SEED: u64 = (1 << 53) - 1;
    if req.seed.is_some_and(|s| s > MAX_SEED) {
        return Err(
            ApiError::new("bad_fields", format!("seed must be at most {MAX_SEED}"))
                .with("field", "seed"),
        );
    }
    let seed = req.seed.unwrap_or(fresh_seed & MAX_SEED);
    let method = req.method.as_deref().unwrap_or("uniform");
    let mut rng = Rng::new(seed);
    let board = match (method, req.moves) {
        ("uniform", None) => uniform(&goal, &mut rng),
        ("uniform", Some(_)) => {
            return Err(ApiError::new(
                "bad_fields",
                "moves is the length of a random walk: use it with \"method\": \"walk\"",
            ))
        }
        ("walk", moves) if moves.unwrap_or(30) <= 100_000 => {
            random_walk(&goal, moves.unwrap_or(30), &mut rng)
        }
        ("walk", _) => return Err(ApiError::new("bad_fields", "moves must be at most 100000")),
        (other, _) => {
            return Err(ApiError::new(
                "bad_method",
                format!("unknown method '{other}': use \"uniform\" or \"walk\""),
            ))
        }
    };
    Ok(json!({
        "board": board.to_line(),
        "goal": goal.to_line(),
        "width": goal.width(),
        "height": goal.height(),
        "method": method,
        "moves": if method == "walk" { json!(req.moves.unwrap_or(30)) } else { Value::Null },
        "seed": seed,
    }))
}

/// `POST /api/trace`: the A* search tree of a small board.
pub fn trace(body: &str) -> Result<Value, ApiError> {
    let req: TraceRequest = parse_body(body)?;
    let (board, goal) = parse_pair(&req.board, req.goal.as_deref())?;
    if board.len() > TRACE_MAX_CELLS {
        return Err(ApiError::new(
            "too_large",
            format!(
                "the search view is for small boards: at most {TRACE_MAX_CELLS} cells, this \
                 board has {}",
                board.len()
            ),
        ));
    }
    let max_nodes = match req.max_nodes {
        None => TRACE_MAX_NODES,
        Some(n) if (1..=TRACE_MAX_NODES).contains(&n) => n,
        Some(_) => {
            return Err(ApiError::new(
                "bad_limit",
                format!("max_nodes must be between 1 and {TRACE_MAX_NODES}"),
            ))
        }
    };
    let kind = match &req.heuristic {
        None => HeuristicKind::Manhattan,
        Some(name) => heuristic_of(name)?,
    };
    let tie = match req.tie_break.as_deref() {
        None => TieBreak::default(),
        Some(name) => TieBreak::from_name(name).ok_or_else(|| {
            ApiError::new(
                "bad_fields",
                format!("unknown tie_break '{name}': use fifo or deepest"),
            )
            .with("field", "tie_break")
        })?,
    };
    check_solvable(&board, &goal)?;
    let limits = Limits::none()
        .with_timeout(DEFAULT_TIMEOUT)
        .with_max_memory(MAX_MEMORY);
    let h = TABLES
        .with(|tables| kind.build(&goal, tables, taquin::pdb::BuildPolicy::Never, &limits))?;
    let graph = PuzzleGraph::new(&goal, &*h);
    let trace = astar_trace(&graph, graph.pack(board.tiles()), max_nodes, tie);
    to_json(&TraceReport::new(
        &board,
        &graph,
        &trace,
        kind.name(),
        tie.name(),
    ))
}

/// Moves written in one notation, rewritten in another: `{"moves", "from", "to"}` in,
/// `{"moves", "length", "mtm_length"}` out.
pub fn convert(moves: &str, from: &str, to: &str) -> Result<Value, ApiError> {
    let parsed = notation_of(Some(from))?
        .parse(moves)
        .map_err(|e| ApiError::new("bad_moves", e.to_string()).with("field", "moves"))?;
    Ok(json!({
        "moves": notation_of(Some(to))?.format(&parsed),
        "length": parsed.len(),
        "mtm_length": taquin::metric::Metric::Mtm.length(&parsed),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";

    fn replays(board: &str, moves: &str) -> bool {
        let mut b: Board = board.parse().unwrap();
        let moves = taquin::moves::parse_moves(moves).unwrap();
        b.apply_all(&moves).is_ok() && b == Board::solved(b.width(), b.height()).unwrap()
    }

    #[test]
    fn solve_answers_with_the_servers_fields_and_an_optimal_replayed_solution() {
        let r = solve(&json!({"board": ARTICLE}).to_string(), None).unwrap();
        for field in [
            "moves",
            "length",
            "mtm_length",
            "optimal",
            "lower_bound",
            "algorithm",
            "heuristic",
            "expanded",
            "generated",
            "time_ms",
            "plan",
            "board",
            "goal",
        ] {
            assert!(r.get(field).is_some(), "{field} missing: {r}");
        }
        assert_eq!(
            (r["length"].clone(), r["optimal"].clone()),
            (json!(31), json!(true))
        );
        assert!(replays(ARTICLE, r["moves"].as_str().unwrap()));
        let tiles = solve(
            &json!({"board": "1 2 3/4 5 6/0 7 8", "notation": "tiles"}).to_string(),
            None,
        )
        .unwrap();
        assert_eq!(tiles["moves"], "L2");
    }

    #[test]
    fn the_anytime_search_reports_improvements_beyond_16_cells() {
        static LINES: Mutex<Vec<Value>> = Mutex::new(Vec::new());
        fn keep(line: Value) {
            LINES.lock().unwrap().push(line);
        }
        let board = "4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15";
        let body = json!({"board": board, "timeout_ms": 300}).to_string();
        let r = solve(&body, Some(keep as fn(Value))).unwrap();
        assert!(replays(board, r["moves"].as_str().unwrap()));
        assert_eq!(r["algorithm"], "anytime");
        let lines = LINES.lock().unwrap();
        let improved: Vec<u64> = lines
            .iter()
            .filter_map(|l| l["improved"]["length"].as_u64())
            .collect();
        assert!(!improved.is_empty(), "{lines:?}");
        assert!(improved.windows(2).all(|w| w[1] < w[0]), "{improved:?}");
        assert_eq!(r["length"].as_u64(), improved.last().copied());
    }

    #[test]
    fn hint_trace_generate_and_validate() {
        let h = hint(&json!({"board": "1 2 3/4 5 6/7 0 8"}).to_string()).unwrap();
        assert_eq!(
            (h["move"].clone(), h["tile"].clone()),
            (json!("R"), json!(8))
        );
        let t = trace(&json!({"board": "1 2 3/4 0 6/7 5 8"}).to_string()).unwrap();
        assert_eq!(t["nodes"].as_array().unwrap().len(), 7);
        assert_eq!(t["moves"], "DR");
        let body = json!({"width": 4, "height": 4, "seed": 7}).to_string();
        let (a, b) = (generate(&body, 1).unwrap(), generate(&body, 2).unwrap());
        assert_eq!(a["board"], b["board"], "the seed decides the board");
        let v = validate(&json!({"board": a["board"]}).to_string()).unwrap();
        assert_eq!(v["solvable"], true);
    }

    #[test]
    fn errors_have_the_servers_codes() {
        let code = |r: Result<Value, ApiError>| r.unwrap_err().code;
        assert_eq!(code(solve("[1]", None)), "bad_json");
        assert_eq!(
            code(solve(r#"{"board": "1 2/3 0", "x": 1}"#, None)),
            "bad_fields"
        );
        assert_eq!(
            code(solve(r#"{"board": "1 2 3/4 5 6/8 7 0"}"#, None)),
            "unsolvable"
        );
        assert_eq!(code(solve(r#"{"board": "1 2/3"}"#, None)), "bad_board");
        let limit = solve(
            r#"{"board": "6 4 7/8 5 0/3 2 1", "heuristic": "misplaced", "max_nodes": 10}"#,
            None,
        )
        .unwrap_err();
        assert_eq!(limit.code, "limit_reached");
        assert_eq!(limit.body()["limit"], "nodes");
        assert_eq!(
            code(hint(r#"{"board": "1 2 3/4 5 6/8 7 0"}"#)),
            "unsolvable"
        );
        assert_eq!(code(convert("UX", "blank", "tiles")), "bad_moves");
        assert_eq!(convert("RR", "blank", "tiles").unwrap()["moves"], "L2");
    }
}
