#pragma once
// Pieces of `rbmix mixing` that the mixing experiments reuse: energy traces of independent chains started at
// random, and the integrated-autocorrelation-time estimates as a table and as JSON.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::cli {

struct EnergyTraceRequest {
  UnitRule rule = GibbsRule{};
  Eigen::Index steps = 10000;
  Eigen::Index chains = 1;
  Eigen::Index burn_in = 1000;
  std::uint64_t seed = 1;
  bool single_precision = false;
};

// Chains start with visible units uniform at random (each from its own stream), run burn_in sweeps, then record
// E(v, h) after each of `steps` sweeps: steps × chains.
MatrixD sample_energy_traces(const Rbm& rbm, const EnergyTraceRequest& request);

nlohmann::json to_json(const analysis::IntegratedTimeEstimate& estimate);
Table integrated_time_table(const std::vector<analysis::IntegratedTimeEstimate>& estimates);

// The lags worth showing: 0 .. min(N − 1, max(100, 3 × the largest cutoff)).
Eigen::Index autocorrelation_lags_to_report(const std::vector<analysis::IntegratedTimeEstimate>& estimates,
                                            Eigen::Index steps);

}  // namespace rbmix::cli
