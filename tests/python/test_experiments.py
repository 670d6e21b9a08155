"""rbmix.run_experiment: the experiments of the command line, by name, with their tables as values."""

import json
import os
import subprocess

import pytest

import rbmix


def test_every_experiment_of_the_command_line_is_listed():
    listed = rbmix.experiments()
    assert "dcp-small" in listed and "slem-sweep" in listed and "estimator-calibration" in listed
    assert "trials" in listed["dcp-small"]["options"]
    assert listed["slem-sweep"]["default_scale"] == "paper"


def test_run_experiment_returns_the_tables_the_command_line_writes(tmp_path):
    tables = rbmix.run_experiment("dcp-small", tmp_path / "py", trials=2, epochs=40, threads=1, seed=3)
    summary = tables["summary"]
    assert len(summary["data"]) > 0 and len(summary["algorithm"]) == len(summary["data"])
    record = json.loads((tmp_path / "py" / "run.json").read_text())
    assert record["configuration"]["trials"] == 2
    cli = os.environ.get("RBMIX_CLI")
    if cli is None:
        pytest.skip("RBMIX_CLI is not set: the command line is not at hand")
    subprocess.run([cli, "experiment", "dcp-small", "--trials", "2", "--epochs", "40", "--threads", "2", "--seed", "3",
                    "--out", str(tmp_path / "cli")], check=True, capture_output=True)
    # The same seed gives the same numbers, whatever the front-end and the thread count.
    assert (tmp_path / "py" / "dcp_small.csv").read_bytes() == (tmp_path / "cli" / "dcp_small.csv").read_bytes()


def test_a_misspelt_option_is_refused_naming_the_options():
    with pytest.raises(rbmix.InputError, match="its options: .*trials"):
        rbmix.run_experiment("dcp-small", "unused", trails=2)
    with pytest.raises(rbmix.InputError, match="no experiment 'dcp'"):
        rbmix.run_experiment("dcp", "unused")
