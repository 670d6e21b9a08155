// rbmix.train: the CLI's training (tools/rbmix/train_command.cpp) from numpy data. The keyword arguments are the
// library's table of training settings (training_settings.hpp), which rbmix/_training.py turns into train()'s
// signature; the values reach assemble_training_request as text, so Python refuses what the CLI refuses with the same
// sentence and the same options and seed give bit-identical parameters. Ctrl-C stops after the current update (the
// trainer's interrupt hook checks Python's signals at most every signal_poll_interval) and returns the model of the
// last completed update, marked interrupted, with its checkpoint when given a path.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/training/best_evaluation.hpp"
#include "rbmix/training/saved_model_bridges.hpp"
#include "rbmix/training/trainer.hpp"
#include "rbmix/training/training_settings.hpp"
#include "rbmix/training/trajectory_file.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

// Taking the GIL after every update of a tiny model would cost more than the update; 20 ms keeps Ctrl-C prompt.
constexpr std::chrono::milliseconds signal_poll_interval{20};

struct TrainingResult {
  Rbm model;
  std::optional<Rbm> best_model;  // keep="best": the model of the best monitored evaluation
  int label_classes = 0;
  TrainingSummary summary;
  std::optional<std::filesystem::path> checkpoint;
  std::optional<std::filesystem::path> trajectory_file;
};

// The learning curve as a dict of arrays: update, epoch and every field some point measured (the columns of the
// CLI's learning_curve.csv), NaN where a point lacks it.
py::dict curve_dict(const std::vector<EvaluationPoint>& curve) {
  py::dict out;
  const auto size = static_cast<Eigen::Index>(curve.size());
  VectorD update(size), epoch(size);
  for (Eigen::Index k = 0; k < size; ++k) {
    update(k) = static_cast<double>(curve[static_cast<std::size_t>(k)].update);
    epoch(k) = curve[static_cast<std::size_t>(k)].epoch;
  }
  out["update"] = to_numpy(update);
  out["epoch"] = to_numpy(epoch);
  for (const EvaluationField& named : measured_fields(curve)) {
    VectorD values(size);
    for (Eigen::Index k = 0; k < size; ++k)
      values(k) = (curve[static_cast<std::size_t>(k)].*named.field).value_or(std::numeric_limits<double>::quiet_NaN());
    out[named.name] = to_numpy(values);
  }
  return out;
}

// One evaluation as the callback sees it: update (int), epoch and each measured field as Python floats.
py::dict point_dict(const EvaluationPoint& point) {
  py::dict out;
  out["update"] = point.update;
  out["epoch"] = point.epoch;
  for (const EvaluationField& named : evaluation_fields)
    if ((point.*named.field).has_value()) out[named.name] = *(point.*named.field);
  return out;
}

std::optional<std::vector<int>> labels_of(const py::object& labels, const std::string& what) {
  if (labels.is_none()) return std::nullopt;
  const py::array_t<long long, py::array::forcecast> array =
      py::array_t<long long, py::array::forcecast>::ensure(labels);
  require(array && array.ndim() == 1, [&] { return what + ": expected a 1-D array of integer labels"; });
  const py::array original = py::array::ensure(labels);
  require(original.dtype().kind() == 'i' || original.dtype().kind() == 'u', [&] {
    return what + ": expected integer labels, got dtype " + py::str(original.dtype()).cast<std::string>();
  });
  std::vector<int> out(static_cast<std::size_t>(array.size()));
  for (py::ssize_t k = 0; k < array.size(); ++k) {
    const long long label = array.at(k);
    require(label >= 0 && label < (1 << 16), [&] {
      return what + ": label " + std::to_string(label) + " at " + std::to_string(k) + " is out of range";
    });
    out[static_cast<std::size_t>(k)] = static_cast<int>(label);
  }
  return out;
}

