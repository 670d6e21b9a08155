"""examples/first-hour.ipynb runs from top to bottom: nbclient executes every cell in a fresh kernel of this very
interpreter (a kernel spec made for the test, so an installed package in a virtual environment is the one the
notebook imports, as a build tree's is through PYTHONPATH), and a cell that raises fails the test."""

import json
import os
import pathlib
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")

SOURCE = pathlib.Path(os.environ.get("RBMIX_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_the_first_hour_notebook_runs(tmp_path, monkeypatch):
    spec = tmp_path / "kernels" / "rbmix-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "rbmix test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    notebook = nbformat.read(SOURCE / "examples" / "first-hour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="rbmix-test").execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert any(output.get("output_type") == "display_data" and "image/png" in output.get("data", {})
               for output in outputs), "the learning curve and filters are drawn inline"
