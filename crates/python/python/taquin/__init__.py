"""taquin: the sliding-tile puzzle from Python, on any m x n board and any goal.

Everything runs in the Rust core: parsing, solvability, heuristics, searches. Move letters
U/D/L/R name the direction the *blank* moves.

>>> import taquin
>>> r = taquin.solve("6 4 7/8 5 0/3 2 1")
>>> r.length, r.optimal
(31, True)
>>> taquin.Board("6 4 7/8 5 0/3 2 1").apply(r.moves) == taquin.Board.solved(3)
True

The Gymnasium environment is in ``taquin.gym`` (``pip install taquin[gym]``).
"""

from taquin._taquin import (
    ALGORITHMS,
    HEURISTICS,
    Board,
    CycleError,
    InvalidBoardError,
    LimitError,
    SolveResult,
    UnsolvableError,
    UnsupportedError,
    __version__,
    dataset,
    generate,
    heuristic,
    solve,
    solve_batch,
)

__all__ = [
    "ALGORITHMS",
    "HEURISTICS",
    "Board",
    "CycleError",
    "InvalidBoardError",
    "LimitError",
    "SolveResult",
    "UnsolvableError",
    "UnsupportedError",
    "__version__",
    "dataset",
    "generate",
    "heuristic",
    "solve",
    "solve_batch",
]
