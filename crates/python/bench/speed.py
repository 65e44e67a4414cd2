"""Throughput of the Python API, single-threaded unless said: heuristics over arrays, the
environment's step, the vector environment's step. CPU time (time.process_time).

    python crates/python/bench/speed.py [--boards 1000000] [--pdb pdb:5-5-5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import taquin


def cpu(f, repeat: int = 3) -> float:
    """Best of `repeat` CPU times of f()."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best


def timed(f) -> float:
    """Wall-clock seconds of f() (for the runs on every core)."""
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def stepping(step, actions) -> None:
    """Calls step(a) for each action, as a training loop would."""
    for a in actions:
        step(a)


def heuristics(n: int, names: list[str]) -> None:
    boards = np.array([b.tiles for b in taquin.generate("4x4", count=10_000, seed=1)], dtype=np.uint8)
    boards = np.tile(boards, (n // len(boards), 1))
    for name in names:
        taquin.heuristic(boards[:10], name)  # builds or loads the tables first
        t = cpu(lambda: taquin.heuristic(boards, name, jobs=1))
        wall = min(timed(lambda: taquin.heuristic(boards, name)) for _ in range(3))
        print(f"heuristic(boards, {name!r}) on {len(boards):,} 4x4 boards (uint8): one thread {t:.3f} CPU s,"
              f" {len(boards) / t / 1e6:.1f} M boards/s; every core {len(boards) / wall / 1e6:.1f} M boards/s (wall)")
    wide = boards.astype(np.int64)
    t = cpu(lambda: taquin.heuristic(wide, "manhattan", jobs=1))
    print(f"heuristic(boards, 'manhattan') on int64 input: {len(wide) / t / 1e6:.1f} M boards/s")


def env_steps(steps: int) -> None:
    from taquin.gym import SlidingPuzzleEnv

    env = SlidingPuzzleEnv(size="4x4", max_steps=10**9)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 4, size=steps).tolist()
    t = cpu(lambda: stepping(env.step, actions))
    print(f"SlidingPuzzleEnv.step (4x4, unwrapped): {steps / t:,.0f} steps/s")


def vector_steps(num_envs: int, steps: int) -> None:
    from taquin.gym import SlidingPuzzleVectorEnv

    venv = SlidingPuzzleVectorEnv(num_envs, size="4x4", max_steps=200)
    venv.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 4, size=(steps, num_envs))
    t = cpu(lambda: stepping(venv.step, actions))
    print(f"SlidingPuzzleVectorEnv.step ({num_envs} 4x4 boards): {steps / t:,.0f} steps/s, {steps * num_envs / t / 1e6:.1f} M board-steps/s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=1_000_000)
    p.add_argument("--pdb", action="append", default=None, help="pattern databases to time too (e.g. pdb:5-5-5)")
    a = p.parse_args()
    heuristics(a.boards, ["manhattan", "linear-conflict", "walking-distance", *(a.pdb or ["pdb:5-5-5"])])
    env_steps(200_000)
    vector_steps(1024, 2_000)


if __name__ == "__main__":
    main()
