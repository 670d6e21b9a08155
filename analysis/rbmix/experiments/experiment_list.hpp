#pragma once
// The experiments every front-end offers, one line each in experiment_list.cpp: `rbmix experiment <name>` and
// Python's rbmix.run_experiment are made from this list, so a new experiment appears in both with its help.
#include <string_view>
#include <vector>

#include "rbmix/experiments/experiment.hpp"

namespace rbmix::experiments {

// In name order.
const std::vector<ExperimentEntry>& experiment_list();
// Throws InputError naming the experiments there are when `name` is none of them.
const ExperimentEntry& find_experiment(std::string_view name);

}  // namespace rbmix::experiments
