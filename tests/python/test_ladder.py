"""The trajectory file and tempering along it from Python: rbmix.train(trajectory=K, trajectory_file=PATH) keeps the
models as `rbmix train --trajectory K` does, rbmix.read_trajectory reads them, and rbmix.sample_ptt and
rbmix.ladder_convergence_bound run the ladder of `rbmix sample --ptt` and `rbmix convergence --ptt`;
rbmix.path_metropolis_bound couples particle Metropolis chains along the same path (`rbmix convergence
--particle-metropolis`)."""

import numpy as np
import pytest

import rbmix


def bars_and_stripes():
    rows = []
    for bits in range(8):
        row = np.array([(bits >> k) & 1 for k in range(3)], dtype=np.uint8)
        rows.append(np.repeat(row, 3))  # stripes: each row of the 3 × 3 picture constant
        rows.append(np.tile(row, 3))  # bars
    return np.array(rows, dtype=np.uint8)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    path = tmp_path_factory.mktemp("trajectory") / "run.rbtraj"
    result = rbmix.train(bars_and_stripes(), hidden=4, algorithm="cd", k=5, learning_rate=0.1, updates=200,
                         evaluate_every=0, seed=1, trajectory=11, trajectory_spacing="linear", trajectory_file=path)
    return result, path


def test_the_trajectory_keeps_the_scheduled_models_and_ends_with_the_result(trained):
    result, path = trained
    trajectory = result.trajectory
    assert len(trajectory) == 11
    np.testing.assert_array_equal(trajectory.updates, np.arange(0, 201, 20))
    np.testing.assert_array_equal(trajectory.models[-1].weights, result.model.weights)
    np.testing.assert_array_equal(rbmix.read_trajectory(path).updates, trajectory.updates)
    independent = trajectory.independent_model()
    assert not independent.weights.any()


def test_a_trajectory_without_a_file_and_a_damaged_file_are_refused(trained, tmp_path):
    with pytest.raises(rbmix.InputError, match="trajectory_file=PATH"):
        rbmix.train(bars_and_stripes(), hidden=4, updates=10, trajectory=3)
    _, path = trained
    damaged = tmp_path / "damaged.rbtraj"
    data = bytearray(path.read_bytes())
    data[-40] ^= 0x20
    damaged.write_bytes(bytes(data))
    with pytest.raises(rbmix.InputError, match="record 11 is damaged"):
        rbmix.read_trajectory(damaged)


def test_sample_ptt_returns_the_top_rung_and_the_ladder_figures(trained):
    _, path = trained
    out = rbmix.sample_ptt(path, chains=3, steps=50, seed=2)
    assert out["samples"].shape == (50, 3, 9)
    assert out["samples"].dtype == np.uint8
    assert len(out["acceptance"]) == len(out["positions"]) - 1
    assert out["positions"][0] == 0.0 and out["positions"][-1] == 11.0
    assert out["closed_links"] == []
    # The same seed gives the same samples.
    again = rbmix.sample_ptt(path, chains=3, steps=50, seed=2)
    np.testing.assert_array_equal(out["samples"], again["samples"])


def test_coupled_ladders_meet_and_bound_the_distance(trained):
    result, path = trained
    bound = rbmix.ladder_convergence_bound(rbmix.read_trajectory(path), pairs=10, max_steps=1000, seed=1)
    assert bound.bound_available
    assert bound.bound.met == 10
    assert all(rungs == 0 for rungs in bound.unmet_rungs)
    curve = bound.bound.total_variation
    assert curve[-1] == 0.0
    temperature = rbmix.ladder_convergence_bound(temperature_model=result.model, pairs=10, max_steps=1000)
    assert temperature.bound.met == 10
    with pytest.raises(rbmix.InputError, match="not both"):
        rbmix.place_ladder(path, temperature_model=result.model)


def test_particle_metropolis_chains_meet_and_their_proposals_centre_on_the_exact_log_z(trained):
    result, path = trained
    bound = rbmix.path_metropolis_bound(path, pairs=10, particles=20, smc_steps=40, seed=1)
    assert bound.bound.met == 10
    assert bound.bound.total_variation[-1] == 0.0
    # The first chains' proposals, their starts included, and one start per second chain.
    log_z = bound.proposal_log_partitions
    assert len(log_z) == bound.proposals + 10
    assert 0 < bound.accepted <= bound.proposals - 10
    # Each Z-hat is unbiased for Z; their log is below log Z by about half its variance, and spreads little here.
    assert abs(np.log(np.mean(np.exp(log_z - log_z.max()))) + log_z.max() - rbmix.log_partition(result.model)) < 0.1
    again = rbmix.path_metropolis_bound(rbmix.read_trajectory(path), pairs=10, particles=20, smc_steps=40, seed=1)
    np.testing.assert_array_equal(again.proposal_log_partitions, log_z)
    with pytest.raises(rbmix.InputError, match="at least one step per segment"):
        rbmix.path_metropolis_bound(path, smc_steps=2)


