"""Board: every input form, the moves of the blank, solvability, errors with the CLI's words."""

import copy
import pickle

import numpy as np
import pytest

import taquin
from taquin import Board


def test_every_form_gives_the_same_board():
    text = Board("6 4 7/8 5 0/3 2 1")
    assert Board("6,4,7\n8,5,_\n3,2,1") == text
    assert Board([[6, 4, 7], [8, 5, 0], [3, 2, 1]]) == text
    assert Board([[6, 4, 7], [8, 5, "."], [3, 2, 1]]) == text
    assert Board(np.array([[6, 4, 7], [8, 5, 0], [3, 2, 1]], dtype=np.uint8)) == text
    assert Board(text) == text
    assert hash(Board(text.rows)) == hash(text)
    # A flat list of k*k tiles is a k x k board, as one line of k*k tiles is.
    assert Board([6, 4, 7, 8, 5, 0, 3, 2, 1]) == text
    assert Board("6 4 7 8 5 0 3 2 1") == text
    # Bytes (a file read in binary mode) are the board's text.
    assert Board(b"6 4 7/8 5 0/3 2 1") == text
    assert taquin.solve(b"6 4 7/8 5 0/3 2 1").length == 31
    with pytest.raises(taquin.InvalidBoardError, match="not UTF-8 text"):
        Board(b"\xff")


def test_shape_tiles_and_array():
    b = Board("1 2 3 4/5 6 7 8/9 10 11 0")
    assert (b.width, b.height, b.blank, len(b)) == (4, 3, 11, 12)
    assert b.tiles == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]
    assert b.rows[2] == [9, 10, 11, 0]
    assert np.asarray(b).shape == (3, 4)
    assert b.to_array()[1, 0] == 5
    assert str(b) == "1 2 3 4/5 6 7 8/9 10 11 0"
    assert repr(b) == 'Board("1 2 3 4/5 6 7 8/9 10 11 0")'
    assert b == Board.solved(4, 3)


def test_neighbors_name_the_blank_move():
    b = Board("1 2 3/4 0 6/7 5 8")
    moves = dict(b.neighbors())
    assert sorted(moves) == ["D", "L", "R", "U"]
    assert moves["D"] == Board("1 2 3/4 5 6/7 0 8")
    assert [m for m, _ in Board.solved(3).neighbors()] == ["U", "L"]


def test_apply_replays_and_refuses_leaving_the_board():
    b = Board("1 2 3/4 0 6/7 5 8")
    assert b.apply("DR") == Board.solved(3)
    assert b.apply(["D", "R"]) == Board.solved(3)
    # A count repeats its letter, as `taquin verify` reads moves.
    assert Board("6 4 7/8 5 0/3 2 1").apply("L2") == Board("6 4 7/0 8 5/3 2 1")
    with pytest.raises(taquin.InvalidBoardError, match="count at position 1 has no move before it"):
        b.apply("2")
    with pytest.raises(taquin.InvalidBoardError, match=r"move 2 \(D\) leaves the board"):
        b.apply("DD")
    with pytest.raises(taquin.InvalidBoardError, match="'X' at position 1 is not a move"):
        b.apply("X")


def test_solvability_with_any_goal():
    b = Board("1 2 3/4 5 6/8 7 0")
    assert not b.is_solvable()
    assert b.is_solvable("1 2 3/4 5 6/8 7 0")
    with pytest.raises(taquin.UnsolvableError, match="1 inversion away"):
        b.check_solvable()
    with pytest.raises(taquin.InvalidBoardError, match="the board is 3x3 but the goal is 4x4"):
        b.is_solvable(Board.solved(4))


@pytest.mark.parametrize(
    "rows, message",
    [
        ("1 2 3/4 5/6 7 0", "row 2 has 2 tiles but row 1 has 3"),
        ("1 2 3/4 5 6/7 0 9", "tile 9 is out of range"),
        ("1 2 3/4 5 0/7 8 8", "tile 8 appears more than once"),
        ("1 2 3/4 x 6/7 8 0", "row 2: 'x' is not a tile"),
        ("", "the board is empty"),
        ([[1, 2], [3, -1]], "'-1' is not a tile"),
        ([[1.5, 2], [3, 0]], "'1.5' is not a tile"),
        # A bool is an int to Python, but True is no tile 1.
        ([[True, 2], [3, 0]], "row 1: True is not a tile"),
        ([[1, 2], [3, False]], "row 2: False is not a tile"),
        # Arrays and lists of another dimension than rows of tiles.
        (np.zeros((2, 2, 2), dtype=int), "2 dimensions \\(rows, columns\\), this one has 3 \\(shape \\(2, 2, 2\\)\\)"),
        (np.array([1, 2, 3, 0]), "this one has 1 \\(shape \\(4,\\)\\): reshape it to \\(height, width\\)"),
        ([[[1, 2], [3, 0]], [[1, 2], [3, 0]]], "row 1 holds \\[1, 2\\] where a tile belongs"),
    ],
)
def test_bad_boards_say_what_to_fix(rows, message):
    with pytest.raises(taquin.InvalidBoardError, match=message) as e:
        Board(rows)
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith("invalid board: ")


