#include "rbmix/training/training_settings.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix {
namespace {

// The defaults are TrainingOptions' own where a setting is a field of it (training_settings_test checks each).
constexpr TrainingSetting setting_table[] = {
    {"hidden", "--hidden", SettingType::integer, "", true, "number of hidden units"},
    {"algorithm", "--algo", SettingType::text, "cd", false, "training algorithm"},
    {"operator", "--operator", SettingType::text, "gibbs", false, "the unit rule every sampling negative phase uses"},
    {"k", "--k", SettingType::integer, "1", false, "sweeps per negative phase"},
    {"replicas", "--replicas", SettingType::integer, "10", false, "parallel tempering replicas t (pt only)"},
    {"d", "--d", SettingType::integer, "1", false, "inner steps d (sdcp, csdcp only)"},
    {"k_inner", "--k-inner", SettingType::integer, "", false,
     "sweeps per inner step K' (sdcp, csdcp only; default: k)"},
    {"learning_rate", "--lr", SettingType::real, "0.01", false, "learning rate ε"},
    {"schedule", "--lr-schedule", SettingType::text, "constant", false,
     "learning-rate schedule: constant or linear (decays to 0 at the last update)"},
    {"fast_learning_rate", "--fast-lr", SettingType::real, "", false,
     "fast learning rate ε_F of FPCD (fpcd only, required there; 001 takes it larger than the learning rate)"},
    {"fast_decay", "--fast-decay", SettingType::real, "0.95", false,
     "decay α of the fast weights, in [0, 1) (fpcd only)"},
    {"batch", "--batch", SettingType::integer, "0", false,
     "mini-batch size B; 0 means full batch (every update uses all training rows)"},
    {"momentum", "--momentum", SettingType::real, "0", false, "momentum, in [0, 1)"},
    {"weight_decay", "--weight-decay", SettingType::real, "0", false, "L2 weight decay on W"},
    {"updates", "--updates", SettingType::integer, "1000", false, "parameter updates"},
    {"evaluate_every", "--eval-every", SettingType::integer, "100", false,
     "run the monitor every E updates, and at 0 and the end (0: never)"},
    {"monitor", "--monitor", SettingType::text, "auto", false,
     "what an evaluation measures: auto (exact log-likelihood while the smaller layer has at most 25 units, AIS "
     "otherwise), exact, ais, trajectory (log Z tracked along the training by particles that follow its path), "
     "proxies (pseudo-likelihood, reconstruction error, free-energy gap only) or classification; every kind but "
     "classification also records the proxies"},
    {"monitor_particles", "--monitor-particles", SettingType::integer, "16", false,
     "AIS monitor: particles per evaluation"},
    {"monitor_distributions", "--monitor-distributions", SettingType::integer, "1000", false,
     "AIS monitor: intermediate distributions per evaluation (linear schedule)"},
    {"monitor_rows", "--monitor-rows", SettingType::integer, "250", false,
     "rows of each set the proxies use (evenly spaced)"},
    {"trajectory_particles", "--trajectory-particles", SettingType::integer, "100", false,
     "trajectory monitor: particles that follow every update"},
    {"trajectory_groups", "--trajectory-groups", SettingType::integer, "10", false,
     "trajectory monitor: independent groups of particles, whose spread gives the band (divides the particles)"},
    {"resampling_threshold", "--resampling-threshold", SettingType::real, "0.3", false,
     "trajectory monitor: resample a group when its effective sample size falls below this share of its particles"},
    {"sweeps_per_update", "--sweeps-per-update", SettingType::integer, "1", false,
     "trajectory monitor: sweeps of the run's operator that move the particles after each annealing step"},
    {"trajectory_stride", "--trajectory-stride", SettingType::integer, "1000", false,
     "trajectory monitor: the particles anneal to the current model every S updates (and before each evaluation)"},
    {"trajectory_step_size", "--trajectory-step-size", SettingType::real, "0.1", false,
     "trajectory monitor: the particles anneal in linear steps of the parameters, as many as make each step change "
     "the training rows' free energies by a spread (standard deviation) of at most this many nats"},
    {"keep", "--keep", SettingType::text, "final", false,
     "final, or best: also keep the model of the evaluation with the best monitored training score (the CLI writes it "
     "to best-model.npz)"},
    {"rows", "--rows", SettingType::text, "", false, "train on rows [0, N) (N) or [A, B) (A:B) of the data only"},
    {"classes", "--classes", SettingType::integer, "", false,
     "label classes K of a classification RBM (default: 1 + the largest training label, when every class up to it "
     "occurs)"},
    {"resample_binarisation", "--resample-binarisation", SettingType::flag, "false", false,
     "the data are grey levels in [0, 1] (or |u1 intensities); every use of a row draws its binary version afresh "
     "(000 §4.1)"},
    {"checkpoint_every", "--checkpoint-every", SettingType::integer, "", false,
     "checkpoint every C updates (default: every evaluation)"},
    {"trajectory", "--trajectory", SettingType::integer, "", false,
     "keep K ≥ 2 models along training, with their update numbers, in one trajectory file (the CLI writes "
     "trajectory.rbtraj in --out; Python needs trajectory_file=PATH): the rungs of tempering along the trajectory"},
    {"trajectory_spacing", "--trajectory-spacing", SettingType::text, "geometric", false,
     "where the trajectory's models lie: geometric (evenly in log(1 + update): dense early, where the model changes "
     "fastest) or linear; the first and the last update always"},
    {"seed", "--seed", SettingType::integer, "1", false, "random seed"},
    {"float32", "--float", SettingType::flag, "false", false, "run the update in float (the parameters stay double)"},
    {"init", "--init", SettingType::text, "base-rate", false,
     "initial parameters: base-rate (W ~ N(0, 0.01²), b = logit of the data mean, c = 0), zero (b = 0) or normal:S "
     "(W, b and c ~ N(0, S²); 003 §4.2 takes S = 0.01)"},
};

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// The value of `setting` as given, or its default; parsed by its type, refused naming the setting otherwise.
class SettingReader {
 public:
  SettingReader(const GivenSettings& given, SettingSpelling spelling) : given_(given), spelling_(spelling) {}

