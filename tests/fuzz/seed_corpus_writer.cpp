// Writes the seed corpus of every fuzz target: small valid files of each format, written by rbmix's own writers.
// Usage: rbmix_fuzz_seed_corpus_writer DIRECTORY (tests/fuzz/corpus), which gets one subdirectory per target.
// Files already there (seeds and former crashes) are kept; seeds of the same name are rewritten.
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <tuple>

#include "checkpoint_runs.hpp"
#include "grid_journal_runs.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/training_trials.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/io/output_file.hpp"
#include "rbmix/io/zip_archive.hpp"
#include "rbmix/jobs/job_journal.hpp"
#include "rbmix/report/png_image.hpp"

namespace {

using rbmix::MatrixD;
using rbmix::MatrixF;

std::string idx_bytes(unsigned char rank, const std::string& dimensions, const std::string& data) {
  return std::string{'\0', '\0', '\x08', static_cast<char>(rank)} + dimensions + data;
}

void write_gzip(const std::filesystem::path& file, const std::string& bytes) {
  gzFile handle = gzopen(file.c_str(), "wb9");
  if (handle == nullptr || gzwrite(handle, bytes.data(), static_cast<unsigned>(bytes.size())) == 0 ||
      gzclose(handle) != Z_OK)
    throw std::runtime_error("cannot write " + file.string());
}

void write_checkpoints(const std::filesystem::path& directory) {
  const auto& algorithms = rbmix::fuzz::checkpoint_algorithms;
  for (std::size_t choice = 0; choice < algorithms.size(); ++choice) {
    rbmix::TrainingOptions options = rbmix::fuzz::checkpoint_options(algorithms[choice]);
    const std::filesystem::path checkpoint = directory / "trained.ckpt";
    options.checkpoint_path = checkpoint.string();
    rbmix::Trainer trainer(options, rbmix::fuzz::checkpoint_training_data(), {}, rbmix::fuzz::checkpoint_hidden_units);
    rbmix::TrainingHooks hooks;
    hooks.interrupt_requested = [&trainer] { return trainer.updates_done() == 5; };
    trainer.run(hooks);
    std::string bytes = rbmix::read_file_bytes(checkpoint);
    std::filesystem::remove(checkpoint);
    bytes.resize(bytes.size() - sizeof(std::uint64_t));  // the target appends the CRC-32 itself
    rbmix::write_output_file(directory / ("seed-" + rbmix::to_string(algorithms[choice])),
                             std::string(1, static_cast<char>(choice)) + bytes);
  }
}

// A journal of the fuzz target's grid in a scratch directory: a job that succeeded (a result of exact numbers), one
// that failed, and grid.json; their files are the seeds.
void write_grid_journal(const std::filesystem::path& directory) {
  namespace experiments = rbmix::experiments;
  const std::filesystem::path scratch = directory / "scratch";
  const auto identity = rbmix::fuzz::grid_journal_identity();
  const experiments::JobJournal journal(scratch, rbmix::fuzz::grid_journal_phase, identity);
  const std::size_t job = rbmix::fuzz::grid_journal_job;
  const nlohmann::json result = {{"slem", experiments::exact_number(0.75)},
                                 {"times", {experiments::exact_number(-1.0 / 3.0), experiments::exact_number(1e300)}},
                                 {"trial", 2}};
  journal.record(job, {true, result.dump()});
  std::filesystem::copy_file(journal.job_file(job), directory / "seed-job.json",
                             std::filesystem::copy_options::overwrite_existing);
  journal.record(job, {false, "--lr must be positive"});
  std::filesystem::copy_file(journal.job_file(job), directory / "seed-failed-job.json",
                             std::filesystem::copy_options::overwrite_existing);
  // A training run's summary, and the same with a learning curve point of infinite log-likelihood: the target
  // reseals it (checksum recomputed), so that the value checks behind the checksum see it.
  rbmix::TrainingSummary summary;
  summary.updates_done = 20;
  summary.message = "training completed 20 updates";
  for (const auto& [update, epoch, train, test] :
       {std::tuple{0, 0.0, -2.5, -2.75}, std::tuple{20, 1.25, -1.5, -1.75}}) {
    rbmix::EvaluationPoint point;
    point.update = update;
    point.epoch = epoch;
    point.train_log_likelihood = train;
    point.test_log_likelihood = test;
    summary.learning_curve.push_back(point);
  }
  summary.best = summary.final = summary.learning_curve.back();
  journal.record(job, {true, rbmix::to_grid_json(summary).dump()});
  std::filesystem::copy_file(journal.job_file(job), directory / "seed-training-job.json",
                             std::filesystem::copy_options::overwrite_existing);
  summary.learning_curve.back().train_log_likelihood = std::numeric_limits<double>::infinity();
  journal.record(job, {true, rbmix::to_grid_json(summary).dump()});
  std::filesystem::copy_file(journal.job_file(job), directory / "seed-training-job-infinite.json",
                             std::filesystem::copy_options::overwrite_existing);
  experiments::write_grid_record(scratch, {{"identity", identity}, {"shard", "2/3"}, {"jobs", {40, 6}}});
  std::filesystem::copy_file(experiments::journal_directory(scratch) / "grid.json", directory / "seed-grid.json",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove_all(scratch);
}

// Traces for the mixing_trace target: its first byte is the number of chains less one, then the draws, chain after
// chain. Two AR(1) chains (φ = 0.9) as they are, scaled by 1e200 and 1e-170, offset by 1e6, near-constant
// (1 + 1e-13 x), with one chain constant, with one spike of 1e160, and a single chain of 12 steps.
void write_mixing_traces(const std::filesystem::path& directory) {
  constexpr Eigen::Index steps = 256;
  std::mt19937_64 engine(20131127);
  std::normal_distribution<double> noise;
  MatrixD ar(steps, 2);
  for (Eigen::Index chain = 0; chain < ar.cols(); ++chain) {
    double value = noise(engine) / std::sqrt(1.0 - 0.81);
    for (Eigen::Index step = 0; step < steps; ++step) ar(step, chain) = value = 0.9 * value + noise(engine);
  }
  const auto write = [&](const std::string& name, const MatrixD& traces) {
    std::string bytes(1, static_cast<char>(traces.cols() - 1));
    bytes.append(reinterpret_cast<const char*>(traces.data()),
                 sizeof(double) * static_cast<std::size_t>(traces.size()));
    rbmix::write_output_file(directory / ("seed-" + name), bytes);
  };
  write("ar", ar);
  write("scaled-1e200", MatrixD(ar * 1e200));
  write("scaled-1e-170", MatrixD(ar * 1e-170));
  write("offset-1e6", MatrixD(ar.array() + 1e6));
  write("near-constant", MatrixD(1.0 + ar.array() * 1e-13));
  MatrixD one_constant = ar;
  one_constant.col(1).setConstant(0.5);
  write("one-constant-chain", one_constant);
  MatrixD spike = ar;
  spike(100, 0) = 1e160;
  write("spike", spike);
  write("twelve-steps", MatrixD(ar.topLeftCorner(12, 1)));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " CORPUS_DIRECTORY\n";
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  for (const char* target :
       {"npy", "zip", "model_file", "checkpoint", "idx", "grid_journal", "csv", "png", "mixing_trace"})
    std::filesystem::create_directories(corpus / target);

  const rbmix::BinaryMatrix bars = rbmix::bars_and_stripes(2);
  rbmix::save_binary_matrix(corpus / "npy/seed-binary-u1.npy", bars);
  rbmix::write_npy(corpus / "npy/seed-f8-matrix.npy", rbmix::matrix_to_npy(rbmix::to_real(bars)));
  rbmix::write_npy(corpus / "npy/seed-f4-matrix.npy",
                   rbmix::matrix_to_npy(MatrixF(rbmix::to_real(bars).cast<float>())));
  rbmix::write_npy(corpus / "npy/seed-f4-vector.npy",
                   rbmix::vector_to_npy(rbmix::VectorF(rbmix::VectorF::LinSpaced(3, -1.0f, 1.0f))));

  rbmix::Rbm rbm(3, 2);
  rbm.weights << 0.5, -1.0, 2.0, 0.25, 0.0, -0.75;
  rbm.visible_bias << 0.1, -0.2, 0.3;
  rbm.hidden_bias << -0.5, 0.5;
  rbmix::save_rbm(corpus / "model_file/seed-model.npz", rbm, {{"command", "seed corpus"}});
  rbmix::BoltzmannMachine mrf = rbmix::BoltzmannMachine::zeros(3);
  mrf.couplings << 0.0, 0.5, -1.0, 0.5, 0.0, 2.0, -1.0, 2.0, 0.0;
  mrf.biases << 0.1, -0.2, 0.3;
  rbmix::save_boltzmann_machine(corpus / "model_file/seed-mrf.npz", mrf, {{"command", "seed corpus"}});
  rbmix::write_output_file(corpus / "model_file/seed-mrf-legacy.json",
                           R"({"couplings": [[0, 0.5], [0.5, 0]], "biases": [0.1, -0.2]})");
  std::filesystem::copy_file(corpus / "model_file/seed-model.npz", corpus / "zip/seed-model.npz",
                             std::filesystem::copy_options::overwrite_existing);
  rbmix::write_output_file(corpus / "zip/seed-two-members.zip",
                           rbmix::encode_zip({{"a.txt", "first member"}, {"b.bin", std::string(5, '\0')}}));

  write_checkpoints(corpus / "checkpoint");

  // Two 2×2 images and their three labels, plain and gzip.
  const std::string images =
      idx_bytes(3, std::string("\0\0\0\2\0\0\0\2\0\0\0\2", 12), "\x00\xff\x10\x20\x30\x40\x50\x60");
  const std::string labels = idx_bytes(1, std::string("\0\0\0\3", 4), std::string("\x07\x00\x09", 3));
  rbmix::write_output_file(corpus / "idx/seed-images.idx", images);
  rbmix::write_output_file(corpus / "idx/seed-labels.idx", labels);
  write_gzip(corpus / "idx/seed-images.idx.gz", images);
  write_gzip(corpus / "idx/seed-labels.idx.gz", labels);
  write_grid_journal(corpus / "grid_journal");
  write_mixing_traces(corpus / "mixing_trace");

  // CSV: with a header, without, with CRLF and spaces; the target reads each as data and as labels.
  rbmix::write_output_file(corpus / "csv/seed-header.csv", "x1,x2,x3\n0,1,1\n1,0,0.5\n");
  rbmix::write_output_file(corpus / "csv/seed-plain.csv", "0,1\n1,1\n-2.5e-3,+4\n");
  rbmix::write_output_file(corpus / "csv/seed-labels.csv", "label\r\n 3\r\n0 \r\n9\r\n");
  // PNG: 8-bit grey pictures as rbmix writes them, one with a text chunk.
  rbmix::write_png(corpus / "png/seed-grey.png", {2, 3, {0, 255, 128, 7, 0, 255}});
  rbmix::write_png(corpus / "png/seed-binary-text.png", {3, 2, {0, 255, 255, 0, 0, 0}}, {{"Description", "seed"}});
  std::cout << "wrote the seed corpus under " << corpus.string() << '\n';
  return 0;
}
