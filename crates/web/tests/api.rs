//! Every route and every error path of the web API, through `Router::oneshot` (no socket), plus
//! the cancellation of a search whose client goes away, over a real loopback socket.

use std::io::{Read, Write};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use taquin::moves::parse_moves;
use taquin::{is_solvable, Algorithm, Board, HeuristicKind};
use taquin_web::{app, AppState, Config};
use tower::ServiceExt;

mod common;
use common::{config, ARTICLE};
const GOAL: &str = "1 2 3/4 5 6/7 8 0";

fn router() -> Router {
    app(AppState::new(config()))
}

struct Reply {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// Asserts an error reply: status, code, and the shape every error shares.
    fn error(&self, status: StatusCode, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.text);
        let body = self.json();
        assert_eq!(body["code"], code, "{body}");
        assert!(
            body["error"].as_str().is_some_and(|m| m.len() > 10),
            "{body}"
        );
        assert_eq!(
            self.headers[header::CONTENT_TYPE],
            "application/json",
            "errors are JSON"
        );
        body
    }
}

async fn send(router: Router, request: Request<Body>) -> Reply {
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        headers,
        text: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn get(router: Router, uri: &str) -> Reply {
    send(router, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn post_raw(router: Router, uri: &str, body: &str) -> Reply {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(router, request).await
}

async fn post(uri: &str, body: Value) -> Reply {
    post_raw(router(), uri, &body.to_string()).await
}

fn replays(board: &str, goal: &str, moves: &str) -> bool {
    let mut b: Board = board.parse().unwrap();
    let g: Board = goal.parse().unwrap();
    b.apply_all(&parse_moves(moves).unwrap()).is_ok() && b == g
}

#[tokio::test]
async fn page_and_assets_are_served_with_their_types() {
    for (uri, kind, needle) in [
        ("/", "text/html", "taquin"),
        ("/index.html", "text/html", "taquin"),
        ("/solve.js", "text/javascript", "/api/solve/stream"),
        ("/app.css", "text/css", ".board"),
        ("/picture.svg", "image/svg+xml", "<svg"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let r = get(router(), uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(
            r.headers[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with(kind),
            "{uri}"
        );
        assert!(r.text.contains(needle), "{uri}");
    }
}

#[tokio::test]
async fn info_lists_every_algorithm_and_heuristic() {
    let r = get(router(), "/api/info").await;
    assert_eq!(r.status, StatusCode::OK);
    let body = r.json();
    let algorithms: Vec<&str> = body["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(algorithms, expected);
    let heuristics: Vec<&str> = body["heuristics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let expected: Vec<String> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
    assert_eq!(heuristics, expected);
    assert_eq!(body["running"], 0);
    assert_eq!(body["limits"]["max_side"], 8);
}

#[tokio::test]
async fn solve_the_articles_board_in_31_moves() {
    let r = post("/api/solve", json!({"board": ARTICLE, "goal": GOAL})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["length"], 31);
    assert_eq!(body["optimal"], true);
    for field in taquin::SolveReport::FIELDS {
        assert!(body.get(field).is_some(), "missing {field}: {body}");
    }
    assert!(replays(ARTICLE, GOAL, body["moves"].as_str().unwrap()));
    assert_eq!(body["board"], ARTICLE);
    assert_eq!(body["goal"], GOAL);
}

#[tokio::test]
async fn every_algorithm_and_heuristic_by_name_agrees() {
    for a in Algorithm::ALL {
        for h in HeuristicKind::ALL {
            let r = post(
                "/api/solve",
                json!({"board": "4 1 3/7 2 6/0 5 8", "algorithm": a.name(), "heuristic": h.name()}),
            )
            .await;
            if !a.is_optimal() && r.status == StatusCode::UNPROCESSABLE_ENTITY {
                // A non-optimal algorithm may give up (a real-time player that cycles): that is
                // a JSON error, never a 500.
                r.json();
                continue;
            }
            assert_eq!(r.status, StatusCode::OK, "{a} {h}: {}", r.text);
            let body = r.json();
            assert_eq!(body["algorithm"], a.name());
            if a.is_optimal() {
                assert_eq!(body["length"], 6, "{a} {h}");
            } else {
                assert!(body["length"].as_u64().unwrap() >= 6, "{a} {h}");
            }
            assert!(replays(
                "4 1 3/7 2 6/0 5 8",
                GOAL,
                body["moves"].as_str().unwrap()
            ));
        }
    }
}

#[tokio::test]
async fn non_square_boards_and_custom_goals() {
    let r = post(
        "/api/solve",
        json!({"board": "1 2 3 4/5 6 0 7/9 10 11 8", "goal": "0 1 2 3/4 5 6 7/8 9 10 11"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert!(replays(
        "1 2 3 4/5 6 0 7/9 10 11 8",
        "0 1 2 3/4 5 6 7/8 9 10 11",
        body["moves"].as_str().unwrap()
    ));
}

#[tokio::test]
async fn a_key_given_twice_is_refused_on_every_body_route() {
    // serde_json keeps the last of two values silently: the board solved would not be the one
    // the sender may have meant.
    let body = format!("{{\"board\": \"{ARTICLE}\", \"board\": \"1 2 3/4 5 6/7 0 8\"}}");
    for route in taquin_web::api::BODY_ROUTES {
        let r = post_raw(router(), route, &body).await;
        let v = r.error(StatusCode::BAD_REQUEST, "repeated_key");
        assert_eq!(v["field"], "board", "{route}: {v}");
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("\"board\" more than once"),
            "{route}: {v}"
        );
    }
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let r = post_raw(router(), "/api/solve", "{\"board\": ").await;
    r.error(StatusCode::BAD_REQUEST, "bad_json");
    // Where the parser stopped, and what a body must look like.
    let r = post_raw(router(), "/api/solve", "{\"board\": \"1 2/3 0\",}").await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_json");
    let message = body["error"].as_str().unwrap();
    assert!(
        message.starts_with("the request body is not JSON (")
            && message.contains("column")
            && message.contains("no comma after the last item"),
        "{body}"
    );
    // A number past 64 bits in an array board is said as such, not echoed as `1e+23`.
    let r = post(
        "/api/solve",
        json!({"board": [[6, 4, 7], [8, 5, 1e23], [3, 2, 1]]}),
    )
    .await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("row 2, column 3 holds a number too large to be a tile"),
        "{body}"
    );

    let r = post("/api/solve", json!({"board": ARTICLE, "colour": "red"})).await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert!(body["error"].as_str().unwrap().contains("colour"));

    let r = post("/api/solve", json!({"goal": GOAL})).await;
    r.error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");

    let r = post("/api/solve", json!({"board": 12})).await;
    r.error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");

    let request = Request::post("/api/solve")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(json!({"board": ARTICLE}).to_string()))
        .unwrap();
    send(router(), request)
        .await
        .error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type");

    let huge = json!({ "board": "1 ".repeat(20_000) }).to_string();
    let body = post_raw(router(), "/api/solve", &huge)
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("at most 16384 bytes"),
        "{body}"
    );
    // A body declared larger than that is refused before it is read, not waited for.
    let request = Request::post("/api/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, "99999999999")
        .body(Body::from("{"))
        .unwrap();
    send(router(), request)
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    // A compressed body is named as such, not read as broken JSON.
    let request = Request::post("/api/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(Body::from(vec![0x1f, 0x8b, 0x08, 0x00]))
        .unwrap();
    let body = send(router(), request)
        .await
        .error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_encoding");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("Content-Encoding: gzip"),
        "{body}"
    );
    // "identity" is no encoding at all.
    let request = Request::post("/api/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_ENCODING, "identity")
        .body(Body::from(json!({"board": ARTICLE}).to_string()))
        .unwrap();
    assert_eq!(send(router(), request).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_heuristic_an_algorithm_takes_not_is_noted_beside_the_answer() {
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "algorithm": "bfs", "heuristic": "manhattan"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let answer = r.json();
    assert_eq!(answer["length"], 31);
    assert_eq!(answer["heuristic"], "none");
    assert_eq!(
        answer["note"],
        "bfs uses no heuristic, so the heuristic 'manhattan' is not used"
    );
    // A heuristic that is used, or none asked: no note.
    for body in [
        json!({"board": ARTICLE, "algorithm": "astar", "heuristic": "manhattan"}),
        json!({"board": "1 2 3/4 5 6/0 7 8", "algorithm": "lookahead", "heuristic": "manhattan"}),
        json!({"board": ARTICLE, "algorithm": "bfs"}),
    ] {
        let r = post("/api/solve", body.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{body}");
        assert!(r.json().get("note").is_none(), "{body}: {}", r.text);
    }
    // The page reads which algorithms take one from /api/info.
    let info = get(router(), "/api/info").await.json();
    let takes: Vec<(String, bool)> = info["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["name"].as_str().unwrap().to_string(),
                a["takes_heuristic"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(takes.contains(&("bfs".to_string(), false)), "{takes:?}");
    assert!(takes.contains(&("idastar".to_string(), true)), "{takes:?}");
}

#[tokio::test]
async fn bad_boards_name_the_problem() {
    let r = post("/api/solve", json!({"board": "1 2 3/4 x 6/7 8 0"})).await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert_eq!(body["field"], "board");
    assert!(body["error"].as_str().unwrap().contains("'x'"));

    let r = post("/api/solve", json!({"board": ARTICLE, "goal": "1 2/3 0"})).await;
    r.error(StatusCode::BAD_REQUEST, "size_mismatch");

    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "goal": "1 2 3/4 5 5/7 8 0"}),
    )
    .await;
    assert_eq!(
        r.error(StatusCode::BAD_REQUEST, "bad_board")["field"],
        "goal"
    );

    let nine = Board::solved(9, 9).unwrap().to_line();
    let r = post("/api/solve", json!({ "board": nine })).await;
    r.error(StatusCode::UNPROCESSABLE_ENTITY, "too_large");
}

#[tokio::test]
async fn unsolvable_pairs_are_refused_with_the_reason() {
    let r = post("/api/solve", json!({"board": "1 2 3/4 5 6/8 7 0"})).await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
    assert!(body["error"].as_str().unwrap().contains("1 inversion away"));
}

#[tokio::test]
async fn bad_names_and_limits_are_refused() {
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "algorithm": "quantum"}),
    )
    .await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_algorithm");
    assert!(body["error"].as_str().unwrap().contains("idastar"));

    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "heuristic": "vibes"}),
    )
    .await;
    r.error(StatusCode::BAD_REQUEST, "bad_heuristic");
    // A known heuristic that does not fit the board: `unsupported`, saying why.
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "heuristic": "pdb:5-5-5"}),
    )
    .await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "unsupported");
    assert!(body["error"].as_str().unwrap().contains("3x3"), "{body}");
    assert_eq!(body["field"], "heuristic", "{body}");
    // Walking distance whose tables would be too large: refused before any search, by field.
    let r = post(
        "/api/solve",
        json!({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 16/17 18 0 19", "heuristic": "walking-distance"}),
    )
    .await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "unsupported");
    assert_eq!(body["field"], "heuristic", "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("5,977,015 states"),
        "{body}"
    );

    // Pattern databases that build in a second are served; those that take minutes to build
    // are refused unless the server has them, with advice a web user can follow.
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "heuristic": "pdb:8"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["heuristic"], "pdb:8");
    for kind in [HeuristicKind::PDB[3], HeuristicKind::PDB[4]] {
        let board = if kind.name() == "pdb:7-8" {
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"
        } else {
            "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24"
        };
        let r = post(
            "/api/solve",
            json!({"board": board, "heuristic": kind.name()}),
        )
        .await;
        let body = r.error(StatusCode::BAD_REQUEST, "bad_heuristic");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains("auto") && !message.contains("command line"),
            "{message}"
        );
    }

    let r = post("/api/solve", json!({"board": ARTICLE, "timeout_ms": 0})).await;
    r.error(StatusCode::BAD_REQUEST, "bad_limit");

    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "timeout_ms": 3_600_000}),
    )
    .await;
    r.error(StatusCode::BAD_REQUEST, "bad_limit");

    let r = post("/api/solve", json!({"board": ARTICLE, "max_nodes": 0})).await;
    r.error(StatusCode::BAD_REQUEST, "bad_limit");

    // Negative budgets are out of range too, said the same way as 0 (not a type error).
    for (field, route) in [
        ("timeout_ms", "/api/solve"),
        ("max_nodes", "/api/solve"),
        ("timeout_ms", "/api/compare"),
        ("timeout_ms", "/api/hint"),
        ("max_nodes", "/api/trace"),
    ] {
        let r = post(route, json!({"board": ARTICLE, field: -1})).await;
        let body = r.error(StatusCode::BAD_REQUEST, "bad_limit");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("must be between 1 and"),
            "{route} {field}: {body}"
        );
    }

    let r = post("/api/solve", json!({"board": ARTICLE, "weight": 0.5})).await;
    r.error(StatusCode::BAD_REQUEST, "bad_fields");

    let r = post("/api/solve", json!({"board": ARTICLE, "depth": 0})).await;
    r.error(StatusCode::BAD_REQUEST, "bad_fields");

    // A setting of another algorithm is refused, not silently unused, as the CLI refuses it.
    for (body, says) in [
        (
            json!({"board": ARTICLE, "algorithm": "idastar", "weight": 3}),
            "weight applies to weighted-astar only, not to idastar",
        ),
        (
            json!({"board": ARTICLE, "algorithm": "astar", "depth": 3}),
            "depth applies to lookahead and lrta only, not to astar",
        ),
        (
            json!({"board": ARTICLE, "weight": 3}),
            "not to auto (the planner picks idastar or anytime)",
        ),
    ] {
        let r = post("/api/solve", body).await;
        r.error(StatusCode::BAD_REQUEST, "bad_fields");
        assert!(r.text.contains(says), "{}", r.text);
    }
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "algorithm": "weighted-astar", "weight": 3}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // What is proven of the answer: 1 when optimal, else within the weight, or within its
    // length over the lower bound where that is smaller.
    let body = r.json();
    let (length, lower) = (
        body["length"].as_f64().unwrap(),
        body["lower_bound"].as_f64().unwrap(),
    );
    let expected = if body["optimal"] == true {
        1.0
    } else {
        (length / lower).min(3.0)
    };
    assert_eq!(
        body["suboptimality_bound"].as_f64(),
        Some(expected),
        "{body}"
    );
}

