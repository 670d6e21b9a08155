// Exact analysis of operators on tiny models (as `rbmix analyze`, analysis/operator_analysis.hpp) and the
// integrated autocorrelation time of traces (analysis/integrated_autocorrelation_time.hpp).
#include <pybind11/stl.h>

#include <sstream>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/model/tempering.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

// A list of operator names, or one comma-separated string as `rbmix analyze --operators` takes.
std::vector<analysis::OperatorSpecification> parse_operators(const py::handle& operators) {
  std::vector<std::string> names;
  if (py::isinstance<py::str>(operators)) {
    std::stringstream stream(operators.cast<std::string>());
    for (std::string item; std::getline(stream, item, ',');) names.push_back(item);
  } else {
    for (const py::handle item : operators) {
      require(py::isinstance<py::str>(item), "operators: every operator is a name such as 'gibbs' or 'mix:0.5'");
      names.push_back(item.cast<std::string>());
    }
  }
  std::vector<analysis::OperatorSpecification> out;
  for (const std::string& name : names) out.push_back(analysis::parse_operator_specification(name));
  require(!out.empty(), "operators: give at least one operator (gibbs, flip, mix:A, naive, modified:RULE)");
  return out;
}

// rbmix.analyze and its OperatorAnalysis: the exact builder's verdicts.
void bind_operator_analysis(py::module_& module) {
  py::class_<analysis::OperatorAnalysis>(module, "OperatorAnalysis",
                                         "The exact analysis of one operator (as one block of `rbmix analyze`).")
      .def_readonly("name", &analysis::OperatorAnalysis::name)
      .def_readonly("states", &analysis::OperatorAnalysis::states)
      .def_readonly("representation", &analysis::OperatorAnalysis::representation)
      .def_readonly("stationarity_residual", &analysis::OperatorAnalysis::stationarity_residual,
                    "||π K - π||_1")
      .def_readonly("row_sum_error", &analysis::OperatorAnalysis::row_sum_error)
      .def_readonly("layer_detailed_balance_error", &analysis::OperatorAnalysis::layer_detailed_balance_error)
      .def_readonly("lambda_", &analysis::OperatorAnalysis::lambda, "λ of a modified operator")
      .def_property_readonly("communicating_classes",
                             [](const analysis::OperatorAnalysis& a) { return a.ergodicity.communicating_classes; })
      .def_property_readonly("irreducible", [](const analysis::OperatorAnalysis& a) { return a.ergodicity.irreducible; })
      .def_property_readonly("period", [](const analysis::OperatorAnalysis& a) { return a.ergodicity.period; })
      .def_property_readonly("slem", [](const analysis::OperatorAnalysis& a) { return a.slem.slem; })
      .def_property_readonly("slem_method", [](const analysis::OperatorAnalysis& a) { return a.slem.method; })
      .def_property_readonly("slem_converged", [](const analysis::OperatorAnalysis& a) { return a.slem.converged; })
      .def_readonly("energy_tau", &analysis::OperatorAnalysis::energy_autocorrelation_time,
                    "the exact integrated autocorrelation time of the energy (None where unavailable)")
      .def_readonly("energy_tau_unavailable", &analysis::OperatorAnalysis::energy_autocorrelation_time_unavailable)
      .def("__repr__", [](const analysis::OperatorAnalysis& a) {
        std::ostringstream text;
        text << "rbmix.OperatorAnalysis(" << a.name << ": slem=" << a.slem.slem
             << ", irreducible=" << (a.ergodicity.irreducible ? "True" : "False") << ", period=" << a.ergodicity.period
             << ")";
        return text.str();
      });
  module.def(
      "analyze",
      [](const Rbm& rbm, const py::handle& operators, double beta) {
        validate_inverse_temperature(beta);
        const std::vector<analysis::OperatorSpecification> specifications = parse_operators(operators);
        py::gil_scoped_release release;
        std::vector<analysis::OperatorAnalysis> results;
        for (const auto& specification : specifications)
          results.push_back(analysis::analyse_operator(rbm, specification, beta));
        return results;
      },
      "model"_a, "operators"_a = std::vector<std::string>{"gibbs", "flip"}, "beta"_a = 1.0,
      "Exact analysis of each operator on a model small enough to enumerate (as `rbmix analyze`): operators are "
      "names as the CLI takes them (gibbs, flip, mix:A, naive, unit-modified:γ, modified:RULE), as a list or one "
      "comma-separated string. One OperatorAnalysis per operator.");
}