  bool given(std::string_view name) const { return given_.find(name) != given_.end(); }

  std::string text(std::string_view name) const {
    const auto found = given_.find(name);
    return found != given_.end() ? found->second : std::string(training_setting(name).default_value);
  }

  std::int64_t integer(std::string_view name) const {
    const std::string value = text(name);
    std::int64_t parsed = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    require(error == std::errc() && end == value.data() + value.size() && !value.empty(),
            [&] { return name_of(name) + ": expected a whole number, got " + single_quoted(value); });
    return parsed;
  }

  int small_integer(std::string_view name) const {
    const std::int64_t value = integer(name);
    require(value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max(),
            [&] { return name_of(name) + ": " + std::to_string(value) + " is out of range"; });
    return static_cast<int>(value);
  }

  double real(std::string_view name) const {
    const std::string value = text(name);
    double parsed = 0.0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    require(error == std::errc() && end == value.data() + value.size() && !value.empty(),
            [&] { return name_of(name) + ": expected a number, got " + single_quoted(value); });
    require(std::isfinite(parsed), [&] { return name_of(name) + ": expected a finite number, got " + value; });
    return parsed;
  }

  bool flag(std::string_view name) const {
    const std::string value = text(name);
    require(value == "true" || value == "false",
            [&] { return name_of(name) + ": expected true or false, got " + single_quoted(value); });
    return value == "true";
  }

  std::string name_of(std::string_view name) const { return spelled(training_setting(name), spelling_); }

