//! Black-box tests of the whole server with random JSON request bodies: random objects over the
//! fields the routes know (and some they do not), random values, and raw bytes, each sent
//! through the router, searches included. Every answer must carry a documented status and, for
//! an error, the usual JSON shape; nothing may panic (a 500). The cargo-fuzz target `json_body`
//! (fuzz/) covers the reading and checking of bodies far more thoroughly, without running them;
//! these cover what happens after. Its corpus, `fuzz/corpus/json_body`, is replayed first.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request};
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use taquin_web::api::{check_body, BODY_ROUTES as ROUTES};
use taquin_web::{app, AppState, Config};
use tower::ServiceExt;

const DOCUMENTED: [u16; 8] = [200, 400, 408, 413, 415, 422, 503, 404];

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn state() -> AppState {
    AppState::new(Config {
        workers: 1,
        queue_wait: Duration::from_millis(20),
        // Small limits: a fuzzed request must not run for long either.
        default_timeout: Duration::from_millis(200),
        max_timeout: Duration::from_millis(200),
        max_memory: 64 << 20,
        ..Config::default()
    })
}

/// Posts `body` to `route` and checks the answer's status and shape, and that a body
/// `check_body` (what the fuzz target calls) refuses is refused by the route the same way.
async fn check(state: AppState, route: &str, body: Vec<u8>) -> Result<(), String> {
    let refusal = check_body(&state, route, &body).err();
    let request = Request::post(route)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = app(state).oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    if !DOCUMENTED.contains(&status) {
        return Err(format!("{route}: status {status}: {text}"));
    }
    if let Some(e) = refusal {
        if e.status.as_u16() != status || !text.contains(&format!("\"code\":\"{}\"", e.code)) {
            return Err(format!(
                "{route}: check_body said {} {}, the route {status} {text}",
                e.status, e.code
            ));
        }
    }
    if status != 200 {
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{route}: {e}: {text}"))?;
        if !(v["code"].is_string() && v["error"].is_string()) {
            return Err(format!("{route}: error without code and message: {text}"));
        }
    }
    Ok(())
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..70).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        prop_oneof![
            Just("6 4 7/8 5 0/3 2 1"),
            Just("1 2 3/4 5 6/7 8 0"),
            Just("1 2/3 4/5 6/7 8/9 10/11 0/13 12"),
            Just("1 2 3/4 5 6/8 7 0"),
            Just("astar"),
            Just("idastar"),
            Just("bfs"),
            Just("lrta"),
            Just("lookahead"),
            Just("constructive"),
            Just("walking-distance"),
            Just("misplaced"),
            Just("pdb:8"),
            Just("walk"),
            Just("uniform"),
        ]
        .prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        proptest::collection::vec("[a-z-]{0,10}", 0..4).prop_map(|v| json!(v)),
    ]
}

fn body() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("board"),
        Just("goal"),
        Just("algorithm"),
        Just("heuristic"),
        Just("timeout_ms"),
        Just("max_nodes"),
        Just("weight"),
        Just("depth"),
        Just("algorithms"),
        Just("heuristics"),
        Just("width"),
        Just("height"),
        Just("method"),
        Just("moves"),
        Just("seed"),
        Just("unknown"),
    ];
    prop_oneof![
        4 => proptest::collection::vec((key, value()), 0..6).prop_map(|pairs| {
            Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())
        }),
        1 => value(),
        1 => proptest::collection::vec(value(), 0..4).prop_map(Value::from),
    ]
}

#[test]
fn the_corpus_gets_documented_answers() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/json_body");
    let rt = runtime();
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        // A corpus file starts with the byte by which the fuzz target picks a route.
        let body = bytes.get(1..).unwrap_or_default();
        for route in ROUTES {
            rt.block_on(check(state(), route, body.to_vec())).unwrap();
        }
    }
}

proptest! {
    #[test]
    fn json_bodies_get_documented_answers(route in 0..ROUTES.len(), body in body()) {
        let bytes = body.to_string().into_bytes();
        runtime().block_on(check(state(), ROUTES[route], bytes)).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn raw_bytes_get_documented_answers(route in 0..ROUTES.len(), bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        runtime().block_on(check(state(), ROUTES[route], bytes)).map_err(TestCaseError::fail)?;
    }
}
