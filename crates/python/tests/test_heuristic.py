"""heuristic(boards, name) over numpy arrays: the core's values, any integer dtype, shapes,
admissibility on real distances, and errors naming the bad row."""

import numpy as np
import pytest

import taquin
from taquin import Board


def test_values_match_single_board_solves():
    boards = taquin.generate("3x3", count=30, seed=4)
    array = np.array([b.tiles for b in boards])
    truth = np.array([taquin.solve(b).length for b in boards])
    h = {}
    for name in ("misplaced", "manhattan", "linear-conflict", "walking-distance", "pdb:8"):
        h[name] = taquin.heuristic(array, name)
        assert h[name].dtype == np.int32 and h[name].shape == (30,)
        assert (h[name] <= truth).all(), name
    # What dominates what: linear conflict and walking distance each add to Manhattan distance.
    assert (h["misplaced"] <= h["manhattan"]).all()
    assert (h["manhattan"] <= h["linear-conflict"]).all()
    assert (h["manhattan"] <= h["walking-distance"]).all()
    assert (h["pdb:8"] == truth).all()


def test_known_values():
    h = taquin.heuristic(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [8, 1, 2, 0, 4, 3, 7, 6, 5]]), "manhattan")
    assert h.tolist() == [0, 11]
    assert taquin.heuristic([[1, 2, 3, 4, 5, 6, 7, 0, 8]], "misplaced").tolist() == [1]


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.int64, np.uint64, np.int8])
def test_any_integer_dtype(dtype):
    boards = np.array([b.tiles for b in taquin.generate("4x4", count=20, seed=1)])
    expect = taquin.heuristic(boards, "linear-conflict")
    assert (taquin.heuristic(boards.astype(dtype), "linear-conflict") == expect).all()


def test_shapes_width_goal_and_views():
    boards = [b.tiles for b in taquin.generate("4x3", count=10, seed=2)]
    flat = np.array(boards)
    by_width = taquin.heuristic(flat, "manhattan", width=4)
    assert (taquin.heuristic(flat.reshape(10, 3, 4), "manhattan") == by_width).all()
    # A non-contiguous view is read correctly.
    assert (taquin.heuristic(np.asfortranarray(flat), "manhattan", width=4) == by_width).all()
    goal = Board.solved(4, 3).apply("UL")
    h = taquin.heuristic(flat, "manhattan", width=4, goal=goal)
    assert h.tolist() == [taquin.heuristic([b], "manhattan", width=4, goal=goal)[0] for b in boards]
    assert taquin.heuristic(np.zeros((0, 9), dtype=np.uint8), "manhattan").shape == (0,)


@pytest.mark.parametrize(
    "boards, kwargs, error, message",
    [
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 1, 3, 4, 5, 6, 7, 8, 0]], {}, taquin.InvalidBoardError,
         "invalid board 1: .*tile 1 appears more than once"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, -3]], {}, taquin.InvalidBoardError, "tile -3 is out of range"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11]], {}, ValueError, "not square boards: give width="),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11]], {"width": 5}, ValueError, "cannot be boards 5 wide"),
        ([1, 2, 3, 0], {}, ValueError, "shape \\(n, cells\\)"),
        ([["a", "b"]], {}, ValueError, "not integers"),
        ([[1.0, 2.0, 3.0, 0.0]], {}, ValueError, "not integers"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"name": "auto"}, ValueError, "name one"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"name": "pdb:7-8"}, taquin.UnsupportedError, "add up to 8"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"goal": Board.solved(4)}, taquin.InvalidBoardError, "same size"),
    ],
)
def test_errors(boards, kwargs, error, message):
    kwargs.setdefault("name", "manhattan")
    with pytest.raises(error, match=message):
        taquin.heuristic(boards, **kwargs)


def test_many_boards_on_every_core_equal_one_thread():
    boards = np.array([b.tiles for b in taquin.generate("4x4", count=1000, seed=8)], dtype=np.uint8)
    boards = np.tile(boards, (70, 1))  # past the size where threads start
    one = taquin.heuristic(boards, "linear-conflict", jobs=1)
    assert (taquin.heuristic(boards, "linear-conflict", jobs=3) == one).all()
    # Every copy of the 1000 boards has their values, across the pieces the rows are shared in.
    assert len(one) == 70_000 and (one.reshape(70, 1000) == one[:1000]).all()
