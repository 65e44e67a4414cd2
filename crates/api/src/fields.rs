//! Reading a request body, and the checks every route applies to its boards, names and limits.

use std::cell::RefCell;
use std::fmt;
use std::time::Duration;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{json, Map, Value};
use taquin::algorithm::UnknownName;
use taquin::board::{size_with_article, ParseError};
use taquin::notation::Notation;
use taquin::npuzzle_file::NpuzzleError;
use taquin::{Algorithm, Board, HeuristicKind};

use crate::{ApiError, Settings};

/// The request in a JSON value, which must be an object: serde would also read a struct from an
/// array of its fields in order, which no documented request is. Fields are checked strictly
/// (unknown ones are refused).
pub fn object_of<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    if !value.is_object() {
        return Err(ApiError::bad_request(
            "bad_json",
            "the request body must be a JSON object such as {\"board\": \"6 4 7/8 5 0/3 2 1\"}",
        ));
    }
    serde_path_to_error::deserialize(with_rows_joined(value)?).map_err(|e| {
        let field = e.path().to_string();
        // serde's words for the types a request holds, in a web user's words.
        let message = e
            .into_inner()
            .to_string()
            .replace("expected u64", "expected a whole number")
            .replace("expected usize", "expected a whole number")
            .replace("expected i128", "expected a whole number")
            .replace("expected f64", "expected a number");
        // A minus sign where only whole numbers of 0 or more go: said as such.
        let message = match message.strip_prefix("invalid value: integer `-") {
            Some(rest) if message.ends_with("expected a whole number") => format!(
                "-{} is negative: give a whole number, 0 or more",
                rest.split('`').next().unwrap_or("")
            ),
            _ => message,
        };
        // The field at fault: where serde stopped, or the one missing or unknown at the top.
        let named = message
            .strip_prefix("missing field `")
            .or_else(|| message.strip_prefix("unknown field `"))
            .and_then(|rest| rest.split('`').next())
            .map(str::to_string);
        let message = match field.as_str() {
            "." if named.as_deref() == Some("board") => {
                format!("{message}: give the board, e.g. {{\"board\": \"6 4 7/8 5 0/3 2 1\"}}")
            }
            "." => message,
            // A board of the wrong type (a field the route does not take is only unknown).
            "board" | "goal" if named.is_none() => format!(
                "{field}: {}: write it as text (\"1 2 3/4 5 6/7 8 0\") or as an array of rows \
                 ([[1, 2, 3], [4, 5, 6], [7, 8, 0]])",
                message.replace("expected a string", "expected a board")
            ),
            _ => format!("{field}: {message}"),
        };
        let named = if field == "." { named } else { Some(field) };
        let error = ApiError::unprocessable("bad_fields", message);
        match named {
            Some(name) => error.with("field", name),
            None => error,
        }
    })
}

/// `board` and `goal` given as arrays ([`board_text_of_array`]) turned into board text; anything
/// else is left for the checks to judge.
fn with_rows_joined(mut value: Value) -> Result<Value, ApiError> {
    for field in ["board", "goal"] {
        let Some(Value::Array(items)) = value.get(field) else {
            continue;
        };
        let text = board_text_of_array(field, items)?;
        value[field] = Value::String(text);
    }
    Ok(value)
}

