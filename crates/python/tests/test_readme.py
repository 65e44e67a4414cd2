"""The README's Python examples run as written."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example(index, capsys):
    if "gymnasium" in BLOCKS[index]:
        pytest.importorskip("gymnasium")
    namespace: dict = {}
    for block in BLOCKS[: index + 1]:
        if block is BLOCKS[index] or "gymnasium" not in block:
            exec(compile(block, f"README.md block {index}", "exec"), namespace)
