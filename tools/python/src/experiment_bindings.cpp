// rbmix.experiments() and rbmix.run_experiment(): every experiment of the list the command line uses
// (rbmix/experiments/experiment_list.hpp), driven through the same interface, with its tables returned as values.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include "bindings.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/experiments/experiment_list.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

// A Python value as the option text the command line would give: lists and tuples comma-separated.
std::string option_text(const py::handle& value) {
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::string text;
    for (const py::handle item : value) text += (text.empty() ? "" : ",") + option_text(item);
    return text;
  }
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  return py::str(value).cast<std::string>();
}

// A table as {column: list of values}; missing values are None.
py::dict table_dict(const Table& table) {
  py::dict columns;
  for (std::size_t column = 0; column < table.columns().size(); ++column) {
    py::list values;
    for (std::size_t row = 0; row < table.rows(); ++row)
      std::visit(
          [&](const auto& cell) {
            if constexpr (std::is_same_v<std::decay_t<decltype(cell)>, std::monostate>) {
              values.append(py::none());
            } else {
              values.append(py::cast(cell));
            }
          },
          table.at(row, column));
    columns[py::str(table.columns()[column])] = values;
  }
  return columns;
}

py::dict run(const std::string& name, const std::filesystem::path& out, const std::string& scale, std::uint64_t seed,
             int threads, const std::string& mnist, bool verbose, const py::kwargs& options) {
  const experiments::ExperimentEntry& entry = experiments::find_experiment(name);
  experiments::ExperimentInputs inputs;
  inputs.scale = experiments::parse_scale(scale);
  inputs.seed = seed;
  require(threads >= 0, "threads must be non-negative, got " + std::to_string(threads));
  if (!mnist.empty()) {
    require(!entry.mnist_help.empty(), "mnist: experiment " + name + " reads no MNIST");
    require(std::filesystem::is_directory(mnist), "mnist: '" + mnist + "' is not a directory");
    inputs.mnist = mnist;
  }
  for (const auto& [key, value] : options) {
    // Keyword names are the command line's without the dashes: trials=3 is --trials 3, learning_rates=[...] is
    // --learning-rates.
    std::string option = "--" + key.cast<std::string>();
    std::replace(option.begin(), option.end(), '_', '-');
    std::string known;
    bool found = false;
    for (const auto& own : entry.options) {
      found = found || own.name == option;
      known += (known.empty() ? "" : ", ") + own.name.substr(2);
    }
    require(found, name + ": no option '" + key.cast<std::string>() + "' (its options: " + known + ")");
    inputs.given[option] = option_text(value);
  }
  const OutputDirectoryLock lock(out);
  const experiments::JobRunner runner(threads);
  const auto make_record = [&](const nlohmann::json& experiment_configuration) {
    nlohmann::json configuration = experiment_configuration;
    configuration["experiment"] = entry.name;
    configuration["scale"] = experiments::to_string(inputs.scale);
    configuration["job_threads"] = threads;
    if (!inputs.mnist.empty()) configuration["mnist_directory"] = inputs.mnist.string();
    nlohmann::json record = make_run_record("python rbmix.run_experiment " + entry.name, configuration, seed);
    record["ranks"] = 1;
    return record;
  };
  std::ostringstream log;
  experiments::ExperimentReport report;
  {
    py::gil_scoped_release release;
    // Without a grid the result is always whole.
    report = entry.run(inputs, runner, out, make_record, log).value();
  }
  if (verbose) py::print(log.str(), "end"_a = "");
  py::dict tables;
  for (const auto& named : report.tables) tables[py::str(named.name)] = table_dict(named.table);
  return tables;
}

}  // namespace

void bind_experiments(py::module_& module) {
  module.def(
      "experiments",
      [] {
        py::dict all;
        for (const auto& entry : experiments::experiment_list()) {
          py::dict options;
          for (const auto& option : entry.options) options[py::str(option.name.substr(2))] = option.help;
          all[py::str(entry.name)] = py::dict("description"_a = entry.description, "options"_a = options,
                                              "reads_mnist"_a = !entry.mnist_help.empty(),
                                              "default_scale"_a = experiments::to_string(entry.default_scale));
        }
        return all;
      },
      "The experiments of `rbmix experiment`, by name: description, their own options (keyword names for\n"
      "run_experiment) with help, whether they read MNIST, and their default scale.");
  module.def("run_experiment", &run, "name"_a, "out"_a, "scale"_a = "smoke", "seed"_a = 1, "threads"_a = 0,
             "mnist"_a = "", "verbose"_a = false,
             "Runs experiment `name` exactly as `rbmix experiment NAME --scale SCALE --seed SEED --out OUT` does\n"
             "(the same files and run.json in `out`, the same numbers for the same seed) and returns its summary\n"
             "tables as {table name: {column: list of values}} (missing values None; pandas.DataFrame(table) makes\n"
             "a frame). The experiment's own options are keywords named as on the command line without the dashes:\n"
             "run_experiment('dcp-small', 'out/', trials=3, epochs=200). Lists are given as Python lists.\n"
             "threads: jobs run at once (0: all cores); verbose: print what the command line prints.\n"
             "Raises InputError naming a bad option.");
}

}  // namespace rbmix::python
