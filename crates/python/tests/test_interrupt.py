"""Long calls release the GIL and stop on Ctrl-C."""

import os
from pathlib import Path
import signal
import threading
import time

import pytest

import taquin

# A 15-puzzle misplaced-tiles IDA* cannot finish: only a signal (or the backstop timeout) ends it.
HARD = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0"


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs SIGINT")
@pytest.mark.parametrize(
    "call",
    [
        "solve",
        "solve_batch",
        "solve_batch_quick",
        "dataset",
        "dataset_walk",
        "generate",
        "heuristic",
        "env_scramble",
        "vector_env_scramble",
    ],
)
def test_ctrl_c_stops_a_search(call):
    tables = Path(os.environ["TAQUIN_PDB_DIR"])
    if call == "heuristic" and any(tables.glob("5x5-*.pdb")):
        # Set by the caller and holding the tables: they load at once, nothing to stop.
        pytest.skip(f"5x5 tables already in {tables}: nothing to build and stop")
    # Boards solved far faster than the signal is polled: seconds of work, made before the timer.
    quick = taquin.generate("3x3", count=300_000, seed=1) if call == "solve_batch_quick" else None
    # Python's own Ctrl-C handler, even where the test runner was started with SIGINT ignored
    # (as a shell does for a command it runs in the background): then Python installs none.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            if call == "solve":
                taquin.solve(HARD, heuristic="misplaced", timeout=120)
            elif call == "heuristic":
                # The 24-puzzle's 6-6-6-6 tables, built into the tests' own directory: minutes
                # without the signal.
                taquin.heuristic([list(range(1, 25)) + [0]], "pdb:6-6-6-6")
            elif call == "generate":
                # A walk of a hundred billion moves: minutes without the signal.
                taquin.generate("4x4", moves=10**11)
            elif call == "dataset_walk":
                # A walk of ten trillion moves drawn before any solve: hours without the signal.
                taquin.dataset("3x3", 1, seed=0, method="walk", moves=10**13)
            elif call == "env_scramble":
                pytest.importorskip("taquin.gym").SlidingPuzzleEnv(size="4x4", scramble=10**13).reset(seed=0)
            elif call == "vector_env_scramble":
                pytest.importorskip("taquin.gym").SlidingPuzzleVectorEnv(2, size="4x4", scramble=10**13).reset(seed=0)
            elif call == "solve_batch_quick":
                taquin.solve_batch(quick, jobs=1)
            elif call == "dataset":
                # The same kind of work; the arrays made after it must not fail on the signal.
                taquin.dataset("3x3", 300_000, seed=1, jobs=1)
            else:
                taquin.solve_batch([HARD, HARD, HARD], heuristic="misplaced", timeout=120)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_the_gil_is_released_while_searching():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        with pytest.raises(taquin.LimitError):
            taquin.solve(HARD, algorithm="idastar", heuristic="misplaced", timeout=0.5)
    finally:
        stop.set()
        t.join()
    # Holding the GIL for the whole search would leave the other thread at one or two ticks.
    assert len(ticks) > 20
