"""solve_batch against `taquin batch` on the same boards with the same heuristic, runs
interleaved (the machine may be shared): CPU seconds of each, and the ratio.

    taquin generate --size 4x4 --count 1000 --seed 1 --format bench > fifteen.txt
    python crates/python/bench/batch_vs_cli.py fifteen.txt --taquin target/release/taquin -H pdb:6-6-3
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import time

import numpy as np

import taquin


def read_bench(path: str) -> np.ndarray:
    """Tiles of each `ID OPTLEN t0 ... t(N-1)` line (goal with the blank first)."""
    rows = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            rows.append([int(t) for t in line.split()[2:]])
    return np.array(rows, dtype=np.uint8)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--taquin", default="target/release/taquin", help="the CLI binary")
    p.add_argument("-H", "--heuristic", default="walking-distance")
    p.add_argument("--rounds", type=int, default=2)
    a = p.parse_args()
    boards = read_bench(a.file)
    side = int(round(boards.shape[1] ** 0.5))
    goal = np.arange(side * side).reshape(side, side)
    taquin.heuristic(boards[:1], a.heuristic, goal=goal)  # load the tables before timing
    for turn in range(1, a.rounds + 1):
        before, wall = children_cpu(), time.perf_counter()
        out = subprocess.run(
            [a.taquin, "batch", a.file, "-H", a.heuristic], capture_output=True, text=True, check=True
        ).stdout
        cli_cpu, cli_wall = children_cpu() - before, time.perf_counter() - wall
        cli_lengths = [json.loads(line)["length"] for line in out.splitlines()]

        before, wall = time.process_time(), time.perf_counter()
        results = taquin.solve_batch(boards, goal=goal, algorithm="idastar", heuristic=a.heuristic)
        py_cpu, py_wall = time.process_time() - before, time.perf_counter() - wall
        assert [r.length for r in results] == cli_lengths
        print(
            f"round {turn}: {len(boards)} boards, {a.heuristic}: taquin batch {cli_cpu:.2f} CPU s "
            f"({cli_wall:.2f} s wall), solve_batch {py_cpu:.2f} CPU s ({py_wall:.2f} s wall), "
            f"ratio {py_cpu / cli_cpu:.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
