//! A bounded load generator for `taquin serve`, loopback only: sends a fixed number of
//! `POST /api/solve` requests for seeded uniformly random boards from a fixed number of
//! connections, then prints the latency percentiles, the errors, and the server's memory (peak
//! resident set, read from /proc while the load runs).
//!
//! ```text
//! taquin serve --addr 127.0.0.1:8080 &
//! cargo run --release -p taquin-web --example load -- \
//!     --addr 127.0.0.1:8080 --requests 60 --concurrency 4 --size 4x4 --pid $!
//! ```
//!
//! Options: `--addr` (a loopback address; anything else is refused), `--requests` (at most
//! 10000), `--concurrency` (at most 64), `--size WxH`, `--seed`, `--pid` (the server's, for its
//! memory), `--max-seconds` (stop sending after this long, default 600), `--body` (extra JSON
//! fields for each request, e.g. `'"algorithm":"idastar"'`), `--walk K` (boards made by a random
//! walk of K moves from the goal instead of uniformly random ones: light solves, to measure the
//! server's own overhead).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use taquin::generate::{random_walk, uniform, Rng};
use taquin::Board;

struct Options {
    addr: SocketAddr,
    requests: usize,
    concurrency: usize,
    width: usize,
    height: usize,
    seed: u64,
    pid: Option<u32>,
    max_seconds: u64,
    body: String,
    walk: Option<usize>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
        requests: 60,
        concurrency: 4,
        width: 4,
        height: 4,
        seed: 1,
        pid: None,
        max_seconds: 600,
        body: String::new(),
        walk: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--addr" => o.addr = value.parse().map_err(|e| bad(&e))?,
            "--requests" => o.requests = value.parse().map_err(|e| bad(&e))?,
            "--concurrency" => o.concurrency = value.parse().map_err(|e| bad(&e))?,
            "--seed" => o.seed = value.parse().map_err(|e| bad(&e))?,
            "--pid" => o.pid = Some(value.parse().map_err(|e| bad(&e))?),
            "--max-seconds" => o.max_seconds = value.parse().map_err(|e| bad(&e))?,
            "--body" => o.body = value,
            "--walk" => o.walk = Some(value.parse().map_err(|e| bad(&e))?),
            "--size" => {
                let (w, h) = value
                    .split_once('x')
                    .ok_or_else(|| bad(&"write the size as WxH"))?;
                o.width = w.parse().map_err(|e| bad(&e))?;
                o.height = h.parse().map_err(|e| bad(&e))?;
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    // Load is only ever sent to this machine.
    if !o.addr.ip().is_loopback() {
        return Err(format!("{} is not a loopback address", o.addr));
    }
    if !(1..=10_000).contains(&o.requests) || !(1..=64).contains(&o.concurrency) {
        return Err("--requests must be 1..=10000 and --concurrency 1..=64".into());
    }
    Ok(o)
}

/// One keep-alive connection; reconnects after the server closes it.
struct Client {
    addr: SocketAddr,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    fn post(&mut self, path: &str, body: &str) -> std::io::Result<(u16, String)> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(self.addr)?;
            stream.set_nodelay(true)?;
            stream.set_read_timeout(Some(Duration::from_secs(120)))?;
            self.conn = Some(BufReader::new(stream));
        }
        let result = self.exchange(path, body);
        if result.is_err() {
            self.conn = None;
        }
        result
    }

    fn exchange(&mut self, path: &str, body: &str) -> std::io::Result<(u16, String)> {
        let conn = self.conn.as_mut().expect("connected above");
        write!(
            conn.get_mut(),
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )?;
        let mut line = String::new();
        conn.read_line(&mut line)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut length = 0usize;
        let mut close = false;
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let lower = header.to_ascii_lowercase();
            if let Some(v) = lower.strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            } else if lower == "connection: close" {
                close = true;
            }
        }
        let mut body = vec![0u8; length];
        conn.read_exact(&mut body)?;
        if close {
            self.conn = None;
        }
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }
}

