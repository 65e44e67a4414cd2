"""The type stubs (`taquin/_taquin.pyi`) against the module: the same parameters, in the same
order, with the same defaults; and, checked by mypy, what runs type-checks, and what the module
refuses (writing a read-only field) is refused."""

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

import taquin
import taquin._taquin as native

PACKAGE = Path(__file__).resolve().parents[1] / "python"
STUB = ast.parse((PACKAGE / "taquin" / "_taquin.pyi").read_text())


def _stub_defs(body, name):
    return [d for d in body if isinstance(d, ast.FunctionDef) and d.name == name]


def _is_property(d):
    return any(isinstance(x, ast.Name) and x.id == "property" for x in d.decorator_list)


def _stub_parameters(d, skip_self):
    """(name, kind, default or inspect.Parameter.empty) of each parameter of a stub def."""
    a = d.args
    positional = a.posonlyargs + a.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(a.defaults)) + [
        ast.literal_eval(x) for x in a.defaults
    ]
    out = [(p.arg, "positional", v) for p, v in zip(positional, defaults)]
    out += [
        (p.arg, "keyword", inspect.Parameter.empty if v is None else ast.literal_eval(v))
        for p, v in zip(a.kwonlyargs, a.kw_defaults)
    ]
    return out[1:] if skip_self else out


def _runtime_parameters(f):
    kinds = {inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional", inspect.Parameter.KEYWORD_ONLY: "keyword"}
    return [(p.name, kinds.get(p.kind, str(p.kind)), p.default) for p in inspect.signature(f).parameters.values()]


def _runtime_or_none(f, drop_self):
    """The runtime parameters of `f` (without `self` for a method), None when it has no
    signature (a slot wrapper such as `__len__`)."""
    try:
        parameters = _runtime_parameters(f)
    except ValueError:
        return None
    return parameters[1:] if drop_self else parameters


def _cases():
    """(label, runtime parameters, stub defs, whether the stub defs take self)."""
    module = ("solve", "solve_batch", "heuristic", "generate", "dataset", "_env_goal")
    cases = [(n, _runtime_or_none(getattr(native, n), False), _stub_defs(STUB.body, n), False) for n in module]
    for cls in (d for d in STUB.body if isinstance(d, ast.ClassDef) and not d.name.endswith("Error")):
        runtime = getattr(native, cls.name)
        if _stub_defs(cls.body, "__init__"):
            cases.append((f"{cls.name}()", _runtime_or_none(runtime, False), _stub_defs(cls.body, "__init__"), True))
        for d in (d for d in cls.body if isinstance(d, ast.FunctionDef)):
            # Python's own protocols (`__eq__`, `__len__`) are slots whose parameters the stub
            # names as typing does; `__array__` is a method of the module's.
            protocol = d.name.startswith("__") and d.name not in ("__init__", "__array__")
            if not _is_property(d) and d.name != "__init__" and not protocol:
                static = any(isinstance(x, ast.Name) and x.id == "staticmethod" for x in d.decorator_list)
                expected = _runtime_or_none(getattr(runtime, d.name), not static)
                cases.append((f"{cls.name}.{d.name}", expected, [d], not static))
    return [c for c in cases if c[1] is not None]


CASES = _cases()


def test_the_stub_is_compared_with_the_module():
    labels = {label for label, *_ in CASES}
    assert {"generate", "heuristic", "Board()", "Board.apply", "Board.__array__", "Puzzle()"} <= labels


@pytest.mark.parametrize("label, expected, defs, skip_self", CASES, ids=[c[0] for c in CASES])
def test_the_stub_has_the_runtime_signature(label, expected, defs, skip_self):
    assert defs, f"{label} is not in the stub"
    names = [n for n, _, _ in expected]
    for d in defs:
        given = _stub_parameters(d, skip_self)
        assert [n for n, _, _ in given] == names, f"{label}: the stub's parameters differ from the module's"
        for (name, kind, default), (_, want_kind, want_default) in zip(given, expected):
            # An overload may leave out a default, or take by keyword only what follows one.
            if default is not inspect.Parameter.empty:
                assert default == want_default, f"{label}: {name} defaults to {want_default!r}"
            assert kind == want_kind or (kind, want_kind) == ("keyword", "positional"), label
    # What the module takes by position, some overload takes by position.
    for i, (name, kind, _) in enumerate(expected):
        if kind == "positional":
            assert any(_stub_parameters(d, skip_self)[i][1] == "positional" for d in defs), (label, name)


# Each line runs (below) and must type-check: the documented forms of the arguments.
ACCEPTED = """
import numpy as np
import taquin

b: taquin.Board = taquin.Board(taquin.Board.solved(3).tiles)
boards: list[taquin.Board] = taquin.generate("3x3", 5)
more: list[taquin.Board] = taquin.generate("3x3", count=2, seed=1)
one: taquin.Board = taquin.generate("3x3", None, 1)
also_one: taquin.Board = taquin.generate(goal="1 2 3/4 5 6/7 8 0")
value: int = taquin.heuristic(b, "manhattan")
values: np.ndarray = taquin.heuristic(np.array([b.tiles]), heuristic="manhattan")
listed: np.ndarray = taquin.heuristic([b, b])
tiles: list[int] = list(b)
present: bool = 5 in b
r = taquin.solve(b)
length: int = r.length
same: bool = r == r
bound: int | None = taquin.LimitError("by hand").lower_bound
"""

# Each must be refused by mypy with this message.
REFUSED = {
    "r.length = 3": 'Property "length" defined in "SolveResult" is read-only',
    "r.moves = 'U'": 'Property "moves" defined in "SolveResult" is read-only',
}


def test_mypy_accepts_what_runs_and_refuses_what_is_read_only(tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy checks the stubs (pip install 'taquin[test]')")
    exec(compile(ACCEPTED, "accepted", "exec"), {})
    (tmp_path / "accepted.py").write_text(ACCEPTED)
    refused = ACCEPTED + "\n".join(REFUSED) + "\n"
    (tmp_path / "refused.py").write_text(refused)
    (tmp_path / "mypy.ini").write_text(
        textwrap.dedent(
            f"""
            [mypy]
            mypy_path = {PACKAGE}
            cache_dir = {tmp_path / "cache"}
            """
        )
    )
    files = [str(tmp_path / "accepted.py"), str(tmp_path / "refused.py")]
    out, err, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--no-error-summary", *files])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert [e for e in errors if "accepted.py" in e] == [], out + err
    refused_lines = refused.splitlines()
    found = {refused_lines[int(e.split(":")[1]) - 1]: e for e in errors if "refused.py" in e}
    assert set(found) == set(REFUSED), out + err
    for line, message in REFUSED.items():
        assert message in found[line]
