"""Command line of the Python package: ``python -m taquin dataset ...`` writes a data set of
boards and their exact cost to go to an ``.npz`` file (arrays ``states`` and ``cost_to_go``)."""

from __future__ import annotations

import argparse
import sys

import numpy as np

import taquin


def _dataset(args: argparse.Namespace) -> int:
    states, cost = taquin.dataset(
        args.size,
        args.count,
        seed=args.seed,
        method="walk" if args.moves is not None else "uniform",
        moves=args.moves,
        goal=args.goal,
        heuristic=args.heuristic,
        jobs=args.jobs,
    )
    np.savez_compressed(args.output, states=states, cost_to_go=cost)
    print(
        f"wrote {len(cost)} boards of {args.size} to {args.output} "
        f"(cost to go {cost.min() if len(cost) else 0}..{cost.max() if len(cost) else 0})",
        file=sys.stderr,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m taquin", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser(
        "dataset",
        help="boards with their exact cost to go, as .npz (states, cost_to_go)",
        description="Boards drawn uniformly among the solvable ones (or by random walks with "
        "--moves), each solved optimally; the same --seed gives the same file.",
    )
    d.add_argument("--size", default="3x3", help="columns x rows, e.g. 3x3 or 4x4 (default 3x3)")
    d.add_argument("--count", type=int, required=True, help="number of boards")
    d.add_argument("--seed", type=int, default=None, help="seed: the same seed gives the same data")
    d.add_argument(
        "--moves",
        type=int,
        default=None,
        help="draw boards by random walks of 0..MOVES moves from the goal instead of uniformly",
    )
    d.add_argument("--goal", default=None, help="goal board (default: tiles in order, blank last)")
    d.add_argument("--heuristic", default="auto", help="heuristic of the optimal search (default auto)")
    d.add_argument("--jobs", type=int, default=None, help="threads (default: every core)")
    d.add_argument("-o", "--output", required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    try:
        return _dataset(args)
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
