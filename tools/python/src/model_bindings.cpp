// The model: rbmix.Rbm (W is hidden × visible, algorithms/operators.md §1.1), model files (io/model_file.hpp), random
// models (model/random_rbm.hpp), exact log Z (model/exact.hpp) and AIS (estimation/ais.hpp).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/random_rbm.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

Rbm make_rbm(const py::handle& weights, const py::handle& visible_bias, const py::handle& hidden_bias) {
  Rbm rbm;
  rbm.weights = real_matrix(weights, "weights", false);
  rbm.visible_bias = real_vector(visible_bias, "visible_bias", false);
  rbm.hidden_bias = real_vector(hidden_bias, "hidden_bias", false);
  require(rbm.weights.rows() > 0 && rbm.weights.cols() > 0,
          "weights: an RBM needs at least one hidden and one visible unit (weights is hidden × visible)");
  rbm.validate("Rbm");
  return rbm;
}

std::string describe(const Rbm& rbm) {
  return "rbmix.Rbm(" + std::to_string(rbm.n_visible()) + " visible, " + std::to_string(rbm.n_hidden()) + " hidden)";
}

// rbmix.Rbm: construction from arrays, the parameters, energies, conditionals and saving.
// The provenance given to Rbm.save as strict JSON: NaN and infinities have no JSON spelling (json.dumps would write
// NaN, which no JSON reader takes back); what cannot be written is named by Python's own error.
nlohmann::json provenance_json(const py::object& provenance) {
  try {
    return nlohmann::json::parse(
        std::string(py::str(py::module_::import("json").attr("dumps")(provenance, "allow_nan"_a = false))));
  } catch (const py::error_already_set& error) {
    throw InputError(std::string("provenance: not JSON (") + error.what() + ")");
  }
}

void bind_rbm_class(py::module_& module) {
  py::class_<Rbm>(module, "Rbm",
                  "A binary RBM: E(v, h) = -h·W v - b·v - c·h with W of shape (hidden, visible).")
      .def(py::init(&make_rbm), "weights"_a, "visible_bias"_a, "hidden_bias"_a,
           "weights: (n_hidden, n_visible), visible_bias: (n_visible,), hidden_bias: (n_hidden,); float64 or "
           "float32, finite. Copied.")
      .def_property_readonly(
          "weights", [](const Rbm& rbm) { return read_only(to_numpy(rbm.weights)); },
          "W, (n_hidden, n_visible) float64, read-only: a model changes only through a new rbmix.Rbm (its parameters "
          "are checked once, on construction)")
      .def_property_readonly(
          "visible_bias", [](const Rbm& rbm) { return read_only(to_numpy(rbm.visible_bias)); },
          "b, (n_visible,) float64, read-only")
      .def_property_readonly(
          "hidden_bias", [](const Rbm& rbm) { return read_only(to_numpy(rbm.hidden_bias)); },
          "c, (n_hidden,) float64, read-only")
      .def_property_readonly("n_visible", &Rbm::n_visible)
      .def_property_readonly("n_hidden", &Rbm::n_hidden)
      .def(
          "energy",
          [](const Rbm& rbm, const py::handle& visible, const py::handle& hidden) {
            const MatrixD v = binary_matrix(visible, "visible", rbm.n_visible());
            const MatrixD h = binary_matrix(hidden, "hidden", rbm.n_hidden());
            require(v.rows() == h.rows(), "visible and hidden: one row per sample in each, got " +
                                              std::to_string(v.rows()) + " and " + std::to_string(h.rows()));
            VectorD energy;
            {
              py::gil_scoped_release release;
              energy = rbm.energy(v, h);
            }
            return to_numpy(energy);
          },
          "visible"_a, "hidden"_a, "E(v, h) per row; visible (N, n_visible) and hidden (N, n_hidden) of 0/1.")
      .def(
          "free_energy",
          [](const Rbm& rbm, const py::handle& visible) {
            const MatrixD v = binary_matrix(visible, "visible", rbm.n_visible());
            return to_numpy(VectorD(rbm.free_energy(v)));
          },
          "visible"_a, "F(v) = -b·v - Σ_i softplus(c_i + W_i·v) per row, so that p(v) = exp(-F(v)) / Z.")
      .def(
          "hidden_probabilities",
          [](const Rbm& rbm, const py::handle& visible) {
            return to_numpy(MatrixD(rbm.hidden_probabilities(binary_matrix(visible, "visible", rbm.n_visible()))));
          },
          "visible"_a, "p(h_i = 1 | v) = σ(c_i + W_i·v), (N, n_hidden).")
      .def(
          "visible_probabilities",
          [](const Rbm& rbm, const py::handle& hidden) {
            return to_numpy(MatrixD(rbm.visible_probabilities(binary_matrix(hidden, "hidden", rbm.n_hidden()))));
          },
          "hidden"_a, "p(v_j = 1 | h) = σ(b_j + W_{·j}·h), (N, n_visible).")
      .def(
          "save",
          [](const Rbm& rbm, const std::filesystem::path& path, const py::object& provenance) {
            const nlohmann::json record =
                provenance.is_none() ? nlohmann::json{{"command", "python"}} : provenance_json(provenance);
            save_rbm(path, rbm, record);
          },
          "path"_a, "provenance"_a = py::none(),
          "Writes the model file the CLI writes (.npz: W, b, c, metadata.json); provenance: a JSON-serialisable "
          "dict saying how the model was made.")
      // pickle, copy.deepcopy, joblib and multiprocessing: the state is (W, b, c), checked again on loading.
      .def(py::pickle(
          [](const Rbm& rbm) {
            return py::make_tuple(to_numpy(rbm.weights), to_numpy(rbm.visible_bias), to_numpy(rbm.hidden_bias));
          },
          [](const py::tuple& state) {
            require(state.size() == 3,
                    "Rbm state: (weights, visible_bias, hidden_bias), got " + std::to_string(state.size()) + " items");
            return make_rbm(state[0], state[1], state[2]);
          }))
      .def("__repr__", &describe);
}

