// rbmix.train: the CLI's training (tools/rbmix/train_command.cpp) from numpy data, through the same
// TrainingOptions presets and Trainer, so the same options and seed give bit-identical parameters. Ctrl-C raises
// KeyboardInterrupt: the trainer's interrupt hook checks Python's signals after each update (at most every
// signal_poll_interval), stops as the CLI does on SIGINT, and leaves its checkpoint when given a path.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/training/parameter_initialisation.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

// Taking the GIL after every update of a tiny model would cost more than the update; 20 ms keeps Ctrl-C prompt.
constexpr std::chrono::milliseconds signal_poll_interval{20};

struct TrainingResult {
  Rbm model;
  TrainingSummary summary;
};

py::dict curve_dict(const std::vector<EvaluationPoint>& curve) {
  const auto column = [&](auto field) {
    VectorD values(static_cast<Eigen::Index>(curve.size()));
    for (std::size_t k = 0; k < curve.size(); ++k)
      values(static_cast<Eigen::Index>(k)) = field(curve[k]).value_or(std::numeric_limits<double>::quiet_NaN());
    return to_numpy(values);
  };
  py::dict out;
  out["update"] = column([](const EvaluationPoint& p) { return std::optional<double>(static_cast<double>(p.update)); });
  out["epoch"] = column([](const EvaluationPoint& p) { return std::optional<double>(p.epoch); });
  out["train_log_likelihood"] = column([](const EvaluationPoint& p) { return p.train_log_likelihood; });
  out["test_log_likelihood"] = column([](const EvaluationPoint& p) { return p.test_log_likelihood; });
  return out;
}

TrainingResult train(const py::handle& data, Eigen::Index hidden, const std::string& algorithm,
                     const std::string& rule, double learning_rate, std::int64_t updates, int batch, int k,
                     std::uint64_t seed, double momentum, double weight_decay, std::int64_t evaluate_every,
                     const py::object& test, const std::string& schedule, int replicas, int d,
                     const std::optional<double>& fast_learning_rate, double fast_decay, bool float32,
                     const std::string& initialisation, const std::optional<std::filesystem::path>& checkpoint,
                     std::int64_t checkpoint_every, bool resume, const py::object& callback) {
  TrainingOptions options;
  options.learning_rate = learning_rate;
  options.updates = updates;
  options.batch_size = batch;
  options.sampling_steps = k;
  options.seed = seed;
  options.momentum = momentum;
  options.weight_decay = weight_decay;
  options.evaluation_interval = evaluate_every;
  options.replicas = replicas;
  options.fast_weight_decay = fast_decay;
  options.sample_in_float = float32;
  // The order of `rbmix train`: the algorithm's preset, the rule, the fast rate, the schedule, the initialisation.
  const Algorithm named = parse_algorithm(algorithm);
  apply_algorithm(options, named, d);
  options.rule = parse_unit_rule(rule);
  if (fast_learning_rate) options.fast_learning_rate = *fast_learning_rate;
  require(named != Algorithm::fpcd || fast_learning_rate.has_value(),
          "fast_learning_rate: fpcd needs the fast learning rate ε_F (001 §2 takes it larger than learning_rate)");
  options.schedule = parse_learning_rate_schedule(schedule);
  apply(parse_parameter_initialisation(initialisation), options);
  if (checkpoint) {
    options.checkpoint_path = checkpoint->string();
    options.checkpoint_interval = checkpoint_every > 0 ? checkpoint_every : options.evaluation_interval;
  }
  options.validate();
  const MatrixD train_rows = binary_matrix(data, "data");
  const MatrixD test_rows = test.is_none() ? MatrixD() : binary_matrix(test, "test", train_rows.cols());

  std::optional<py::error_already_set> python_error;
  TrainingHooks hooks;
  auto last_poll = std::chrono::steady_clock::now();
  hooks.interrupt_requested = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_poll < signal_poll_interval) return python_error.has_value();
    last_poll = now;
    py::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) python_error.emplace();
    return python_error.has_value();
  };
  if (!callback.is_none()) {
    hooks.on_evaluation = [&](const EvaluationPoint& point) {
      if (python_error) return;
      py::gil_scoped_acquire acquire;
      try {
        callback(curve_dict({point}));
      } catch (py::error_already_set& error) {
        python_error.emplace(std::move(error));
      }
    };
  }
  TrainingResult result;
  {
    py::gil_scoped_release release;
    Trainer trainer(options, train_rows, test_rows, hidden);
    if (resume) {
      require(checkpoint && std::filesystem::exists(*checkpoint),
              "resume: no checkpoint to resume from (give checkpoint=PATH of an earlier run)");
      trainer.load_checkpoint(*checkpoint);
    }
    result.summary = trainer.run(hooks);
    result.model = trainer.model();
  }
  if (python_error) throw std::move(*python_error);
  if (result.summary.termination == Termination::diverged) throw std::runtime_error(result.summary.message);
  return result;
}

}  // namespace

void bind_training(py::module_& module) {
  py::class_<TrainingResult>(module, "TrainingResult", "A trained model, its learning curve and why training stopped.")
      .def_readonly("model", &TrainingResult::model)
      .def_property_readonly("learning_curve",
                             [](const TrainingResult& r) { return curve_dict(r.summary.learning_curve); },
                             "dict of arrays: update, epoch, train_log_likelihood, test_log_likelihood (NaN where "
                             "not evaluated)")
      .def_property_readonly("termination", [](const TrainingResult& r) { return to_string(r.summary.termination); })
      .def_property_readonly("message", [](const TrainingResult& r) { return r.summary.message; })
      .def_property_readonly("updates_done", [](const TrainingResult& r) { return r.summary.updates_done; })
      .def_property_readonly("seconds", [](const TrainingResult& r) { return r.summary.seconds; })
      .def("__iter__", [](const TrainingResult& r) {
        return py::iter(py::make_tuple(py::cast(r.model), curve_dict(r.summary.learning_curve)));
      })
      .def("__repr__", [](const TrainingResult& r) { return "rbmix.TrainingResult(" + r.summary.message + ")"; });
  module.def("train", &train, "data"_a, py::kw_only(), "hidden"_a, "algorithm"_a = "cd", "operator"_a = "gibbs",
             "learning_rate"_a = 0.01, "updates"_a = 1000, "batch"_a = 0, "k"_a = 1, "seed"_a = 1,
             "momentum"_a = 0.0, "weight_decay"_a = 0.0, "evaluate_every"_a = 100, "test"_a = py::none(),
             "schedule"_a = "constant", "replicas"_a = 10, "d"_a = 1, "fast_learning_rate"_a = py::none(),
             "fast_decay"_a = 0.95, "float32"_a = false, "init"_a = "base-rate", "checkpoint"_a = py::none(),
             "checkpoint_every"_a = 0, "resume"_a = false, "callback"_a = py::none(),
             "Trains an RBM as `rbmix train` does, with the same option names and defaults (--algo → algorithm, "
             "--lr → learning_rate, --eval-every → evaluate_every, --float → float32, --init → init). data: "
             "(N, n_visible) of 0/1 (float64, float32, uint8 or bool). callback(point) is called at every "
             "evaluation with a learning-curve dict of one point. Ctrl-C raises KeyboardInterrupt after the current "
             "update, leaving checkpoint when given. Returns a TrainingResult (unpacks as model, learning_curve).");
}

}  // namespace rbmix::python