TrainingResult train(const py::handle& data, const std::map<std::string, std::string>& settings, const py::object& test,
                     const py::object& labels, const py::object& test_labels,
                     const std::optional<std::filesystem::path>& checkpoint, bool resume, const py::object& callback,
                     const std::optional<Rbm>& initial_model,
                     const std::optional<std::filesystem::path>& trajectory_file) {
  const GivenSettings given(settings.begin(), settings.end());
  TrainingRequest request =
      assemble_training_request(given, SettingSpelling::python, checkpoint ? checkpoint->string() : std::string(),
                                trajectory_file ? trajectory_file->string() : std::string());
  require(!trajectory_file || !request.options.trajectory_path.empty(),
          "trajectory_file: give trajectory=K too, the number of models the file keeps");
  TrainingData rows;
  rows.train = request.options.resample_binarisation ? real_matrix(data, "data") : binary_matrix(data, "data");
  if (request.options.resample_binarisation)
    require(((rows.train.array() >= 0.0) && (rows.train.array() <= 1.0)).all(),
            "data: with resample_binarisation the rows are grey levels, each in [0, 1]");
  if (!test.is_none()) rows.test = binary_matrix(test, "test", rows.train.cols());
  rows.labels = labels_of(labels, "labels");
  rows.test_labels = labels_of(test_labels, "test_labels");
  TrainingRows arranged = arrange_training_rows(request, std::move(rows), SettingSpelling::python);
  require(!resume || (checkpoint && std::filesystem::exists(*checkpoint)),
          "resume: no checkpoint to resume from (give checkpoint=PATH of an earlier run)");
  require(!resume || !initial_model, "resume and initial_model both say where training starts; give one");

  std::optional<py::error_already_set> python_error;
  bool interrupted_by_signal = false;
  TrainingHooks hooks;
  auto last_poll = std::chrono::steady_clock::now();
  hooks.interrupt_requested = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_poll < signal_poll_interval) return python_error.has_value() || interrupted_by_signal;
    last_poll = now;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) {
      // KeyboardInterrupt (or whatever a signal handler raised): the run stops and returns what it has.
      python_error.emplace();
      interrupted_by_signal = python_error->matches(PyExc_KeyboardInterrupt);
      if (interrupted_by_signal) python_error.reset();
    }
    return python_error.has_value() || interrupted_by_signal;
  };
  TrainingResult result;
  hooks.on_evaluation = [&](const EvaluationPoint& point) {
    if (python_error || callback.is_none()) return;
    py::gil_scoped_acquire acquire;
    try {
      callback(point_dict(point));
    } catch (py::error_already_set& error) {
      python_error.emplace(std::move(error));
    }
  };
  {
    py::gil_scoped_release release;
    Trainer trainer(request.options, std::move(arranged.train), std::move(arranged.test), request.hidden);
    if (initial_model) trainer.start_from(*initial_model);
    if (resume) trainer.load_checkpoint(*checkpoint);
    // The best model is taken when its evaluation is seen, by the rule of `rbmix train --keep best`
    // (best_evaluation.hpp), among this call's evaluations only (a resumed call's earlier best was that call's).
    if (request.kept == KeptModel::best) {
      const auto report = hooks.on_evaluation;
      hooks.on_evaluation = [&, report, best = BestEvaluation()](const EvaluationPoint& point) mutable {
        if (best.observe(point)) result.best_model = trainer.model();
        report(point);
      };
    }
    result.summary = trainer.run(hooks);
    result.model = trainer.model();
  }
  if (python_error) throw std::move(*python_error);
  if (result.summary.termination == Termination::diverged) throw std::runtime_error(result.summary.message);
  result.label_classes = request.options.label_classes;
  result.checkpoint = checkpoint;
  result.trajectory_file = trajectory_file;
  return result;
}

// A classification RBM of `classes` label units from a plain Rbm (as train returns it), checked.
ClassificationRbm classification_model(const Rbm& model, int classes) {
  ClassificationRbm classifier{model, classes};
  classifier.validate("model");
  return classifier;
}

// The table of settings for rbmix/_training.py: one dict per setting, in help order.
// A trajectory argument: a Trajectory, or the path of its file.
Trajectory trajectory_argument(const py::object& trajectory) {
  return py::isinstance<Trajectory>(trajectory) ? trajectory.cast<Trajectory>()
                                                : read_trajectory(trajectory.cast<std::filesystem::path>());
}