/// The board text of a board given as a JSON array (in the request's `field`): an array of rows
/// (`[[1, 2, 3], [4, 5, 6], [7, 8, 0]]`, as `taquin batch` and the Python package take them),
/// or one flat array of k² tiles (a k x k board, as one line of text is). Tiles are whole
/// numbers, the blank `0`, `"_"` or `"."`; a cell that is no tile is refused by its place
/// (400 `bad_board`, with `field`).
pub fn board_text_of_array(field: &str, items: &[Value]) -> Result<String, ApiError> {
    let tile = |t: &Value, at: String| match t {
        // Past 64 bits JSON's number arrives as a float, which would be echoed as `1e+23`:
        // said as what it is, not as a number the sender never wrote.
        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.abs() >= 1e19) => {
            Err(ApiError::bad_board(
                field,
                format!(
                    "{at} holds a number too large to be a tile: tiles are whole numbers, the \
                     blank 0, \"_\" or \".\""
                ),
            ))
        }
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) if !s.contains([' ', ',', '/']) => Ok(s.clone()),
        other => Err(ApiError::bad_board(
            field,
            format!(
                "{at} holds {other}, which is no tile: tiles are whole numbers, the blank \
                 0, \"_\" or \".\""
            ),
        )),
    };
    Ok(if items.iter().any(Value::is_array) {
        let mut rows = Vec::with_capacity(items.len());
        for (r, row) in items.iter().enumerate() {
            let Value::Array(cells) = row else {
                return Err(ApiError::bad_board(
                    field,
                    format!(
                        "row {} is {row}, not an array of tiles: give every row as one \
                         ([[1, 2, 3], [4, 5, 6], [7, 8, 0]])",
                        r + 1
                    ),
                ));
            };
            let tiles = cells
                .iter()
                .enumerate()
                .map(|(c, t)| tile(t, format!("row {}, column {}", r + 1, c + 1)))
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(tiles.join(" "));
        }
        rows.join("/")
    } else {
        let side = (1..=items.len())
            .find(|s| s * s >= items.len())
            .unwrap_or(0);
        if side * side != items.len() {
            return Err(ApiError::bad_board(
                field,
                format!(
                    "a flat array of {} tiles makes no square board: give a square's \
                     tiles (9 for 3x3, 16 for 4x4), or the rows as arrays ([[1, 2, 3], \
                     [4, 5, 6], [7, 8, 0]])",
                    items.len()
                ),
            ));
        }
        let tiles = items
            .iter()
            .enumerate()
            .map(|(i, t)| tile(t, format!("item {}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        tiles.join(" ")
    })
}

/// The request in a body's text, read as the server reads a body (for front ends without one).
pub fn request_of<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    object_of(json_of(body)?)
}

/// The JSON value of a request body's text: a 400 `bad_json` when it is not JSON, and a 400
/// `repeated_key` (its `field` the key's path, as `board` or `options.depth`) when an object
/// in it gives a key twice. serde_json would keep the last of the two without a word, and the
/// request would then be answered for a board its sender may not have meant.
///
/// A byte-order mark before the JSON, as some Windows tools write one, is skipped.
pub fn json_of(body: &str) -> Result<Value, ApiError> {
    let body = taquin::npuzzle_file::without_bom(body);
    let repeated = RefCell::new(None);
    let reading = RefCell::new(String::new());
    let mut reader = serde_json::Deserializer::from_str(body);
    let value = UniqueKeys {
        repeated: &repeated,
        reading: &reading,
        path: String::new(),
    }
    .deserialize(&mut reader)
    .and_then(|value| reader.end().map(|()| value));
    value.map_err(|e| match repeated.into_inner() {
        Some(key) => ApiError::bad_request(
            "repeated_key",
            format!(
                "the request body gives \"{key}\" more than once (line {}, column {}): give \
                 each field once",
                e.line(),
                e.column()
            ),
        )
        .with("field", key),
        // JSON allows any number; serde_json reads them as 64-bit floats at most. The field is
        // named, as for any other value a field cannot take. serde_json tells this error only
        // by its text: `a_number_out_of_range_names_its_field` fails if a new version words it
        // otherwise.
        None if e.to_string().starts_with("number out of range")
            && !reading.borrow().is_empty() =>
        {
            let field = reading.into_inner();
            // The limits' own code, as for any other value out of their range.
            let code = match field.as_str() {
                "timeout_ms" | "max_nodes" => "bad_limit",
                _ => "bad_fields",
            };
            ApiError::bad_request(
                code,
                format!(
                    "{field}: the number is out of range (line {}, column {}): numbers up to \
                     about 1.8e308 can be read; give one the field takes",
                    e.line(),
                    e.column()
                ),
            )
            .with("field", field)
        }
        None => not_json(e),
    })
}

/// The 400 `bad_json` of a body that is not JSON: where the parser stopped (`detail`), and
/// what a body must look like, with the usual slips named.
pub(crate) fn not_json(detail: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(
        "bad_json",
        format!(
            "the request body is not JSON ({detail}): send one JSON object such as {{\"board\": \
             \"6 4 7/8 5 0/3 2 1\"}}, every key in double quotes and no comma after the last \
             item"
        ),
    )
}

/// Reads a JSON value as `Value` does, but refuses an object that gives a key twice: the first
/// repeated key found is put in `repeated`, by its path from the body's top (`path` is this
/// value's: empty at the top, then `options`, `items[2]`, ...). `reading` holds the path of the
/// value being read, so that an error inside a value (a number out of range) can name it.
struct UniqueKeys<'a> {
    repeated: &'a RefCell<Option<String>>,
    reading: &'a RefCell<String>,
    path: String,
}