// rbmix.autocorrelation_time: every estimator of docs/algorithms/mixing-metrics.md §6.5 on any trace.
void bind_autocorrelation_time(py::module_& module) {
  py::class_<analysis::IntegratedTimeEstimate>(module, "AutocorrelationTime",
                                               "An estimate of the integrated autocorrelation time τ.")
      .def_readonly("method", &analysis::IntegratedTimeEstimate::method)
      .def_readonly("time", &analysis::IntegratedTimeEstimate::time, "τ̂")
      .def_readonly("lower", &analysis::IntegratedTimeEstimate::lower,
                    "95 % interval: the method's own band joined with the long batch means' interval "
                    "(docs/algorithms/mixing-metrics.md §6.2.1); NaN where there is none")
      .def_readonly("upper", &analysis::IntegratedTimeEstimate::upper)
      .def_readonly("band_lower", &analysis::IntegratedTimeEstimate::band_lower,
                    "the method's own 95 % band, before the join")
      .def_readonly("band_upper", &analysis::IntegratedTimeEstimate::band_upper)
      .def_readonly("cutoff", &analysis::IntegratedTimeEstimate::cutoff,
                    "the AR order, the window M, or the last lag summed")
      .def_readonly("trusted", &analysis::IntegratedTimeEstimate::trusted)
      .def_readonly("reason", &analysis::IntegratedTimeEstimate::warning, "why it is not trusted; empty if trusted")
      .def("__float__", [](const analysis::IntegratedTimeEstimate& e) { return e.time; })
      .def("__repr__", [](const analysis::IntegratedTimeEstimate& e) {
        std::ostringstream text;
        text << "rbmix.AutocorrelationTime(" << e.method << ": " << e.time << ", trusted=" << (e.trusted ? "True" : "False")
             << ")";
        return text.str();
      });
  module.def(
      "autocorrelation_time",
      [](const py::handle& series, const std::string& method) {
        const py::array array = py::isinstance<py::array>(series) ? py::reinterpret_borrow<py::array>(series)
                                                                  : py::array(py::module_::import("numpy").attr("asarray")(series));
        require(array.ndim() == 1 || array.ndim() == 2,
                "series: expected a 1-D array (steps) or a 2-D array (chains × steps), found " +
                    std::to_string(array.ndim()) + "-D");
        // The library's traces are one row per step and one column per chain.
        const MatrixD traces = array.ndim() == 1
                                   ? MatrixD(real_vector(array, "series", false))
                                   : MatrixD(real_matrix(array, "series", false).transpose());
        require(traces.rows() >= analysis::min_mixing_steps, [&] {
          return "series: each chain needs at least " + std::to_string(analysis::min_mixing_steps) +
                 " steps (the estimators split it into halves of 4); the shape is " + shape_text(array);
        });
        analysis::validate_traces(traces, "series");
        analysis::MixingDiagnostics diagnostics;
        {
          py::gil_scoped_release release;
          diagnostics = analysis::mixing_diagnostics(traces);
        }
        std::string methods;
        for (const auto& estimate : diagnostics.estimates) {
          if (estimate.method == method) return estimate;
          methods += (methods.empty() ? "" : ", ") + estimate.method;
        }
        throw InputError("method: '" + method + "' is not one of " + methods);
      },
      "series"_a, "method"_a = analysis::recommended_integrated_time_method,
      "The integrated autocorrelation time of a trace (steps,) or of several chains (chains, steps), float64 or "
      "float32, with its 95 % interval (lower, upper): initial_monotone_sequence (Geyer over split chains, as Stan; "
      "the estimate the calibration recommends, docs/algorithms/calibration.md §6.7), autoregressive (AR(p), as 003), "
      "adaptive_window (Sokal's window, emcee's integrated_time), initial_positive_sequence, rank_normalised, "
      "batch_means or overlapping_batch_means. `trusted` applies the trust rule (the method's own checks, R̂, at "
      "least 50 τ̂ per chain, a narrow interval, agreement with the batch-means cross-check) and `reason` says why "
      "not.");
  module.def(
      "rhat_nested",
      [](const py::handle& series, const py::handle& superchain_ids) {
        const MatrixD chains_by_steps = real_matrix(py::module_::import("numpy").attr("asarray")(series), "series");
        std::vector<Eigen::Index> superchain_of_chain;
        for (const py::handle label : py::iter(superchain_ids))
          superchain_of_chain.push_back(py::cast<Eigen::Index>(label));
        const MatrixD traces = chains_by_steps.transpose();  // the library's steps × chains
        py::gil_scoped_release release;
        return analysis::rank_normalised_split_nested_potential_scale_reduction(traces, superchain_of_chain);
      },
      "series"_a, "superchain_ids"_a,
      "Nested R̂ (Margossian et al. 2024) of chains (chains, steps), float64 or float32, as ArviZ's rhat_nested "
      "(rank-normalised, split; the larger of the bulk and the folded values): superchain_ids gives each chain's "
      "superchain, 0 … K − 1, K ≥ 2, each superchain with as many chains, the chains of a superchain started from "
      "one shared state. Near 1 when the superchains forgot their starts; `rbmix mixing --superchains K` reports the "
      "same number for K superchains of consecutive chains.");
}

}  // namespace

void bind_analysis(py::module_& module) {
  bind_operator_analysis(module);
  bind_autocorrelation_time(module);
}

}  // namespace rbmix::python
