"""Type stubs of the native module (the Rust core through PyO3)."""

from typing import Any, Callable, Iterator, Literal, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

#: Anything that names a board: text ("6 4 7/8 5 0/3 2 1", or the n-puzzle project's: a size
#: line, then the rows, `#` comments), a Board, a list of rows, a flat list of k*k tiles (a k x k
#: board), a 2-D array.
BoardLike = Union[
    str,
    bytes,
    "Board",
    Sequence[Sequence[Union[int, str]]],
    Sequence[Union[int, str]],
    npt.NDArray[np.integer[Any]],
]
#: How moves are written, as the CLI's `--notation`: "blank" (each letter is where the blank
#: goes) or "tiles" (where the tiles go, runs with their length: `L2`).
Notation = Literal["blank", "tiles"]
#: Many boards read as an array: an integer array of shape (n, cells) or (n, height, width), or a
#: list numpy makes one (of rows of tiles, of 2-D boards, of Boards).
BoardArrayLike = Union[
    npt.NDArray[np.integer[Any]],
    Sequence[Sequence[int]],
    Sequence[Sequence[Sequence[int]]],
    Sequence["Board"],
    Sequence[npt.NDArray[np.integer[Any]]],
]
#: A size: "WxH" (columns x rows), one side, or (width, height) (a list of the two too).
SizeLike = Union[str, int, tuple[int, int], list[int]]

ALGORITHMS: list[str]
HEURISTICS: list[str]
__version__: str

# Each exception's `index` is the place of its board in a batch (solve_batch, the rows of an
# array), None on one about a single board.

class InvalidBoardError(ValueError):
    index: int | None

class UnsolvableError(ValueError):
    index: int | None

class UnsupportedError(ValueError):
    index: int | None

class LimitError(RuntimeError):
    """Raised by a search a limit stopped; each attribute is None on one made by hand."""

    index: int | None
    limit: Literal["time", "nodes", "memory", "cancelled"] | None
    lower_bound: int | None
    expanded: int | None
    generated: int | None
    time_ms: float | None

class CycleError(RuntimeError):
    index: int | None

