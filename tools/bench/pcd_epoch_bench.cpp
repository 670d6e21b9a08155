// Wall time of U PCD-1 updates on the MNIST shape (784 visible, 500 hidden, batch 100, float, random rows with 13 %
// ones), the whole loop timed as a user runs it: tools/bench/contention.sh runs it with and without competing busy
// processes, with the default thread setting and with one thread (docs/performance.md "Under contention").
//   pcd_epoch_bench [--updates U] [--untuned]
// --untuned keeps the thread-count tuner from tuning (thread_count_tuner.hpp) as a user does, by setting
// OMP_NUM_THREADS (to the team OpenMP chose at start, so the team does not change): the full team at every update,
// as before the tuner. Prints one line: seconds, updates, the OpenMP team, the team the tuner ended on ("untuned" where
// it did not tune) and the sum of the trained weights.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rbmix/core/thread_count_tuner.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/training/trainer.hpp"

namespace {

constexpr Eigen::Index visible_units = 784;
constexpr Eigen::Index hidden_units = 500;
constexpr Eigen::Index batch_rows = 100;
// Fewer rows than MNIST's 60 000 (an epoch's 600 updates cycle through them six times): an update's cost does not
// depend on the number of rows, and the rows' set-up stays short.
constexpr Eigen::Index data_rows = 10000;
constexpr double fraction_of_ones = 0.13;  // about MNIST's share of pixels above 1/2

rbmix::MatrixD random_rows() {
  rbmix::RandomStream stream(7, 0, rbmix::StreamDomain::data);
  rbmix::MatrixD data(data_rows, visible_units);
  for (Eigen::Index k = 0; k < data.size(); ++k) data.data()[k] = stream.uniform() < fraction_of_ones ? 1.0 : 0.0;
  return data;
}

int usage(const char* program) {
  std::fprintf(stderr, "usage: %s [--updates U] [--untuned]\n", program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long updates = 600;  // one epoch of 60 000 rows at batch 100
  for (int k = 1; k < argc; ++k) {
    const std::string argument = argv[k];
    if (argument == "--untuned") {
      setenv("OMP_NUM_THREADS", std::to_string(omp_get_max_threads()).c_str(), 1);
    } else if (argument == "--updates" && k + 1 < argc) {
      char* end = nullptr;
      updates = std::strtol(argv[++k], &end, 10);
      if (*end != '\0' || updates <= 0) return usage(argv[0]);
    } else {
      return usage(argv[0]);
    }
  }
  rbmix::TrainingOptions options;
  rbmix::apply_algorithm(options, rbmix::Algorithm::pcd);
  options.sample_in_float = true;
  options.batch_size = batch_rows;
  options.evaluation_interval = 0;
  options.updates = updates;
  rbmix::Trainer trainer(options, random_rows(), rbmix::MatrixD(), hidden_units);
  const auto start = std::chrono::steady_clock::now();
  for (long update = 0; update < updates; ++update) trainer.step();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const rbmix::ThreadCountTuner& tuner = trainer.thread_tuner();
  // The sum of W's entries, to the last bit: the same for every thread setting and load (the tuner changes only the
  // team's size).
  std::printf("seconds %.4f updates %ld team %d tuned_to %s weight_sum %a\n", seconds, updates, omp_get_max_threads(),
              tuner.team() > 1 ? std::to_string(tuner.chosen_team()).c_str() : "untuned", trainer.model().weights.sum());
  return 0;
}