def test_not_a_board_at_all():
    # InvalidBoardError, as for every other bad board: one exception to catch.
    for value in (42, None, 4.5):
        with pytest.raises(taquin.InvalidBoardError, match="give text such as"):
            Board(value)
    # A flat list whose count is no square cannot be told apart.
    with pytest.raises(taquin.InvalidBoardError, match="one row of 6 tiles"):
        Board([1, 2, 3, 4, 5, 0])


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_board_pickles_and_copies_to_an_equal_board(protocol):
    board = Board("1 2 3 4/5 6 0 8/9 10 7 11")
    back = pickle.loads(pickle.dumps(board, protocol))
    assert back == board and type(back) is Board and (back.width, back.height) == (4, 3)
    assert copy.copy(board) == board and copy.deepcopy([board])[0] == board


def test_iterating_a_board_gives_its_tiles_and_in_tests_for_a_tile():
    board = Board("6 4 7/8 5 0/3 2 1")
    assert list(board) == board.tiles == [6, 4, 7, 8, 5, 0, 3, 2, 1]
    assert 5 in board and 0 in board and np.int64(8) in board
    assert 9 not in board and -1 not in board and "5" not in board and 5.0 not in board
    # A bool is no tile, as the board reader says.
    assert True not in board


def test_the_array_protocol_copies_and_says_so_when_asked_not_to():
    board = Board("1 2 3/4 5 6/7 8 0")
    assert np.asarray(board, dtype=np.int8).dtype == np.int8
    assert (np.array(board) == np.array(board.rows)).all()
    # NumPy 2's protocol: copy=False must raise when a copy cannot be avoided, and it cannot.
    with pytest.raises(ValueError, match="copy=False"):
        board.__array__(copy=False)
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        with pytest.raises(ValueError, match="copy=False"):
            np.asarray(board, copy=False)


@pytest.mark.parametrize("size", [(-1,), (1,), (3, -2), (3, 1), (2**70,), (1001,)])
def test_a_size_no_board_has_is_one_exception(size):
    with pytest.raises(taquin.InvalidBoardError, match="invalid (width|height|board)"):
        Board.solved(*size)


def test_an_endless_iterable_is_refused_after_the_largest_board():
    import itertools

    # Read no further than the largest board (1000x1000): it would otherwise be read forever.
    with pytest.raises(taquin.InvalidBoardError, match=r"more than 1000000 tiles.*1000x1000"):
        Board(itertools.repeat(1))
    with pytest.raises(taquin.InvalidBoardError, match=r"row 2 has more than 1000 tiles"):
        Board([[1, 2], itertools.repeat(1)])
    with pytest.raises(taquin.InvalidBoardError, match=r"1001 rows.*1000x1000"):
        Board([[1, 2]] * 1001)


@pytest.mark.parametrize(
    "board, message",
    [
        ([6.0, 4.0, 7.0, 8.0, 5.0, 0.0, 3.0, 2.0, 1.0], r"'6.0' is not a tile"),
        ([1, 2, 3, 4, 5, 6, 7, 10**40, 0], r"tile 10{40} is too large"),
        (["6 4 7", "8 5 0", "3 2 1"], r"'6 4 7' is a row written as text, in a list: give the whole board as one text"),
        ([[1, 2], 3], r"row 2 is 3, not a list of tiles"),
        ({3, 1, 2, 0}, r"a set has no order"),
        ([{1, 0}, {2, 3}], r"a set has no order"),
    ],
)
def test_a_list_board_gets_the_message_of_what_is_wrong_in_it(board, message):
    # These were told "give ... a list of rows or a 2-D array, not list", or (the set) read in
    # hash order.
    with pytest.raises(taquin.InvalidBoardError, match=message):
        Board(board)


def test_a_flat_list_may_hold_the_blank_as_text():
    assert Board([1, 2, "_", 3]) == Board("1 2/0 3")
