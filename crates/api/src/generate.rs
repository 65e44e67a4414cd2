//! `generate`: random solvable boards.

use serde::Deserialize;
use serde_json::{json, Value};
use taquin::generate::{random_walk, uniform, Rng};
use taquin::Board;

use crate::fields::{check_side, parse_goal};
use crate::{ApiError, Settings};

/// `POST /api/generate`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Columns (default: the goal's, else 3).
    #[serde(default, deserialize_with = "crate::fields::count_field")]
    pub width: Option<usize>,
    /// Rows (default: the goal's, else 3).
    #[serde(default, deserialize_with = "crate::fields::count_field")]
    pub height: Option<usize>,
    /// The goal to shuffle from: a board, or a name as `--goal` takes (`korf`, `snail`,
    /// `standard`) laid out on `width` x `height`; default: tiles in order, blank last.
    #[serde(default)]
    pub goal: Option<String>,
    /// `uniform` (a uniformly random solvable board) or `walk` (a random walk); default `uniform`.
    #[serde(default)]
    pub method: Option<String>,
    /// Length of the random walk (default 30).
    #[serde(default, deserialize_with = "crate::fields::natural_count_field")]
    pub moves: Option<usize>,
    /// Seed, for a reproducible board; default: a fresh one, returned in the answer.
    #[serde(default, deserialize_with = "crate::fields::natural_field")]
    pub seed: Option<u64>,
}

/// Largest seed: 2^53 - 1, JavaScript's `Number.MAX_SAFE_INTEGER`.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// Longest random walk.
const MAX_WALK: usize = 100_000;

/// A shuffle, checked and ready to run.
#[derive(Debug, Clone)]
pub struct Shuffle {
    goal: Board,
    seed: u64,
    /// The length of a random walk; `None` for a uniformly random board.
    walk: Option<usize>,
}

impl Shuffle {
    /// Checks everything a generate request can get wrong; `fresh_seed` gives the seed when the
    /// request names none (only its low 53 bits are kept).
    pub fn new(
        settings: &Settings,
        req: &GenerateRequest,
        fresh_seed: impl FnOnce() -> u64,
    ) -> Result<Shuffle, ApiError> {
        let goal = match &req.goal {
            Some(text) => {
                // A goal by name (`korf`, `snail`, `standard`, as `--goal` takes) is laid out
                // on the size asked for (default 3x3, as without a goal).
                let (w, h) = (req.width.unwrap_or(3), req.height.unwrap_or(3));
                if req.width.is_some() || req.height.is_some() {
                    // The sides asked for are at fault, not the goal laid out on them.
                    check_side(settings, w, h)?;
                }
                let goal = parse_goal(settings, text, w, h)?;
                let wrong_width = req.width.is_some_and(|w| w != goal.width());
                let wrong_height = req.height.is_some_and(|h| h != goal.height());
                if wrong_width || wrong_height {
                    return Err(ApiError::bad_request(
                        "size_mismatch",
                        format!(
                            "width and height disagree with the goal, which is {}x{}",
                            goal.width(),
                            goal.height()
                        ),
                    )
                    .with("field", if wrong_width { "width" } else { "height" }));
                }
                goal
            }
            None => {
                let (w, h) = (req.width.unwrap_or(3), req.height.unwrap_or(3));
                check_side(settings, w, h)?;
                Board::solved(w, h).map_err(|e| ApiError::bad_board("goal", e))?
            }
        };
        // Seeds travel as JSON numbers, which JavaScript holds exactly only up to 2^53 - 1: a
        // larger one would come back changed and not reproduce the board (the share link).
        if req.seed.is_some_and(|s| s > MAX_SEED) {
            return Err(ApiError::bad_request(
                "bad_fields",
                format!("seed must be at most {MAX_SEED} (2^53 - 1, the largest whole number JavaScript holds exactly)"),
            )
            .with("field", "seed"));
        }
        let walk = match req.method.as_deref().unwrap_or("uniform") {
            "uniform" => {
                if req.moves.is_some() {
                    return Err(ApiError::bad_request(
                        "bad_fields",
                        "moves is the length of a random walk: use it with \"method\": \"walk\"",
                    )
                    .with("field", "moves"));
                }
                None
            }
            "walk" => {
                let moves = req.moves.unwrap_or(30);
                if moves > MAX_WALK {
                    return Err(ApiError::bad_request(
                        "bad_fields",
                        format!("moves must be between 0 and {MAX_WALK}"),
                    )
                    .with("field", "moves"));
                }
                Some(moves)
            }
            other => {
                return Err(ApiError::bad_request(
                    "bad_method",
                    format!("unknown method '{other}': use \"uniform\" or \"walk\""),
                )
                .with("field", "method"))
            }
        };
        let seed = req.seed.unwrap_or_else(|| fresh_seed() & MAX_SEED);
        Ok(Shuffle { goal, seed, walk })
    }

    /// Shuffles (CPU work for a long walk or a large board) and answers: `board`, `goal`,
    /// `width`, `height`, `method`, `moves` (the walk's length, null for uniform), `seed`.
    pub fn run(&self) -> Value {
        let mut rng = Rng::new(self.seed);
        let board = match self.walk {
            Some(moves) => random_walk(&self.goal, moves, &mut rng),
            None => uniform(&self.goal, &mut rng),
        };
        json!({
            "board": board.to_line(),
            "goal": self.goal.to_line(),
            "width": self.goal.width(),
            "height": self.goal.height(),
            "method": if self.walk.is_some() { "walk" } else { "uniform" },
            "moves": self.walk,
            "seed": self.seed,
        })
    }
}