def test_a_temperature_path_from_the_base_rate_model_changes_the_proposals_and_keeps_z(trained):
    result, _ = trained
    rows = np.tile(np.eye(9, dtype=np.uint8), (3, 1))  # each pixel on in 1 of 9 rows: a base rate far from 1/2
    options = dict(temperature_model=result.model, pairs=5, particles=20, smc_steps=40, seed=1)
    uniform = rbmix.path_metropolis_bound(**options)
    base_rate = rbmix.path_metropolis_bound(base_rows=rows, **options)
    assert base_rate.bound.met == 5
    assert base_rate.mass_check["passed"]
    assert not np.array_equal(base_rate.proposal_log_partitions, uniform.proposal_log_partitions)
    log_z = base_rate.proposal_log_partitions
    assert abs(np.log(np.mean(np.exp(log_z - log_z.max()))) + log_z.max() - rbmix.log_partition(result.model)) < 0.1
    with pytest.raises(rbmix.InputError, match="base_rows: only with temperature_model"):
        rbmix.sample_path_metropolis(trained[1], base_rows=rows)
    with pytest.raises(rbmix.InputError, match="base_rows"):
        rbmix.path_metropolis_bound(temperature_model=result.model, base_rows=rows[:, :4])


def test_particle_metropolis_samples_repeat_and_a_negative_burn_in_is_refused(trained):
    result, path = trained
    out = rbmix.sample_path_metropolis(path, chains=3, samples=20, burn_in=2, particles=10, smc_steps=40, seed=1)
    assert out["samples"].shape == (20, 3, 9)
    assert out["proposals_after_start"] == 3 * 22
    assert len(out["proposal_log_partitions"]) == 3 * 23
    again = rbmix.sample_path_metropolis(rbmix.read_trajectory(path), chains=3, samples=20, burn_in=2, particles=10,
                                         smc_steps=40, seed=1)
    np.testing.assert_array_equal(again["samples"], out["samples"])
    with pytest.raises(rbmix.InputError, match="the burn-in must be at least 0"):
        rbmix.sample_path_metropolis(path, burn_in=-1, particles=10, smc_steps=40)


def test_trajectory_log_partition_chains_to_the_exact_log_z_and_refuses_bad_data(trained):
    result, path = trained
    columns = rbmix.trajectory_log_partition(path, bars_and_stripes(), samples=500, sweeps=50, seed=2)
    np.testing.assert_array_equal(columns["update"], np.arange(0, 201, 20))
    exact = rbmix.log_partition(result.model)
    # 5.5 standard errors: a false failure with probability 4e-8 (the seed is fixed).
    assert abs(columns["log_z"][-1] - exact) <= 5.5 * columns["log_z_se"][-1]
    assert not columns["exceeds_distinct_rows"].any()
    again = rbmix.trajectory_log_partition(rbmix.read_trajectory(path), bars_and_stripes(), samples=500, sweeps=50,
                                           seed=2)
    np.testing.assert_array_equal(columns["log_z"], again["log_z"])
    with pytest.raises(rbmix.InputError, match="data"):
        rbmix.trajectory_log_partition(path, bars_and_stripes()[:, :4])


def test_trajectory_anneal_reaches_the_exact_log_z_within_its_band_and_refuses_bad_options(trained):
    result, path = trained
    columns = rbmix.trajectory_anneal(path, bars_and_stripes(), particles=400, step_size=0.05, seed=2)
    np.testing.assert_array_equal(columns["update"], np.arange(0, 201, 20))
    exact = rbmix.log_partition(result.model)
    # The CLI case's bound (its error over seeds 2 to 5 was at most 0.02) and the band around the estimate.
    assert abs(columns["log_z"][-1] - exact) <= 0.1
    assert columns["log_z_lower"][-1] < columns["log_z"][-1] < columns["log_z_upper"][-1]
    assert (columns["steps"][1:] >= 1).all()
    assert not columns["exceeds_distinct_rows"].any()
    again = rbmix.trajectory_anneal(rbmix.read_trajectory(path), bars_and_stripes(), particles=400, step_size=0.05,
                                    seed=2)
    np.testing.assert_array_equal(columns["log_z"], again["log_z"])
    with pytest.raises(rbmix.InputError, match="step"):
        rbmix.trajectory_anneal(path, bars_and_stripes(), step_size=0.0)
    with pytest.raises(rbmix.InputError, match="data"):
        rbmix.trajectory_anneal(path, bars_and_stripes()[:, :4])