impl UniqueKeys<'_> {
    /// The reader of a value inside this one, at `step` (a key, or `[i]` in an array).
    fn inner(&self, step: &str) -> Self {
        let path = if self.path.is_empty() || step.starts_with('[') {
            format!("{}{step}", self.path)
        } else {
            format!("{}.{step}", self.path)
        };
        self.reading.replace(path.clone());
        UniqueKeys {
            repeated: self.repeated,
            reading: self.reading,
            path,
        }
    }
}

impl<'de> DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.inner(&format!("[{}]", items.len())))? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let inner = self.inner(&key);
            if object.contains_key(&key) {
                *self.repeated.borrow_mut() = Some(inner.path);
                return Err(de::Error::custom(format!(
                    "the key \"{key}\" is given twice"
                )));
            }
            let value = map.next_value_seed(inner)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A board as the answers show it: its line and its tiles.
pub fn board_json(board: &Board) -> Value {
    json!({"line": board.to_line(), "tiles": board.tiles()})
}

/// The algorithm and heuristic a request names; a missing field or `"auto"` leaves the choice
/// to the core's planner (`None`).
pub fn choice_of(
    algorithm: Option<&str>,
    heuristic: Option<&str>,
) -> Result<(Option<Algorithm>, Option<HeuristicKind>), ApiError> {
    let algorithm = algorithm
        .map(|name| Algorithm::parse_choice(name).map_err(unknown("bad_algorithm")))
        .transpose()?
        .flatten();
    let heuristic = heuristic
        .map(|name| HeuristicKind::parse_choice(name).map_err(unknown("bad_heuristic")))
        .transpose()?
        .flatten();
    Ok((algorithm, heuristic))
}

/// An algorithm by name.
pub fn algorithm_of(name: &str) -> Result<Algorithm, ApiError> {
    Algorithm::parse(name).map_err(unknown("bad_algorithm"))
}

/// A heuristic by name: the built-in ones, or pattern databases by group sizes (`pdb:6-6-3`),
/// which a solve accepts only where their tables are ready or quick to build.
pub fn heuristic_of(name: &str) -> Result<HeuristicKind, ApiError> {
    HeuristicKind::parse(name).map_err(unknown("bad_heuristic"))
}

/// The 400 with `code` for a name the core does not know, naming the field.
fn unknown(code: &'static str) -> impl Fn(UnknownName) -> ApiError {
    move |e| ApiError::bad_request(code, e.to_string()).with("field", e.what)
}

/// The notation a request names for the moves it reads or answers; default blank letters.
pub fn notation_of(name: Option<&str>) -> Result<Notation, ApiError> {
    match name {
        None => Ok(Notation::Blank),
        Some(name) => Notation::from_name(name).ok_or_else(|| {
            ApiError::bad_request(
                "bad_fields",
                format!("unknown notation '{name}': use blank or tiles"),
            )
            .with("field", "notation")
        }),
    }
}

/// The time budget a request asks for (`timeout_ms`), within the allowed range.
pub fn timeout_of(settings: &Settings, ms: Option<u64>) -> Result<Duration, ApiError> {
    let max = settings.max_timeout;
    match ms {
        None => Ok(settings.default_timeout.min(max)),
        Some(ms) if ms >= 1 && Duration::from_millis(ms) <= max => Ok(Duration::from_millis(ms)),
        Some(_) => Err(ApiError::bad_request(
            "bad_limit",
            format!("timeout_ms must be between 1 and {}", max.as_millis()),
        )
        .with("field", "timeout_ms")),
    }
}

/// A whole number as a request gives it: JSON numbers past 64 bits arrive as floating point,
/// and are read as the largest whole number, which is past every range a route allows.
enum Whole {
    Negative,
    Count(u64),
}

