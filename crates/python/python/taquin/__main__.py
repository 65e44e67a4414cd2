"""Command line of the Python package: ``python -m taquin dataset ...`` writes a data set of
boards and their exact cost to go to an ``.npz`` file (arrays ``states`` and ``cost_to_go``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

import taquin


def _whole(text: str, least: int, what: str) -> int:
    """``text`` as an int of at least ``least``, or the argparse error that says what to give."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: give {what}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"invalid value {value}: give {what}")
    return value


def _positive(what: str):
    """An argparse type: a whole number, 1 or more."""
    return lambda text: _whole(text, 1, f"{what}, 1 or more")


def _non_negative(what: str):
    """An argparse type: a whole number, 0 or more."""
    return lambda text: _whole(text, 0, f"{what}, 0 or more")


def _output_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None. Checked before the data set is computed, which
    may take long: a typo in the directory should not cost that time."""
    if path.is_dir():
        return f"cannot write {path}: it is a directory: give a file name, e.g. {path / 'data.npz'}"
    folder = path.parent
    if not folder.is_dir():
        return f"cannot write {path}: the directory {folder} does not exist: create it first"
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot write {path}: permission denied"
    return None


def _dataset(args: argparse.Namespace) -> int:
    output = Path(args.output)
    problem = _output_problem(output)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
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
    except taquin.UnsupportedError as e:
        if args.moves is not None:
            raise
        # The API's advice names its arguments (method="walk", moves=); here it is an option.
        print(f"error: {e}\n(from the command line: --moves 40)", file=sys.stderr)
        return 2
    # Through an open file: given a name, numpy appends ".npz" to one that lacks it, and the
    # file would not be the one asked for.
    try:
        with open(output, "wb") as f:
            np.savez_compressed(f, states=states, cost_to_go=cost)
    except OSError as e:
        print(f"error: cannot write {output}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(
        f"wrote {len(cost)} boards of {args.size} to {output} "
        f"(cost to go {cost.min() if len(cost) else 0}..{cost.max() if len(cost) else 0})",
        file=sys.stderr,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs the command line on ``argv`` (default: the process's arguments); returns the exit
    status: 0 on success, 2 on an error (said on stderr), 130 when interrupted."""
    parser = argparse.ArgumentParser(prog="python -m taquin", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser(
        "dataset",
        help="boards with their exact cost to go, as .npz (states, cost_to_go)",
        description="Boards drawn uniformly among the solvable ones (or by random walks with "
        "--moves), each solved optimally; the same --seed gives the same file.",
    )
    d.add_argument("--size", default="3x3", help="columns x rows, e.g. 3x3 or 4x4 (default 3x3)")
    d.add_argument("--count", type=_positive("a number of boards"), required=True, help="number of boards")
    d.add_argument(
        "--seed",
        type=_non_negative("a seed"),
        default=None,
        help="seed: the same seed gives the same data",
    )
    d.add_argument(
        "--moves",
        type=_non_negative("a number of moves"),
        default=None,
        help="draw boards by random walks of 0..MOVES moves from the goal instead of uniformly "
        "(needed beyond 16 cells, e.g. for 5x5)",
    )
    d.add_argument("--goal", default=None, help="goal board (default: tiles in order, blank last)")
    d.add_argument("--heuristic", default="auto", help="heuristic of the optimal search (default auto)")
    d.add_argument("--jobs", type=_positive("a number of threads"), default=None, help="threads (default: every core)")
    d.add_argument("-o", "--output", required=True, help="the file to write, as written (e.g. data.npz)")
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
