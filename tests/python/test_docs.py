"""docs/python.md's worked example runs: its ```python blocks are executed in order in one namespace, so the page
cannot fall behind the package."""

import os
import pathlib
import re

SOURCE = pathlib.Path(os.environ.get("RBMIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_python_blocks_of_the_python_page_run():
    page = (SOURCE / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 3, "the worked example has its blocks"
    namespace = {"__name__": "docs_python_md"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
