"""solve and solve_batch: optimal lengths against ground truth, every answer replayed, errors,
limits, batch order."""

import copy
import itertools
import multiprocessing
import pickle
import subprocess
import sys

import numpy as np
import pytest

import taquin
from taquin import Board

BLANK_FIRST_4 = Board(np.arange(16).reshape(4, 4))
BLANK_FIRST_3 = Board(np.arange(9).reshape(3, 3))


def test_the_article_board_is_31_moves():
    r = taquin.solve("6 4 7/8 5 0/3 2 1")
    assert (r.length, r.optimal, r.lower_bound) == (31, True, 31)
    assert len(r.moves) == 31 and len(r) == 31
    assert Board("6 4 7/8 5 0/3 2 1").apply(r.moves) == Board.solved(3)
    # The planner's choice on the 8-puzzle: IDA* over its exact pattern database.
    assert (r.algorithm, r.heuristic) == ("idastar", "pdb:8")
    assert r.plan.startswith("idastar + pdb:8: ")
    assert r.expanded > 0 and r.generated >= r.expanded and r.time_ms >= 0
    # The fields of `taquin solve --json`, every one of them.
    assert set(r.to_dict()) == {
        "moves", "length", "mtm_length", "optimal", "lower_bound", "algorithm", "heuristic",
        "expanded", "generated", "time_ms", "iterations", "plan", "peak_memory_bytes",
        "suboptimality_bound", "board", "goal",
        # How `moves` is written, which `solve --json --notation tiles` says too.
        "notation",
    }
    assert r.suboptimality_bound == 1.0
    assert (r.board, r.goal) == ("6 4 7/8 5 0/3 2 1", "1 2 3/4 5 6/7 8 0")
    assert r.peak_memory_bytes == 0  # IDA* keeps no open or closed set
    assert taquin.solve("1 2/0 3", goal="0 1/3 2", algorithm="astar").peak_memory_bytes > 0


def test_results_count_multi_tile_moves_as_the_cli_json_does():
    r = taquin.solve("6 4 7/8 5 0/3 2 1")
    # A run of the blank in one direction slides a run of tiles at once: one multi-tile move.
    runs = len([letter for letter, _ in itertools.groupby(r.moves)])
    assert r.mtm_length == r.to_dict()["mtm_length"] == runs
    assert runs < r.length  # the article's solution has runs ("LL", "RR"): the two differ
    assert taquin.solve("1 2 3/4 5 6/0 7 8").to_dict()["mtm_length"] == 1  # "RR", one slide


def test_a_goal_may_be_named_as_on_the_command_line():
    r = taquin.solve("1 0 2/3 4 5/6 7 8", goal="korf")
    assert r.moves == "L"
    boards = np.array([[[1, 0, 2], [3, 4, 5], [6, 7, 8]]])
    assert taquin.heuristic(boards, "manhattan", goal="korf")[0] == 1
    with pytest.raises(taquin.InvalidBoardError, match="use standard, korf or snail"):
        taquin.solve("1 0 2/3 4 5/6 7 8", goal="snial")


def test_hardest_eight_puzzles(hard_eights):
    for _, length, tiles in hard_eights:
        board = Board(np.array(tiles).reshape(3, 3))
        r = taquin.solve(board, goal=BLANK_FIRST_3, algorithm="astar", heuristic="linear-conflict")
        assert r.length == length == 31
        assert board.apply(r.moves) == BLANK_FIRST_3


def test_korf_fifteen_puzzles(korf_easy):
    for _, length, tiles in korf_easy[:2]:
        board = Board(np.array(tiles).reshape(4, 4))
        r = taquin.solve(board, goal=BLANK_FIRST_4, timeout=120)
        assert (r.length, r.optimal) == (length, True)
        assert board.apply(r.moves) == BLANK_FIRST_4


