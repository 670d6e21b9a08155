#include "rbmix/experiments/autocorr_experiment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>

#include "rbmix/core/error.hpp"

namespace rbmix::experiments {
namespace {

// Smoke scale's settings, cut to 1 RBM of 30 updates and 300 sweeps each so that the test runs in seconds.
AutocorrOptions short_options(const std::vector<std::string>& only) {
  AutocorrOverrides overrides;
  overrides.trials = 1;
  overrides.updates = 30;
  overrides.steps = 300;
  overrides.only = only;
  AutocorrOptions options = autocorr_options(Scale::smoke, 7, {}, overrides);
  return options;
}

// One result per (setting, trial) with every estimator for G and T, and autocorrelation functions that start
// at R(0) = 1 and stay in [−1, 1].
TEST(Autocorr, SmokeScaleEstimatesEveryTrialWithBothOperators) {
  const AutocorrOptions options = short_options({});
  ASSERT_EQ(options.settings.size(), 3u);  // no MNIST directory: BAS 4×4 and the two Artificial Modes settings
  const AutocorrResult result = run_autocorr(options).value();
  ASSERT_EQ(result.trials.size(), 3u);
  for (const AutocorrTrial& trial : result.trials) {
    for (const auto* operator_result : {&trial.gibbs, &trial.flip}) {
      ASSERT_EQ(operator_result->estimates.size(), 7u);  // integrated_autocorrelation_time.hpp's seven
      // T's autocorrelations can be negative, so an estimate (marked untrusted) may even be below 0: only finite.
      for (const auto& estimate : operator_result->estimates)
        EXPECT_TRUE(std::isfinite(estimate.time)) << estimate.method;
      ASSERT_EQ(operator_result->autocorrelation.size(), autocorr_reported_lags + 1);
      EXPECT_DOUBLE_EQ(operator_result->autocorrelation[0], 1.0);
      EXPECT_LE(operator_result->autocorrelation.cwiseAbs().maxCoeff(), 1.0 + 1e-12);
    }
  }
  EXPECT_EQ(autocorr_summary_table(options, result).rows(), 3u * 7u);  // the three settings × seven estimators
}

// Table 2's gain and Wilcoxon test take only the trials whose G and T estimates are both trusted, and the table
// says how many it left out and why; the recommended estimator's row comes first.
TEST(Autocorr, TheGainUsesTrustedPairsAndCountsTheExcluded) {
  const AutocorrOptions options = short_options({"bas4x4"});
  AutocorrResult result;
  const auto trial_with = [](int index, double gibbs, double flip, const std::string& flip_warning) {
    AutocorrTrial trial;
    trial.trial = index;
    trial.gibbs.estimates = {{"batch_means", gibbs, gibbs - 1.0, gibbs + 1.0, 10, true, ""},
                             {"initial_monotone_sequence", gibbs, gibbs - 1.0, gibbs + 1.0, 10, true, ""}};
    trial.flip.estimates = trial.gibbs.estimates;
    for (auto& estimate : trial.flip.estimates) {
      estimate.time = flip;
      estimate.trusted = flip_warning.empty();
      estimate.warning = flip_warning;
    }
    return trial;
  };
  for (int index = 0; index < 6; ++index) result.trials.push_back(trial_with(index, 10.0 + index, 5.0, ""));
  // τ̂_T = 1000 would turn the gain negative if it were averaged in.
  result.trials.push_back(trial_with(
      6, 10.0, 1000.0,
      "R̂ = 1.2 > 1.01: the chains disagree; disagrees with the cross-check by 9 standard errors (more than 3)"));
  const Table table = autocorr_summary_table(options, result);
  ASSERT_EQ(table.rows(), 2u);
  const auto cell = [&](std::size_t row, const std::string& column) {
    const auto& columns = table.columns();
    return table.at(row, static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) - columns.begin()));
  };
  EXPECT_EQ(std::get<std::string>(cell(0, "estimator")), "initial_monotone_sequence");
  EXPECT_EQ(std::get<std::string>(cell(0, "headline")), "yes");
  EXPECT_EQ(std::get<long long>(cell(0, "used")), 6);
  EXPECT_EQ(std::get<long long>(cell(0, "excluded")), 1);
  EXPECT_EQ(std::get<std::string>(cell(0, "excluded_because")), "T cross_check 1; T rhat 1");
  EXPECT_DOUBLE_EQ(std::get<double>(cell(0, "tau_G")), 12.5);
  EXPECT_DOUBLE_EQ(std::get<double>(cell(0, "gain_percent")), 60.0);
  // Six pairs, every difference of the same sign: the exact two-sided p is 2/2^6.
  EXPECT_DOUBLE_EQ(std::get<double>(cell(0, "wilcoxon_p")), 2.0 / 64.0);
}

// A setting keeps its seeds when others are left out (--only), and the thread count does not matter.
TEST(Autocorr, ASettingRunAloneReproducesItsTrialsInTheFullRun) {
  const AutocorrResult all = run_autocorr(short_options({}), JobRunner(1)).value();
  const AutocorrResult alone = run_autocorr(short_options({"modes_p0.1"}), JobRunner(2)).value();
  ASSERT_EQ(alone.trials.size(), 1u);
  EXPECT_EQ(alone.trials[0].gibbs.autocorrelation, all.trials[2].gibbs.autocorrelation);
  EXPECT_EQ(alone.trials[0].flip.autocorrelation, all.trials[2].flip.autocorrelation);
}

TEST(Autocorr, OptionsRefuseUnknownSettingsAndBadCounts) {
  EXPECT_THROW(short_options({"mnist_10h"}), InputError);  // MNIST settings need the MNIST directory
  AutocorrOptions options = short_options({});
  options.learning_rate = 0.0;
  EXPECT_THROW(options.validate(), InputError);
  options = short_options({});
  options.settings[0].steps = 1;
  EXPECT_THROW(run_autocorr(options), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
