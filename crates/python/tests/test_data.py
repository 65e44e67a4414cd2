"""generate and dataset: reproducible by seed, the CLI's boards, and cost_to_go equal to the
optimal lengths."""

import subprocess
import sys

import numpy as np
import pytest

import taquin
from taquin import Board


def test_generate_is_the_cli_generator():
    # The README's `taquin generate --size 4x4 --count 3 --seed 42`.
    assert [str(b) for b in taquin.generate("4x4", count=3, seed=42)] == [
        "0 14 6 7/9 2 13 11/8 15 10 1/5 4 3 12",
        "14 12 3 8/0 13 10 5/6 1 11 9/15 7 2 4",
        "15 6 9 2/12 4 14 7/3 1 5 8/11 10 0 13",
    ]
    assert str(taquin.generate("3x5", seed=7, moves=20)) == "2 5 3/1 11 6/4 8 9/14 13 10/0 7 12"


def test_generate_forms():
    assert taquin.generate(4, seed=1) == taquin.generate((4, 4), seed=1) == taquin.generate("4x4", seed=1)
    goal = Board("0 1 2/3 4 5/6 7 8")
    for b in taquin.generate(goal=goal, count=20, seed=3):
        assert b.is_solvable(goal)
    assert taquin.generate("3x3", seed=1, moves=0) == Board.solved(3)
    with pytest.raises(ValueError, match="invalid size"):
        taquin.generate("4by4")
    with pytest.raises(taquin.InvalidBoardError, match="between 2 and 1000"):
        taquin.generate("1x4")
    # A size no board has is named as the size, in every form.
    for size in [1, (1, 5), 2000]:
        with pytest.raises(taquin.InvalidBoardError, match="^invalid size: "):
            taquin.generate(size)


def test_dataset_costs_are_optimal_lengths():
    states, cost = taquin.dataset("3x3", 60, seed=7)
    assert states.shape == (60, 9) and states.dtype == np.uint8 and cost.dtype == np.int32
    for row, c in zip(states, cost):
        assert taquin.solve(Board(row.reshape(3, 3)), algorithm="bfs").length == c
    # Uniform 8-puzzles average about 22 moves.
    assert 18 < cost.mean() < 26
    # heuristic=None is "auto", as for solve.
    again = taquin.dataset("3x3", 60, seed=7, heuristic=None)
    assert (again[0] == states).all() and (again[1] == cost).all()


def test_dataset_by_walks_and_other_goals():
    goal = "0 1 2/3 4 5/6 7 8"
    states, cost = taquin.dataset((3, 3), 40, seed=1, method="walk", moves=12, goal=goal)
    assert cost.max() <= 12 and cost.min() >= 0 and len(set(cost.tolist())) > 3
    for row, c in zip(states, cost):
        assert taquin.solve(row.reshape(3, 3), goal=goal, algorithm="bfs").length == c
    states, cost = taquin.dataset("4x2", 10, seed=3)
    assert states.shape == (10, 8)


def test_goals_by_name_as_the_cli_takes_them():
    # `taquin generate --size 3x3 --goal korf --seed 4`: the same boards, the same goal.
    korf = [str(b) for b in taquin.generate("3x3", count=5, seed=4, goal="korf")]
    assert korf == [str(b) for b in taquin.generate("3x3", count=5, seed=4, goal="0 1 2/3 4 5/6 7 8")]
    states, cost = taquin.dataset("3x3", 5, seed=2, goal="korf")
    for row, c in zip(states, cost):
        assert taquin.solve(row.reshape(3, 3), goal="korf", algorithm="bfs").length == c
    with pytest.raises(ValueError, match="is a name: give the size too"):
        taquin.generate(goal="korf")
    with pytest.raises(taquin.InvalidBoardError, match="invalid goal"):
        taquin.generate(goal="snial")


def test_dataset_is_reproducible_by_seed():
    a = taquin.dataset("3x3", 20, seed=5)
    b = taquin.dataset("3x3", 20, seed=5, jobs=1)
    c = taquin.dataset("3x3", 20, seed=6)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    assert not (a[0] == c[0]).all()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"method": "walk"}, "needs moves="),
        ({"moves": 3}, "moves= is for method"),
        ({"method": "spiral"}, "unknown method 'spiral'"),
    ],
)
def test_dataset_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        taquin.dataset("3x3", 2, seed=1, **kwargs)


