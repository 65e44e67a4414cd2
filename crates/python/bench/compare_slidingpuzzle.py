"""taquin against the `slidingpuzzle` package (PyPI) on the same random boards, both solving
optimally with A*: slidingpuzzle with its strongest admissible heuristic (linear conflict), taquin
with the same heuristic and with its default choice. CPU seconds per board and the ratio.

    pip install slidingpuzzle
    python crates/python/bench/compare_slidingpuzzle.py [--eights 100] [--fifteens 5] [--cap 120]

A slidingpuzzle search that has not finished after --cap CPU seconds is stopped (it runs in a
child process) and counted as at least --cap.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import time

import numpy as np

import taquin


def _slidingpuzzle_solve(tiles: list[int], width: int, out: mp.Queue) -> None:
    import slidingpuzzle as sp

    board = sp.from_rows(*[tiles[i : i + width] for i in range(0, len(tiles), width)])
    start = time.process_time()
    result = sp.search(board, "a*", heuristic=sp.linear_conflict_distance)
    out.put((len(result.solution), time.process_time() - start, result.expanded))


def slidingpuzzle_solve(tiles: list[int], width: int, cap: float) -> tuple[int | None, float, int | None]:
    """(length, CPU seconds, expanded), run in a child so that it can be stopped at `cap`."""
    out: mp.Queue = mp.Queue()
    child = mp.Process(target=_slidingpuzzle_solve, args=(tiles, width, out))
    child.start()
    child.join(cap * 1.5 + 5)
    if child.is_alive():
        child.kill()
        child.join()
        return None, cap, None
    return out.get()


def taquin_solve(board: taquin.Board, **kwargs) -> tuple[int, float, int]:
    """(length, CPU seconds, expanded). A* runs within its default memory budget (4 GiB); past
    it, IDA* with the same heuristic is timed instead (same optimal length, no open list)."""
    start = time.process_time()
    try:
        r = taquin.solve(board, **kwargs)
    except taquin.LimitError:
        r = taquin.solve(board, **{**kwargs, "algorithm": "idastar"})
    assert r.optimal and board.apply(r.moves) == taquin.Board.solved(board.width, board.height)
    return r.length, time.process_time() - start, r.expanded


def run(size: str, count: int, seed: int, cap: float) -> None:
    boards = taquin.generate(size, count=count, seed=seed)
    rows = []
    for b in boards:
        sp_len, sp_cpu, sp_exp = slidingpuzzle_solve(b.tiles, b.width, cap)
        lc_len, lc_cpu, lc_exp = taquin_solve(b, algorithm="astar", heuristic="linear-conflict")
        auto_len, auto_cpu, _ = taquin_solve(b)
        assert sp_len is None or sp_len == lc_len == auto_len, (str(b), sp_len, lc_len, auto_len)
        rows.append((sp_len, sp_cpu, sp_exp, lc_cpu, lc_exp, auto_cpu, lc_len))
    done = [r for r in rows if r[0] is not None]
    sp_total = sum(r[1] for r in rows)
    lc_total = sum(r[3] for r in rows)
    auto_total = sum(r[5] for r in rows)
    print(f"## {count} random {size} boards (seed {seed}), optimal lengths {statistics.mean(r[6] for r in rows):.1f} on average")
    print(f"slidingpuzzle a* + linear_conflict_distance: {sp_total:10.3f} CPU s"
          f" ({len(done)} of {count} finished{'' if len(done) == count else f', the others counted as {cap:.0f} s'})")
    print(f"taquin astar + linear-conflict:              {lc_total:10.3f} CPU s   ratio {sp_total / max(lc_total, 1e-9):,.0f}x")
    print(f"taquin auto ({taquin.solve(boards[0]).plan.split(':')[0]}): {auto_total:10.3f} CPU s   ratio {sp_total / max(auto_total, 1e-9):,.0f}x")
    if done:
        same = [(r[2], r[4]) for r in done]
        print(f"nodes expanded, same boards, A* + linear conflict: slidingpuzzle {sum(s for s, _ in same):,}, taquin {sum(t for _, t in same):,}")
    print()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--eights", type=int, default=100)
    p.add_argument("--fifteens", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cap", type=float, default=120.0, help="CPU seconds before a slidingpuzzle search is stopped")
    a = p.parse_args()
    if a.eights:
        run("3x3", a.eights, a.seed, a.cap)
    if a.fifteens:
        run("4x4", a.fifteens, a.seed, a.cap)


if __name__ == "__main__":
    main()
