//! Errors as programs read them. With `--json`, an error is one object on standard output,
//! `{"code": "...", "error": "..."}`, with the codes of the web API ([`taquin_api::ApiError`])
//! wherever the two mean the same thing, so that a script reads the command's errors and the
//! server's one way. The codes of the command line's own: `io` (a file or standard input could
//! not be read or written) and `bad_usage` (any other bad use of the command).

use serde_json::{json, Value};
use taquin::goals::GoalError;
use taquin::gods_number::GodsError;
use taquin::replay::CheckError;
use taquin::{LimitHit, ParseError, SolveError, Stats};

use crate::common::{EXIT_FAILED, EXIT_USAGE};

/// The code of an I/O error.
const IO: &str = "io";
/// The code of a bad use of the command that no other code names.
const BAD_USAGE: &str = "bad_usage";

/// An error that knows its code (and, for a board, which one is wrong: `board` or `goal`),
/// raised or added as context where what went wrong is known, and found again by [`json()`].
#[derive(Debug)]
pub struct Coded {
    code: &'static str,
    field: Option<String>,
    message: String,
}

impl Coded {
    /// An error with `code`, saying `message`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Coded {
        Coded {
            code,
            field: None,
            message: message.into(),
        }
    }

    /// A board or goal that is not valid (`field`: `board` or `goal`), as the web API's
    /// `bad_board`.
    pub fn bad_board(field: &str, message: impl Into<String>) -> Coded {
        Coded {
            field: Some(field.to_string()),
            ..Coded::new("bad_board", message)
        }
    }

    /// Moves that are not written in the notation given, as the page's API's `bad_moves`.
    pub fn bad_moves(message: impl Into<String>) -> Coded {
        Coded {
            field: Some("moves".to_string()),
            ..Coded::new("bad_moves", message)
        }
    }

    /// Flags that do not fit together or a value out of their range, as the web API's
    /// `bad_fields`.
    pub fn bad_fields(message: impl Into<String>) -> Coded {
        Coded::new("bad_fields", message)
    }

    /// A limit flag (`--timeout`, `--max-memory`) out of its range, as the web API's
    /// `bad_limit`.
    pub fn bad_limit(message: impl Into<String>) -> Coded {
        Coded::new("bad_limit", message)
    }
}

impl std::fmt::Display for Coded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Coded {}

/// The web API's code for a search's error.
pub fn solve_code(err: &SolveError) -> &'static str {
    taquin_api::ApiError::from(err.clone()).code
}

/// The code of a stopped search: `cancelled` for Ctrl-C, else `limit_reached`, as the web API
/// says them.
fn limit_code(hit: LimitHit) -> &'static str {
    match hit {
        LimitHit::Cancelled => "cancelled",
        _ => "limit_reached",
    }
}

/// The fields a stopped search adds to its error, the same as `taquin batch`'s limit records:
/// `limit`, `lower_bound`, `expanded`, `generated`, `time_ms`.
fn add_limit_fields(value: &mut Value, hit: LimitHit, stats: &Stats, bound: u32) {
    value["limit"] = json!(hit.name());
    value["lower_bound"] = json!(bound);
    value["expanded"] = json!(stats.expanded);
    value["generated"] = json!(stats.generated);
    value["time_ms"] = json!(taquin::report::millis(stats.elapsed));
}

/// The JSON object of a search's error: its code, its sentence, and for a stopped search the
/// fields of [`add_limit_fields`].
pub fn solve_error(err: &SolveError) -> Value {
    let mut value = json!({ "code": solve_code(err), "error": err.to_string() });
    if let SolveError::Limit { hit, stats, bound } = err {
        add_limit_fields(&mut value, *hit, stats, *bound);
    }
    value
}

/// Says a search's error `message` (its own sentence, or a fuller one) on standard error, and
/// with `--json` (`json`) also as its JSON object on `out`, so that the sentence stays on
/// standard error too. Returns the exit code. A search's outcome (unsolvable, stopped by a
/// limit, a player that cycles: exit 1) is said as it is; an input or a choice to change
/// (exit 2) is an `error: ...`, as every usage error of the command line.
pub fn report_solve_error(
    out: &mut impl std::io::Write,
    err: &SolveError,
    message: &str,
    json: bool,
) -> std::io::Result<std::process::ExitCode> {
    report_run_error(out, err, message, json, &[])
}

/// [`report_solve_error`] with `fields` added to its JSON object: for a search that ran, the
/// `algorithm` and `heuristic`, as compare's and bench's records of a stopped run name them;
/// the `metric`, as a result of `--metric` says it.
pub fn report_run_error(
    out: &mut impl std::io::Write,
    err: &SolveError,
    message: &str,
    json: bool,
    fields: &[(&str, Value)],
) -> std::io::Result<std::process::ExitCode> {
    if solve_exit(err) == EXIT_USAGE {
        eprintln!("error: {message}");
    } else {
        eprintln!("{message}");
    }
    if json {
        let mut value = solve_error(err);
        value["error"] = json!(message);
        for (key, field) in fields {
            value[*key] = field.clone();
        }
        writeln!(out, "{value}")?;
        out.flush()?;
    }
    Ok(std::process::ExitCode::from(solve_exit(err)))
}