/// Reads a field that holds a whole number: a number without a fraction, however large
/// (`18446744073709551616` is one, though JSON parsers hold it as floating point). Anything
/// else is refused as serde refuses a wrong type ("invalid type: ..., expected a whole number").
fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Whole>, D::Error> {
    let value = <Option<Value> as serde::Deserialize>::deserialize(d)?;
    let unexpected = |v: &Value| -> D::Error {
        let what = match v {
            Value::Bool(b) => de::Unexpected::Bool(*b),
            Value::String(s) => de::Unexpected::Str(s),
            Value::Array(_) => de::Unexpected::Seq,
            Value::Object(_) => de::Unexpected::Map,
            Value::Number(n) => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
            Value::Null => de::Unexpected::Unit,
        };
        de::Error::invalid_type(what, &"a whole number")
    };
    let Some(value) = value else {
        return Ok(None);
    };
    let Value::Number(n) = &value else {
        return Err(unexpected(&value));
    };
    if let Some(u) = n.as_u64() {
        return Ok(Some(Whole::Count(u)));
    }
    if n.as_i64().is_some() {
        return Ok(Some(Whole::Negative));
    }
    match n.as_f64() {
        Some(f) if f.is_finite() && f.fract() == 0.0 => Ok(Some(if f < 0.0 {
            Whole::Negative
        } else {
            // Saturates: every float past u64::MAX reads as u64::MAX.
            Whole::Count(f as u64)
        })),
        _ => Err(unexpected(&value)),
    }
}

/// Reads a budget field (`timeout_ms`, `max_nodes`): a whole number, where a negative one
/// reads as 0, so that the range check refuses it as it refuses 0 (400 `bad_limit`, with the
/// field's range), and one past 64 bits as the largest, which is past every range.
pub fn budget_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(whole(d)?.map(|w| match w {
        Whole::Negative => 0,
        Whole::Count(n) => n,
    }))
}

/// Reads a count whose range starts above 0 (`depth`, `width`, `height`) as [`budget_field`]
/// reads a budget: a negative one as 0 and one past the largest as the largest, so that the
/// route's range check refuses both with the field's range (400).
pub(crate) fn count_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    Ok(budget_field(d)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// Reads a whole number where 0 is allowed (`seed`): a negative one is refused as a wrong
/// value (422 `bad_fields`: "give a whole number, 0 or more"), and one past 64 bits read as the
/// largest, so that the route's range check refuses it with its range (400).
pub(crate) fn natural_field<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match whole(d)? {
        None => Ok(None),
        Some(Whole::Negative) => Err(de::Error::custom(
            "a negative number: give a whole number, 0 or more",
        )),
        Some(Whole::Count(n)) => Ok(Some(n)),
    }
}

