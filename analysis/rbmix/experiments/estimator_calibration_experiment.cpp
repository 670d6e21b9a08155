#include "rbmix/experiments/estimator_calibration_experiment.hpp"

#include <string>
#include <vector>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::experiments {

void EstimatorCalibrationOptions::validate() const {
  require(!operators.empty(), "estimator-calibration: at least one operator");
  for (const std::string& name : operators) analysis::parse_operator_specification(name);  // throws on a bad name
  for (const int size : sizes)
    require(size >= 1 && 2 * size <= analysis::max_dense_analysis_units,
            "estimator-calibration: random RBM sizes must be 1.." +
                std::to_string(analysis::max_dense_analysis_units / 2) + " (exact analysis), got " +
                std::to_string(size));
  for (const int bound : weight_bounds) require(bound >= 1, "estimator-calibration: weight bounds must be ≥ 1");
  require(random_rbms_per_setting >= 0 && trained_rbms >= 0 && modes_rbms >= 0,
          "estimator-calibration: RBM counts must be ≥ 0");
  require(random_rbms_per_setting * static_cast<int>(sizes.size() * weight_bounds.size()) +
                  trained_rbms * static_cast<int>(trained_hidden.size()) + modes_rbms >
              0,
          "estimator-calibration: the population is empty");
  for (const auto* sizes_of : {&trained_hidden, &held_out_trained_hidden})
    for (const Eigen::Index hidden : *sizes_of)
      require(hidden >= 1 && hidden <= 12,
              "estimator-calibration: trained hidden units must be 1..12 (9 + 12 units is the exact analysis' limit)");
  require(modes_hidden >= 1 && modes_hidden <= 4,
          "estimator-calibration: Modes hidden units must be 1..4 (16 + 4 units is the exact analysis' limit here)");
  require(training_updates >= 1, "estimator-calibration: training updates must be ≥ 1");
  require(!configurations.empty(), "estimator-calibration: at least one chain configuration");
  for (const ChainConfiguration& configuration : configurations) {
    require(configuration.chains >= 1 && configuration.steps >= 16,
            "estimator-calibration: a configuration needs ≥ 1 chain of ≥ 16 steps");
    require(configuration.superchains == 0 ||
                (configuration.superchains >= 2 && configuration.chains % configuration.superchains == 0),
            "estimator-calibration: " + to_string(configuration) +
                ": superchains must be 0 or at least 2 and divide the chains");
  }
  require(horizon_in_slowest_times > 0.0 && std::isfinite(horizon_in_slowest_times),
          "estimator-calibration: the horizon in slowest relaxation times must be positive");
  require(replicates >= 1, "estimator-calibration: replicates must be ≥ 1");
  require(burn_in >= 0, "estimator-calibration: burn-in must be ≥ 0");
  rule.validate();
}

EstimatorCalibrationOptions estimator_calibration_options(Scale scale, std::uint64_t seed) {
  EstimatorCalibrationOptions options;
  options.seed = seed;
  if (scale == Scale::smoke) {
    options.sizes = {3};
    options.weight_bounds = {1, 4};
    options.random_rbms_per_setting = 1;
    options.trained_rbms = 1;
    options.trained_hidden = {4};
    options.held_out_trained_hidden = {3};
    options.modes_rbms = 0;
    options.training_updates = 200;
    options.operators = {"gibbs", "flip"};
    options.configurations = {{4, 1000}, {4, 4000}, {32, 200, 4}};
    options.replicates = 2;
  } else {
    options.configurations.insert(options.configurations.begin() + 3, {64, 20000});
  }
  return options;
}

std::string to_string(const ChainConfiguration& configuration) {
  return std::to_string(configuration.chains) + "x" + std::to_string(configuration.steps) +
         (configuration.superchains > 0 ? "/" + std::to_string(configuration.superchains) : "");
}

