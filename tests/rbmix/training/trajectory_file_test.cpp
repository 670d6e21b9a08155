#include "rbmix/training/trajectory_file.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/training/trainer.hpp"
#include "support/input_error_message.hpp"
#include "support/temporary_directory.hpp"
#include "test_models.hpp"

namespace rbmix {
namespace {

using testing::TemporaryDirectory;

void expect_identical(const Rbm& a, const Rbm& b) {
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.visible_bias, b.visible_bias);
  EXPECT_EQ(a.hidden_bias, b.hidden_bias);
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

VectorD half_means(Eigen::Index n_visible) { return VectorD::Constant(n_visible, 0.5); }

// A file of three 5 × 3 models at updates 0, 4 and 9.
std::filesystem::path three_models(const TemporaryDirectory& directory) {
  const auto file = directory / "three.rbtraj";
  TrajectoryWriter writer = TrajectoryWriter::open(file, 5, 3, R"({"run":1})", half_means(5));
  for (const std::int64_t update : {0, 4, 9})
    writer.append(update, testing::random_rbm(5, 3, 1.0, static_cast<std::uint64_t>(update) + 1));
  return file;
}

// The offset of record `index` (0 = the header) in a trajectory file's bytes: every record is framed as
// byte count · payload · CRC-32.
std::size_t record_offset(const std::string& bytes, std::size_t index) {
  std::size_t position = 0;
  for (std::size_t k = 0; k < index; ++k) {
    std::uint64_t size = 0;
    std::memcpy(&size, bytes.data() + position, sizeof size);
    position += 2 * sizeof size + size;
  }
  return position;
}

TEST(TrajectoryFile, ReadsBackEveryModelBitForBit) {
  const TemporaryDirectory directory;
  const Trajectory read = read_trajectory(three_models(directory));
  EXPECT_EQ(read.n_visible, 5);
  EXPECT_EQ(read.n_hidden, 3);
  EXPECT_EQ(read.configuration, R"({"run":1})");
  EXPECT_EQ(read.data_visible_means, half_means(5));
  ASSERT_EQ(read.models.size(), 3U);
  const std::int64_t updates[] = {0, 4, 9};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(read.models[k].update, updates[k]);
    expect_identical(read.models[k].parameters,
                     testing::random_rbm(5, 3, 1.0, static_cast<std::uint64_t>(updates[k]) + 1));
  }
}

TEST(TrajectoryFile, TheIndependentModelHasNoCouplingsAndTheDataMeansAsItsMarginals) {
  const TemporaryDirectory directory;
  const auto file = directory / "means.rbtraj";
  VectorD means(3);
  means << 0.25, 0.0, 1.0;
  TrajectoryWriter::open(file, 3, 2, "{}", means).append(0, testing::random_rbm(3, 2, 1.0, 3));
  const Rbm independent = read_trajectory(file).independent_model();
  EXPECT_TRUE(independent.weights.isZero());
  EXPECT_NEAR(independent.visible_bias[0], std::log(0.25 / 0.75), 1e-15);
  // 0 and 1 are clipped as the base-rate initialisation clips them, so every rung-0 state has positive probability.
  EXPECT_NEAR(independent.visible_bias[1], std::log(base_rate_clip / (1 - base_rate_clip)), 1e-12);
  EXPECT_NEAR(independent.visible_bias[2], -std::log(base_rate_clip / (1 - base_rate_clip)), 1e-12);
  EXPECT_EQ(independent.hidden_bias, testing::random_rbm(3, 2, 1.0, 3).hidden_bias);
}

TEST(TrajectoryFile, AFlippedBitIsFoundAndItsRecordNamed) {
  const TemporaryDirectory directory;
  const auto file = three_models(directory);
  const std::string bytes = read_file_bytes(file);
  std::string damaged = bytes;
  damaged[record_offset(bytes, 2) + 40] ^= 0x10;  // inside the second model's payload
  write_output_file(file, damaged);
  const std::string message = error_of([&] { read_trajectory(file); });
  EXPECT_NE(message.find("record 2 is damaged"), std::string::npos) << message;
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;

  damaged = bytes;
  damaged[20] ^= 0x01;  // inside the header
  write_output_file(file, damaged);
  EXPECT_NE(error_of([&] { read_trajectory(file); }).find("the header is damaged"), std::string::npos);
}

TEST(TrajectoryFile, ACutFileIsRefusedNamingTheRecord) {
  const TemporaryDirectory directory;
  const auto file = three_models(directory);
  const std::string bytes = read_file_bytes(file);
  write_output_file(file, bytes.substr(0, bytes.size() - 5));
  const std::string message = error_of([&] { read_trajectory(file); });
  EXPECT_NE(message.find("record 3 is cut short"), std::string::npos) << message;
  write_output_file(file, bytes.substr(0, 12));
  EXPECT_NE(error_of([&] { read_trajectory(file); }).find("not an rbmix trajectory file"), std::string::npos);
}

TEST(TrajectoryFile, UpdatesThatDoNotIncreaseAreRefused) {
  const TemporaryDirectory directory;
  const auto file = three_models(directory);
  const std::string bytes = read_file_bytes(file);
  // Records 2 and 3 swapped: updates 0, 9, 4.
  const std::size_t second = record_offset(bytes, 2);
  const std::size_t third = record_offset(bytes, 3);
  const std::string swapped =
      bytes.substr(0, second) + bytes.substr(third) + bytes.substr(second, third - second);
  write_output_file(file, swapped);
  const std::string message = error_of([&] { read_trajectory(file); });
  EXPECT_NE(message.find("record 3 has update 4, not after the previous record's 9"), std::string::npos) << message;
}

TEST(TrajectoryFile, AModelOfAnotherShapeIsRefused) {
  const TemporaryDirectory directory;
  const auto file = three_models(directory);
  const auto other = directory / "other.rbtraj";
  TrajectoryWriter::open(other, 5, 4, "{}", half_means(5)).append(12, testing::random_rbm(5, 4, 1.0, 2));
  const std::string other_bytes = read_file_bytes(other);
  write_output_file(file, read_file_bytes(file) + other_bytes.substr(record_offset(other_bytes, 1)));
  const std::string message = error_of([&] { read_trajectory(file); });
  EXPECT_NE(message.find("record 4 (update 12) W"), std::string::npos) << message;
}

TEST(TrajectoryFile, TheWriterRefusesAnUpdateThatDoesNotFollow) {
  const TemporaryDirectory directory;
  TrajectoryWriter writer = TrajectoryWriter::open(directory / "t.rbtraj", 5, 3, "{}", half_means(5));
  writer.append(3, testing::random_rbm(5, 3, 1.0, 1));
  EXPECT_THROW(writer.append(3, testing::random_rbm(5, 3, 1.0, 1)), InputError);
  EXPECT_THROW(writer.append(4, testing::random_rbm(5, 2, 1.0, 1)), InputError);
}

// The schedule keeps the first and the last update, increases strictly and keeps at most the asked number.
RC_GTEST_PROP(TrajectorySchedule, KeepsTheEndsIncreasesAndGeometricIsDenseEarly, ()) {
  const auto updates = *rc::gen::inRange<std::int64_t>(1, 100000);
  const auto models = *rc::gen::inRange<std::int64_t>(2, 400);
  const auto linear = trajectory_schedule(updates, models, TrajectorySpacing::linear);
  const auto geometric = trajectory_schedule(updates, models, TrajectorySpacing::geometric);
  for (const auto* schedule : {&linear, &geometric}) {
    RC_ASSERT(schedule->front() == 0);
    RC_ASSERT(schedule->back() == updates);
    RC_ASSERT(static_cast<std::int64_t>(schedule->size()) <= models);
    RC_ASSERT(std::adjacent_find(schedule->begin(), schedule->end(), std::greater_equal<>()) == schedule->end());
  }
  // With room for every model, none is lost to rounding.
  if (models <= updates + 1) RC_ASSERT(static_cast<std::int64_t>(linear.size()) == models);
}

// Geometric spacing is dense early: of 17 models over 3 000 updates, half lie in the first 2 % of training
// ((1 + 3000)^{1/2} − 1 ≈ 54), where linear spacing keeps only update 0.
TEST(TrajectorySchedule, GeometricSpacingIsDenseEarly) {
  const auto below_60 = [](const std::vector<std::int64_t>& schedule) {
    return std::count_if(schedule.begin(), schedule.end(), [](std::int64_t update) { return update < 60; });
  };
  EXPECT_EQ(below_60(trajectory_schedule(3000, 17, TrajectorySpacing::geometric)), 9);
  EXPECT_EQ(below_60(trajectory_schedule(3000, 17, TrajectorySpacing::linear)), 1);
}

TEST(TrajectorySchedule, RefusesFewerThanTwoModels) {
  EXPECT_THROW(trajectory_schedule(100, 1, TrajectorySpacing::linear), InputError);
  EXPECT_THROW(parse_trajectory_spacing("log"), InputError);
}

TrainingOptions trajectory_options(const TemporaryDirectory& directory) {
  TrainingOptions options;
  apply_algorithm(options, Algorithm::pcd, 1);
  options.learning_rate = 0.1;
  options.batch_size = 6;
  options.updates = 60;
  options.evaluation_interval = 20;
  options.seed = 5;
  options.checkpoint_path = (directory / "run.ckpt").string();
  options.checkpoint_interval = 20;
  options.trajectory_path = (directory / "run.rbtraj").string();
  options.trajectory_models = 12;
  return options;
}

TEST(TrainerTrajectory, KeepsTheScheduledModelsOfTheRun) {
  const TemporaryDirectory directory;
  const TrainingOptions options = trajectory_options(directory);
  const MatrixD train = to_real(bars_and_stripes(3));
  Trainer trainer(options, train, {}, 4);
  std::vector<Rbm> seen(static_cast<std::size_t>(options.updates) + 1);
  seen[0] = trainer.model();
  TrainingHooks hooks;
  hooks.on_update = [&](std::int64_t update) { seen[static_cast<std::size_t>(update)] = trainer.model(); };
  trainer.run(hooks);
  const Trajectory trajectory = read_trajectory(options.trajectory_path);
  const auto schedule = trajectory_schedule(options.updates, options.trajectory_models, options.trajectory_spacing);
  ASSERT_EQ(trajectory.models.size(), schedule.size());
  for (std::size_t k = 0; k < schedule.size(); ++k) {
    EXPECT_EQ(trajectory.models[k].update, schedule[k]);
    expect_identical(trajectory.models[k].parameters, seen[static_cast<std::size_t>(schedule[k])]);
  }
  EXPECT_TRUE(trajectory.data_visible_means.isApprox(train.colwise().mean().transpose()));
}

// Interrupted after the checkpoint of update 40, at update 47, with models of updates 41–47 already appended: the
// resumed run drops them, saves them again and ends with a file identical byte for byte to an uninterrupted run's.
TEST(TrainerTrajectory, AResumedRunWritesTheSameFileByteForByte) {
  const TemporaryDirectory directory;
  const MatrixD train = to_real(bars_and_stripes(3));
  TrainingOptions options = trajectory_options(directory);
  options.trajectory_spacing = TrajectorySpacing::linear;
  options.trajectory_models = 61;  // every update
  Trainer uninterrupted(options, train, {}, 4);
  uninterrupted.run();
  const std::string expected = read_file_bytes(options.trajectory_path);

  Trainer first(options, train, {}, 4);
  TrainingHooks hooks;
  hooks.interrupt_requested = [&first] { return first.updates_done() == 47; };
  // An interrupted run writes its checkpoint at 47; the one of update 40 is what a killed run would leave.
  hooks.on_update = [&](std::int64_t update) {
    if (update == 40) std::filesystem::copy_file(options.checkpoint_path, directory / "at40.ckpt");
  };
  first.run(hooks);
  ASSERT_EQ(read_trajectory(options.trajectory_path).models.back().update, 47);
  std::filesystem::copy_file(directory / "at40.ckpt", options.checkpoint_path,
                             std::filesystem::copy_options::overwrite_existing);

  Trainer resumed(options, train, {}, 4);
  resumed.load_checkpoint(options.checkpoint_path);
  resumed.run();
  EXPECT_EQ(read_file_bytes(options.trajectory_path), expected);
}

TEST(TrainerTrajectory, ResumingUnderAnotherScheduleOrWithoutTheFileIsRefused) {
  const TemporaryDirectory directory;
  const MatrixD train = to_real(bars_and_stripes(3));
  TrainingOptions options = trajectory_options(directory);
  Trainer first(options, train, {}, 4);
  TrainingHooks hooks;
  hooks.interrupt_requested = [&first] { return first.updates_done() == 20; };
  first.run(hooks);

  TrainingOptions other = options;
  other.trajectory_models = 13;
  Trainer resumed(other, train, {}, 4);
  resumed.load_checkpoint(options.checkpoint_path);
  EXPECT_NE(error_of([&] { resumed.run(); }).find("other training options or another trajectory schedule"),
            std::string::npos);

  std::filesystem::remove(options.trajectory_path);
  Trainer without_file(options, train, {}, 4);
  without_file.load_checkpoint(options.checkpoint_path);
  EXPECT_NE(error_of([&] { without_file.run(); }).find("its file is missing"), std::string::npos);
}

TEST(TrainerTrajectory, OptionsAskForAtLeastTwoModelsAndAFile) {
  TrainingOptions options;
  options.trajectory_path = "t.rbtraj";
  options.trajectory_models = 1;
  EXPECT_THROW(options.validate(), InputError);
  options.trajectory_path.clear();
  options.trajectory_models = 5;
  EXPECT_THROW(options.validate(), InputError);
}

}  // namespace
}  // namespace rbmix