def test_every_optimal_algorithm_agrees_with_bfs():
    boards = taquin.generate("3x3", count=12, seed=5)
    for board in boards:
        truth = taquin.solve(board, algorithm="bfs").length
        for algorithm in ("astar", "idastar"):
            for h in ("misplaced", "manhattan", "linear-conflict", "walking-distance", "pdb:8"):
                r = taquin.solve(board, algorithm=algorithm, heuristic=h)
                assert (r.length, r.optimal) == (truth, True), (board, algorithm, h)
                assert board.apply(r.moves) == Board.solved(3)


def test_other_sizes_and_goals():
    goal = "0 1 2/3 4 5/6 7 8"
    r = taquin.solve("8 0 6/5 4 7/2 3 1", goal=goal, algorithm="astar", heuristic="linear-conflict")
    assert r.length == 31
    board = taquin.generate("3x4", seed=3, moves=20)
    r = taquin.solve(board)
    assert r.optimal and r.length <= 20
    assert board.apply(r.moves) == Board.solved(3, 4)


def test_beyond_optimal_never_claims_optimal():
    board = taquin.generate("4x4", seed=9)
    r = taquin.solve(board, algorithm="weighted-astar", heuristic="linear-conflict", weight=3)
    assert not r.optimal and r.lower_bound <= r.length
    assert board.apply(r.moves) == Board.solved(4)
    # Proven within the weight, or within the length over the bound where that is smaller.
    assert r.suboptimality_bound == min(3.0, r.length / r.lower_bound)
    big = taquin.generate("8x8", seed=1)
    r = taquin.solve(big, algorithm="constructive")
    assert big.apply(r.moves) == Board.solved(8) and not r.optimal