// One array with value(model) of each saved model's result: a column of the offline commands' CSV.
template <typename Result, typename Value>
auto per_model_column(const std::vector<Result>& results, Value value) {
  py::array_t<decltype(value(results.front()))> out(static_cast<py::ssize_t>(results.size()));
  auto view = out.template mutable_unchecked<1>();
  for (std::size_t k = 0; k < results.size(); ++k) view(static_cast<py::ssize_t>(k)) = value(results[k]);
  return out;
}

// The columns both offline estimates end with: the train log-likelihood and the distinct-rows check.
template <typename Result>
void add_likelihood_columns(py::dict& columns, const std::vector<Result>& results) {
  columns["train_log_likelihood"] = per_model_column(results, [](const Result& r) { return r.train_log_likelihood; });
  columns["distinct_rows_log_z"] = per_model_column(results, [](const Result& r) { return r.distinct_rows_bound; });
  columns["exceeds_distinct_rows"] = per_model_column(results, [](const Result& r) { return r.exceeds_distinct_rows(); });
}

py::list settings_table() {
  py::list table;
  for (const TrainingSetting& setting : training_settings()) {
    const char* type = setting.type == SettingType::flag      ? "flag"
                       : setting.type == SettingType::integer ? "integer"
                       : setting.type == SettingType::real    ? "real"
                                                              : "text";
    py::list algorithms;
    for (const AlgorithmDefinition& entry : algorithm_table())
      if (algorithm_uses_option(entry.algorithm, setting.option)) algorithms.append(std::string(entry.name));
    table.append(py::dict("name"_a = std::string(setting.name), "option"_a = std::string(setting.option),
                          "type"_a = type, "default"_a = std::string(setting.default_value),
                          "required"_a = setting.required, "help"_a = training_setting_help(setting),
                          "algorithms"_a = algorithms));
  }
  return table;
}

}  // namespace