 private:
  const GivenSettings& given_;
  SettingSpelling spelling_;
};

// "--algo cd" or "algorithm='cd'": how a message names the chosen algorithm.
std::string algorithm_choice(Algorithm algorithm, SettingSpelling spelling) {
  return spelling == SettingSpelling::command_line ? "--algo " + to_string(algorithm)
                                                   : "algorithm='" + to_string(algorithm) + "'";
}

// Refuses a given setting that the algorithm ignores (training_options.hpp: algorithm_uses_option), and FPCD without
// its fast learning rate; the same rule and sentence as refuse_ignored_options, in either spelling.
void refuse_ignored_settings(Algorithm algorithm, const SettingReader& reader, SettingSpelling spelling) {
  for (const TrainingSetting& setting : setting_table) {
    if (!reader.given(setting.name) || algorithm_uses_option(algorithm, setting.option)) continue;
    std::string users;
    for (const AlgorithmDefinition& entry : algorithm_table())
      if (algorithm_uses_option(entry.algorithm, setting.option))
        users += (users.empty() ? "" : ", ") + std::string(entry.name);
    throw InputError(spelled(setting, spelling) + " applies to " + users + " only; " +
                     algorithm_choice(algorithm, spelling) + " would ignore it");
  }
  require(
      definition(algorithm).negative_phase != NegativePhaseKind::fast_persistent || reader.given("fast_learning_rate"),
      [&] {
        return reader.name_of("fast_learning_rate") +
               ": fpcd needs the fast learning rate ε_F (001 §2 takes it "
               "larger than " +
               reader.name_of("learning_rate") + ")";
      });
}

}  // namespace

std::span<const TrainingSetting> training_settings() { return setting_table; }

const TrainingSetting& training_setting(std::string_view name) {
  for (const TrainingSetting& setting : setting_table)
    if (setting.name == name || setting.option == name) return setting;
  std::string names;
  for (const TrainingSetting& setting : setting_table) names += (names.empty() ? "" : ", ") + std::string(setting.name);
  throw InputError("unknown training setting " + single_quoted(name) + " (expected one of " + names + ")");
}

std::string spelled(const TrainingSetting& setting, SettingSpelling spelling) {
  return std::string(spelling == SettingSpelling::command_line ? setting.option : setting.name);
}

