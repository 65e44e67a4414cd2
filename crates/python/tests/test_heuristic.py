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


# Big-endian ones too, as read from a file written on another machine ("any integer dtype").
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.int64, np.uint64, np.int8, ">i4", ">u2", ">i8"])
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
         "^board 1: invalid board: .*tile 1 appears more than once"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, -3]], {}, taquin.InvalidBoardError, "tile -3 is out of range"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11]], {}, ValueError, "not square boards: give width="),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11]], {"width": 5}, ValueError, "cannot be boards 5 wide"),
        ([1, 2, 3, 0], {}, ValueError, "shape \\(n, cells\\).*for one board, give \\[tiles\\]"),
        ([[[[1, 2], [3, 0]]]], {}, ValueError, "got 4 dimensions"),
        ([["a", "b"]], {}, ValueError, "not integers"),
        ([[1.0, 2.0, 3.0, 0.0]], {}, ValueError, "not integers"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"heuristic": "auto"}, ValueError, "name one"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"heuristic": "pdb:7-8"}, taquin.UnsupportedError, "add up to 8"),
        ([[1, 2, 3, 4, 5, 6, 7, 8, 0]], {"goal": Board.solved(4)}, taquin.InvalidBoardError, "same size"),
    ],
)
def test_errors(boards, kwargs, error, message):
    kwargs.setdefault("heuristic", "manhattan")
    with pytest.raises(error, match=message):
        taquin.heuristic(boards, **kwargs)


def test_many_boards_on_every_core_equal_one_thread():
    boards = np.array([b.tiles for b in taquin.generate("4x4", count=1000, seed=8)], dtype=np.uint8)
    boards = np.tile(boards, (70, 1))  # past the size where threads start
    one = taquin.heuristic(boards, "linear-conflict", jobs=1)
    assert (taquin.heuristic(boards, "linear-conflict", jobs=3) == one).all()
    # Every copy of the 1000 boards has their values, across the pieces the rows are shared in.
    assert len(one) == 70_000 and (one.reshape(70, 1000) == one[:1000]).all()


def test_one_board_gives_its_value_as_an_int():
    board = Board("8 1 2/0 4 3/7 6 5")
    value = taquin.heuristic(board, "manhattan")
    assert type(value) is int and value == 11
    assert taquin.heuristic(str(board), "manhattan") == 11
    assert taquin.heuristic(Board.solved(4, 3).apply("UL"), "manhattan") == 2
    # A list of Boards is an array of boards, as numpy reads it.
    assert taquin.heuristic([board, Board.solved(3)], "manhattan").tolist() == [11, 0]
    with pytest.raises(ValueError, match="leave out width"):
        taquin.heuristic(board, "manhattan", width=3)


@pytest.mark.parametrize("empty", [[], np.array([]), np.zeros((0, 9)), np.zeros((0, 3, 3), dtype=np.int64)])
def test_no_boards_give_an_empty_int_array(empty):
    h = taquin.heuristic(empty, "manhattan")
    assert h.shape == (0,) and h.dtype == np.int32


def test_one_board_as_a_square_array_is_ambiguous_and_said_so():
    # (3, 3): three boards of 3 cells, which no board has, or one 3x3 board?
    with pytest.raises(ValueError, match=r"a \(3, 3\) array is ambiguous: .*give \[board\], an array of shape \(1, 3, 3\)"):
        taquin.heuristic(np.array(Board.solved(3)), "manhattan")
    # (4, 4): four 2x2 boards, which its rows are not, being together one 4x4 board.
    with pytest.raises(taquin.InvalidBoardError, match=r"^board 0: .*this \(4, 4\) array is one 4x4 board") as e:
        taquin.heuristic(np.array(Board.solved(4)), "manhattan")
    assert e.value.index == 0
    # Wrapped as the message says, it is one board.
    assert taquin.heuristic([np.array(Board.solved(4))], "manhattan").tolist() == [0]
    # Rows that are no boards, of an array that is none either: no such advice.
    with pytest.raises(taquin.InvalidBoardError) as e:
        taquin.heuristic(np.full((4, 4), 1), "manhattan")
    assert "one 4x4 board" not in str(e.value)


def test_the_heuristic_keyword_is_the_one_solve_and_dataset_take():
    rows = [[1, 2, 3, 4, 5, 6, 7, 0, 8]]
    assert taquin.heuristic(rows, heuristic="linear-conflict").tolist() == [1]
    assert taquin.heuristic(rows).tolist() == [1]  # manhattan
    # Its former name still works, with a warning that says the new one.
    with pytest.warns(DeprecationWarning, match="heuristic=") as warned:
        assert taquin.heuristic(rows, name="misplaced").tolist() == [1]
    assert warned[0].filename == __file__
    with pytest.raises(TypeError, match="given twice"):
        taquin.heuristic(rows, heuristic="manhattan", name="manhattan")
