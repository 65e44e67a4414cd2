//! `taquin serve`: the web game on a local address.

use std::net::SocketAddr;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `taquin serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. The default is loopback only; use 0.0.0.0:PORT to open it to the
    /// network, and port 0 to let the system pick a free port.
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    pub addr: SocketAddr,

    /// Searches running at once (default: the number of cores); as many shuffles
    /// (`/api/generate`) may run besides.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub workers: Option<usize>,

    /// Requests that may wait for a free worker; more are answered 503 busy at once.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub queue: usize,

    /// Seconds a request may wait for a free worker before it is answered 503 busy (a solve
    /// stream, which says at once that it waits, ends with a busy error line instead).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true,
        value_parser = crate::common::seconds_value
    )]
    pub queue_wait: f64,

    /// Time budget of a search, in seconds, when the request names none.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_negative_numbers = true,
        value_parser = crate::common::seconds_value
    )]
    pub timeout: f64,

    /// Largest time budget a request may ask for, in seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        allow_negative_numbers = true,
        value_parser = crate::common::seconds_value
    )]
    pub max_timeout: f64,

    /// Largest node budget (nodes generated) of one search.
    #[arg(long, default_value_t = 2_000_000_000, allow_negative_numbers = true, value_parser = crate::common::positive_number::<u64>)]
    pub max_nodes: u64,

    /// Memory budget of one search, in MiB (A* and BFS stop at it, the anytime search's beams
    /// stay within it), as every command's --max-memory (--max-memory-mib is the same flag).
    #[arg(
        long = "max-memory",
        alias = "max-memory-mib",
        value_name = "MIB",
        default_value_t = 1024,
        allow_negative_numbers = true,
        value_parser = crate::common::positive_number::<usize>
    )]
    pub max_memory: usize,

    /// Largest board side served (2 to 1000).
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = crate::common::whole_number::<usize>)]
    pub max_side: usize,

    /// Do not build the large pattern databases (15-puzzle 7-8, 24-puzzle 6-6-6-6) in the
    /// background after start; solves then use the tables on disk and quick ones.
    #[arg(long)]
    pub no_background_build: bool,
}

/// An `--addr` value: an IP address and a port, refused in words that say what to write (a
/// host name is not looked up: `localhost` could mean another address than the user thinks).
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse().map_err(|_| {
        let port = text
            .rsplit_once(':')
            .and_then(|(_, p)| p.trim().parse::<u16>().ok())
            .unwrap_or(8080);
        format!(
            "not an IP address and port: write them as 127.0.0.1:{port} (this machine only), \
             0.0.0.0:{port} (every network it is on) or [::1]:{port}; host names such as \
             localhost are not looked up"
        )
    })
}

/// Starts the server and serves until Ctrl-C; prints the address it listens on.
pub fn run(args: ServeArgs, tables: taquin::Tables) -> anyhow::Result<ExitCode> {
    let seconds = crate::common::seconds;
    if !(2..=1000).contains(&args.max_side) {
        anyhow::bail!("--max-side must be between 2 and 1000");
    }
    let default_timeout = seconds("timeout", args.timeout)?;
    let max_timeout = seconds("max-timeout", args.max_timeout)?;
    // A default past the largest a request may ask for could never be asked for again.
    if default_timeout > max_timeout {
        return Err(crate::errors::Coded::bad_limit(format!(
            "--timeout {} is more than --max-timeout {}: the time a request gets when it names \
             none must be one it could ask for; lower --timeout or raise --max-timeout",
            args.timeout, args.max_timeout
        ))
        .into());
    }
    let mut config = taquin_web::Config {
        addr: args.addr,
        queue: args.queue,
        queue_wait: seconds("queue-wait", args.queue_wait)?,
        default_timeout,
        max_timeout,
        max_nodes: crate::common::node_budget("max-nodes", args.max_nodes)?,
        max_memory: crate::common::mib_to_bytes("max-memory", args.max_memory)?,
        max_side: args.max_side,
        tables,
        background_build: !args.no_background_build,
        ..taquin_web::Config::default()
    };
    if let Some(workers) = args.workers {
        anyhow::ensure!(workers >= 1, "--workers must be at least 1");
        config.workers = workers;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let served = runtime.block_on(async move {
        let server = taquin_web::Server::bind(config)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        println!("taquin web game on http://{}/", server.local_addr());
        println!("press Ctrl-C to stop");
        server
            .run(async {
                // If the signal handler cannot be installed, serve until killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
            .context("serving")?;
        println!("stopped");
        anyhow::Ok(())
    });
    // Dropping the runtime would wait for every blocking thread. By now every request has been
    // answered (a stopping server answers the open ones at once, see taquin_web::Server::run)
    // and every search's cancel flag is raised; a search still running only has to reach its
    // next check to stop, but it runs at a lower priority (taquin_web::priority), and on a
    // machine busy with other work it may wait long for a core to do so. Nothing needs its
    // end (a table being saved is written to a temporary file and renamed), so the process
    // does not wait for it.
    runtime.shutdown_background();
    served?;
    Ok(ExitCode::SUCCESS)
}