def test_unsolvable_gives_the_parity_reason():
    with pytest.raises(taquin.UnsolvableError, match="on a board of even width") as e:
        taquin.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0")
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"algorithm": "dijkstra"}, "unknown algorithm 'dijkstra': use one of auto, astar"),
        ({"heuristic": "euclid"}, "unknown heuristic 'euclid': use one of auto, misplaced"),
        ({"timeout": -1}, "invalid timeout: must be a positive number of seconds.*got -1"),
        ({"timeout": 0}, "invalid timeout: must be a positive number of seconds"),
        ({"timeout": 1e300}, "at most 31536000 \\(a year\\)"),
        ({"weight": 0.5}, "weight of at least 1"),
        ({"weight": 1000, "algorithm": "weighted-astar"}, "give a weight from 1 to 100"),
        ({"depth": 100, "algorithm": "lookahead"}, "give a depth from 1 to 24"),
        # A knob of another algorithm is refused, as on the command line, not silently unused.
        ({"weight": 3, "algorithm": "idastar"}, "weight applies to weighted-astar only, not to idastar"),
        ({"weight": 3}, "weight applies to weighted-astar only, not to auto"),
        ({"depth": 5, "algorithm": "astar"}, "depth applies to lookahead and lrta only, not to astar"),
        ({"goal": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"}, "the board is 3x3 but the goal is 4x4"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        taquin.solve("1 2 3/4 5 6/7 0 8", **kwargs)


def test_a_goal_of_another_size_is_an_error_not_a_crash():
    # A smaller goal than the board: a search's error path once indexed the goal by the board's
    # tiles and panicked (PanicException, which pytest.raises(ValueError) does not catch).
    for goal in ("1 2/3 0", Board.solved(2), [[1, 2], [3, 0]]):
        with pytest.raises(taquin.InvalidBoardError, match="invalid goal: the board is 3x3 but the goal is 2x2: both must have the same size"):
            taquin.solve("6 4 7/8 5 0/3 2 1", goal=goal)


def test_unsupported_heuristic_for_the_size():
    with pytest.raises(taquin.UnsupportedError, match="pdb:5-5-5 has 15 tiles .* a 3x3 board has 8"):
        taquin.solve("1 2 3/4 5 6/7 0 8", heuristic="pdb:5-5-5")


def test_limits_raise_with_what_was_proven():
    board = taquin.generate("4x4", seed=1)
    with pytest.raises(taquin.LimitError) as e:
        taquin.solve(board, heuristic="manhattan", max_nodes=1000)
    err = e.value
    assert err.limit == "nodes"
    assert err.lower_bound >= taquin.heuristic([board.tiles], "manhattan")[0]
    assert err.generated >= 1000 and "node limit reached" in str(err)
    with pytest.raises(taquin.LimitError) as e:
        taquin.solve(board, heuristic="misplaced", timeout=1e-6)
    assert e.value.limit == "time"


EIGHT = "1 2 3/4 5 6/7 0 8"


@pytest.mark.parametrize(
    "call, args, kwargs, message",
    [
        (taquin.solve, (EIGHT,), {"depth": -1}, "invalid depth -1: the look-ahead needs a depth of at least 1"),
        (taquin.solve, (EIGHT,), {"threads": -2}, "invalid threads -2: give a number of threads"),
        (taquin.solve_batch, ([EIGHT],), {"jobs": -1}, "invalid jobs -1: give a number of threads"),
        (taquin.solve_batch, ([EIGHT],), {"width": -3}, "invalid width -3: give the boards' number of columns"),
        (taquin.solve_batch, ([EIGHT],), {"depth": -1}, "invalid depth -1"),
        (taquin.heuristic, ([[1, 2, 3, 4, 5, 6, 7, 0, 8]],), {"jobs": -1}, "invalid jobs -1"),
        (taquin.heuristic, ([[1, 2, 3, 4, 5, 6, 7, 0, 8]],), {"width": -3}, "invalid width -3"),
        (taquin.generate, ("3x3",), {"seed": -1}, "invalid seed -1: give a whole number from 0 to 2\\*\\*64 - 1"),
        (taquin.generate, ("3x3",), {"count": -2}, "invalid count -2: give a whole number of boards, 0 or more"),
        (taquin.generate, ("3x3",), {"moves": -3}, "invalid moves -3: give a whole number of moves, 0 or more"),
        (taquin.dataset, ("3x3", -4), {}, "invalid count -4: give a whole number of boards"),
        (taquin.dataset, ("3x3", 2), {"seed": -5}, "invalid seed -5"),
        (taquin.dataset, ("3x3", 2), {"method": "walk", "moves": -6}, "invalid moves -6"),
        (taquin.dataset, ("3x3", 2), {"jobs": -7}, "invalid jobs -7"),
        (Board.solved, (-3,), {}, "invalid width -3: a board has at least 2 columns"),
        (Board.solved, (3, -2), {}, "invalid height -2: a board has at least 2 rows"),
    ],
)
def test_a_negative_number_is_refused_by_name(call, args, kwargs, message):
    # A ValueError naming the argument, not the OverflowError of a conversion to an unsigned
    # integer (which is no ValueError).
    with pytest.raises(ValueError, match=message):
        call(*args, **kwargs)


@pytest.mark.parametrize(
    "name, message", [("max_nodes", "give a whole number, 1 or more"), ("max_memory", "give a memory budget in MiB")]
)
def test_a_negative_limit_is_refused_by_name(name, message):
    for call in (taquin.solve, taquin.solve_batch):
        with pytest.raises(ValueError, match=f"invalid {name} -1: {message}"):
            call("1 2 3/4 5 6/7 0 8" if call is taquin.solve else ["1 2 3/4 5 6/7 0 8"], **{name: -1})


def test_more_threads_than_any_machine_has_are_refused():
    with pytest.raises(ValueError, match="invalid threads 100000: 100000 is more than 256, the most threads"):
        taquin.solve("1 2 3/4 5 6/7 0 8", algorithm="idastar", threads=100_000)


def test_threads_go_to_idastar_and_the_anytime_search_and_are_refused_elsewhere():
    # As the command line's --threads: IDA* splits its iterations, the anytime search
    # shares its beams' layers among them (1: all on one thread), any other algorithm refuses them.
    with pytest.raises(ValueError, match="threads applies to idastar and anytime only, not to astar"):
        taquin.solve(EIGHT, algorithm="astar", threads=2)
    assert taquin.solve(EIGHT, algorithm="astar", threads=1).length == 1
    assert taquin.solve(EIGHT, algorithm="idastar", threads=2).length == 1
    board = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 0 23 24"
    for threads in (None, 1, 2):
        result = taquin.solve(board, timeout=1, threads=threads)
        assert result.algorithm == "anytime"
        assert result.length == 2 and result.optimal


def test_none_for_algorithm_or_heuristic_is_auto():
    for kwargs in ({"algorithm": None}, {"heuristic": None}, {"algorithm": None, "heuristic": None}):
        result = taquin.solve("6 4 7/8 5 0/3 2 1", **kwargs)
        assert result.length == 31 and result.optimal, kwargs
    assert [r.length for r in taquin.solve_batch([EIGHT], algorithm=None, heuristic=None)] == [1]


def test_a_heuristic_an_algorithm_takes_not_is_warned_of_and_not_used():
    with pytest.warns(UserWarning, match="bfs uses no heuristic, so heuristic=\"manhattan\" is not used"):
        result = taquin.solve("6 4 7/8 5 0/3 2 1", algorithm="bfs", heuristic="manhattan")
    assert result.length == 31 and result.heuristic == "none"
    with pytest.warns(UserWarning, match="lookahead always uses manhattan"):
        taquin.solve(EIGHT, algorithm="lookahead", heuristic="linear-conflict")
    with pytest.warns(UserWarning, match="constructive uses no heuristic"):
        taquin.solve_batch([EIGHT], algorithm="constructive", heuristic="manhattan")
    # A heuristic that is used, or none asked: no warning.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        taquin.solve(EIGHT, algorithm="lookahead", heuristic="manhattan")
        taquin.solve(EIGHT, algorithm="astar", heuristic="manhattan")
        taquin.solve(EIGHT, algorithm="bfs")


def test_a_node_budget_of_nothing_is_refused_up_front():
    # As the command line's --max-nodes 0 and the web API's max_nodes: 0 are.
    for call in (taquin.solve, taquin.solve_batch):
        with pytest.raises(ValueError, match="invalid max_nodes 0: give a whole number, 1 or more"):
            call("1 2 3/4 5 6/7 0 8" if call is taquin.solve else ["1 2 3/4 5 6/7 0 8"], max_nodes=0)


def test_a_memory_budget_of_nothing_is_refused_up_front():
    for call in (taquin.solve, taquin.solve_batch):
        with pytest.raises(ValueError, match="invalid max_memory 0: must be at least 1 MiB"):
            call("1 2 3/4 5 6/7 0 8" if call is taquin.solve else ["1 2 3/4 5 6/7 0 8"], max_memory=0)


def test_the_memory_budget_is_in_mib_as_on_the_command_line():
    # `taquin solve "8 6 7/2 5 4/3 0 1" -a astar -H manhattan --max-memory 64` solves it (31
    # moves): 64 MiB is ample for A* on the 8-puzzle, where 64 bytes would not hold its start.
    hard = "8 6 7/2 5 4/3 0 1"
    r = taquin.solve(hard, algorithm="astar", heuristic="manhattan", max_memory=64)
    assert r.length == 31 and r.optimal
    [r] = taquin.solve_batch([hard], algorithm="astar", heuristic="manhattan", max_memory=64)
    assert r.length == 31
    # More MiB than any machine has: said with the unit.
    with pytest.raises(ValueError, match="invalid max_memory .* TiB, as max_memory is in MiB"):
        taquin.solve(hard, max_memory=2**63)
    # Every docstring that names the budget gives its unit.
    for call in (taquin.solve, taquin.solve_batch):
        assert "max_memory` in MiB" in call.__doc__ or "budget in MiB" in call.__doc__, call.__doc__


def test_batch_keeps_input_order_and_matches_single_solves():
    boards = taquin.generate("3x3", count=40, seed=11)
    results = taquin.solve_batch(boards, jobs=2)
    assert [r.length for r in results] == [taquin.solve(b).length for b in boards]
    for b, r in zip(boards, results):
        assert b.apply(r.moves) == Board.solved(3)


def test_batch_node_counts_do_not_depend_on_how_many_boards_run_at_once():
    # The boards solved at once share the memory budget, which beyond 16 cells bounds the
    # beams beside IDA*; the pruning, and with it each count, must not depend on that share.
    # Each count comes from a fresh process.
    script = """
import sys, taquin
boards = taquin.generate("5x5", count=4, seed=5, moves=70)
rs = taquin.solve_batch(boards, algorithm="idastar", heuristic="linear-conflict", jobs=int(sys.argv[1]))
assert all(r.optimal for r in rs)
print([r.generated for r in rs])
"""

    def generated(jobs):
        run = subprocess.run([sys.executable, "-c", script, str(jobs)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert generated(4) == generated(1)


def test_a_batch_may_mix_sizes_each_with_its_own_goal():
    eight, fifteen = "6 4 7/8 5 0/3 2 1", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"
    assert [r.length for r in taquin.solve_batch([eight, fifteen], jobs=1)] == [31, 1]
    # A named goal is laid out on each board's size, as for a single solve.
    korf = ["1 0 2/3 4 5/6 7 8", "1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15"]
    assert [r.moves for r in taquin.solve_batch(korf, goal="korf")] == ["L", "L"]
    # A goal board fits only its own size: the other boards fail, each in its place.
    with pytest.raises(taquin.InvalidBoardError, match="^board 1: invalid goal: the board is 4x4 but the goal is 3x3"):
        taquin.solve_batch([eight, fifteen], goal=Board.solved(3))
    out = taquin.solve_batch([eight, fifteen, "2 0/1 3"], goal="1 2 3/4 5 6/7 8 0", return_exceptions=True)
    assert out[0].length == 31
    assert isinstance(out[1], taquin.InvalidBoardError) and "both must have the same size" in str(out[1])
    assert isinstance(out[2], taquin.InvalidBoardError) and "the board is 2x2" in str(out[2])


def test_one_board_is_not_a_batch():
    # Text is iterable: read as a list, each character would be a "board" of one tile.
    for one in ("6 4 7/8 5 0/3 2 1", Board("6 4 7/8 5 0/3 2 1")):
        with pytest.raises(TypeError, match="solve_batch takes a list of boards, not one board: pass \\[board\\]"):
            taquin.solve_batch(one)


def test_batch_from_an_array_and_other_forms():
    boards = taquin.generate("3x3", count=5, seed=2)
    array = np.array([b.tiles for b in boards], dtype=np.int64)
    by_array = [r.moves for r in taquin.solve_batch(array)]
    by_3d = [r.moves for r in taquin.solve_batch(array.reshape(5, 3, 3))]
    by_text = [r.moves for r in taquin.solve_batch([str(b) for b in boards])]
    assert by_array == by_3d == by_text
    assert taquin.solve_batch([]) == []
    wide = [b.tiles for b in taquin.generate("4x2", count=3, seed=1)]
    assert len(taquin.solve_batch(np.array(wide), width=4)) == 3
    # width is an array's: a list's boards give their own sizes, and no number of threads is 0.
    with pytest.raises(ValueError, match="leave out width"):
        taquin.solve_batch(["1 2 3/4 5 6/7 0 8"], width=3)
    with pytest.raises(ValueError, match="invalid jobs 0: give a number of threads, 1 or more"):
        taquin.solve_batch(["1 2 3/4 5 6/7 0 8"], jobs=0)


def test_batch_errors_raise_or_take_their_place():
    boards = ["1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/0 7 8"]
    # The failing board is named by its place in the batch, in the message and as `index`.
    with pytest.raises(taquin.UnsolvableError, match="^board 1: ") as e:
        taquin.solve_batch(boards)
    assert e.value.index == 1
    out = taquin.solve_batch(boards, return_exceptions=True)
    assert out[0].length == 1 and out[2].length == 2
    assert isinstance(out[1], taquin.UnsolvableError) and out[1].index == 1
    with pytest.raises(taquin.InvalidBoardError, match="^board 1: invalid board: tile 9 is out of range"):
        taquin.solve_batch(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8], [9, 2, 3, 4, 5, 6, 7, 0, 8]]))
    # A board of a list that is not valid takes its place too, named by it; the others are solved.
    mixed = ["bad", "1 2 3/4 5 6/7 0 8", "1 2/3 3", "1 2 3/4 5 6/0 7 8", "1 2/0 3", "x"]
    with pytest.raises(taquin.InvalidBoardError, match="^board 0: invalid board: "):
        taquin.solve_batch(mixed)
    out = taquin.solve_batch(mixed, goal="1 2 3/4 5 6/7 8 0", return_exceptions=True)
    assert [type(r).__name__ for r in out] == [
        "InvalidBoardError", "SolveResult", "InvalidBoardError", "SolveResult", "InvalidBoardError",
        "InvalidBoardError",
    ]
    assert "board 0" in str(out[0]) and "board 2" in str(out[2]) and "board 5" in str(out[5])
    assert str(out[4]).startswith("board 4: invalid goal: ")
    assert out[1].length == 1 and out[3].length == 2
    assert isinstance(taquin.solve_batch(["nope"], return_exceptions=True)[0], taquin.InvalidBoardError)


def test_a_memory_budget_in_bytes_is_refused_with_the_unit():
    # 1 GiB in bytes, as max_memory took before it was in MiB: 1 PiB read as MiB.
    with pytest.raises(ValueError, match="max_memory is in MiB"):
        taquin.solve("1 2 3/4 5 6/7 0 8", max_memory=1 << 30)
    assert taquin.solve("1 2 3/4 5 6/7 0 8", max_memory=1 << 24).length == 1


def test_on_improved_hears_every_better_answer_in_order():
    board = taquin.generate("5x5", seed=3)
    heard = []
    r = taquin.solve(board, timeout=1.5, on_improved=heard.append)
    assert heard, "the first answer at least"
    lengths = [h["length"] for h in heard]
    assert lengths == sorted(set(lengths), reverse=True), lengths
    for h in heard:
        assert set(h) == {"length", "lower_bound", "moves", "time_ms"}
        assert len(h["moves"]) == h["length"]
        assert board.apply(h["moves"]) == Board.solved(5)
        assert h["lower_bound"] <= h["length"]
    # The last answer heard is the result.
    assert (heard[-1]["length"], heard[-1]["moves"]) == (r.length, r.moves)


def test_an_exception_in_on_improved_stops_the_search_and_is_raised():
    class Enough(Exception):
        pass

    heard = []

    def stop_at_once(h):
        heard.append(h)
        raise Enough(h["length"])

    with pytest.raises(Enough):
        # Without the stop this would run for a minute and report more answers.
        taquin.solve(taquin.generate("6x6", seed=1), timeout=60, on_improved=stop_at_once)
    assert len(heard) == 1


def test_on_improved_must_be_callable():
    with pytest.raises(TypeError, match="on_improved must be callable"):
        taquin.solve("1 2 3/4 5 6/7 0 8", on_improved=42)


def test_a_search_with_no_answers_to_improve_calls_nothing():
    heard = []
    r = taquin.solve("6 4 7/8 5 0/3 2 1", on_improved=heard.append)
    assert r.length == 31 and heard == []


def test_on_improved_ends_with_the_result_of_an_optimal_search_too():
    # IDA* beyond 16 cells: its beams' answers are heard as they come, and its own optimal
    # answer last.
    board = taquin.generate("5x5", seed=4, moves=70)
    heard = []
    r = taquin.solve(board, algorithm="idastar", heuristic="linear-conflict", on_improved=heard.append)
    assert r.optimal and heard
    assert (heard[-1]["length"], heard[-1]["moves"]) == (r.length, r.moves)
    assert heard[-1]["lower_bound"] == r.length


def _results_of_every_kind():
    """Results whose fields differ in kind: optimal, bounded (lower bound below the length),
    and with a plan of the planner's."""
    board = taquin.generate("4x4", seed=3, moves=30)
    return [
        taquin.solve("6 4 7/8 5 0/3 2 1"),
        taquin.solve(board, algorithm="weighted-astar", weight=3),
        taquin.solve(board, algorithm="constructive"),
    ]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_result_pickles_and_copies_with_every_field(protocol):
    for r in _results_of_every_kind():
        for back in (pickle.loads(pickle.dumps(r, protocol)), copy.copy(r), copy.deepcopy(r)):
            assert type(back) is taquin.SolveResult
            assert back == r and back.to_dict() == r.to_dict()
            assert (back.moves, back.lower_bound, back.expanded, back.time_ms) == (
                r.moves, r.lower_bound, r.expanded, r.time_ms,
            )
    optimal, bounded, _ = _results_of_every_kind()
    # Equality is field by field: two solves of different boards are not equal.
    assert optimal != bounded and bounded.lower_bound < bounded.length


def test_solves_run_in_other_processes():
    boards = ["1 2 3/4 5 6/7 0 8", "6 4 7/8 5 0/3 2 1"]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(taquin.solve, boards)
        assert [r.moves for r in results] == [taquin.solve(b).moves for b in boards]
        # An exception crosses too, its class and attributes kept.
        with pytest.raises(taquin.LimitError) as e:
            pool.apply(taquin.solve, ("6 4 7/8 5 0/3 2 1",), {"algorithm": "bfs", "max_nodes": 10})
        assert e.value.limit == "nodes" and e.value.lower_bound >= 21


def test_a_batch_of_an_array_takes_each_bad_board_in_its_place_as_a_list_does():
    rows = [[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 7, 0], [1, 2, 3, 4, 5, 6, 0, 7, 8]]
    by_array = taquin.solve_batch(np.array(rows), return_exceptions=True)
    by_list = taquin.solve_batch(rows, return_exceptions=True)
    for out in (by_array, by_list):
        assert [type(r).__name__ for r in out] == ["SolveResult", "InvalidBoardError", "SolveResult"]
        assert out[0].length == 1 and out[2].length == 2
    assert str(by_array[1]) == str(by_list[1]) and by_array[1].index == by_list[1].index == 1


def test_every_error_of_a_batch_has_its_index_and_the_message_solve_gives():
    boards = ["1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/7 7 0", "1 2/0 3", "1 2 3/4 5 6/8 7 0", "6 4 7/8 5 0/3 2 1"]
    out = taquin.solve_batch(boards, goal="1 2 3/4 5 6/7 8 0", algorithm="bfs", max_nodes=1000,
                             return_exceptions=True)
    kinds = [taquin.InvalidBoardError, taquin.InvalidBoardError, taquin.UnsolvableError, taquin.LimitError]
    for i, kind in enumerate(kinds, start=1):
        assert isinstance(out[i], kind), out[i]
        assert out[i].index == i
        # What `solve` raises for that board alone, preceded by its place.
        with pytest.raises(kind) as alone:
            taquin.solve(boards[i], goal="1 2 3/4 5 6/7 8 0", algorithm="bfs", max_nodes=1000)
        assert alone.value.index is None
        message = str(alone.value)
        if kind is taquin.LimitError:
            # The nodes and time counted differ from one run to the other.
            message = message.split(" after ")[0]
        assert str(out[i]).startswith(f"board {i}: {message}")
    assert out[4].limit == "nodes" and out[4].lower_bound >= 21


def test_a_big_endian_array_is_read_as_any_other():
    rows = [[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 0, 7, 8]]
    for dtype in (">i4", ">u2", ">i8", "<i4"):
        assert [r.length for r in taquin.solve_batch(np.array(rows, dtype=dtype))] == [1, 2]
    assert taquin.solve_batch(np.array([])) == []


def test_exceptions_made_by_hand_have_the_attributes_raised_ones_have():
    e = taquin.LimitError("stopped")
    assert (e.limit, e.lower_bound, e.expanded, e.generated, e.time_ms, e.index) == (None,) * 6
    for kind in (taquin.InvalidBoardError, taquin.UnsolvableError, taquin.UnsupportedError, taquin.CycleError):
        assert kind("x").index is None


def test_a_batch_raises_a_board_that_cannot_be_solved_before_any_search():
    hard = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0"
    # Board 0's search hits its limit; board 2 cannot be solved: said first, by its place,
    # without waiting for the searches.
    with pytest.raises(taquin.UnsolvableError, match="board 2"):
        taquin.solve_batch([hard, hard, "1 2 3/4 5 6/8 7 0"], algorithm="idastar",
                           heuristic="misplaced", max_nodes=1000)
    with pytest.raises(taquin.InvalidBoardError, match="board 1"):
        taquin.solve_batch([hard, "1 2 3/4 5 6/7 0 8"], goal="1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0",
                           algorithm="idastar", heuristic="misplaced", max_nodes=1000)
    # With return_exceptions, each error still takes its own place.
    out = taquin.solve_batch([hard, "1 2 3/4 5 6/8 7 0", "1 2 3/4 5 6/7 0 8"], algorithm="idastar",
                             heuristic="misplaced", max_nodes=1000, return_exceptions=True)
    assert isinstance(out[0], taquin.LimitError) and out[0].index == 0
    assert isinstance(out[1], taquin.UnsolvableError) and out[1].index == 1
    assert out[2].length == 1


def test_the_docs_say_what_timeout_none_means_for_the_anytime_search():
    from pathlib import Path

    stub = (Path(taquin.__file__).parent / "_taquin.pyi").read_text()
    for doc in (taquin.solve.__doc__, taquin.solve_batch.__doc__, stub):
        assert "10 s" in doc


EIGHT = "1 2 3/4 5 6/7 0 8"


@pytest.mark.parametrize(
    "call, args, kwargs, error, message",
    [
        (taquin.solve, (EIGHT,), {"max_nodes": 1e6}, TypeError,
         r"max_nodes must be a whole number \(an int\), not 1000000.0 \(a float\)"),
        (taquin.solve, (EIGHT,), {"timeout": "5"}, TypeError,
         r"timeout must be a number \(an int or a float\), not '5' \(a str\)"),
        (taquin.solve, (EIGHT,), {"max_nodes": 2**200}, ValueError, r"invalid max_nodes 1606938\d+\.\.\.: far out"),
        (taquin.solve_batch, ([EIGHT],), {"jobs": 2.0}, TypeError, r"jobs must be a whole number"),
        (taquin.dataset, ("3x3", 1e3), {}, TypeError, r"count must be a whole number \(an int\), not 1000.0"),
        (taquin.generate, ("3x3",), {"count": 5.0}, TypeError, r"count must be a whole number"),
        (taquin.generate, ("3x3",), {"seed": 1.5}, TypeError, r"seed must be a whole number"),
        (Board.solved, (3.0,), {}, TypeError, r"width must be a whole number"),
    ],
)
def test_a_number_of_another_type_is_refused_by_name(call, args, kwargs, error, message):
    # The conversion's own error ("'float' object cannot be interpreted as an integer", a bare
    # OverflowError) named no argument, among a dozen.
    with pytest.raises(error, match=message):
        call(*args, **kwargs)
