#pragma once
// TrainingSettings: every training setting a front-end can give, in one table: its Python keyword, its command-line
// option, its type, its default, its help and (through the algorithm table) the algorithms that use it. `rbmix train`
// declares its options from this table and Python's `rbmix.train` its keyword arguments, and both turn what the user
// gave into TrainingOptions by one routine, assemble_training_request: the same presets, in the same order, the same
// refusals with the same message (each spelled in the front-end's own names), the same defaults.
// What is not a training setting stays with the front-end: where the rows come from (files or arrays), the output,
// --resume and the progress line.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix {

enum class SettingType { flag, integer, real, text };

// One row of the table.
struct TrainingSetting {
  std::string_view name;    // Python's keyword argument (snake_case): "learning_rate"
  std::string_view option;  // the command-line option: "--lr"
  SettingType type;
  std::string_view default_value;  // as text, what the option means when not given; empty: required or none
  bool required;
  std::string_view help;
};

// Every setting, in the order help lists them.
std::span<const TrainingSetting> training_settings();
// The row with Python name or command-line option `name`; throws InputError for an unknown name, suggesting the
// known names.
const TrainingSetting& training_setting(std::string_view name);

// How messages spell a setting: "--replicas" on the command line, "replicas" in Python.
enum class SettingSpelling { command_line, python };
std::string spelled(const TrainingSetting& setting, SettingSpelling spelling);

// What a front-end was given: Python name → value as text (a flag "true" or "false"). A setting not given takes its
// default.
using GivenSettings = std::map<std::string, std::string, std::less<>>;

// How a run picks the model it returns: the final one, or also the one of the best monitored evaluation.
enum class KeptModel { final, best };

// Everything that defines a run besides its rows: the algorithm, the validated options and the settings that act on
// the rows or on what is kept.
struct TrainingRequest {
  Algorithm algorithm = Algorithm::cd;
  TrainingOptions options;  // validated; label_classes is set from the labels by set_label_classes
  int hidden = 0;
  int classes = 0;  // the classes setting; 0: from the labels
  KeptModel kept = KeptModel::final;
  std::string rows;  // the rows setting as given ("" = all rows)
};

// The one routine from given settings to options: refuses unknown names, values of the wrong type, settings the
// algorithm would ignore (and FPCD without its fast rate), then applies the algorithm's preset, the operator, K', the
// schedule, the monitor and the initialisation in that order, and validates. checkpoint_path (empty: none) is where
// the run writes checkpoints; a checkpoint interval without it is refused. trajectory_path (empty: none) is where the
// run keeps its trajectory when the trajectory setting asks for one; that setting without it is refused.
TrainingRequest assemble_training_request(const GivenSettings& given, SettingSpelling spelling,
                                          const std::string& checkpoint_path = {},
                                          const std::string& trajectory_path = {});

// The rows [first, last) that the rows setting selects from `available` rows: "N" (the first N) or "A:B".
struct RowRange {
  Eigen::Index first = 0;
  Eigen::Index last = 0;
};
RowRange select_rows(const std::string& rows, Eigen::Index available, SettingSpelling spelling);

// The number of label classes: `classes` when given (> 0), else one more than the largest label (at least 2) when
// the labels use every class up to it. A class no label uses needs the classes setting: a label of 200 among 0 … 3
// is far likelier a bad label than a 201-class task. `labels_name` names the labels in messages.
int label_class_count(const std::vector<int>& labels, int classes, const std::string& labels_name,
                      SettingSpelling spelling);

// What a run trains and tests on, as the front-end read it: the rows, and for a classification RBM (000 §4.2) the
// labels; the names say how messages refer to each ("--labels FILE", "labels").
struct TrainingData {
  MatrixD train;
  MatrixD test;  // no rows: none
  std::optional<std::vector<int>> labels;
  std::optional<std::vector<int>> test_labels;
  std::string train_name = "data";
  std::string labels_name = "labels";
  std::string test_labels_name = "test_labels";
};

// The rows a run trains and tests on: the rows setting applied, and with labels their one-hot label groups.
struct TrainingRows {
  MatrixD train;
  MatrixD test;
  RowRange selected;  // of the training rows as read
  bool classification = false;
};

// Applies the rows setting and, with labels, checks their pairing with the rows, sets options.label_classes
// (label_class_count) and appends the one-hot label groups; the same rule for every front-end.
TrainingRows arrange_training_rows(TrainingRequest& request, TrainingData data, SettingSpelling spelling);

// The help of one setting; the algorithm's and the operator's list their choices, one per line.
std::string training_setting_help(const TrainingSetting& setting);
// The help of every setting, one per line, in the front-end's spelling ("  --lr  learning rate ε (default 0.01)").
std::string training_settings_help(SettingSpelling spelling);

}  // namespace rbmix