void bind_training(py::module_& module) {
  py::class_<Trajectory>(module, "Trajectory",
                         "Models kept along one training run (rbmix train --trajectory K; docs/python.md): updates, "
                         "models, the training rows' visible means and the run's configuration (JSON text).")
      .def_readonly("n_visible", &Trajectory::n_visible)
      .def_readonly("n_hidden", &Trajectory::n_hidden)
      .def_readonly("configuration", &Trajectory::configuration,
                    "JSON text: the schedule and the training options that determine the parameters")
      .def_property_readonly(
          "updates",
          [](const Trajectory& t) {
            py::array_t<std::int64_t> updates(static_cast<py::ssize_t>(t.models.size()));
            auto view = updates.mutable_unchecked<1>();
            for (std::size_t index = 0; index < t.models.size(); ++index)
              view(static_cast<py::ssize_t>(index)) = t.models[index].update;
            return updates;
          },
          "(K,) int64: the update number of each model, increasing")
      .def_property_readonly(
          "models",
          [](const Trajectory& t) {
            std::vector<Rbm> models;
            models.reserve(t.models.size());
            for (const auto& model : t.models) models.push_back(model.parameters);
            return models;
          },
          "list of K rbmix.Rbm, in the order of updates")
      .def_property_readonly(
          "data_visible_means", [](const Trajectory& t) { return read_only(to_numpy(t.data_visible_means)); },
          "(n_visible,) float64: the training rows' visible means")
      .def("independent_model", &Trajectory::independent_model,
           "the model without couplings a ladder starts from: W = 0, b = logit(visible means), c of the first model")
      .def("__len__", [](const Trajectory& t) { return t.models.size(); })
      .def("__repr__", [](const Trajectory& t) {
        return "rbmix.Trajectory(" + std::to_string(t.models.size()) + " models of " + std::to_string(t.n_visible) +
               " × " + std::to_string(t.n_hidden) + ")";
      });
  module.def(
      "read_trajectory", [](const std::filesystem::path& path) { return read_trajectory(path); }, "path"_a,
      "Reads and checks a trajectory file (damaged records, shapes, increasing updates); InputError names what is "
      "wrong.");
  module.def(
      "trajectory_log_partition",
      [](const py::object& trajectory, const py::handle& data, Eigen::Index samples, Eigen::Index sweeps,
         std::uint64_t seed) {
        const Trajectory loaded = trajectory_argument(trajectory);
        const MatrixD rows = binary_matrix(data, "data", loaded.n_visible);
        const auto rungs = saved_model_log_partitions(loaded, rows, {samples, sweeps, seed, {}});
        using Rung = SavedModelLogPartition;
        py::dict columns;
        columns["update"] = per_model_column(rungs, [](const Rung& r) { return r.update; });
        columns["delta_log_z"] = per_model_column(rungs, [](const Rung& r) { return r.bennett.value; });
        columns["delta_log_z_se"] = per_model_column(rungs, [](const Rung& r) { return r.bennett.standard_error; });
        columns["delta_log_z_fep"] =
            per_model_column(rungs, [](const Rung& r) { return r.free_energy_perturbation.value; });
        columns["delta_log_z_fep_se"] =
            per_model_column(rungs, [](const Rung& r) { return r.free_energy_perturbation.standard_error; });
        columns["log_z"] = per_model_column(rungs, [](const Rung& r) { return r.log_partition.value; });
        columns["log_z_se"] = per_model_column(rungs, [](const Rung& r) { return r.log_partition.standard_error; });
        add_likelihood_columns(columns, rungs);
        return columns;
      },
      "trajectory"_a, "data"_a, "samples"_a = SavedModelBridgeOptions{}.samples,
      "sweeps"_a = SavedModelBridgeOptions{}.sweeps, "seed"_a = SavedModelBridgeOptions{}.seed,
      "log Z of every model of a trajectory (a Trajectory or its file) by Bennett's acceptance ratio between "
      "consecutive models, chained from the exact independent model; dict of arrays, the columns of rbmix "
      "trajectory log-partition's CSV (exceeds_distinct_rows: bool).");
  module.def(
      "trajectory_anneal",
      [](const py::object& trajectory, const py::handle& data, Eigen::Index particles, Eigen::Index groups,
         double resampling_threshold, int sweeps_per_step, double step_size, std::uint64_t seed, bool float32) {
        const Trajectory loaded = trajectory_argument(trajectory);
        const MatrixD rows = binary_matrix(data, "data", loaded.n_visible);
        SavedModelAnnealingOptions options;
        options.particles.particles = particles;
        options.particles.groups = groups;
        options.particles.resampling_threshold = resampling_threshold;
        options.particles.sweeps_per_update = sweeps_per_step;
        options.particles.single_precision = float32;
        options.particles.seed = seed;
        options.step_size = step_size;
        const auto models = anneal_along_saved_models(loaded, rows, options);
        using Model = AnnealedSavedModel;
        py::dict columns;
        columns["update"] = per_model_column(models, [](const Model& m) { return m.update; });
        columns["log_z"] = per_model_column(models, [](const Model& m) { return m.log_partition.log_partition; });
        columns["log_z_lower"] = per_model_column(models, [](const Model& m) { return m.log_partition.lower; });
        columns["log_z_upper"] = per_model_column(models, [](const Model& m) { return m.log_partition.upper; });
        columns["steps"] = per_model_column(models, [](const Model& m) { return m.steps; });
        columns["resamplings"] = per_model_column(models, [](const Model& m) { return m.log_partition.resamplings; });
        add_likelihood_columns(columns, models);
        return columns;
      },
      "trajectory"_a, "data"_a, "particles"_a = TrajectoryLogPartitionOptions{}.particles,
      "groups"_a = TrajectoryLogPartitionOptions{}.groups,
      "resampling_threshold"_a = TrajectoryLogPartitionOptions{}.resampling_threshold,
      "sweeps_per_step"_a = TrajectoryLogPartitionOptions{}.sweeps_per_update,
      "step_size"_a = SavedModelAnnealingOptions{}.step_size, "seed"_a = TrajectoryLogPartitionOptions{}.seed,
      "float32"_a = false,
      "log Z of every model of a trajectory (a Trajectory or its file) by the trajectory monitor's sequential Monte "
      "Carlo run along the saved models, with any number of particles; dict of arrays, the columns of rbmix "
      "trajectory anneal's CSV (log_z_lower, log_z_upper: the band; exceeds_distinct_rows: bool).");
  py::class_<TrainingResult>(module, "TrainingResult",
                             "A trained model, its learning curve and why training stopped (termination: "
                             "'completed', 'interrupted' by Ctrl-C, ...).")
      .def_readonly("model", &TrainingResult::model, "the model after the last completed update")
      .def_readonly("best_model", &TrainingResult::best_model,
                    "keep='best': the model of the evaluation with the best monitored training score; else None")
      .def_readonly("label_classes", &TrainingResult::label_classes,
                    "classes of a classification RBM (the last label_classes visible units); 0 for a plain RBM")
      .def_property_readonly(
          "learning_curve", [](const TrainingResult& r) { return curve_dict(r.summary.learning_curve); },
          "dict of arrays: update, epoch and each measured field (the columns of the CLI's "
          "learning_curve.csv; NaN where a point lacks it)")
      .def_property_readonly("termination", [](const TrainingResult& r) { return to_string(r.summary.termination); })
      .def_property_readonly("interrupted",
                             [](const TrainingResult& r) { return r.summary.termination == Termination::interrupted; })
      .def_property_readonly("message", [](const TrainingResult& r) { return r.summary.message; })
      .def_property_readonly("updates_done", [](const TrainingResult& r) { return r.summary.updates_done; })
      .def_property_readonly("seconds", [](const TrainingResult& r) { return r.summary.seconds; })
      .def_readonly("checkpoint", &TrainingResult::checkpoint, "the checkpoint path the run wrote to, or None")
      .def_readonly("trajectory_file", &TrainingResult::trajectory_file,
                    "the trajectory file the run kept its models in (trajectory=K), or None")
      .def_property_readonly(
          "trajectory",
          [](const TrainingResult& r) -> std::optional<Trajectory> {
            if (!r.trajectory_file) return std::nullopt;
            return read_trajectory(*r.trajectory_file);
          },
          "the models kept along training (a Trajectory read from trajectory_file), or None")
      .def("__iter__",
           [](const TrainingResult& r) {
             return py::iter(py::make_tuple(py::cast(r.model), curve_dict(r.summary.learning_curve)));
           })
      .def("__repr__", [](const TrainingResult& r) { return "rbmix.TrainingResult(" + r.summary.message + ")"; });
  module.def("_train", &train, "data"_a, "settings"_a, "test"_a, "labels"_a, "test_labels"_a, "checkpoint"_a,
             "resume"_a, "callback"_a, "initial_model"_a, "trajectory_file"_a,
             "rbmix.train's engine: settings by name as text (see rbmix.train).");
  module.def(
      "classify",
      [](const Rbm& model, const py::handle& data, int classes) {
        const ClassificationRbm classifier = classification_model(model, classes);
        const MatrixD inputs = binary_matrix(data, "data", classifier.n_inputs());
        std::vector<int> labels;
        {
          py::gil_scoped_release release;
          labels = predict_labels(classifier, inputs);
        }
        return py::array_t<int>(static_cast<py::ssize_t>(labels.size()), labels.data());
      },
      "model"_a, "data"_a, "classes"_a,
      "argmax_y p(y | x) of a classification RBM (train(..., labels=...); classes = result.label_classes) for each "
      "row x of data (N, n_inputs): exact, argmin_y F(x, y) (000 §4.2). Returns int labels (N,).");
  module.def(
      "class_probabilities",
      [](const Rbm& model, const py::handle& data, int classes) {
        const ClassificationRbm classifier = classification_model(model, classes);
        const MatrixD inputs = binary_matrix(data, "data", classifier.n_inputs());
        py::gil_scoped_release release;
        MatrixD probabilities = class_probabilities(classifier, inputs);
        py::gil_scoped_acquire acquire;
        return to_numpy(probabilities);
      },
      "model"_a, "data"_a, "classes"_a, "p(y | x) of a classification RBM for each row x of data: (N, classes).");
  module.def("_training_settings", &settings_table,
             "The table of training settings that rbmix.train's keywords follow.");
}

}  // namespace rbmix::python
