"""Shared fixtures: the repository's benchmark instances, read where the core's tests keep them."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Pattern databases built by the tests go to a directory of their own, not the user's cache,
# deleted when the test run ends, whether or not the tests passed. Set here, before any test
# runs, because the package opens its table directory once per process. A directory the caller
# gave in TAQUIN_PDB_DIR is theirs: used, and kept.
if "TAQUIN_PDB_DIR" not in os.environ:
    _TABLES = tempfile.mkdtemp(prefix="taquin-pdb-")
    os.environ["TAQUIN_PDB_DIR"] = _TABLES
    atexit.register(shutil.rmtree, _TABLES, ignore_errors=True)

DATA = Path(__file__).resolve().parents[2] / "core" / "tests" / "data"


def read_instances(name: str) -> list[tuple[str, int, list[int]]]:
    """(id, optimal length, tiles) of each line of a bench file (goal with the blank first)."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        out.append((fields[0], int(fields[1]), [int(t) for t in fields[2:]]))
    return out


@pytest.fixture
def korf_easy() -> list[tuple[str, int, list[int]]]:
    return read_instances("korf_easy.txt")


@pytest.fixture
def hard_eights() -> list[tuple[str, int, list[int]]]:
    return read_instances("puzzle8_hard31.txt")