nlohmann::json to_json(const EstimatorCalibrationOptions& options) {
  nlohmann::json configurations = nlohmann::json::array();
  for (const ChainConfiguration& configuration : options.configurations)
    configurations.push_back({{"chains", configuration.chains},
                              {"steps", configuration.steps},
                              {"superchains", configuration.superchains}});
  return {{"sizes", options.sizes},
          {"weight_bounds", options.weight_bounds},
          {"random_rbms_per_setting", options.random_rbms_per_setting},
          {"trained_rbms", options.trained_rbms},
          {"trained_data", "bars_and_stripes 3x3"},
          {"trained_hidden", options.trained_hidden},
          {"modes_rbms", options.modes_rbms},
          {"modes_data", "artificial_modes 4x4, p_mut 0.01, 1000 rows"},
          {"modes_hidden", options.modes_hidden},
          {"training", "CD-5 with G (even index) or T (odd), learning rate 0.1, full batch"},
          {"training_updates", options.training_updates},
          {"horizon_in_slowest_times", options.horizon_in_slowest_times},
          {"long_batch_in_cutoffs", analysis::long_batch_in_cutoffs},
          {"operators", options.operators},
          {"configurations", configurations},
          {"replicates", options.replicates},
          {"held_out", options.held_out},
          {"held_out_trained_hidden", options.held_out_trained_hidden},
          {"burn_in", options.burn_in},
          {"start", "visible units uniform at random"},
          {"trust_rule",
           {{"max_potential_scale_reduction", options.rule.max_potential_scale_reduction},
            {"min_length_in_times", options.rule.min_length_in_times},
            {"max_relative_half_width", options.rule.max_relative_half_width},
            {"max_disagreement", options.rule.max_disagreement},
            {"min_batch_in_times", options.rule.min_batch_in_times}}},
          {"seed", options.seed}};
}

std::vector<ExperimentOption> EstimatorCalibration::own_options() {
  return {{"--replicates", "independent trace sets per (model, operator, chains x steps) (default: paper 4, smoke 2)"},
          {"--configurations",
           "chain configurations CHAINSxSTEPS[/SUPERCHAINS], comma-separated, e.g. 16x5000,256x500/16 (default: the scale's)"},
          {"--operators",
           "operators to run comma-separated (default: gibbs,flip,mix:0.5,unit-modified:0.5; smoke gibbs,flip)"},
          {"--random-rbms", "random RBMs per (m = n, c) (default: paper 2, smoke 1)"},
          {"--modes-rbms", "Artificial Modes RBMs (default: paper 2, smoke 0)"}};
}

namespace {

// "CHAINSxSTEPS" or "CHAINSxSTEPS/SUPERCHAINS", positive integers.
ChainConfiguration parse_configuration(const std::string& text) {
  const std::string form = "--configurations: '" + text + "' is not CHAINSxSTEPS or CHAINSxSTEPS/SUPERCHAINS (e.g. 16x5000, 256x500/16)";
  const std::size_t cross = text.find('x');
  const std::size_t slash = text.find('/');
  const auto positive = [&](const std::string& digits) {
    require(!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 10,
            form);
    return static_cast<Eigen::Index>(std::stoll(digits));
  };
  require(cross != std::string::npos && (slash == std::string::npos || slash > cross), form);
  ChainConfiguration configuration{positive(text.substr(0, cross)),
                                   positive(text.substr(cross + 1, slash == std::string::npos ? std::string::npos
                                                                                              : slash - cross - 1))};
  if (slash != std::string::npos) configuration.superchains = positive(text.substr(slash + 1));
  return configuration;
}

}  // namespace

EstimatorCalibrationOptions EstimatorCalibration::make_options(const ExperimentInputs& inputs) {
  EstimatorCalibrationOptions options = estimator_calibration_options(inputs.scale, inputs.seed);
  if (const auto replicates = inputs.integer("--replicates", 1)) options.replicates = static_cast<int>(*replicates);
  if (const auto configurations = inputs.words("--configurations")) {
    options.configurations.clear();
    for (const std::string& text : *configurations) options.configurations.push_back(parse_configuration(text));
  }
  if (const auto operators = inputs.words("--operators")) options.operators = *operators;
  if (const auto random_rbms = inputs.integer("--random-rbms", 0))
    options.random_rbms_per_setting = static_cast<int>(*random_rbms);
  if (const auto modes_rbms = inputs.integer("--modes-rbms", 0)) options.modes_rbms = static_cast<int>(*modes_rbms);
  options.validate();
  return options;
}

nlohmann::json EstimatorCalibration::configuration(const EstimatorCalibrationOptions& options) {
  return to_json(options);
}

OrPartDone<EstimatorCalibrationResult> EstimatorCalibration::run(const EstimatorCalibrationOptions& options,
                                                                 const JobRunner& runner, std::ostream& log) {
  log << "estimator-calibration: every τ estimator against the exact τ of tiny RBMs\n";
  return run_estimator_calibration(options, runner);
}

}  // namespace rbmix::experiments
