//! `taquin serve` as a user runs it: the binary, stopped by Ctrl-C (SIGINT) while searches,
//! a stream and the background table build are in flight.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

mod common;
use common::{fresh_path, interrupt};

/// A 24-puzzle far beyond any search of a test's length: its searches run until cancelled.
const HARD_5X5: &str = "4 3 24 8 1/14 11 12 20 2/19 0 6 9 7/13 5 21 17 16/22 10 23 18 15";

/// Sends one HTTP/1.1 request on a new connection (closed after the answer) and returns the
/// connection, to read the answer later.
fn send(addr: SocketAddr, method: &str, path: &str, body: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

/// What the server sends until it closes the connection; a reset counts as closed. The read
/// timeout guards against a hang; it is not an assertion on time.
fn answer(mut stream: TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut reply = Vec::new();
    match stream.read_to_end(&mut reply) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("no answer and the connection stayed open: {e}"),
    }
    String::from_utf8_lossy(&reply).to_string()
}

/// The number of searches running, from `GET /api/info`.
fn running(addr: SocketAddr) -> u64 {
    let reply = answer(send(addr, "GET", "/api/info", ""));
    let body = &reply[reply.find("\r\n\r\n").expect("an HTTP answer") + 4..];
    let info: serde_json::Value = serde_json::from_str(body).expect(body);
    info["running"].as_u64().unwrap()
}

/// The server's process, killed if the test ends with it still running: a failed assertion
/// leaves no server behind (a `Child` dropped is not stopped).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn ctrl_c_stops_the_server_with_searches_and_a_table_build_in_flight() {
    let (_scratch, tables) = fresh_path("serve-test");
    let mut server = Server(
        Command::new(assert_cmd::cargo::cargo_bin("taquin"))
            .env("TAQUIN_PDB_DIR", &tables)
            .args(["serve", "--addr", "127.0.0.1:0", "--workers", "3"])
            .args(["--timeout", "120", "--max-timeout", "120"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = BufReader::new(server.0.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let addr: SocketAddr = first
        .trim()
        .trim_end_matches('/')
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));

    // Two solves and a stream, each allowed two minutes, while the server builds its large
    // tables in the background (its table directory starts empty).
    let long = serde_json::json!({"board": HARD_5X5, "timeout_ms": 120_000}).to_string();
    let mut open = vec![
        send(addr, "POST", "/api/solve", &long),
        send(addr, "POST", "/api/solve", &long),
        send(addr, "POST", "/api/solve/stream", &long),
    ];
    // Polled every 20 ms, at most 60 s: a guard against a hang, not an assertion on time.
    for _ in 0..3000 {
        if running(addr) == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(running(addr), 3, "three searches in flight");
    // A fourth waits for a worker.
    open.push(send(addr, "POST", "/api/solve", &long));
    std::thread::sleep(Duration::from_millis(200));

    interrupt(&server.0);
    let mut exited = None;
    for _ in 0..3000 {
        exited = server.0.try_wait().unwrap();
        if exited.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let Some(status) = exited else {
        panic!("the server did not stop within a minute of Ctrl-C");
    };
    let mut out = String::new();
    stdout.read_to_string(&mut out).unwrap();
    let mut err = String::new();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "stdout: {out}\nstderr: {err}");
    assert!(out.contains("stopped"), "{out}");
    assert!(!err.contains("panic"), "{err}");
    // Every request in flight got an answer (a 503 saying the server stops, or the end of
    // its stream with that error) or a closed connection, never a 500 or a hang.
    for reply in open.into_iter().map(answer) {
        if reply.is_empty() {
            continue;
        }
        assert!(
            reply.starts_with("HTTP/1.1 503") || reply.starts_with("HTTP/1.1 200"),
            "{reply}"
        );
        assert!(reply.contains("\"code\":\"cancelled\""), "{reply}");
    }
}

#[test]
fn a_host_name_for_the_address_is_refused_with_how_to_write_one() {
    let out = common::taquin()
        .args(["serve", "--addr", "localhost:9000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("write them as 127.0.0.1:9000"), "{said}");
    assert!(
        said.contains("host names such as localhost are not looked up"),
        "{said}"
    );
}
