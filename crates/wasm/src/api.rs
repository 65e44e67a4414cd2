//! The answers of the web API's routes, computed in the browser through the same code as the
//! server's ([`taquin_api`]): each takes the route's request body and gives the route's JSON
//! answer (or its error), so the page reads one shape from both.

use std::cell::Cell;
use std::time::Duration;

use serde_json::Value;
use taquin::{Tables, Workload};
use taquin_api::{
    notation_of, request_of, ApiError, Hint, ProgressLines, Settings, Shuffle, SolvePlan, TracePlan,
};

thread_local! {
    /// The tables of this worker, built in memory on first use and kept for the next searches
    /// (a browser has no directory to save them in).
    static TABLES: Tables = Tables::in_memory();
}

/// The memory budget of a search where the device's memory is not known (a browser that does
/// not tell it, or a device with 4 GiB or more): 512 MiB, what a tab can hold on a desktop.
pub const DEFAULT_MEMORY_MIB: usize = 512;
/// The smallest memory budget a device is given: the 24-puzzle's tables for the anytime search
/// (about 80 MB) and room for its beams.
pub const MIN_MEMORY_MIB: usize = 128;

thread_local! {
    /// The memory budget of this worker's searches, in bytes ([`set_device_memory`]).
    static MAX_MEMORY: Cell<usize> = const { Cell::new(DEFAULT_MEMORY_MIB << 20) };
}

/// Sets the searches' memory budget from the device's memory in GiB (`navigator.deviceMemory`,
/// which browsers round to 0.25, 0.5, 1, 2, 4 or 8): an eighth of it, from [`MIN_MEMORY_MIB`]
/// to [`DEFAULT_MEMORY_MIB`], so that a search does not take the memory a phone's other tabs
/// and the system need (a 2 GiB phone gets 256 MiB). `None` (not told, or not a positive
/// number) gives the default. Returns the budget in bytes.
pub fn set_device_memory(gib: Option<f64>) -> usize {
    let mib = match gib {
        Some(g) if g.is_finite() && g > 0.0 => {
            ((g * 1024.0 / 8.0) as usize).clamp(MIN_MEMORY_MIB, DEFAULT_MEMORY_MIB)
        }
        _ => DEFAULT_MEMORY_MIB,
    };
    MAX_MEMORY.with(|m| m.set(mib << 20));
    mib << 20
}

/// What the page offers: the server's default limits, with a smaller memory budget (a browser
/// tab gets less than a server, and a phone less than a desktop) and one worker. The tables
/// serve one person's boards, so the planner starts with the quick pattern databases.
fn settings() -> Settings {
    Settings {
        max_side: 8,
        default_timeout: Duration::from_secs(10),
        max_timeout: Duration::from_secs(60),
        max_nodes: 2_000_000_000,
        max_memory: MAX_MEMORY.with(Cell::get),
        trace_max_cells: 16,
        trace_max_nodes: 500,
        workers: 1,
        workload: Workload::One,
    }
}

/// `GET /api/info`: what this build offers (`static` marks the page's own answers).
pub fn info() -> Value {
    let mut answer = TABLES.with(|tables| taquin_api::info(&settings(), tables, 0));
    answer["static"] = Value::Bool(true);
    answer
}

/// `POST /api/validate`.
pub fn validate(body: &str) -> Result<Value, ApiError> {
    taquin_api::validate(&settings(), &request_of(body)?)
}

/// `POST /api/solve` and, with `progress`, `/api/solve/stream`: `progress` receives the
/// stream's `{"progress": ...}` and `{"improved": ...}` lines as JSON values.
pub fn solve(body: &str, progress: Option<fn(Value)>) -> Result<Value, ApiError> {
    TABLES.with(|tables| {
        let plan = SolvePlan::new(&settings(), tables, &request_of(body)?)?;
        let lines = ProgressLines::in_notation(plan.notation());
        let report = |p| {
            if let (Some(send), Some(line)) = (progress, lines.line(p)) {
                send(line);
            }
        };
        plan.run(tables, None, Some(&report))
    })
}

/// `POST /api/hint`: the first move of an optimal solution.
pub fn hint(body: &str) -> Result<Value, ApiError> {
    let hint = Hint::new(&settings(), &request_of(body)?)?;
    TABLES.with(|tables| hint.run(tables, None))
}

/// `POST /api/generate`: a random solvable board; `fresh_seed` gives the seed when the request
/// names none.
pub fn generate(body: &str, fresh_seed: u64) -> Result<Value, ApiError> {
    Ok(Shuffle::new(&settings(), &request_of(body)?, || fresh_seed)?.run())
}

/// `POST /api/trace`: the A* search tree of a small board.
pub fn trace(body: &str) -> Result<Value, ApiError> {
    TABLES.with(|tables| TracePlan::new(&settings(), tables, &request_of(body)?)?.run(tables, None))
}

/// Moves written in one notation, rewritten in another: `{"moves", "from", "to"}` in,
/// `{"moves", "length", "mtm_length"}` out.
pub fn convert(moves: &str, from: &str, to: &str) -> Result<Value, ApiError> {
    let parsed = notation_of(Some(from))?
        .parse(moves)
        .map_err(|e| ApiError::bad_request("bad_moves", e.to_string()).with("field", "moves"))?;
    Ok(serde_json::json!({
        "moves": notation_of(Some(to))?.format(&parsed),
        "length": parsed.len(),
        "mtm_length": taquin::metric::Metric::Mtm.length(&parsed),
    }))
}
#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use serde_json::json;
    use taquin::{Board, SolveReport};

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
        let fields = SolveReport::FIELDS.into_iter();
        for field in fields.chain(["mtm_length", "board", "goal"]) {
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
        // Each improvement carries its moves, which reach the goal: a page that stops the
        // search keeps the best so far.
        for line in lines.iter().filter(|l| l.get("improved").is_some()) {
            let moves = line["improved"]["moves"].as_str().expect("moves");
            assert_eq!(
                moves.len() as u64,
                line["improved"]["length"].as_u64().unwrap()
            );
            assert!(replays(board, moves), "{line}");
        }
    }

    #[test]
    fn the_memory_budget_is_an_eighth_of_the_device_within_its_bounds() {
        let mib = |gib| set_device_memory(gib) >> 20;
        assert_eq!(mib(Some(2.0)), 256);
        assert_eq!(mib(Some(1.0)), MIN_MEMORY_MIB);
        assert_eq!(mib(Some(0.25)), MIN_MEMORY_MIB);
        assert_eq!(mib(Some(8.0)), DEFAULT_MEMORY_MIB);
        for unknown in [
            None,
            Some(0.0),
            Some(-1.0),
            Some(f64::NAN),
            Some(f64::INFINITY),
        ] {
            assert_eq!(mib(unknown), DEFAULT_MEMORY_MIB, "{unknown:?}");
        }
        set_device_memory(Some(2.0));
        assert_eq!(info()["limits"]["max_memory_bytes"], 256 << 20);
        set_device_memory(None);
        assert_eq!(
            info()["limits"]["max_memory_bytes"],
            DEFAULT_MEMORY_MIB << 20
        );
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