/// [`natural_field`] for a count (a walk's `moves`).
pub(crate) fn natural_count_field<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<usize>, D::Error> {
    Ok(natural_field(d)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// The node budget a request asks for (`max_nodes`), within the allowed range.
pub fn nodes_of(settings: &Settings, nodes: Option<u64>) -> Result<u64, ApiError> {
    nodes_within(nodes, settings.max_nodes)
}

/// A request's `max_nodes`: `max` when it is absent, else a budget from 1 to `max`.
pub fn nodes_within(nodes: Option<u64>, max: u64) -> Result<u64, ApiError> {
    match nodes {
        None => Ok(max),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(ApiError::bad_request(
            "bad_limit",
            format!("max_nodes must be between 1 and {max}"),
        )
        .with("field", "max_nodes")),
    }
}

/// Checks a board's sides: a sliding puzzle at all, and no larger than offered. The error's
/// `field` is the side at fault (`width` or `height`); a route that reads the sides from a
/// board names the board instead.
pub fn check_side(settings: &Settings, width: usize, height: usize) -> Result<(), ApiError> {
    let max = settings.max_side;
    let min = taquin::board::MIN_SIDE;
    let side = if (min..=max).contains(&width) {
        "height"
    } else {
        "width"
    };
    check_sides(settings, width, height).map_err(|e| e.with("field", side))
}

fn check_sides(settings: &Settings, width: usize, height: usize) -> Result<(), ApiError> {
    let max = settings.max_side;
    let min = taquin::board::MIN_SIDE;
    if width < min || height < min {
        // Not too large: too small to be a sliding puzzle at all.
        return Err(ApiError::bad_request(
            "bad_board",
            format!(
                "{} board is not a sliding puzzle: width and height must each be at least {min}",
                size_with_article(width, height)
            ),
        ));
    }
    if width <= max && height <= max {
        Ok(())
    } else {
        Err(ApiError::unprocessable(
            "too_large",
            format!(
                "{} board is not served here: width and height must each be between {min} \
                 and {max}",
                size_with_article(width, height)
            ),
        ))
    }
}

/// The board in a request's `field` (`board` or `goal`), of an accepted size: board text, or
/// the n-puzzle project's (a size line, then the rows, `#` comments), read by the core's one
/// reader of both ([`taquin::npuzzle_file::parse_board`]), as the command line reads them.
pub fn parse_board(settings: &Settings, field: &str, text: &str) -> Result<Board, ApiError> {
    let board = taquin::npuzzle_file::parse_board(text).map_err(|e| match e {
        // The sides this server takes, not the library's wider range.
        NpuzzleError::Board(ParseError::BadSize { width, height }) => {
            check_side(settings, width, height)
                .err()
                .unwrap_or_else(|| ApiError::bad_board(field, e))
                .with("field", field)
        }
        e => ApiError::bad_board(field, e),
    })?;
    check_side(settings, board.width(), board.height()).map_err(|e| e.with("field", field))?;
    Ok(board)
}

/// A `goal` field: a name as `--goal` takes (`korf`, `snail`, `standard`), laid out on a
/// `width` x `height` board, or a board of its own.
pub fn parse_goal(
    settings: &Settings,
    text: &str,
    width: usize,
    height: usize,
) -> Result<Board, ApiError> {
    match taquin::goals::goal_by_name(text, width, height) {
        Some(named) => {
            check_side(settings, width, height).map_err(|e| e.with("field", "goal"))?;
            named.map_err(|e| ApiError::bad_board("goal", e))
        }
        None => parse_board(settings, "goal", text),
    }
}

/// A board and its goal (default: tiles in order, blank last), of one size.
pub fn parse_pair(
    settings: &Settings,
    board: &str,
    goal: Option<&str>,
) -> Result<(Board, Board), ApiError> {
    let board = parse_board(settings, "board", board)?;
    let goal = match goal {
        Some(text) => parse_goal(settings, text, board.width(), board.height())?,
        None => Board::solved(board.width(), board.height())
            .map_err(|e| ApiError::bad_board("goal", e))?,
    };
    board
        .check_same_size(&goal)
        .map_err(|e| ApiError::bad_request("size_mismatch", e.to_string()).with("field", "goal"))?;
    Ok((board, goal))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_refused_by_name() {
        let err =
            json_of(r#"{"board": "1 2 3/4 5 6/7 0 8", "board": "1 2 3/4 5 6/0 7 8"}"#).unwrap_err();
        assert_eq!(err.status, http::StatusCode::BAD_REQUEST);
        assert_eq!(err.code, "repeated_key");
        assert_eq!(err.extra["field"], "board");
        assert!(
            err.message.contains("gives \"board\" more than once")
                && err.message.contains("column"),
            "{}",
            err.message
        );
        // In a nested object too, named by its path.
        let err = json_of(r#"{"items": [{"a": 1}, {"a": 1, "b": {"c": 2, "c": 3}}]}"#).unwrap_err();
        assert_eq!(err.extra["field"], "items[1].b.c");
        // The same key in two objects is no repeat.
        let value = json_of(r#"{"a": {"x": 1}, "b": {"x": [1.5, true, null, "s"]}}"#).unwrap();
        assert_eq!(value["b"]["x"], json!([1.5, true, null, "s"]));
    }

    #[test]
    fn a_body_that_is_not_json_is_still_bad_json() {
        for body in ["{\"board\": ", "{} {}", "[1, 2"] {
            let err = json_of(body).unwrap_err();
            assert_eq!(err.code, "bad_json", "{body}");
        }
        let err = request_of::<serde_json::Value>("{\"board\": 1, \"board\": 2}").unwrap_err();
        assert_eq!(err.code, "repeated_key");
        // A number past what a float holds, alone: no field to name.
        assert_eq!(json_of("1e400").unwrap_err().code, "bad_json");
    }

    #[test]
    fn a_number_out_of_range_names_its_field() {
        let err = json_of(r#"{"board": "1 2 3/4 5 6/7 0 8", "timeout_ms": 1e400}"#).unwrap_err();
        assert_eq!(err.status, http::StatusCode::BAD_REQUEST);
        assert_eq!(err.code, "bad_limit");
        assert_eq!(err.extra["field"], "timeout_ms");
        assert!(
            err.message
                .starts_with("timeout_ms: the number is out of range"),
            "{}",
            err.message
        );
        // Nested, and in an array, by its path.
        let err = json_of(r#"{"items": [{"board": "x"}, {"max_nodes": -1e999}]}"#).unwrap_err();
        assert_eq!(err.extra["field"], "items[1].max_nodes");
        let err = json_of(r#"{"board": [[1, 2], [3, 1e500]]}"#).unwrap_err();
        assert_eq!(err.code, "bad_fields");
        assert_eq!(err.extra["field"], "board[1][1]");
    }
}
