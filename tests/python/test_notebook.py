"""examples/first-hour.ipynb runs from top to bottom: nbclient executes every cell in a fresh kernel (which inherits
this process's environment, so it imports the same rbmix), and a cell that raises fails the test."""

import os
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")

SOURCE = pathlib.Path(os.environ.get("RBMIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_the_first_hour_notebook_runs():
    notebook = nbformat.read(SOURCE / "examples" / "first-hour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert any(output.get("output_type") == "display_data" and "image/png" in output.get("data", {})
               for output in outputs), "the learning curve and filters are drawn inline"