/// The exit code of a search's error: 1 when the board cannot be solved or the search stopped,
/// 2 when the input or the choice of algorithm or heuristic is to be changed.
pub fn solve_exit(err: &SolveError) -> u8 {
    match err {
        SolveError::Unsolvable(_) | SolveError::Limit { .. } | SolveError::Cycle { .. } => {
            EXIT_FAILED
        }
        _ => EXIT_USAGE,
    }
}

/// The JSON object of God's number search's error: `too_large` as the web API says of a board
/// it does not serve, or a stopped search's code with its `limit`.
pub fn gods_error(err: &GodsError) -> Value {
    let mut value = json!({ "error": err.to_string() });
    match err {
        GodsError::TooLarge { .. } | GodsError::NoMemory { .. } => {
            value["code"] = json!("too_large")
        }
        GodsError::Stopped {
            hit,
            distribution,
            deeper,
        } => {
            value["code"] = json!(limit_code(*hit));
            value["limit"] = json!(hit.name());
            // What the states found prove: the diameter is at least the depth of the deepest,
            // and the layers done hold the states counted.
            value["lower_bound"] = json!(err.lower_bound());
            value["distribution"] = json!(distribution);
            value["generated"] = json!(distribution.iter().sum::<u64>() + deeper);
        }
        // A reason the core adds later: no code of its own yet.
        _ => value["code"] = json!(BAD_USAGE),
    }
    value
}

/// The JSON object of any error a command ends with: the code found in its chain (a [`Coded`]
/// context first, then the kind of error at its root), and the whole chain as the sentence, as
/// standard error prints it.
pub fn json(err: &anyhow::Error) -> Value {
    // A goal of another size than the board is `size_mismatch`, as the web API says, even
    // where it was found reading the goal (which is otherwise `bad_board`).
    let mismatch = err.chain().any(|e| {
        let parse =
            e.downcast_ref::<ParseError>()
                .or_else(|| match e.downcast_ref::<GoalError>() {
                    Some(GoalError::Board(parse)) => Some(parse),
                    _ => None,
                });
        matches!(parse, Some(ParseError::SizeMismatch { .. }))
    });
    let mut value = if mismatch {
        // The goal is what is held to the board's size, as the web API names it.
        json!({ "code": "size_mismatch", "field": "goal" })
    } else if let Some(coded) = err.downcast_ref::<Coded>() {
        let mut value = json!({ "code": coded.code });
        if let Some(field) = &coded.field {
            value["field"] = json!(field);
        }
        value
    } else {
        err.chain().find_map(known).unwrap_or_else(|| {
            let io = err.chain().any(|e| e.is::<std::io::Error>());
            json!({ "code": if io { IO } else { BAD_USAGE } })
        })
    };
    value["error"] = json!(format!("{err:#}"));
    value
}

/// The code alone of [`json()`]: for the records of `taquin batch` and `taquin bench`, which
/// carry an error's code beside their `status`.
pub fn code(err: &anyhow::Error) -> String {
    json(err)["code"].as_str().unwrap_or(BAD_USAGE).to_string()
}

/// The object of an error of the core's whose code is known by its type, if it is one.
fn known(err: &(dyn std::error::Error + 'static)) -> Option<Value> {
    if let Some(e) = err.downcast_ref::<SolveError>() {
        return Some(solve_error(e));
    }
    if let Some(e) = err.downcast_ref::<taquin::Unsolvable>() {
        return Some(solve_error(&SolveError::Unsolvable(e.clone())));
    }
    if let Some(e) = err.downcast_ref::<GodsError>() {
        return Some(gods_error(e));
    }
    // A board that does not parse, also as a line of an instance file.
    if err.is::<ParseError>() || err.is::<taquin::instances::InstanceError>() {
        return Some(json!({ "code": "bad_board" }));
    }
    if err.is::<serde_json::Error>() {
        return Some(json!({ "code": "bad_json" }));
    }
    if let Some(CheckError::Notation(_)) = err.downcast_ref::<CheckError>() {
        // As the page's API answers moves that do not parse.
        return Some(json!({ "code": "bad_moves", "field": "moves" }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn a_coded_context_gives_its_code_and_field_and_the_whole_chain() {
        let err = Err::<(), _>(ParseError::Empty)
            .context(Coded::bad_board("goal", "invalid goal"))
            .unwrap_err();
        let v = json(&err);
        assert_eq!(v["code"], "bad_board");
        assert_eq!(v["field"], "goal");
        assert_eq!(v["error"], format!("{err:#}"));
        assert!(v["error"].as_str().unwrap().starts_with("invalid goal: "));
    }

    #[test]
    fn errors_of_the_core_get_the_web_apis_codes() {
        let mismatch = taquin::Board::solved(3, 3)
            .unwrap()
            .check_same_size(&taquin::Board::solved(4, 4).unwrap())
            .unwrap_err();
        assert_eq!(json(&mismatch.into())["code"], "size_mismatch");
        let limit = SolveError::Limit {
            hit: LimitHit::Time,
            stats: Stats::default(),
            bound: 7,
        };
        let v = json(&anyhow::Error::from(limit.clone()).context("solving"));
        assert_eq!(v["code"], "limit_reached");
        assert_eq!(v["lower_bound"], 7);
        assert_eq!(v["code"], taquin_api::ApiError::from(limit).body()["code"]);
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        assert_eq!(json(&anyhow::Error::from(io))["code"], IO);
        assert_eq!(json(&anyhow::anyhow!("something else"))["code"], BAD_USAGE);
    }
}
