//! A stopping server answers every open request at once: searches in flight, streams and
//! requests waiting for a worker all get a 503 `cancelled` (a stream as its last line), and the
//! blocking work of shuffles is bounded like that of searches.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::json;
use taquin_web::Config;

mod common;
use common::{config, serve};

/// A 15-puzzle that IDA* with the misplaced-tiles heuristic takes far longer than a test to
/// solve: its search runs until it is cancelled.
fn hard_board() -> String {
    taquin::generate::uniform(
        &taquin::Board::solved(4, 4).unwrap(),
        &mut taquin::generate::Rng::new(1),
    )
    .to_line()
}

/// Sends `body` to `path` on a new connection and returns the connection to read the answer.
fn send(addr: SocketAddr, path: &str, body: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

/// Everything the server sends until it closes the connection (a 30 s read timeout guards
/// against a hang; it is not an assertion on time).
fn answer(mut stream: TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut reply = Vec::new();
    stream
        .read_to_end(&mut reply)
        .expect("the server answers and closes the connection");
    String::from_utf8_lossy(&reply).to_string()
}

/// Polls `ready` every 20 ms, at most 30 s (a guard against a hang, not an assertion on time).
async fn wait_until(mut ready: impl FnMut() -> bool) {
    for _ in 0..1500 {
        if ready() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_streams_and_waiting_requests_are_answered_when_the_server_stops() {
    let (addr, state, stop, serving) = serve(Config {
        workers: 3,
        queue_wait: Duration::from_secs(3600),
        ..config()
    })
    .await;
    let long = json!({"board": hard_board(), "algorithm": "idastar", "heuristic": "misplaced",
                      "timeout_ms": 60_000})
    .to_string();
    let solves: Vec<TcpStream> = (0..2).map(|_| send(addr, "/api/solve", &long)).collect();
    let stream = send(addr, "/api/solve/stream", &long);
    wait_until(|| state.running() == 3).await;
    assert_eq!(state.running(), 3, "three searches hold the three workers");
    let waiting = send(
        addr,
        "/api/hint",
        &json!({"board": hard_board()}).to_string(),
    );
    wait_until(|| state.waiting() == 1).await;
    assert_eq!(state.waiting(), 1, "the fourth request waits for a worker");

    stop.send(()).unwrap();
    let answers = tokio::task::spawn_blocking(move || {
        let mut answers: Vec<String> = solves.into_iter().map(answer).collect();
        answers.push(answer(waiting));
        (answers, answer(stream))
    })
    .await
    .unwrap();
    tokio::time::timeout(Duration::from_secs(30), serving)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
    let (answers, stream) = answers;
    for reply in &answers {
        assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
        assert!(reply.contains("\"code\":\"cancelled\""), "{reply}");
        assert!(reply.to_lowercase().contains("retry-after: 1"), "{reply}");
    }
    assert!(stream.starts_with("HTTP/1.1 200"), "{stream}");
    let last = stream
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_default();
    let last: serde_json::Value = serde_json::from_str(last).expect(&stream);
    assert_eq!(last["error"]["code"], "cancelled", "{stream}");
    assert_eq!(last["error"]["status"], 503, "{stream}");
    // The server did not wait for the searches; their flags are up and they stop on their own.
    wait_until(|| state.running() == 0).await;
    assert_eq!(state.running(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shuffles_have_slots_of_their_own_and_a_full_set_is_a_quick_503() {
    let (addr, state, stop, serving) = serve(Config {
        queue: 0,
        queue_wait: Duration::from_secs(3600),
        ..config()
    })
    .await;
    let body = json!({"width": 8, "height": 8, "method": "walk", "moves": 1000}).to_string();
    let held = state.shuffle_slots().acquire_many_owned(2).await.unwrap();
    let busy = tokio::task::spawn_blocking(move || answer(send(addr, "/api/generate", &body)));
    let busy = busy.await.unwrap();
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy}");
    assert!(busy.contains("\"code\":\"busy\""), "{busy}");
    drop(held);
    // With every search slot taken, a shuffle still runs.
    let _searches = state.slots().acquire_many_owned(2).await.unwrap();
    let body = json!({"width": 8, "height": 8, "method": "walk", "moves": 1000}).to_string();
    let done = tokio::task::spawn_blocking(move || answer(send(addr, "/api/generate", &body)));
    let done = done.await.unwrap();
    assert!(done.starts_with("HTTP/1.1 200"), "{done}");
    assert!(done.contains("\"method\":\"walk\""), "{done}");
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