#[tokio::test]
async fn the_page_learns_it_runs_on_a_server_without_a_404() {
    let r = get(router(), "/site.json").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["mode"], "server");
}

#[tokio::test]
async fn boards_may_be_arrays_of_rows_and_a_bad_field_is_named() {
    let r = post(
        "/api/solve",
        json!({"board": [[1, 2, 3], [4, 5, 6], [7, 0, 8]]}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["moves"], "R");
    let r = post("/api/solve", json!({"board": ARTICLE, "timeout_ms": 2.5})).await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert!(
        body["error"].as_str().unwrap().starts_with("timeout_ms: "),
        "{body}"
    );
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("expected a whole number"),
        "{body}"
    );
    // One flat array of k² tiles is a k x k board, as one line of text is.
    let r = post("/api/solve", json!({"board": [1, 2, 3, 4, 5, 6, 7, 0, 8]})).await;
    assert_eq!(r.json()["moves"], "R", "{}", r.text);
    // A missing board and an unknown field are named as the field at fault.
    let body = post("/api/solve", json!({"goal": "korf"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert_eq!(body["field"], "board", "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("e.g. {\"board\""),
        "{body}"
    );
    let body = post("/api/solve", json!({"board": ARTICLE, "colour": "red"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert_eq!(body["field"], "colour", "{body}");
    // A negative side is out of range as 0 is, with the range.
    let r = post("/api/generate", json!({"width": -1})).await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert_eq!(body["field"], "width");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("width and height must each be at least 2"),
        "{body}"
    );
    let r = post("/api/solve", json!({"board": [1, 2, 3]})).await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("a flat array of 3 tiles makes no square board"),
        "{body}"
    );
    // A cell that is no tile is named by its place.
    let r = post(
        "/api/solve",
        json!({"board": [[1, 2, 3], [4, 5, 6], [7, 8, null]]}),
    )
    .await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert_eq!(body["field"], "board");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("board: row 3, column 3 holds null, which is no tile"),
        "{body}"
    );
}

#[tokio::test]
async fn a_goal_may_be_named_as_on_the_command_line() {
    let r = post(
        "/api/solve",
        json!({"board": "1 0 2/3 4 5/6 7 8", "goal": "korf"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["moves"], "L");
    let r = post("/api/solve", json!({"board": ARTICLE, "goal": "snial"})).await;
    let body = r.error(StatusCode::BAD_REQUEST, "bad_board");
    assert_eq!(body["field"], "goal");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("use standard, korf or snail"),
        "{body}"
    );
}

#[tokio::test]
async fn a_node_budget_stops_the_search_with_its_bound() {
    let r = post(
        "/api/solve",
        json!({"board": ARTICLE, "algorithm": "astar", "heuristic": "misplaced", "max_nodes": 100}),
    )
    .await;
    let body = r.error(StatusCode::UNPROCESSABLE_ENTITY, "limit_reached");
    assert_eq!(body["limit"], "nodes");
    assert!(body["lower_bound"].as_u64().unwrap() <= 31);
    assert!(
        body.get("bound").is_none(),
        "one name for the bound: {body}"
    );
    assert!(body["generated"].as_u64().unwrap() >= 100);
}

#[tokio::test]
async fn too_busy_is_a_503_with_retry_after() {
    let state = AppState::new(config());
    let slots = state.slots();
    let _held = slots.acquire_many_owned(2).await.unwrap();
    let r = post_raw(
        app(state.clone()),
        "/api/solve",
        &json!({ "board": ARTICLE }).to_string(),
    )
    .await;
    r.error(StatusCode::SERVICE_UNAVAILABLE, "busy");
    assert_eq!(r.headers[header::RETRY_AFTER], "1");

    // With no room in the queue, refused without waiting at all.
    let state = AppState::new(Config {
        queue: 0,
        queue_wait: Duration::from_secs(3600),
        ..config()
    });
    let _held = state.slots().acquire_many_owned(2).await.unwrap();
    let r = post_raw(
        app(state),
        "/api/solve",
        &json!({ "board": ARTICLE }).to_string(),
    )
    .await;
    r.error(StatusCode::SERVICE_UNAVAILABLE, "busy");
}

#[tokio::test]
async fn a_stream_says_it_waits_for_a_worker_then_solves_or_gives_up() {
    let lines = |r: &Reply| -> Vec<Value> {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // Every worker busy until the wait is over: the place in the queue, then a busy error.
    let state = AppState::new(config());
    let _held = state.slots().acquire_many_owned(2).await.unwrap();
    const BODY: &str = r#"{"board": "6 4 7/8 5 0/3 2 1"}"#;
    let r = post_raw(app(state.clone()), "/api/solve/stream", BODY).await;
    let got = lines(&r);
    assert_eq!(got[0]["waiting"]["position"], 1, "{}", r.text);
    assert_eq!(got[0]["waiting"]["max_wait_ms"], 50, "{}", r.text);
    assert_eq!(got.len(), 2, "{}", r.text);
    assert_eq!(got[1]["error"]["code"], "busy");
    assert_eq!(got[1]["error"]["status"], 503);
    assert_eq!(state.waiting(), 0, "the request left the queue");

    // A worker comes free while the request waits: it is solved.
    let state = AppState::new(Config {
        queue_wait: Duration::from_secs(600),
        ..config()
    });
    let held = state.slots().acquire_many_owned(2).await.unwrap();
    let solving = tokio::spawn(post_raw(app(state.clone()), "/api/solve/stream", BODY));
    while state.waiting() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    drop(held);
    let r = solving.await.unwrap();
    let got = lines(&r);
    assert_eq!(got[0]["waiting"]["position"], 1, "{}", r.text);
    assert_eq!(got.last().unwrap()["solution"]["length"], 31, "{}", r.text);
    assert_eq!(state.waiting(), 0);

    // A second request waiting behind the first is told its place.
    let held = state.slots().acquire_many_owned(2).await.unwrap();
    let first = tokio::spawn(post_raw(app(state.clone()), "/api/solve/stream", BODY));
    while state.waiting() < 1 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let second = tokio::spawn(post_raw(app(state.clone()), "/api/solve/stream", BODY));
    while state.waiting() < 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    drop(held);
    let (first, second) = (lines(&first.await.unwrap()), lines(&second.await.unwrap()));
    assert_eq!(first[0]["waiting"]["position"], 1);
    assert_eq!(second[0]["waiting"]["position"], 2);
    assert_eq!(second.last().unwrap()["solution"]["length"], 31);

    // A client that goes away while it waits leaves the queue.
    let held = state.slots().acquire_many_owned(2).await.unwrap();
    let leaving = tokio::spawn(post_raw(app(state.clone()), "/api/solve/stream", BODY));
    while state.waiting() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    leaving.abort();
    let _ = leaving.await;
    assert_eq!(state.waiting(), 0);
    drop(held);

    // With no room in the queue, refused with its status before any stream.
    let state = AppState::new(Config {
        queue: 0,
        ..config()
    });
    let _held = state.slots().acquire_many_owned(2).await.unwrap();
    post_raw(app(state), "/api/solve/stream", BODY)
        .await
        .error(StatusCode::SERVICE_UNAVAILABLE, "busy");
}

#[tokio::test]
async fn unknown_routes_and_methods_are_json() {
    get(router(), "/api/nothing")
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    get(router(), "/nothing.png")
        .await
        .error(StatusCode::NOT_FOUND, "not_found");
    get(router(), "/api/solve")
        .await
        .error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    post("/api/info", json!({}))
        .await
        .error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

#[tokio::test]
async fn stream_reports_progress_then_the_solution() {
    let r = post(
        "/api/solve/stream",
        json!({"board": ARTICLE, "algorithm": "bfs"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers[header::CONTENT_TYPE], "application/x-ndjson");
    let lines: Vec<Value> = r
        .text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // BFS on the article's board generates hundreds of thousands of nodes: at least one
    // progress line comes before the answer.
    assert!(lines.len() >= 2, "{}", r.text);
    for l in &lines[..lines.len() - 1] {
        assert!(l["progress"]["generated"].as_u64().unwrap() > 0);
    }
    let last = &lines[lines.len() - 1]["solution"];
    assert_eq!(last["length"], 31);
    assert_eq!(last["heuristic"], "none");
}

#[tokio::test]
async fn stream_errors_before_and_during_the_search() {
    post("/api/solve/stream", json!({"board": "1 2 3/4 5 6/8 7 0"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
    let r = post(
        "/api/solve/stream",
        json!({"board": ARTICLE, "heuristic": "misplaced", "max_nodes": 10}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let last: Value = serde_json::from_str(r.text.lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["code"], "limit_reached");
    assert_eq!(last["error"]["status"], 422);
}

#[tokio::test]
async fn notation_writes_the_moves_in_tile_notation_on_request() {
    // "1 2 3/4 5 6/0 7 8" is solved by the blank going right twice: the tiles 7 and 8 slide
    // left, one run of two, "L2" in tile notation.
    let board = "1 2 3/4 5 6/0 7 8";
    let blank = post("/api/solve", json!({"board": board})).await.json();
    assert_eq!(blank["moves"], "RR");
    let tiles = post("/api/solve", json!({"board": board, "notation": "tiles"}))
        .await
        .json();
    assert_eq!(tiles["moves"], "L2");
    assert_eq!(
        (tiles["length"].clone(), tiles["mtm_length"].clone()),
        (json!(2), json!(1))
    );
    // The article's board: the tile notation reads back to a solution that replays.
    let r = post("/api/solve", json!({"board": ARTICLE, "notation": "tiles"}))
        .await
        .json();
    let moves = taquin::notation::Notation::Tiles
        .parse(r["moves"].as_str().unwrap())
        .unwrap();
    let letters: String = moves.iter().map(|m| m.letter()).collect();
    assert!(replays(ARTICLE, GOAL, &letters), "{r}");
    assert_eq!(moves.len(), 31);
    // The stream's solution line and the hint too.
    let r = post(
        "/api/solve/stream",
        json!({"board": board, "notation": "tiles"}),
    )
    .await;
    let last: Value = serde_json::from_str(r.text.lines().last().unwrap()).unwrap();
    assert_eq!(last["solution"]["moves"], "L2");
    let hint = post("/api/hint", json!({"board": board, "notation": "tiles"}))
        .await
        .json();
    // The first move in the notation asked for, as the moves: one tile slid left.
    assert_eq!(
        (hint["move"].clone(), hint["moves"].clone()),
        (json!("L"), json!("L2"))
    );
    // Blank notation by name is the default's answer; an unknown name is refused with the
    // names to use, and validate takes no notation.
    let named = post("/api/solve", json!({"board": board, "notation": "blank"}))
        .await
        .json();
    assert_eq!(named["moves"], "RR");
    let e = post(
        "/api/solve",
        json!({"board": board, "notation": "tile-ish"}),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "bad_fields");
    assert_eq!(e["field"], "notation");
    assert!(e["error"].as_str().unwrap().contains("blank or tiles"));
    post(
        "/api/validate",
        json!({"board": board, "notation": "tiles"}),
    )
    .await
    .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    let info = get(router(), "/api/info").await.json();
    assert_eq!(info["notations"], json!(["blank", "tiles"]));
}

#[tokio::test]
async fn validate_says_solvable_or_why_not() {
    let r = post("/api/validate", json!({"board": ARTICLE})).await;
    assert_eq!(r.status, StatusCode::OK);
    let body = r.json();
    assert_eq!(body["solvable"], true);
    assert_eq!(body["reason"], Value::Null);
    assert_eq!(body["goal"]["line"], GOAL);
    assert_eq!(body["board"]["tiles"], json!([6, 4, 7, 8, 5, 0, 3, 2, 1]));

    let r = post("/api/validate", json!({"board": "2 1/3 0"})).await;
    let body = r.json();
    assert_eq!(body["solvable"], false);
    assert!(body["reason"].as_str().unwrap().contains("even width"));

    post("/api/validate", json!({"board": "1 2/3"}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_board");
    let body = post("/api/validate", json!({"board": ARTICLE, "timeout_ms": 5}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert_eq!(
        body["error"],
        "timeout_ms has no meaning for validate, which only checks the boards: leave it out"
    );
}

#[tokio::test]
async fn hint_gives_the_optimal_next_move() {
    let r = post("/api/hint", json!({"board": "1 2 3/4 5 6/7 0 8"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["move"], "R");
    assert_eq!(body["tile"], 8);
    assert_eq!(body["length"], 1);

    let r = post("/api/hint", json!({"board": ARTICLE})).await;
    assert_eq!(r.json()["length"], 31);
    assert_eq!(r.json()["optimal"], true);

    // Beyond 16 cells, the first move of the best solution found in the time: not proven
    // optimal, with its bound, within a short timeout, and a move that starts a solution.
    let goal = Board::solved(6, 6).unwrap();
    let big = taquin::generate::uniform(&goal, &mut taquin::generate::Rng::new(3));
    let r = post(
        "/api/hint",
        json!({"board": big.to_line(), "timeout_ms": 300}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["optimal"], false, "{body}");
    let remaining = body["length"].as_u64().unwrap();
    assert!(body["lower_bound"].as_u64().unwrap() < remaining, "{body}");
    let moves = parse_moves(body["moves"].as_str().unwrap()).unwrap();
    assert_eq!(moves.len() as u64, remaining);
    assert_eq!(body["move"], moves[0].letter().to_string());
    let mut end = big.clone();
    end.apply_all(&moves).unwrap();
    assert_eq!(end, goal);

    let r = post("/api/hint", json!({"board": GOAL})).await;
    let body = r.json();
    assert_eq!(body["move"], Value::Null);
    assert_eq!(body["length"], 0);
    // The same fields as any hint, saying no search ran.
    assert_eq!(
        (&body["algorithm"], &body["generated"]),
        (&json!("none"), &json!(0))
    );

    post("/api/hint", json!({"board": "1 2 3/4 5 6/8 7 0"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
}

#[tokio::test]
async fn compare_runs_each_heuristic() {
    let r = post("/api/compare", json!({"board": ARTICLE})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let results = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), HeuristicKind::ALL.len());
    for (res, h) in results.iter().zip(HeuristicKind::ALL) {
        assert_eq!(res["heuristic"], h.name());
        assert_eq!(res["algorithm"], "astar");
        assert_eq!(res["length"], 31);
    }
    // The article's point: a better heuristic expands fewer nodes.
    assert!(results[0]["expanded"].as_u64() > results[1]["expanded"].as_u64());

    let r = post(
        "/api/compare",
        json!({"board": ARTICLE, "algorithms": ["bfs", "idastar"], "heuristics": ["manhattan"]}),
    )
    .await;
    let results = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["heuristic"], "none");
    // Every algorithm that takes no heuristic gets one run, whatever heuristics are listed.
    let r = post(
        "/api/compare",
        json!({"board": ARTICLE, "algorithms": ["constructive", "lookahead", "astar"]}),
    )
    .await;
    let results = r.json()["results"].as_array().unwrap().clone();
    let runs = |a: &str| results.iter().filter(|r| r["algorithm"] == a).count();
    assert_eq!(runs("constructive"), 1, "{results:?}");
    assert_eq!(runs("lookahead"), 1, "{results:?}");
    assert_eq!(runs("astar"), HeuristicKind::ALL.len(), "{results:?}");

    // A run stopped by its budget is reported, not dropped.
    let r = post(
        "/api/compare",
        json!({"board": ARTICLE, "heuristics": ["misplaced"], "max_nodes": 50}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let results = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(results[0]["code"], "limit_reached");
    assert_eq!(results[0]["heuristic"], "misplaced");

    post("/api/compare", json!({"board": ARTICLE, "heuristics": []}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_fields");
    let body = post(
        "/api/compare",
        json!({"board": ARTICLE, "algorithms": ["nope"]}),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "bad_algorithm");
    // The field as the request names it.
    assert_eq!(body["field"], "algorithms", "{body}");
    let body = post(
        "/api/compare",
        json!({"board": ARTICLE, "heuristics": ["nope"]}),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "bad_heuristic");
    assert_eq!(body["field"], "heuristics", "{body}");
}

#[tokio::test]
async fn generate_gives_reproducible_solvable_boards() {
    let a = post("/api/generate", json!({"width": 4, "height": 3, "seed": 7})).await;
    let b = post("/api/generate", json!({"width": 4, "height": 3, "seed": 7})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json()["board"], b.json()["board"]);
    let board: Board = a.json()["board"].as_str().unwrap().parse().unwrap();
    assert_eq!((board.width(), board.height()), (4, 3));
    assert!(is_solvable(&board, &Board::solved(4, 3).unwrap()));

    let goal = "0 1 2/3 4 5/6 7 8";
    let r = post(
        "/api/generate",
        json!({"goal": goal, "method": "walk", "moves": 12}),
    )
    .await;
    let body = r.json();
    assert_eq!(body["goal"], goal);
    assert_eq!(body["moves"], 12);
    let board: Board = body["board"].as_str().unwrap().parse().unwrap();
    assert!(is_solvable(&board, &goal.parse().unwrap()));
    assert!(body["seed"].as_u64().is_some());

    // Goals by name, as `--goal` and /api/solve take them, on the size asked for.
    let named = post(
        "/api/generate",
        json!({"goal": "korf", "width": 4, "height": 4, "seed": 3}),
    )
    .await;
    assert_eq!(named.status, StatusCode::OK, "{}", named.text);
    assert_eq!(
        named.json()["goal"],
        "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
    );
    let spelled = post(
        "/api/generate",
        json!({"goal": "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15", "seed": 3}),
    )
    .await;
    assert_eq!(named.json()["board"], spelled.json()["board"]);
    assert_eq!(
        post("/api/generate", json!({"goal": "snail", "seed": 1}))
            .await
            .json()["goal"],
        "1 2 3/8 0 4/7 6 5"
    );
    post("/api/generate", json!({"goal": "snial"}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_board");

    post("/api/generate", json!({"method": "dice"}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_method");
    post("/api/generate", json!({"moves": 5}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_fields");
    // Too thin to be a puzzle is a bad board, not a board too large to serve.
    post("/api/generate", json!({"width": 1}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_board");
    post("/api/generate", json!({"width": 9}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "too_large");
    post("/api/generate", json!({"width": 3, "goal": "1 2/3 0"}))
        .await
        .error(StatusCode::BAD_REQUEST, "size_mismatch");
}

#[tokio::test]
async fn trace_draws_the_search_tree_of_small_boards() {
    let r = post("/api/trace", json!({"board": "1 2 3/4 0 6/7 5 8"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let body = r.json();
    assert_eq!(body["complete"], true);
    assert_eq!(body["moves"], "DR");
    assert_eq!(body["heuristic"], "manhattan");
    let nodes = body["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 7);
    for (i, n) in nodes.iter().enumerate() {
        assert_eq!(n["id"], i);
        assert_eq!(
            n["f"].as_u64().unwrap(),
            n["g"].as_u64().unwrap() + n["h"].as_u64().unwrap()
        );
    }
    assert_eq!(nodes[6]["state"], "goal");
    assert_eq!(body["path"], json!([0, 2, 6]));

    // The tutorial's first-in first-out order is the default; the deepest-first one on request.
    assert_eq!(body["tie_break"], "fifo");
    let r = post(
        "/api/trace",
        json!({"board": "1 2 3/4 0 6/7 5 8", "tie_break": "deepest"}),
    )
    .await;
    assert_eq!(r.json()["tie_break"], "deepest");
    post(
        "/api/trace",
        json!({"board": "1 2 3/4 0 6/7 5 8", "tie_break": "lifo"}),
    )
    .await
    .error(StatusCode::BAD_REQUEST, "bad_fields");

    let r = post("/api/trace", json!({"board": ARTICLE, "max_nodes": 30})).await;
    let body = r.json();
    assert_eq!(body["complete"], false);
    assert!(body["nodes"].as_array().unwrap().len() <= 30);

    let five = Board::solved(5, 5).unwrap().to_line();
    post("/api/trace", json!({ "board": five }))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "too_large");
    post("/api/trace", json!({"board": ARTICLE, "max_nodes": 0}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_limit");
    post("/api/trace", json!({"board": "2 1/3 0"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
}

/// Waits (at most about 20 s, never as an assertion on time) until no search is registered.
async fn wait_until_idle(state: &AppState) -> usize {
    for _ in 0..200 {
        if state.running() == 0 {
            return 0;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    state.running()
}

/// A search far beyond its limits: a uniform 5x5 board with the weakest heuristic.
fn endless_request(path: &str) -> String {
    let board = taquin::generate::uniform(
        &Board::solved(5, 5).unwrap(),
        &mut taquin::generate::Rng::new(1),
    );
    let body = json!({
        "board": board.to_line(),
        "algorithm": "idastar",
        "heuristic": "misplaced",
        "timeout_ms": 60_000,
    })
    .to_string();
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_its_search() {
    let (addr, state, stop_tx, serving) = common::serve(config()).await;

    for path in ["/api/solve", "/api/solve/stream"] {
        let request = endless_request(path);
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        // Wait until the search is registered, then hang up.
        for _ in 0..200 {
            if state.running() > 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(state.running(), 1, "{path}: the search started");
        if path.ends_with("stream") {
            // The stream has begun: read its first bytes (headers) before leaving.
            let mut first = [0u8; 64];
            let n = stream.read(&mut first).unwrap();
            assert!(String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"));
        }
        drop(stream);
        assert_eq!(wait_until_idle(&state).await, 0, "{path}: search cancelled");
    }

    // Shutdown also cancels a running search, and the server stops.
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(endless_request("/api/solve").as_bytes())
        .unwrap();
    for _ in 0..200 {
        if state.running() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop_tx.send(()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).ok();
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(reply.contains("\"code\":\"cancelled\""), "{reply}");
    serving.await.unwrap().unwrap();
    // A stopping server answers at once and does not wait for the search: it sees its cancel
    // flag at its next check.
    assert_eq!(wait_until_idle(&state).await, 0, "search cancelled");
}

#[tokio::test]
async fn tables_not_built_here_are_refused_alike_by_solve_compare_and_trace() {
    // The 7-8 takes minutes to build: refused before a worker is taken, on every route that
    // runs a named heuristic, with advice the route's client can follow.
    let fifteen = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15";
    for (route, body, field, advice) in [
        (
            "/api/solve",
            json!({"board": fifteen, "heuristic": "pdb:7-8"}),
            "heuristic",
            "auto",
        ),
        (
            "/api/compare",
            json!({"board": fifteen, "heuristics": ["manhattan", "pdb:7-8"]}),
            "heuristics",
            "compare without it",
        ),
        (
            "/api/trace",
            json!({"board": fifteen, "heuristic": "pdb:7-8"}),
            "heuristic",
            "manhattan",
        ),
    ] {
        let body = post(route, body)
            .await
            .error(StatusCode::BAD_REQUEST, "bad_heuristic");
        assert_eq!(body["field"], field, "{route}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains(advice) && !message.contains("taquin pdb build"),
            "{route}: {message}"
        );
    }
    // Tables that build in a second are built for the trace, as for a solve.
    let r = post(
        "/api/trace",
        json!({"board": "1 2 3/4 0 6/7 5 8", "heuristic": "pdb:8"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["heuristic"], "pdb:8");
    assert_eq!(r.json()["moves"], "DR");
}

#[tokio::test]
async fn a_compared_run_out_of_time_is_not_told_to_use_auto() {
    // Korf's first 15-puzzle with misplaced tiles: far more than a millisecond.
    let board = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3";
    let r = post(
        "/api/compare",
        json!({"board": board, "goal": "korf", "algorithms": ["idastar"],
               "heuristics": ["misplaced"], "timeout_ms": 1}),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let row = &r.json()["results"][0];
    assert_eq!(row["code"], "limit_reached", "{row}");
    let message = row["error"].as_str().unwrap();
    assert!(
        message.contains("compare fewer") && !message.contains("auto"),
        "{message}"
    );
}

#[tokio::test]
async fn out_of_range_numbers_are_refused_by_their_range_and_named() {
    // Numbers past 64 bits (held as floating point by JSON parsers), negative counts and zero
    // are all out of the field's range: a 400 naming the field, with the range.
    for (route, body, code, field, says) in [
        (
            "/api/solve",
            r#"{"board": "1 2 3/4 5 6/7 0 8", "timeout_ms": 18446744073709551616}"#,
            "bad_limit",
            "timeout_ms",
            "between 1 and",
        ),
        (
            "/api/generate",
            r#"{"seed": 18446744073709551616}"#,
            "bad_fields",
            "seed",
            "at most",
        ),
        (
            "/api/generate",
            r#"{"method": "walk", "moves": 1e30}"#,
            "bad_fields",
            "moves",
            "between 0 and",
        ),
        (
            "/api/solve",
            r#"{"board": "1 2 3/4 5 6/7 0 8", "algorithm": "lookahead", "depth": -1}"#,
            "bad_fields",
            "depth",
            "between 1 and",
        ),
        (
            "/api/solve",
            r#"{"board": "1 2 3/4 5 6/7 0 8", "algorithm": "weighted-astar", "weight": 0.5}"#,
            "bad_fields",
            "weight",
            "between 1 and",
        ),
        (
            "/api/generate",
            r#"{"width": 0}"#,
            "bad_board",
            "width",
            "at least 2",
        ),
        (
            "/api/generate",
            r#"{"width": 3, "height": -4}"#,
            "bad_board",
            "height",
            "at least 2",
        ),
        (
            "/api/generate",
            r#"{"goal": "korf", "width": 0}"#,
            "bad_board",
            "width",
            "at least 2",
        ),
    ] {
        let r = post_raw(router(), route, body).await;
        let answer = r.error(StatusCode::BAD_REQUEST, code);
        assert_eq!(answer["field"], field, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    // A negative seed or walk length is no number the field takes at all.
    for body in [r#"{"seed": -1}"#, r#"{"method": "walk", "moves": -1}"#] {
        let answer = post_raw(router(), "/api/generate", body)
            .await
            .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
        assert!(
            answer["error"].as_str().unwrap().contains("0 or more"),
            "{body}: {answer}"
        );
    }
    // A fraction is still a wrong type.
    let answer = post_raw(
        router(),
        "/api/solve",
        r#"{"board": "1 2 3/4 5 6/7 0 8", "timeout_ms": 1.5}"#,
    )
    .await
    .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    assert_eq!(answer["field"], "timeout_ms");
    assert!(answer["error"].as_str().unwrap().contains("whole number"));
}

#[tokio::test]
async fn errors_about_one_field_name_it() {
    for (route, body, status, code, field) in [
        (
            "/api/solve",
            json!({"board": "1 2 3/4 5 6/7 0 8", "goal": "1 2/3 0"}),
            StatusCode::BAD_REQUEST,
            "size_mismatch",
            "goal",
        ),
        (
            "/api/validate",
            json!({"board": "1 2/3 0", "timeout_ms": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_fields",
            "timeout_ms",
        ),
        (
            "/api/generate",
            json!({"moves": 30}),
            StatusCode::BAD_REQUEST,
            "bad_fields",
            "moves",
        ),
        (
            "/api/generate",
            json!({"method": "dice"}),
            StatusCode::BAD_REQUEST,
            "bad_method",
            "method",
        ),
        (
            "/api/generate",
            json!({"width": 3, "goal": "1 2/3 0"}),
            StatusCode::BAD_REQUEST,
            "size_mismatch",
            "width",
        ),
        (
            "/api/compare",
            json!({"board": "1 2/3 0", "algorithms": []}),
            StatusCode::BAD_REQUEST,
            "bad_fields",
            "algorithms",
        ),
    ] {
        let answer = post(route, body.clone()).await.error(status, code);
        assert_eq!(answer["field"], field, "{route} {body}: {answer}");
    }
}

#[tokio::test]
async fn a_board_of_the_wrong_shape_gets_advice_for_that_shape() {
    // A flat array that makes no square.
    let answer = post("/api/solve", json!({"board": [1, 2, 3, 4, 5, 6, 7, 8]}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_board");
    let message = answer["error"].as_str().unwrap();
    assert!(
        message.contains("flat array of 8 tiles") && !message.contains("'/'"),
        "{message}"
    );
    // A board of the wrong type: not "expected a string", as arrays are taken too.
    let answer = post("/api/solve", json!({"board": 5}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    let message = answer["error"].as_str().unwrap();
    assert!(
        !message.contains("expected a string") && message.contains("array of rows"),
        "{message}"
    );
    // A route that takes no board says only that.
    let answer = post("/api/generate", json!({"board": "1 2/3 0"}))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY, "bad_fields");
    let message = answer["error"].as_str().unwrap();
    assert!(
        message.contains("unknown field") && !message.contains("write it as text"),
        "{message}"
    );
    assert_eq!(answer["field"], "board");
}

/// An answer whose moves are in tile notation says so, as `solve --json --notation tiles`
/// does; one in blank letters (the default) has no `notation`.
#[tokio::test]
async fn an_answer_in_tile_notation_names_it() {
    let board = "1 2 3/4 5 6/0 7 8";
    let tiles = post("/api/solve", json!({"board": board, "notation": "tiles"}))
        .await
        .json();
    assert_eq!(
        (&tiles["moves"], &tiles["notation"]),
        (&json!("L2"), &json!("tiles"))
    );
    let r = post(
        "/api/solve/stream",
        json!({"board": board, "notation": "tiles"}),
    )
    .await;
    let last: Value = serde_json::from_str(r.text.lines().last().unwrap()).unwrap();
    assert_eq!(last["solution"]["notation"], "tiles", "{last}");
    let hint = post("/api/hint", json!({"board": board, "notation": "tiles"}))
        .await
        .json();
    assert_eq!(hint["notation"], "tiles", "{hint}");
    let blank = post("/api/solve", json!({"board": board})).await.json();
    assert!(blank.get("notation").is_none(), "{blank}");
}

/// The n-puzzle project's text (a size line, then the rows, `#` comments) is a board here as
/// on the command line: one reader for every front.
#[tokio::test]
async fn the_npuzzle_format_is_a_board_as_on_the_command_line() {
    for text in [
        "3\n1 2 3\n4 0 6\n7 5 8",
        "# solvable\n3\n1 2 3 # first row\n4 0 6\n7 5 8\n",
    ] {
        let r = post("/api/solve", json!({"board": text})).await.json();
        assert_eq!(
            (&r["length"], &r["board"]),
            (&json!(2), &json!("1 2 3/4 0 6/7 5 8")),
            "{r}"
        );
    }
    let r = post(
        "/api/validate",
        json!({"board": "3\n1 2 3\n4 0 6\n7 5 8", "goal": "3\n1 2 3\n4 5 6\n7 8 0"}),
    )
    .await
    .json();
    assert_eq!(r["solvable"], true, "{r}");
    // Its errors name the line, and the side is still the server's to cap.
    let e = post("/api/solve", json!({"board": "3\n1 2 3\n4 0 6"}))
        .await
        .error(StatusCode::BAD_REQUEST, "bad_board");
    assert!(
        e["error"].as_str().unwrap().contains("give exactly 3 rows"),
        "{e}"
    );
}

/// A byte-order mark before a JSON body, as some Windows tools write one, is skipped.
#[tokio::test]
async fn a_byte_order_mark_before_the_body_is_skipped() {
    let body = format!("\u{feff}{}", json!({"board": "1 2 3/4 5 6/7 0 8"}));
    let r = post_raw(router(), "/api/solve", &body).await.json();
    assert_eq!(r["moves"], "R", "{r}");
    assert_eq!(
        taquin_api::body_json_of(body.as_bytes()).unwrap()["board"],
        "1 2 3/4 5 6/7 0 8"
    );
    // Anything else before the JSON is still no JSON.
    post_raw(router(), "/api/solve", "x{}")
        .await
        .error(StatusCode::BAD_REQUEST, "bad_json");
}
