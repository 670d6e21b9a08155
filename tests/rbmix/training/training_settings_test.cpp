#include "rbmix/training/training_settings.hpp"

#include <gtest/gtest.h>

#include <set>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

// The message of the InputError that assembling `given` throws, or "" when it is accepted.
std::string refusal(const GivenSettings& given, SettingSpelling spelling = SettingSpelling::command_line,
                    const std::string& checkpoint = {}) {
  try {
    assemble_training_request(given, spelling, checkpoint);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

GivenSettings with_hidden(GivenSettings given) {
  given.emplace("hidden", "4");
  return given;
}

TEST(TrainingSettings, NamesAndOptionsAreUnique) {
  std::set<std::string_view> names, options;
  for (const TrainingSetting& setting : training_settings()) {
    EXPECT_TRUE(names.insert(setting.name).second) << setting.name;
    EXPECT_TRUE(options.insert(setting.option).second) << setting.option;
    EXPECT_EQ(setting.option.substr(0, 2), "--");
    EXPECT_FALSE(setting.help.empty()) << setting.name;
    EXPECT_EQ(&training_setting(setting.name), &training_setting(setting.option));
  }
}

// The table's defaults are TrainingOptions' own: a run given nothing but its size trains with the default options.
TEST(TrainingSettings, DefaultsAreTrainingOptionsDefaults) {
  const TrainingRequest request = assemble_training_request(with_hidden({}), SettingSpelling::python);
  EXPECT_EQ(to_json(request.options), to_json(TrainingOptions{}));
  EXPECT_EQ(request.algorithm, Algorithm::cd);
  EXPECT_EQ(request.kept, KeptModel::final);
  EXPECT_EQ(request.hidden, 4);
}

// Each setting given its default text gives the same options as when it is not given (the algorithm-specific ones
// with an algorithm that uses them).
TEST(TrainingSettings, EachDefaultTextMeansTheDefault) {
  for (const TrainingSetting& setting : training_settings()) {
    if (setting.default_value.empty()) continue;
    GivenSettings base = with_hidden({});
    for (const AlgorithmDefinition& entry : algorithm_table())
      if (algorithm_uses_option(entry.algorithm, setting.option)) {
        base["algorithm"] = std::string(entry.name);
        if (entry.algorithm == Algorithm::fpcd) base["fast_learning_rate"] = "0.1";
        break;
      }
    GivenSettings given = base;
    given[std::string(setting.name)] = std::string(setting.default_value);
    EXPECT_EQ(to_json(assemble_training_request(given, SettingSpelling::python).options),
              to_json(assemble_training_request(base, SettingSpelling::python).options))
        << setting.name;
  }
}

TEST(TrainingSettings, RefusesWhatTheAlgorithmWouldIgnoreInEitherSpelling) {
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "cd"}, {"replicas", "5"}})),
            "--replicas applies to pt only; --algo cd would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "cd"}, {"replicas", "5"}}), SettingSpelling::python),
            "replicas applies to pt only; algorithm='cd' would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "pcd"}, {"fast_learning_rate", "0.1"}}), SettingSpelling::python),
            "fast_learning_rate applies to fpcd only; algorithm='pcd' would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "pcd"}, {"fast_decay", "0.9"}}), SettingSpelling::python),
            "fast_decay applies to fpcd only; algorithm='pcd' would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "pcd"}, {"d", "3"}}), SettingSpelling::python),
            "d applies to sdcp, csdcp only; algorithm='pcd' would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"k_inner", "3"}})),
            "--k-inner applies to sdcp, csdcp only; --algo cd would ignore it");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "exact"}, {"operator", "flip"}})),
            "--operator applies to cd, pcd, fpcd, pt, cg, sdcp, csdcp only; --algo exact would ignore it");
  EXPECT_NE(refusal(with_hidden({{"algorithm", "fpcd"}}), SettingSpelling::python)
                .find("fast_learning_rate: fpcd needs the fast learning rate"),
            std::string::npos);
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "fpcd"}, {"fast_learning_rate", "0.1"}})), "");
}

