#pragma once
// Experiment: the one interface every experiment declares, and that every front-end (`rbmix experiment <name>`,
// Python's rbmix.run_experiment) drives the same way. An experiment is a type E with
//   E::name, E::description       the subcommand's name and its one-line help;
//   E::mnist_help                 what --mnist does for it ("" when it reads no MNIST);
//   E::default_scale              the --scale when none is given;
//   E::own_options()              the options it adds to the shared ones (below), with their help;
//   E::make_options(inputs)       its options from the scale, seed, data directories and the options the user gave,
//                                 validated (throws InputError naming the option that is wrong);
//   E::configuration(options)     the options as JSON, recorded in run.json;
//   E::run(options, runner, log)  the computation: every independent job on `runner` (so on threads, journaled, on a
//                                 shard or over MPI ranks, as the front-end chose), a line of what it runs on `log`;
//                                 its result, or the PartDone a phase gave it (part_done.hpp): this process's part
//                                 of the grid is done, the result is not whole yet;
//   E::report(options, result, out, log)
//                                 the files (CSV, SVG, PNG) into `out`, the summary and the papers' claims on `log`;
//                                 returns the summary tables and any figures run.json should carry.
// The shared options, every experiment's: --scale smoke|paper, --seed, --out, --threads, --shard, --resume and, when
// mnist_help is not empty, --mnist. A result that a grid journals or sends between ranks must be GridSerializable
// (rbmix/jobs/job_runner.hpp): run_jobs checks that when the experiment is compiled. What the job engine gives an
// experiment is rbmix/jobs/job_engine.hpp.
//
// Adding an experiment: one header/source pair declaring such a type, and one line in experiment_list.cpp
// (docs/extending.md).
#include <chrono>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/jobs/job_engine.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

// One option an experiment adds, as the front-ends show it: "--trials" and its help. Values arrive as text and are
// read by ExperimentInputs' typed accessors, so every front-end gets the same checks and messages.
struct ExperimentOption {
  std::string name;
  std::string help;
};

// What a front-end hands to an experiment.
struct ExperimentInputs {
  Scale scale = Scale::smoke;
  std::uint64_t seed = 1;
  std::filesystem::path mnist;               // empty: not given
  std::map<std::string, std::string> given;  // option name ("--trials") → its text, only the options given

  bool has(const std::string& name) const { return given.contains(name); }
  // The value of `name` if given. Each throws InputError naming the option when the text is not of its kind or below
  // `minimum`. Lists are comma-separated ("0.1,0.05").
  std::optional<std::int64_t> integer(const std::string& name, std::int64_t minimum) const;
  std::optional<double> number(const std::string& name) const;
  std::optional<double> positive_number(const std::string& name) const;
  std::optional<std::vector<std::int64_t>> integers(const std::string& name, std::int64_t minimum) const;
  std::optional<std::vector<double>> numbers(const std::string& name) const;
  std::optional<std::vector<double>> positive_numbers(const std::string& name) const;
  std::optional<std::vector<std::string>> words(const std::string& name) const;
  std::optional<std::string> text(const std::string& name) const;
  // An existing directory (throws naming the option otherwise).
  std::optional<std::filesystem::path> directory(const std::string& name) const;
};

struct NamedTable {
  std::string name;  // what the table shows, e.g. "summary", "claims"
  Table table;
};

// What report() hands back: the tables it printed (a front-end may return them as values) and figures for run.json.
struct ExperimentReport {
  std::vector<NamedTable> tables;
  nlohmann::json record_fields = nlohmann::json::object();
};

template <typename E>
concept Experiment = requires(const ExperimentInputs& inputs, const typename E::Options& options,
                              const typename E::Result& result, const JobRunner& runner, ResultDirectory& out,
                              std::ostream& log) {
  { E::name } -> std::convertible_to<std::string_view>;
  { E::description } -> std::convertible_to<std::string_view>;
  { E::mnist_help } -> std::convertible_to<std::string_view>;
  { E::default_scale } -> std::convertible_to<Scale>;
  { E::own_options() } -> std::same_as<std::vector<ExperimentOption>>;
  { E::make_options(inputs) } -> std::same_as<typename E::Options>;
  { E::configuration(options) } -> std::same_as<nlohmann::json>;
  { E::run(options, runner, log) } -> std::same_as<OrPartDone<typename E::Result>>;
  { E::report(options, result, out, log) } -> std::same_as<ExperimentReport>;
};

// Makes the run record (run.json) from the experiment's configuration: the front-end's part (command, ranks, hosts,
// thread count), see rbmix/report/run_record.hpp.
using RunRecordMaker = std::function<nlohmann::json(const nlohmann::json& configuration)>;

// Runs E as every front-end does: options from `inputs` (validated before anything is written), the result
// directory `out` created, the run on `runner` timed, the report written and printed, and run.json last, with the
// seconds the run took and the report's figures. Returns the report, or the run's PartDone (nothing reported).
template <Experiment E>
OrPartDone<ExperimentReport> run_experiment(const ExperimentInputs& inputs, const JobRunner& runner,
                                            const std::filesystem::path& out, const RunRecordMaker& make_record,
                                            std::ostream& log);

// The experiments as the front-ends list them: name, help, own options, and E's run_experiment.
struct ExperimentEntry {
  std::string name;
  std::string description;
  std::string mnist_help;
  Scale default_scale = Scale::smoke;
  std::vector<ExperimentOption> options;
  std::function<OrPartDone<ExperimentReport>(const ExperimentInputs&, const JobRunner&, const std::filesystem::path&,
                                             const RunRecordMaker&, std::ostream&)>
      run;
};

template <Experiment E>
ExperimentEntry make_experiment_entry() {
  return {std::string(E::name), std::string(E::description), std::string(E::mnist_help), E::default_scale,
          E::own_options(),     &run_experiment<E>};
}

// Implementation of run_experiment (a template: each experiment's type instantiates it in experiment_list.cpp).
double seconds_since(const std::chrono::steady_clock::time_point& start);

template <Experiment E>
OrPartDone<ExperimentReport> run_experiment(const ExperimentInputs& inputs, const JobRunner& runner,
                                            const std::filesystem::path& out, const RunRecordMaker& make_record,
                                            std::ostream& log) {
  const typename E::Options options = E::make_options(inputs);
  ResultDirectory directory(out);
  const auto start = std::chrono::steady_clock::now();
  const OrPartDone<typename E::Result> result = E::run(options, runner, log);
  if (!result) return result.part_done();
  const double seconds = seconds_since(start);
  ExperimentReport report = E::report(options, result.value(), directory, log);
  nlohmann::json record = make_record(E::configuration(options));
  record["seconds"] = seconds;
  for (const auto& [key, value] : report.record_fields.items()) record[key] = value;
  directory.write_run_record(record);
  log << "time " << seconds << " s; wrote " << directory.files().size() << " files to " << directory.path().string()
      << "\n";
  return report;
}

}  // namespace rbmix::experiments