class Board:
    """A validated board of any size; U/D/L/R name the direction the blank moves.

    >>> Board("1 2 3/4 0 6/7 5 8").apply("DR") == Board.solved(3)
    True
    """

    def __init__(self, rows: BoardLike) -> None: ...
    @staticmethod
    def solved(width: int, height: int | None = None) -> Board: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def tiles(self) -> list[int]: ...
    @property
    def rows(self) -> list[list[int]]: ...
    @property
    def blank(self) -> int: ...
    def to_array(self) -> npt.NDArray[np.uint32]: ...
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        """copy=False raises ValueError: the tiles are always copied into a new array."""
    def neighbors(self, notation: Notation | None = "blank") -> list[tuple[str, Board]]:
        """Each move of the blank, written in `notation`, with the board it leads to."""
    def apply(self, moves: str | Sequence[str], notation: Notation | None = "blank") -> Board:
        """The board after `moves`, read in `notation`: "blank" (where the blank goes) or
        "tiles" (where the tiles go, runs as `L2`); any other name raises ValueError."""
    def is_solvable(self, goal: BoardLike | None = None) -> bool: ...
    def check_solvable(self, goal: BoardLike | None = None) -> None: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[int]:
        """The tiles in row-major order, 0 for the blank."""
    def __contains__(self, tile: object) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class SolveResult:
    """A solve, with the CLI's JSON field names; read-only, picklable, equal field by field."""

    @property
    def moves(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def mtm_length(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def lower_bound(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def heuristic(self) -> str: ...
    @property
    def expanded(self) -> int: ...
    @property
    def generated(self) -> int: ...
    @property
    def time_ms(self) -> float: ...
    @property
    def iterations(self) -> int: ...
    @property
    def plan(self) -> str: ...
    @property
    def peak_memory_bytes(self) -> int: ...
    @property
    def suboptimality_bound(self) -> float | None: ...
    @property
    def board(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def notation(self) -> Notation:
        """How `moves` is written: "blank" or "tiles", the `notation` asked of the solve."""
    def to_dict(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def solve(
    board: BoardLike,
    goal: BoardLike | None = None,
    algorithm: str | None = "auto",
    heuristic: str | None = "auto",
    timeout: float | None = None,
    max_nodes: int | None = None,
    max_memory: int | None = None,
    weight: float | None = None,
    depth: int | None = None,
    threads: int | None = None,
    on_improved: Callable[[dict[str, Any]], object] | None = None,
    notation: Notation | None = "blank",
) -> SolveResult:
    """Solves `board` to `goal` (default tiles in order, blank last).

    `timeout` is in seconds, `max_nodes` counts nodes generated, and `max_memory` is the
    memory budget in MiB (at least 1), as the CLI's `--max-memory`, of A*, BFS and the beam
    searches (the anytime search's, and IDA*'s beyond 16 cells) (None: no node or time limit,
    and the default memory budget of 4096 MiB; but the anytime search, which "auto" picks
    beyond 16 cells, runs 10 s when `timeout` is None, and returns its best answer). `weight` (1 to 100, default 2) is weighted
    A*'s and `depth` (1 to 24, default 4) the real-time players' (`lookahead`, `lrta`): given
    to another algorithm, they are refused. `threads` (0: every core) splits IDA*'s
    iterations (default 1; the same moves) and the anytime search's beam layers (default:
    every core; 1 runs it all on one thread); given other than 1 to another algorithm, it is
    refused. `algorithm` and `heuristic` None are "auto"; a heuristic given to an algorithm
    that takes none (`bfs`, `constructive`, `lookahead` but for "manhattan") is not used, and
    a `UserWarning` says so. A bool given for a number raises TypeError (`True` is no budget).

    `notation` writes the result's `moves` (and `on_improved`'s) as the CLI's `--notation`:
    "blank" (the default: where the blank goes, `DLLURR`) or "tiles" (where the tiles go, a
    run with its length: `L2`); the result's `notation` says which.

    `on_improved` is called on the calling thread with each better answer as the search finds
    it (beyond 16 cells: the anytime search's, and the beams' between IDA*'s iterations), as
    a dict with `length`, `lower_bound`, `moves`
    and `time_ms`; the last one it gets is the result's. An exception it raises stops the
    search and is raised here.

    >>> solve("6 4 7/8 5 0/3 2 1").length
    31
    """

@overload
def solve_batch(
    boards: Sequence[BoardLike] | npt.NDArray[np.integer[Any]],
    goal: BoardLike | None = None,
    algorithm: str | None = "auto",
    heuristic: str | None = "auto",
    timeout: float | None = None,
    max_nodes: int | None = None,
    max_memory: int | None = None,
    weight: float | None = None,
    depth: int | None = None,
    width: int | None = None,
    jobs: int | None = None,
    return_exceptions: Literal[False] = False,
    notation: Notation | None = "blank",
) -> list[SolveResult]: ...
@overload
def solve_batch(
    boards: Sequence[BoardLike] | npt.NDArray[np.integer[Any]],
    goal: BoardLike | None = None,
    algorithm: str | None = "auto",
    heuristic: str | None = "auto",
    timeout: float | None = None,
    max_nodes: int | None = None,
    max_memory: int | None = None,
    weight: float | None = None,
    depth: int | None = None,
    width: int | None = None,
    jobs: int | None = None,
    *,
    return_exceptions: Literal[True],
    notation: Notation | None = "blank",
) -> list[SolveResult | Exception]: ...
@overload
def heuristic(
    boards: Board | str | bytes,
    heuristic: str | None = None,
    width: None = None,
    goal: BoardLike | None = None,
    jobs: int | None = None,
    *,
    name: str | None = None,
) -> int: ...
@overload
def heuristic(
    boards: BoardArrayLike,
    heuristic: str | None = None,
    width: int | None = None,
    goal: BoardLike | None = None,
    jobs: int | None = None,
    *,
    name: str | None = None,
) -> npt.NDArray[np.int32]:
    """The heuristic (default "manhattan") of every board of an (n, cells) or (n, height,
    width) array, as int32; of one board (a Board or its text), as an int. `name=` is the
    former keyword of `heuristic=`, still taken (with a DeprecationWarning).

    >>> heuristic([[1, 2, 3, 4, 5, 6, 7, 0, 8]], "manhattan")
    array([1], dtype=int32)
    """

# `size` may be left out (None) only when `goal` is a board, whose size it then is.
@overload
def generate(
    size: SizeLike | None = None,
    count: None = None,
    seed: int | None = None,
    moves: int | None = None,
    goal: BoardLike | None = None,
) -> Board: ...
@overload
def generate(
    size: SizeLike | None,
    count: int,
    seed: int | None = None,
    moves: int | None = None,
    goal: BoardLike | None = None,
) -> list[Board]: ...
@overload
def generate(
    size: SizeLike | None = None,
    *,
    count: int,
    seed: int | None = None,
    moves: int | None = None,
    goal: BoardLike | None = None,
) -> list[Board]: ...
def dataset(
    size: SizeLike,
    count: int,
    seed: int | None = None,
    method: Literal["uniform", "walk"] = "uniform",
    moves: int | None = None,
    goal: BoardLike | None = None,
    heuristic: str | None = "auto",
    jobs: int | None = None,
) -> tuple[npt.NDArray[np.unsignedinteger[Any]], npt.NDArray[np.int32]]:
    """`(states, cost_to_go)`: boards and their optimal distance to the goal, drawn uniformly
    (`method="uniform"`) or by random walks of up to `moves` moves (`method="walk"`); any other
    method raises ValueError.

    >>> states, cost = dataset("3x3", 100, seed=0)
    """

class Puzzle:
    """One board stepped in place (the state of taquin.gym.SlidingPuzzleEnv)."""

    def __init__(self, goal: BoardLike, state: BoardLike | None = None) -> None: ...
    def reset_random(self, seed: int, scramble: int | None = None) -> None: ...
    def reset_to(self, state: BoardLike) -> None: ...
    def step(self, action: int) -> tuple[npt.NDArray[np.uint8], bool, npt.NDArray[np.int8]]: ...
    def observation(self) -> npt.NDArray[np.uint8]: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    @property
    def at_goal(self) -> bool: ...
    @property
    def board(self) -> Board: ...
    @property
    def goal(self) -> Board: ...

class PuzzleBatch:
    """Many boards stepped at once (the state of taquin.gym.SlidingPuzzleVectorEnv)."""

    def __init__(self, count: int, goal: BoardLike, max_steps: int, scramble: int | None = None) -> None: ...
    def reset(self, seed: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int8],
    ]: ...
    def observation(self) -> npt.NDArray[np.uint8]: ...
    def set_state(self, index: int, state: BoardLike) -> None: ...

def _env_goal(size: SizeLike | None = None, goal: BoardLike | None = None) -> Board:
    """The goal of a taquin.gym environment from its `size` and `goal` arguments (3x3 when
    neither gives a size)."""
