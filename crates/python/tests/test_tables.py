"""Where pattern databases are kept, as the package's README and `heuristic`'s docstring say:
`TAQUIN_PDB_DIR`, else `$XDG_CACHE_HOME/taquin`, else `~/.cache/taquin`, else memory only."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import taquin

# Builds the 8-puzzle's table (a fraction of a second) in a fresh process, which reads the
# variables when its first table is needed.
BUILD = """
import numpy as np, taquin
assert taquin.heuristic(np.array([[6, 4, 7, 8, 5, 0, 3, 2, 1]]), "pdb:8").tolist() == [31]
"""


def _build_with(tmp_path: Path, **variables: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("TAQUIN_PDB_DIR", "XDG_CACHE_HOME", "HOME")}
    env.update({k: str(tmp_path / v) for k, v in variables.items()})
    run = subprocess.run([sys.executable, "-c", BUILD], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def _tables(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.pdb")) if folder.is_dir() else []


@pytest.mark.parametrize(
    "variables, folder",
    [
        ({"TAQUIN_PDB_DIR": "pdb", "XDG_CACHE_HOME": "xdg", "HOME": "home"}, "pdb"),
        ({"XDG_CACHE_HOME": "xdg", "HOME": "home"}, "xdg/taquin"),
        ({"HOME": "home"}, "home/.cache/taquin"),
    ],
)
def test_tables_go_where_the_docs_say(tmp_path, variables, folder):
    _build_with(tmp_path, **variables)
    assert len(_tables(tmp_path / folder)) == 1
    # Nowhere else.
    everywhere = [p for p in tmp_path.rglob("*.pdb") if p.parent != tmp_path / folder]
    assert everywhere == []


def test_tables_are_moved_by_moving_their_files_and_the_variable(tmp_path):
    _build_with(tmp_path, TAQUIN_PDB_DIR="old")
    (tmp_path / "new").mkdir()
    for table in (tmp_path / "old").glob("*.pdb"):
        table.rename(tmp_path / "new" / table.name)
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "new").glob("*.pdb")}
    _build_with(tmp_path, TAQUIN_PDB_DIR="new")
    # Loaded from its new place, not built again (neither there nor in the old one).
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "new").glob("*.pdb")} == before
    assert _tables(tmp_path / "old") == []


def test_with_no_directory_tables_are_built_in_memory(tmp_path):
    _build_with(tmp_path)
    assert list(tmp_path.rglob("*.pdb")) == []


def test_the_docs_name_every_place():
    for doc in (taquin.heuristic.__doc__, (Path(__file__).parents[1] / "README.md").read_text()):
        assert "TAQUIN_PDB_DIR" in doc and "$XDG_CACHE_HOME/taquin" in doc and "~/.cache/taquin" in doc