TEST(TrainingSettings, ValuesOfTheWrongTypeAreNamed) {
  EXPECT_EQ(refusal(with_hidden({{"k", "two"}})), "--k: expected a whole number, got 'two'");
  EXPECT_EQ(refusal(with_hidden({{"k", "2.0"}}), SettingSpelling::python), "k: expected a whole number, got '2.0'");
  EXPECT_EQ(refusal(with_hidden({{"learning_rate", "fast"}})), "--lr: expected a number, got 'fast'");
  EXPECT_EQ(refusal(with_hidden({{"learning_rate", "nan"}}), SettingSpelling::python),
            "learning_rate: expected a finite number, got nan");
  EXPECT_EQ(refusal(with_hidden({{"float32", "yes"}}), SettingSpelling::python),
            "float32: expected true or false, got 'yes'");
  EXPECT_EQ(refusal(with_hidden({{"keep", "all"}})), "--keep: expected final or best, got 'all'");
  EXPECT_EQ(refusal(with_hidden({{"seed", "-1"}})), "--seed: the seed must be non-negative, got -1");
  EXPECT_NE(refusal(with_hidden({{"lr", "0.1"}})).find("expected one of hidden, algorithm"), std::string::npos);
  EXPECT_EQ(refusal({}, SettingSpelling::python), "hidden is required");
  EXPECT_EQ(refusal({{"hidden", "0"}}), "--hidden: the number of hidden units must be at least 1, got 0");
  EXPECT_EQ(refusal(with_hidden({{"classes", "1"}})), "--classes: a label group needs 2 to 65536 classes, got 1");
  EXPECT_EQ(refusal(with_hidden({{"algorithm", "sdcp"}, {"k_inner", "0"}}), SettingSpelling::python),
            "k_inner: the sweeps per inner step must be at least 1, got 0");
  // The options' own checks still run (training_options.hpp).
  EXPECT_NE(refusal(with_hidden({{"momentum", "1.5"}})).find("momentum must lie in [0, 1)"), std::string::npos);
}

TEST(TrainingSettings, PresetsApplyInTheOrderOfTheCommandLine) {
  const TrainingRequest request = assemble_training_request(with_hidden({{"algorithm", "csdcp"},
                                                                         {"d", "3"},
                                                                         {"k", "2"},
                                                                         {"k_inner", "5"},
                                                                         {"operator", "flip"},
                                                                         {"schedule", "linear"},
                                                                         {"init", "zero"},
                                                                         {"monitor", "proxies"},
                                                                         {"keep", "best"}}),
                                                            SettingSpelling::python);
  const TrainingOptions& options = request.options;
  EXPECT_TRUE(options.centered);
  EXPECT_TRUE(options.difference_of_convex);
  EXPECT_EQ(options.inner_steps, 3);
  EXPECT_EQ(options.sampling_steps, 5);  // K' overrides k
  EXPECT_EQ(to_string(options.rule), "flip");
  EXPECT_EQ(options.schedule, LearningRateSchedule::linear_decay);
  EXPECT_FALSE(options.base_rate_visible_bias);
  EXPECT_EQ(options.monitor.kind, MonitorKind::proxies);
  EXPECT_EQ(request.kept, KeptModel::best);
}

TEST(TrainingSettings, CheckpointsEveryEvaluationUnlessToldAndOnlyWithAPath) {
  EXPECT_EQ(refusal(with_hidden({{"checkpoint_every", "10"}}), SettingSpelling::python),
            "checkpoint_every was given, but the run writes no checkpoint (give checkpoint=PATH)");
  const TrainingRequest request =
      assemble_training_request(with_hidden({{"evaluate_every", "25"}}), SettingSpelling::python, "run.ckpt");
  EXPECT_EQ(request.options.checkpoint_interval, 25);
  EXPECT_EQ(request.options.checkpoint_path, "run.ckpt");
  EXPECT_EQ(assemble_training_request(with_hidden({{"checkpoint_every", "7"}}), SettingSpelling::python, "run.ckpt")
                .options.checkpoint_interval,
            7);
  EXPECT_EQ(assemble_training_request(with_hidden({}), SettingSpelling::python).options.checkpoint_interval, 0);
}