TrainingRequest assemble_training_request(const GivenSettings& given, SettingSpelling spelling,
                                          const std::string& checkpoint_path, const std::string& trajectory_path) {
  for (const auto& [name, value] : given) training_setting(name);
  const SettingReader reader(given, spelling);
  TrainingRequest request;
  require(reader.given("hidden"), [&] { return reader.name_of("hidden") + " is required"; });
  request.hidden = reader.small_integer("hidden");
  require(request.hidden >= 1, [&] {
    return reader.name_of("hidden") + ": the number of hidden units must be at least 1, got " +
           std::to_string(request.hidden);
  });
  request.algorithm = parse_algorithm(reader.text("algorithm"));
  refuse_ignored_settings(request.algorithm, reader, spelling);

  TrainingOptions& options = request.options;
  options.sampling_steps = reader.small_integer("k");
  options.replicas = reader.small_integer("replicas");
  options.learning_rate = reader.real("learning_rate");
  options.fast_weight_decay = reader.real("fast_decay");
  options.batch_size = reader.small_integer("batch");
  options.momentum = reader.real("momentum");
  options.weight_decay = reader.real("weight_decay");
  options.updates = reader.integer("updates");
  options.evaluation_interval = reader.integer("evaluate_every");
  options.monitor.ais_particles = reader.small_integer("monitor_particles");
  options.monitor.ais_distributions = reader.small_integer("monitor_distributions");
  options.monitor.proxy_rows = reader.small_integer("monitor_rows");
  options.monitor.trajectory_particles = reader.small_integer("trajectory_particles");
  options.monitor.trajectory_groups = reader.small_integer("trajectory_groups");
  options.monitor.resampling_threshold = reader.real("resampling_threshold");
  options.monitor.sweeps_per_update = reader.small_integer("sweeps_per_update");
  options.monitor.trajectory_stride = reader.integer("trajectory_stride");
  options.monitor.trajectory_step_size = reader.real("trajectory_step_size");
  options.resample_binarisation = reader.flag("resample_binarisation");
  const std::int64_t seed = reader.integer("seed");
  require(seed >= 0,
          [&] { return reader.name_of("seed") + ": the seed must be non-negative, got " + reader.text("seed"); });
  options.seed = static_cast<std::uint64_t>(seed);
  options.sample_in_float = reader.flag("float32");

  // The order of the presets: the algorithm's, then the operator, K', the fast rate, the schedule, the monitor and
  // the initialisation, each overriding only what it names.
  apply_algorithm(options, request.algorithm, reader.small_integer("d"));
  options.rule = parse_unit_rule(reader.text("operator"));
  if (reader.given("k_inner")) {
    options.sampling_steps = reader.small_integer("k_inner");
    require(options.sampling_steps >= 1, [&] {
      return reader.name_of("k_inner") + ": the sweeps per inner step must be at least 1, got " +
             reader.text("k_inner");
    });
  }
  if (reader.given("fast_learning_rate")) options.fast_learning_rate = reader.real("fast_learning_rate");
  options.schedule = parse_learning_rate_schedule(reader.text("schedule"));
  options.monitor.kind = parse_monitor_kind(reader.text("monitor"));
  apply(parse_parameter_initialisation(reader.text("init")), options);

  const std::string kept = reader.text("keep");
  require(kept == "final" || kept == "best",
          [&] { return reader.name_of("keep") + ": expected final or best, got " + single_quoted(kept); });
  request.kept = kept == "best" ? KeptModel::best : KeptModel::final;
  request.rows = reader.text("rows");
  if (reader.given("classes")) {
    request.classes = reader.small_integer("classes");
    require(request.classes >= 2 && request.classes <= (1 << 16), [&] {
      return reader.name_of("classes") + ": a label group needs 2 to 65536 classes, got " + reader.text("classes");
    });
  }

  options.checkpoint_path = checkpoint_path;
  options.checkpoint_interval = reader.given("checkpoint_every") ? reader.integer("checkpoint_every") : 0;
  require(!reader.given("checkpoint_every") || !checkpoint_path.empty(), [&] {
    return reader.name_of("checkpoint_every") + " was given, but the run writes no checkpoint" +
           (spelling == SettingSpelling::python ? " (give checkpoint=PATH)" : "");
  });
  if (!checkpoint_path.empty() && options.checkpoint_interval <= 0)
    options.checkpoint_interval = options.evaluation_interval;
  options.trajectory_spacing = parse_trajectory_spacing(reader.text("trajectory_spacing"));
  if (reader.given("trajectory")) {
    require(!trajectory_path.empty(), [&] {
      return reader.name_of("trajectory") + " was given, but the run has no trajectory file" +
             (spelling == SettingSpelling::python ? " (give trajectory_file=PATH)" : "");
    });
    options.trajectory_path = trajectory_path;
    options.trajectory_models = reader.integer("trajectory");
    require(options.trajectory_models >= 2, [&] {
      return reader.name_of("trajectory") + ": a trajectory keeps at least 2 models (the first and the last), got " +
             reader.text("trajectory");
    });
  }
  options.validate();
  return request;
}

RowRange select_rows(const std::string& rows, Eigen::Index available, SettingSpelling spelling) {
  if (rows.empty()) return {0, available};
  const std::string name = spelled(training_setting("rows"), spelling) + " " + rows;
  const auto number = [&](const std::string& part) {
    require(!part.empty() && part.size() < 19 && part.find_first_not_of("0123456789") == std::string::npos,
            [&] { return name + ": expected N or A:B with whole numbers"; });
    return static_cast<Eigen::Index>(std::stoll(part));
  };
  const auto colon = rows.find(':');
  const Eigen::Index first = colon == std::string::npos ? 0 : number(rows.substr(0, colon));
  const Eigen::Index last = colon == std::string::npos ? number(rows) : number(rows.substr(colon + 1));
  require(first < last, [&] { return name + ": the range of rows is empty"; });
  require(last <= available, [&] { return name + ": the data have only " + std::to_string(available) + " rows"; });
  return {first, last};
}

