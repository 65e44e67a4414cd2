"""The Python examples of the package's README and of the repository's README run as written."""

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]
READMES = [HERE / "README.md", HERE.parents[1] / "README.md"]
# (file, blocks): each block runs after the earlier blocks of its file, as a reader would run them.
BLOCKS = [
    (readme.name if i == 0 else "../../README.md", re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S))
    for i, readme in enumerate(READMES)
]
CASES = [(name, i) for name, blocks in BLOCKS for i in range(len(blocks))]


def test_the_readmes_have_examples():
    assert len(BLOCKS[0][1]) >= 5 and len(BLOCKS[1][1]) >= 1


@pytest.mark.parametrize("name, index", CASES)
def test_readme_example(name, index):
    blocks = dict(BLOCKS)[name]
    if "gymnasium" in blocks[index]:
        pytest.importorskip("gymnasium")
    namespace: dict = {}
    for i, block in enumerate(blocks[: index + 1]):
        if i == index or "gymnasium" not in block:
            exec(compile(block, f"{name} block {i}", "exec"), namespace)
