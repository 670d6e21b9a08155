#include "rbmix/experiments/coupling_experiment.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/input_error_message.hpp"

namespace rbmix::experiments {
namespace {

// The random RBMs only, few and small: seconds.
CouplingOptions small_options() {
  CouplingOptions options = coupling_options(Scale::smoke, 3, {}, {"none"});
  options.family.sizes = {2};
  options.family.weight_bounds = {1, 8};
  options.family.rbms_per_setting = 4;
  options.pairs = 16;
  options.max_sweeps = 500;
  return options;
}

// Every random RBM's pairs of G and T are counted; the share where T's bound is below G's counts exactly those RBMs
// among the ones where both bounds exist, and SLEM's share those with SLEM(T) < SLEM(G).
TEST(Coupling, SharesCountTheRbmsWhereTIsBelowG) {
  const CouplingResult result = run_coupling(small_options()).value();
  ASSERT_EQ(result.models.size(), 8u);
  const Table table = coupling_fig3_table(result);
  ASSERT_EQ(table.rows(), 2u);
  for (std::size_t row = 0; row < 2; ++row) {
    int both = 0, bound_below = 0, slem_below = 0;
    for (std::size_t k = 4 * row; k < 4 * row + 4; ++k) {
      const CouplingModelResult& model = result.models[k];
      EXPECT_EQ(model.gibbs.pairs, 16);
      EXPECT_LE(model.flip.met, 16);
      slem_below += model.slem_flip < model.slem_gibbs;
      if (model.gibbs.mixing_time && model.flip.mixing_time) {
        ++both;
        bound_below += *model.flip.mixing_time < *model.gibbs.mixing_time;
      }
    }
    EXPECT_EQ(std::get<double>(table.at(row, 4)), slem_below / 4.0);
    if (both > 0) {
      EXPECT_EQ(std::get<double>(table.at(row, 3)), static_cast<double>(bound_below) / both);
    }
    EXPECT_EQ(std::get<long long>(table.at(row, 5)), 4 - both);
  }
}

// A job's result survives the grid's journal bit for bit (unmet pairs' NaN meeting times and missing t_mix included),
// and the thread count changes nothing.
TEST(Coupling, ResultsRoundTripAndDoNotDependOnThreads) {
  const CouplingResult one = run_coupling(small_options(), JobRunner(1)).value();
  const CouplingResult two = run_coupling(small_options(), JobRunner(2)).value();
  for (std::size_t k = 0; k < one.models.size(); ++k) {
    CouplingModelResult restored;
    from_grid_json(to_grid_json(one.models[k]), restored);
    EXPECT_EQ(to_grid_json(restored).dump(), to_grid_json(one.models[k]).dump());
    EXPECT_EQ(to_grid_json(two.models[k]).dump(), to_grid_json(one.models[k]).dump());
    EXPECT_EQ(restored.gibbs.mixing_time, one.models[k].gibbs.mixing_time);
  }
}

TEST(Coupling, OptionsNameWhatIsOutOfRange) {
  CouplingOptions options = small_options();
  options.family.sizes = {20};
  EXPECT_NE(testing::input_error_message([&] { options.validate(); }).find("--sizes"), std::string::npos);
  options = small_options();
  options.lag = 0;
  EXPECT_NE(testing::input_error_message([&] { options.validate(); }).find("lag"), std::string::npos);
  EXPECT_NE(testing::input_error_message([] { coupling_options(Scale::smoke, 1, {}, {"bas5x5"}); })
                .find("--settings: no setting 'bas5x5'"),
            std::string::npos);
  EXPECT_EQ(coupling_options(Scale::smoke, 1, {}, {"bas4x4"}).trained.settings.size(), 1u);
  EXPECT_EQ(coupling_options(Scale::paper, 1, {}).trained.settings.front().trials, 25);
}

}  // namespace
}  // namespace rbmix::experiments
