//! What the web test suites share.
#![allow(dead_code)]

use std::time::Duration;

use taquin_web::Config;

/// The article's board (31 moves to the standard goal).
pub const ARTICLE: &str = "6 4 7/8 5 0/3 2 1";

/// A small server: two workers, a short queue wait, tables in memory.
pub fn config() -> Config {
    Config {
        workers: 2,
        queue_wait: Duration::from_millis(50),
        ..Config::default()
    }
}

/// A server on a free loopback port; stopped by the returned sender.
pub async fn serve(
    config: Config,
) -> (
    std::net::SocketAddr,
    taquin_web::AppState,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let server = taquin_web::Server::bind(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..config
    })
    .await
    .unwrap();
    let addr = server.local_addr();
    let state = server.state();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async {
        stop_rx.await.ok();
    }));
    (addr, state, stop_tx, serving)
}
