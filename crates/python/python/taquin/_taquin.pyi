"""Type stubs of the native module (the Rust core through PyO3)."""

from typing import Any, Callable, Literal, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

#: Anything that names a board: text ("6 4 7/8 5 0/3 2 1"), a Board, a list of rows, a 2-D array.
BoardLike = Union[str, bytes, "Board", Sequence[Sequence[Union[int, str]]], npt.NDArray[np.integer[Any]]]
#: A size: "WxH" (columns x rows), one side, or (width, height) (a list of the two too).
SizeLike = Union[str, int, tuple[int, int], list[int]]

ALGORITHMS: list[str]
HEURISTICS: list[str]
__version__: str

class InvalidBoardError(ValueError): ...
class UnsolvableError(ValueError): ...
class UnsupportedError(ValueError): ...

class LimitError(RuntimeError):
    limit: Literal["time", "nodes", "memory", "cancelled"]
    lower_bound: int
    expanded: int
    generated: int
    time_ms: float

class CycleError(RuntimeError): ...

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
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]: ...
    def neighbors(self) -> list[tuple[str, Board]]: ...
    def apply(self, moves: str | Sequence[str]) -> Board: ...
    def is_solvable(self, goal: BoardLike | None = None) -> bool: ...
    def check_solvable(self, goal: BoardLike | None = None) -> None: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class SolveResult:
    """A solve, with the CLI's JSON field names."""

    moves: str
    length: int
    mtm_length: int
    optimal: bool
    lower_bound: int
    algorithm: str
    heuristic: str
    expanded: int
    generated: int
    time_ms: float
    iterations: int
    plan: str
    peak_memory_bytes: int
    suboptimality_bound: float | None
    board: str
    goal: str
    def to_dict(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...

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
) -> SolveResult:
    """Solves `board` to `goal` (default tiles in order, blank last).

    `timeout` is in seconds, `max_nodes` counts nodes generated, and `max_memory` is the
    memory budget in MiB (at least 1), as the CLI's `--max-memory`, of A*, BFS and the beam
    searches (the anytime search's, and IDA*'s beyond 16 cells) (None: no node or time limit,
    and the default memory budget of 4096 MiB). `weight` (1 to 100, default 2) is weighted
    A*'s and `depth` (1 to 24, default 4) the real-time players' (`lookahead`, `lrta`): given
    to another algorithm, they are refused. `threads` (0: every core) splits IDA*'s
    iterations (default 1; the same moves) and the anytime search's beam layers (default:
    every core; 1 runs it all on one thread); given other than 1 to another algorithm, it is
    refused. `algorithm` and `heuristic` None are "auto"; a heuristic given to an algorithm
    that takes none (`bfs`, `constructive`, `lookahead` but for "manhattan") is not used, and
    a `UserWarning` says so.

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
) -> list[SolveResult | Exception]: ...
def heuristic(
    boards: npt.ArrayLike,
    name: str = "manhattan",
    width: int | None = None,
    goal: BoardLike | None = None,
    jobs: int | None = None,
) -> npt.NDArray[np.int32]:
    """The heuristic `name` of every row of an (n, cells) or (n, height, width) array.

    >>> heuristic([[1, 2, 3, 4, 5, 6, 7, 0, 8]], "manhattan")
    array([1], dtype=int32)
    """

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
    """`(states, cost_to_go)`: boards and their optimal distance to the goal.

    >>> states, cost = dataset("3x3", 100, seed=0)
    """

class Puzzle:
    """One board stepped in place (the state of taquin.gym.SlidingPuzzleEnv)."""

    def __init__(self, goal: BoardLike) -> None: ...
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
