#include "rbmix/experiments/experiment_list.hpp"

#include <algorithm>

#include "rbmix/core/error.hpp"
#include "rbmix/experiments/ais_check_experiment.hpp"
#include "rbmix/experiments/autocorr_experiment.hpp"
#include "rbmix/experiments/class_changes_experiment.hpp"
#include "rbmix/experiments/coupling_experiment.hpp"
#include "rbmix/experiments/dcp_small_experiment.hpp"
#include "rbmix/experiments/estimator_calibration_experiment.hpp"
#include "rbmix/experiments/flip_training_experiment.hpp"
#include "rbmix/experiments/modified_sweep_experiment.hpp"
#include "rbmix/experiments/pcd_study_experiment.hpp"
#include "rbmix/experiments/samplers_experiment.hpp"
#include "rbmix/experiments/slem_sweep_experiment.hpp"

namespace rbmix::experiments {

const std::vector<ExperimentEntry>& experiment_list() {
  static const std::vector<ExperimentEntry> list = [] {
    std::vector<ExperimentEntry> entries{
        make_experiment_entry<AisCheck>(),
        make_experiment_entry<Autocorr>(),
        make_experiment_entry<ClassChanges>(),
        make_experiment_entry<Coupling>(),
        make_experiment_entry<DcpSmall>(),
        make_experiment_entry<EstimatorCalibration>(),
        make_experiment_entry<FlipTraining>(),
        make_experiment_entry<ModifiedSweep>(),
        make_experiment_entry<PcdStudy>(),
        make_experiment_entry<Samplers>(),
        make_experiment_entry<SlemSweep>(),
    };
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return entries;
  }();
  return list;
}

const ExperimentEntry& find_experiment(std::string_view name) {
  std::string names;
  for (const ExperimentEntry& entry : experiment_list()) {
    if (entry.name == name) return entry;
    names += (names.empty() ? "" : ", ") + entry.name;
  }
  throw InputError("no experiment '" + std::string(name) + "'; the experiments are " + names);
}

}  // namespace rbmix::experiments