TEST(TrainingSettings, RowsSelectAPrefixOrARange) {
  EXPECT_EQ(select_rows("", 10, SettingSpelling::python).last, 10);
  EXPECT_EQ(select_rows("4", 10, SettingSpelling::python).last, 4);
  const RowRange range = select_rows("2:7", 10, SettingSpelling::python);
  EXPECT_EQ(range.first, 2);
  EXPECT_EQ(range.last, 7);
  EXPECT_THROW(select_rows("7:2", 10, SettingSpelling::python), InputError);
  EXPECT_THROW(select_rows("a:3", 10, SettingSpelling::python), InputError);
  EXPECT_THROW(select_rows("-1", 10, SettingSpelling::python), InputError);
  try {
    select_rows("11", 10, SettingSpelling::command_line);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "--rows 11: the data have only 10 rows");
  }
}

TEST(TrainingSettings, ClassCountFromTheLabelsOnlyWhenEveryClassOccurs) {
  EXPECT_EQ(label_class_count({0, 2, 1, 2}, 0, "labels", SettingSpelling::python), 3);
  EXPECT_EQ(label_class_count({0, 0}, 0, "labels", SettingSpelling::python), 2);
  EXPECT_EQ(label_class_count({0, 1}, 5, "labels", SettingSpelling::python), 5);
  try {
    label_class_count({0, 3}, 0, "labels", SettingSpelling::python);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "labels: no label is class 1 though labels go up to 3; state the number of classes with classes");
  }
  EXPECT_THROW(label_class_count({0, -1}, 0, "labels", SettingSpelling::python), InputError);
}

TEST(TrainingSettings, ArrangedRowsCarryTheirLabelGroupsAndTheSelection) {
  TrainingRequest request = assemble_training_request(with_hidden({{"rows", "1:3"}}), SettingSpelling::python);
  TrainingData data;
  data.train = MatrixD::Zero(4, 2);
  data.train(1, 0) = 1.0;
  data.labels = std::vector<int>{0, 1, 2, 1};
  const TrainingRows rows = arrange_training_rows(request, data, SettingSpelling::python);
  EXPECT_EQ(request.options.label_classes, 3);  // 1 + the largest label of all rows: classes never depend on rows
  ASSERT_EQ(rows.train.rows(), 2);
  ASSERT_EQ(rows.train.cols(), 5);
  EXPECT_EQ(rows.train(0, 0), 1.0);
  EXPECT_EQ(rows.train(0, 2 + 1), 1.0);  // row 1's label 1
  EXPECT_EQ(rows.train(1, 2 + 2), 1.0);  // row 2's label 2

  TrainingRequest plain = assemble_training_request(with_hidden({{"classes", "3"}}), SettingSpelling::python);
  TrainingData unlabelled;
  unlabelled.train = MatrixD::Zero(4, 2);
  EXPECT_THROW(arrange_training_rows(plain, unlabelled, SettingSpelling::python), InputError);  // classes, no labels
  TrainingData short_labels = data;
  short_labels.labels = std::vector<int>{0, 1};
  TrainingRequest all_rows = assemble_training_request(with_hidden({}), SettingSpelling::python);
  try {
    arrange_training_rows(all_rows, short_labels, SettingSpelling::python);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "labels: 2 labels for the 4 rows of data");
  }
  TrainingData test_without_labels = data;
  test_without_labels.test = MatrixD::Zero(2, 2);
  EXPECT_THROW(arrange_training_rows(all_rows, test_without_labels, SettingSpelling::python), InputError);
}

}  // namespace
}  // namespace rbmix