/// Resident set size of `pid` in KiB, from /proc (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    // Nearest-rank percentile.
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let goal = Board::solved(o.width, o.height).unwrap_or_else(|e| {
        eprintln!("load: {e}");
        std::process::exit(2)
    });
    let mut rng = Rng::new(o.seed);
    let extra = if o.body.is_empty() {
        String::new()
    } else {
        format!(",{}", o.body)
    };
    let bodies: Arc<Vec<String>> = Arc::new(
        (0..o.requests)
            .map(|_| {
                let board = match o.walk {
                    Some(k) => random_walk(&goal, k, &mut rng),
                    None => uniform(&goal, &mut rng),
                };
                format!(
                    "{{\"board\":\"{}\",\"timeout_ms\":60000{extra}}}",
                    board.to_line()
                )
            })
            .collect(),
    );

    let next = Arc::new(AtomicUsize::new(0));
    let latencies = Arc::new(Mutex::new(Vec::with_capacity(o.requests)));
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let done = Arc::new(AtomicBool::new(false));
    let peak_rss = Arc::new(AtomicUsize::new(0));
    let sampler = o.pid.map(|pid| {
        let (done, peak) = (done.clone(), peak_rss.clone());
        let start_rss = rss_kib(pid).unwrap_or(0);
        let handle = std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(kib) = rss_kib(pid) {
                    peak.fetch_max(kib as usize, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        (pid, start_rss, handle)
    });

    let started = Instant::now();
    let stop_at = started + Duration::from_secs(o.max_seconds);
    let workers: Vec<_> = (0..o.concurrency)
        .map(|_| {
            let (next, bodies, latencies, errors) = (
                next.clone(),
                bodies.clone(),
                latencies.clone(),
                errors.clone(),
            );
            let mut client = Client {
                addr: o.addr,
                conn: None,
            };
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= bodies.len() || Instant::now() >= stop_at {
                    break;
                }
                let t = Instant::now();
                let outcome = client.post("/api/solve", &bodies[i]);
                let elapsed = t.elapsed();
                match outcome {
                    Ok((200, _)) => latencies.lock().unwrap().push(elapsed),
                    Ok((status, body)) => errors
                        .lock()
                        .unwrap()
                        .push(format!("request {i}: {status} {body}")),
                    Err(e) => errors.lock().unwrap().push(format!("request {i}: {e}")),
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a load thread panicked");
    }
    let wall = started.elapsed();
    done.store(true, Ordering::Relaxed);

    let mut lat = latencies.lock().unwrap().clone();
    lat.sort();
    let errors = errors.lock().unwrap().clone();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "requests: {} ok, {} errors, {} not sent (time cap)",
        lat.len(),
        errors.len(),
        o.requests.saturating_sub(lat.len() + errors.len())
    );
    let kind = match o.walk {
        Some(k) => format!("random-walk ({k} moves)"),
        None => "uniformly random".to_string(),
    };
    println!(
        "boards: {} {kind} {}x{} (seed {}), concurrency {}",
        o.requests, o.width, o.height, o.seed, o.concurrency
    );
    println!(
        "latency ms: p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}  mean {:.1}",
        ms(percentile(&lat, 50.0)),
        ms(percentile(&lat, 90.0)),
        ms(percentile(&lat, 99.0)),
        ms(lat.last().copied().unwrap_or_default()),
        if lat.is_empty() {
            0.0
        } else {
            ms(lat.iter().sum::<Duration>()) / lat.len() as f64
        }
    );
    println!(
        "wall {:.1} s, {:.2} requests/s",
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64()
    );
    if let Some((pid, start_rss, handle)) = sampler {
        handle.join().ok();
        println!(
            "server RSS: {:.1} MiB before, {:.1} MiB peak during the load, {:.1} MiB after",
            start_rss as f64 / 1024.0,
            peak_rss.load(Ordering::Relaxed) as f64 / 1024.0,
            rss_kib(pid).unwrap_or(0) as f64 / 1024.0
        );
    }
    for e in errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    if !errors.is_empty() {
        std::process::exit(1);
    }
}
