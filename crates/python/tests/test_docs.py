"""The package's own documentation: every public item has a docstring, and every example in
one runs and prints what it says."""

import doctest
import inspect

import pytest

import taquin

# The public functions and classes, and the public members of the classes.
ITEMS = [(name, getattr(taquin, name)) for name in taquin.__all__ if callable(getattr(taquin, name))]
MEMBERS = [
    (f"{name}.{member}", value)
    for name, cls in ITEMS
    if inspect.isclass(cls) and not issubclass(cls, BaseException)
    for member, value in vars(cls).items()
    if not member.startswith("_")
]
DOCUMENTED = [("taquin", taquin)] + ITEMS + MEMBERS


@pytest.mark.parametrize("name, item", DOCUMENTED, ids=[n for n, _ in DOCUMENTED])
def test_every_public_item_has_a_docstring(name, item):
    assert (inspect.getdoc(item) or "").strip(), f"{name} has no docstring"


EXAMPLES = [(name, item) for name, item in DOCUMENTED if ">>>" in (inspect.getdoc(item) or "")]


def test_there_are_examples_to_run():
    names = {name for name, _ in EXAMPLES}
    assert {"taquin", "SolveResult", "solve", "heuristic", "dataset"} <= names


@pytest.mark.parametrize("name, item", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_docstring_examples_run_as_written(name, item):
    # The names the examples use bare (solve, Board, heuristic), as inside the module.
    globs = dict(vars(taquin))
    test = doctest.DocTestParser().get_doctest(inspect.getdoc(item), globs, name, None, 0)
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