int label_class_count(const std::vector<int>& labels, int classes, const std::string& labels_name,
                      SettingSpelling spelling) {
  if (classes > 0) return classes;
  const int largest = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
  const int smallest = labels.empty() ? 0 : *std::min_element(labels.begin(), labels.end());
  require(smallest >= 0, [&] { return labels_name + ": label " + std::to_string(smallest) + " is negative"; });
  std::vector<bool> used(static_cast<std::size_t>(largest) + 1, false);
  for (const int label : labels) used[static_cast<std::size_t>(label)] = true;
  const auto unused = std::find(used.begin(), used.end(), false);
  require(unused == used.end(), [&] {
    return labels_name + ": no label is class " + std::to_string(unused - used.begin()) + " though labels go up to " +
           std::to_string(largest) + "; state the number of classes with " +
           spelled(training_setting("classes"), spelling);
  });
  return std::max(largest + 1, 2);
}

TrainingRows arrange_training_rows(TrainingRequest& request, TrainingData data, SettingSpelling spelling) {
  const std::string labels_setting = spelling == SettingSpelling::command_line ? "--labels" : "labels";
  const std::string test_labels_setting = spelling == SettingSpelling::command_line ? "--test-labels" : "test_labels";
  const bool classification = data.labels.has_value();
  require(!data.test_labels || classification, [&] { return test_labels_setting + " needs " + labels_setting; });
  require(request.classes == 0 || classification,
          [&] { return spelled(training_setting("classes"), spelling) + " needs " + labels_setting; });
  require(!classification || data.test_labels.has_value() == (data.test.rows() > 0), [&] {
    return labels_setting + ": a classification run needs " + test_labels_setting + " exactly when it has a test set";
  });
  require(!classification || data.labels->size() == static_cast<std::size_t>(data.train.rows()), [&] {
    return data.labels_name + ": " + std::to_string(data.labels->size()) + " labels for the " +
           std::to_string(data.train.rows()) + " rows of " + data.train_name;
  });
  TrainingRows rows;
  rows.classification = classification;
  rows.selected = select_rows(request.rows, data.train.rows(), spelling);
  const auto [first, last] = rows.selected;
  rows.train = first == 0 && last == data.train.rows() ? std::move(data.train)
                                                       : MatrixD(data.train.middleRows(first, last - first));
  rows.test = std::move(data.test);
  if (!classification) return rows;
  // The classes from all the labels: a model's classes do not depend on which rows it trains on.
  request.options.label_classes = label_class_count(*data.labels, request.classes, data.labels_name, spelling);
  const std::vector<int> labels(data.labels->begin() + first, data.labels->begin() + last);
  request.options.validate();
  rows.train = append_one_hot_labels(rows.train, labels, request.options.label_classes, data.labels_name);
  if (data.test_labels)
    rows.test =
        append_one_hot_labels(rows.test, *data.test_labels, request.options.label_classes, data.test_labels_name);
  return rows;
}

std::string training_setting_help(const TrainingSetting& setting) {
  std::string help(setting.help);
  if (setting.name == "algorithm") help += ", one of\n" + algorithm_help();
  if (setting.name == "operator") help += ", one of\n" + unit_rule_help();
  return help;
}

std::string training_settings_help(SettingSpelling spelling) {
  std::string help;
  for (const TrainingSetting& setting : setting_table) {
    help += "  " + spelled(setting, spelling) + "  " + training_setting_help(setting);
    if (!setting.default_value.empty()) help += " (default " + std::string(setting.default_value) + ")";
    help += '\n';
  }
  return help;
}

}  // namespace rbmix