def test_python_m_taquin_dataset_writes_npz(tmp_path):
    out = tmp_path / "eight.npz"
    run = subprocess.run(
        [sys.executable, "-m", "taquin", "dataset", "--size", "3x3", "--count", "25", "--seed", "3", "-o", str(out)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    data = np.load(out)
    states, cost = taquin.dataset("3x3", 25, seed=3)
    assert (data["states"] == states).all() and (data["cost_to_go"] == cost).all()
    bad = subprocess.run(
        [sys.executable, "-m", "taquin", "dataset", "--size", "3y3", "--count", "2", "-o", str(out)],
        capture_output=True, text=True, check=False,
    )
    assert bad.returncode == 2 and "invalid size" in bad.stderr


def test_uniform_data_beyond_sixteen_cells_is_refused_up_front_with_the_way_that_works():
    # Before: ten seconds of anytime search per board, then "did not prove its solution optimal".
    with pytest.raises(taquin.UnsupportedError, match='uniformly random 5x5 boards are out of reach.*method="walk"'):
        taquin.dataset("5x5", 2, seed=0)
    with pytest.raises(taquin.UnsupportedError, match="4x5 boards are out of reach"):
        taquin.dataset("4x5", 2, seed=0, heuristic="linear-conflict")
    # The way it names works, and its costs are the optimal lengths.
    states, cost = taquin.dataset("5x5", 3, seed=0, method="walk", moves=20)
    assert states.shape == (3, 25) and cost.max() <= 20
    for row, c in zip(states, cost):
        r = taquin.solve(row.reshape(5, 5), algorithm="idastar", heuristic="linear-conflict")
        assert (r.length, r.optimal) == (c, True)


def _run_cli(*args):
    return subprocess.run([sys.executable, "-m", "taquin", *args], capture_output=True, text=True, check=False)


def test_python_m_taquin_dataset_refuses_an_output_it_cannot_write_before_computing(tmp_path):
    out = tmp_path / "missing" / "x.npz"
    run = _run_cli("dataset", "--count", "3", "--seed", "1", "-o", str(out))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"the directory {out.parent} does not exist" in run.stderr
    run = _run_cli("dataset", "--count", "3", "--seed", "1", "-o", str(tmp_path))
    assert run.returncode == 2 and "is a directory" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--count", "-3"], "argument --count: invalid value -3: give a number of boards, 1 or more"),
        (["--count", "0"], "argument --count: invalid value 0"),
        (["--count", "many"], "argument --count: invalid value 'many'"),
        (["--count", "2", "--seed", "-1"], "argument --seed: invalid value -1: give a seed, 0 or more"),
        (["--count", "2", "--moves", "-1"], "argument --moves: invalid value -1"),
        (["--count", "2", "--jobs", "-1"], "argument --jobs: invalid value -1"),
    ],
)
def test_python_m_taquin_dataset_checks_its_numbers(tmp_path, args, message):
    run = _run_cli("dataset", *args, "-o", str(tmp_path / "x.npz"))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert message in run.stderr


def test_python_m_taquin_dataset_writes_the_file_it_names(tmp_path):
    # numpy appends ".npz" to a name without it; the file written is the one asked for.
    out = tmp_path / "x.txt"
    run = _run_cli("dataset", "--count", "4", "--seed", "2", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert out.exists() and not (tmp_path / "x.txt.npz").exists()
    assert f"to {out} " in run.stderr
    assert (np.load(out)["cost_to_go"] == taquin.dataset("3x3", 4, seed=2)[1]).all()


def test_python_m_taquin_dataset_beyond_sixteen_cells_names_its_option(tmp_path):
    run = _run_cli("dataset", "--size", "5x5", "--count", "2", "-o", str(tmp_path / "x.npz"))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "--moves" in run.stderr and not (tmp_path / "x.npz").exists()


def test_dataset_checks_every_argument_before_drawing_boards():
    # Drawing these walks takes hours: the bad heuristic is said first.
    with pytest.raises(ValueError, match="bogus"):
        taquin.dataset("3x3", 10, seed=0, method="walk", moves=10**13, heuristic="bogus")


@pytest.mark.parametrize("call", ["generate", "dataset"])
def test_a_count_beyond_memory_is_refused_by_name(call):
    # Boards were made one by one until memory ran out, then the interpreter aborted.
    with pytest.raises(MemoryError, match=r"count=4611686018427387904"):
        if call == "generate":
            taquin.generate("3x3", count=2**62, seed=0)
        else:
            taquin.dataset("3x3", 2**62, seed=0)
