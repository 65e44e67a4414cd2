"""The interchange formats every front shares: the n-puzzle project's board text, the tile
notation, and numbers that are not bools."""

import numpy as np
import pytest

import taquin
from taquin import Board

EIGHT = "1 2 3/4 0 6/7 5 8"


@pytest.mark.parametrize(
    "text",
    [
        "3\n1 2 3\n4 0 6\n7 5 8",
        "# solvable\n3\n1 2 3  # first row\n4 0 6\n7 5 8\n",
        "\ufeff3\n1 2 3\n4 0 6\n7 5 8\n",
    ],
)
def test_the_npuzzle_format_is_a_board_as_on_the_command_line(text):
    # One reader for every front: the CLI and the web API read this text too.
    assert Board(text) == Board(EIGHT)
    assert taquin.solve(text).length == 2
    assert taquin.solve(EIGHT, goal="3\n1 2 3\n4 5 6\n7 8 0").length == 2


def test_an_npuzzle_error_names_its_line():
    with pytest.raises(taquin.InvalidBoardError, match="give exactly 3 rows"):
        Board("3\n1 2 3\n4 0 6")


def test_solve_writes_tile_notation_on_request():
    # The blank goes right twice: tiles 7 and 8 slide left, one run of two.
    board = "1 2 3/4 5 6/0 7 8"
    blank = taquin.solve(board)
    assert (blank.moves, blank.notation) == ("RR", "blank")
    tiles = taquin.solve(board, notation="tiles")
    assert (tiles.moves, tiles.notation, tiles.length) == ("L2", "tiles", 2)
    assert tiles.to_dict()["notation"] == "tiles"
    assert [r.moves for r in taquin.solve_batch([board, EIGHT], notation="tiles")] == ["L2", "U L"]
    # Read back in the same notation, the moves solve the board.
    assert Board(board).apply(tiles.moves, notation=tiles.notation) == Board.solved(3)
    article = taquin.solve("6 4 7/8 5 0/3 2 1", notation="tiles")
    assert Board("6 4 7/8 5 0/3 2 1").apply(article.moves, notation="tiles") == Board.solved(3)


def test_on_improved_gets_the_moves_in_the_notation_asked():
    heard = []
    board = taquin.generate("5x5", seed=3, moves=30)
    r = taquin.solve(board, timeout=1, on_improved=heard.append, notation="tiles")
    assert heard and heard[-1]["moves"] == r.moves
    assert board.apply(heard[0]["moves"], notation="tiles") == Board.solved(5)


def test_apply_and_neighbors_take_the_tile_notation():
    # "R D L U2" in tile notation is the blank going L U R D D.
    start = Board(EIGHT)
    assert start.apply("R D L U2", notation="tiles") == start.apply("LURDD")
    assert start.apply(["R", "D", "L", "U2"], notation="tiles") == start.apply("LURDD")
    assert [m for m, _ in Board.solved(3).neighbors(notation="tiles")] == ["D", "R"]
    with pytest.raises(taquin.InvalidBoardError, match="slides no tile"):
        Board.solved(3).apply("L", notation="tiles")


@pytest.mark.parametrize("call", [taquin.solve, lambda b, **k: taquin.solve_batch([b], **k)])
def test_a_bad_notation_names_the_choices(call):
    with pytest.raises(ValueError, match='invalid notation "tile-ish": give "blank".* or "tiles"'):
        call(EIGHT, notation="tile-ish")
    with pytest.raises(ValueError, match="blank.*tiles"):
        Board(EIGHT).apply("R", notation="x")


@pytest.mark.parametrize(
    "call, args, name",
    [
        (taquin.solve, (EIGHT,), "timeout"),
        (taquin.solve, (EIGHT,), "max_nodes"),
        (taquin.solve, (EIGHT,), "max_memory"),
        (taquin.solve, (EIGHT,), "threads"),
        (taquin.solve, (EIGHT,), "weight"),
        (taquin.solve, (EIGHT,), "depth"),
        (taquin.solve_batch, ([EIGHT],), "timeout"),
        (taquin.solve_batch, ([EIGHT],), "max_nodes"),
        (taquin.solve_batch, ([EIGHT],), "max_memory"),
        (taquin.solve_batch, ([EIGHT],), "jobs"),
        (taquin.solve_batch, ([EIGHT],), "width"),
        (taquin.solve_batch, ([EIGHT],), "weight"),
        (taquin.solve_batch, ([EIGHT],), "depth"),
        (taquin.heuristic, ([[1, 2, 3, 4, 5, 6, 7, 0, 8]],), "jobs"),
        (taquin.heuristic, ([[1, 2, 3, 4, 5, 6, 7, 0, 8]],), "width"),
        (taquin.generate, ("3x3",), "count"),
        (taquin.generate, ("3x3",), "seed"),
        (taquin.generate, ("3x3",), "moves"),
        (taquin.dataset, ("3x3", 2), "seed"),
        (taquin.dataset, ("3x3", 2), "moves"),
        (taquin.dataset, ("3x3", 2), "jobs"),
    ],
)
@pytest.mark.parametrize("value", [True, False, np.True_])
def test_a_bool_is_no_number(call, args, name, value):
    # True is the int 1 to Python: timeout=True used to be a budget of one second.
    with pytest.raises(TypeError, match=f"{name} must be a number, not the bool"):
        call(*args, **{name: value})


def test_a_bool_is_no_count_nor_side():
    with pytest.raises(TypeError, match="count must be a number"):
        taquin.dataset("3x3", True)
    with pytest.raises(TypeError, match="width must be a number"):
        Board.solved(True)
    with pytest.raises(TypeError, match="height must be a number"):
        Board.solved(3, False)
    # Numbers still pass, numpy's too.
    assert taquin.solve(EIGHT, timeout=np.float64(5), max_nodes=np.int64(1000)).length == 2