// Models from files and from 003 §4.1's random family.
void bind_model_sources(py::module_& module) {
  module.def(
      "load_model", [](const std::filesystem::path& path) { return load_rbm(path).rbm; }, "path"_a,
      "Reads a model file (.npz) as the CLI does; rbmix.InputError names the file and what is wrong.");
  module.def("random_model", &uniform_random_rbm, "visible"_a, "hidden"_a, "weight_range"_a, py::kw_only(),
             "bias_range"_a = 0.0, "seed"_a,
             "As `rbmix model random`: weights uniform in [-weight_range, weight_range], biases in [-bias_range, "
             "bias_range] (003 §4.1); the same seed gives the same model.");
}

// As `rbmix loglik` refuses it: a log Z beyond double's range (parameters too large) is an error, not a number.
void require_finite_log_partition(double log_z, const char* function) {
  require(std::isfinite(log_z),
          std::string(function) + ": log Z is not finite in double precision (parameters too large?)");
}

// log Z, exact by enumeration or by annealed importance sampling.
void bind_log_partition(py::module_& module) {
  module.def(
      "log_partition",
      [](const Rbm& rbm) {
        require(std::min(rbm.n_visible(), rbm.n_hidden()) <= max_enumerated_units,
                "log_partition: the smaller layer has more than " + std::to_string(max_enumerated_units) +
                    " units; use rbmix.ais");
        double log_z = 0.0;
        {
          py::gil_scoped_release release;
          log_z = exact_log_partition(rbm);
        }
        require_finite_log_partition(log_z, "log_partition");
        return log_z;
      },
      "model"_a, "Exact log Z by enumerating the smaller layer (at most 40 units).");

  py::class_<AisResult>(module, "AisResult")
      .def_readonly("log_partition", &AisResult::log_partition)
      .def_readonly("log_partition_lower", &AisResult::log_partition_lower)
      .def_readonly("log_partition_upper", &AisResult::log_partition_upper)
      .def_readonly("base_log_partition", &AisResult::base_log_partition)
      .def_readonly("effective_sample_size", &AisResult::effective_sample_size)
      .def_readonly("distributions", &AisResult::distributions)
      .def_property_readonly("log_weights", [](const AisResult& result) { return to_numpy(result.log_weights); })
      .def("__repr__", [](const AisResult& result) {
        return "rbmix.AisResult(log_partition=" + std::to_string(result.log_partition) + ", band=[" +
               std::to_string(result.log_partition_lower) + ", " + std::to_string(result.log_partition_upper) + "])";
      });
  module.def(
      "ais",
      [](const Rbm& rbm, Eigen::Index particles, Eigen::Index distributions, const std::string& schedule,
         std::uint64_t seed, const py::object& data, bool float32, const std::string& rule) {
        AisOptions options;
        options.particles = particles;
        options.distributions = distributions;
        options.schedule = parse_ais_schedule(schedule);
        options.seed = seed;
        options.single_precision = float32;
        options.rule = parse_unit_rule(rule);
        if (!data.is_none()) options.base_visible_bias = base_rate_visible_bias(binary_matrix(data, "data", rbm.n_visible()));
        AisResult result;
        {
          py::gil_scoped_release release;
          result = ais_log_partition(rbm, options);
        }
        require_finite_log_partition(result.log_partition, "ais");
        return result;
      },
      "model"_a, py::kw_only(), "particles"_a = 100, "distributions"_a = 10000, "schedule"_a = "linear",
      "seed"_a = 1, "data"_a = py::none(), "float32"_a = true, "operator"_a = "gibbs",
      "Annealed importance sampling of log Z (as `rbmix loglik --ais`); data (0/1 rows) sets the base-rate "
      "base model, else the base is uniform.");
}

}  // namespace

void bind_model(py::module_& module) {
  bind_rbm_class(module);
  bind_model_sources(module);
  bind_log_partition(module);
}

}  // namespace rbmix::python
