// rbmix.convergence_bound and rbmix.exact_total_variation: the L-lag coupling bound on the distance to the RBM's
// distribution after t sweeps (as `rbmix convergence`, analysis/convergence_bound.hpp) and the exact distance it is
// set beside on tiny models (analysis/exact_total_variation.hpp).
#include <pybind11/stl.h>

#include <sstream>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/analysis/convergence_bound.hpp"
#include "rbmix/analysis/exact_total_variation.hpp"
#include "rbmix/analysis/operator_analysis.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;

// A start as the CLI writes it ("zeros", "ones", "uniform", "data:FILE"), or a 2-D 0/1 array of visible rows.
analysis::StartDistribution parse_start(const py::handle& start, const Rbm& rbm) {
  if (py::isinstance<py::str>(start)) return analysis::parse_start_distribution(start.cast<std::string>());
  return {analysis::StartDistribution::Kind::data, binary_matrix(start, "start", rbm.n_visible()), "array"};
}

}  // namespace

void bind_convergence(py::module_& module) {
  py::class_<analysis::ConvergenceBound>(
      module, "ConvergenceBound",
      "Upper bounds on the distance to the RBM's distribution after t sweeps from R coupled pairs (as `rbmix "
      "convergence`). The curves are indexed by t and empty unless bound_available: a pair that did not meet, or a "
      "sweep that is not ergodic, leaves the bound unknown.")
      .def_readonly("lag", &analysis::ConvergenceBound::lag)
      .def_readonly("max_sweeps", &analysis::ConvergenceBound::max_sweeps)
      .def_readonly("meeting_times", &analysis::ConvergenceBound::meeting_times,
                    "τ of every pair (None where the pair did not meet within max_sweeps)")
      .def_readonly("met", &analysis::ConvergenceBound::met)
      .def_property_readonly("share_met", &analysis::ConvergenceBound::share_met)
      .def_property_readonly("bound_available", &analysis::ConvergenceBound::bound_available)
      .def_readonly("withheld", &analysis::ConvergenceBound::withheld,
                    "why the bound is withheld although every pair met (a failed check), or ''")
      .def_property_readonly("ergodicity", [](const analysis::ConvergenceBound& b) { return to_string(b.ergodicity); })
      .def_property_readonly(
          "total_variation", [](const analysis::ConvergenceBound& b) { return to_numpy(b.total_variation); },
          "the bound on d_TV(π₀Pᵗ, π), t = 0, 1, …")
      .def_property_readonly(
          "total_variation_standard_error",
          [](const analysis::ConvergenceBound& b) { return to_numpy(b.total_variation_standard_error); })
      .def_property_readonly(
          "wasserstein", [](const analysis::ConvergenceBound& b) { return to_numpy(b.wasserstein); },
          "the bound on the Hamming 1-Wasserstein distance")
      .def_property_readonly("wasserstein_standard_error",
                             [](const analysis::ConvergenceBound& b) { return to_numpy(b.wasserstein_standard_error); })
      .def("mixing_time", &analysis::ConvergenceBound::mixing_time, "epsilon"_a = 0.25,
           "t_mix(ε) read from the bound: the first t with bound ≤ ε (None without a bound)")
      .def("__repr__", [](const analysis::ConvergenceBound& b) {
        std::ostringstream text;
        text << "rbmix.ConvergenceBound(lag=" << b.lag << ", met=" << b.met << " of " << b.meeting_times.size()
             << ", bound_available=" << (b.bound_available() ? "True" : "False") << ")";
        return text.str();
      });
  module.def(
      "convergence_bound",
      [](const Rbm& rbm, const std::string& operator_name, Eigen::Index lag, Eigen::Index pairs,
         const py::handle& start, Eigen::Index max_sweeps, std::uint64_t seed, double beta, Eigen::Index maximal_within,
         bool float32) {
        const analysis::OperatorSpecification specification = analysis::parse_operator_specification(operator_name);
        analysis::ConvergenceBoundOptions options;
        options.rule = specification.rule;
        options.modified_sweep = specification.modified;
        options.lag = lag;
        options.pairs = pairs;
        options.max_sweeps = max_sweeps;
        options.seed = seed;
        options.inverse_temperature = beta;
        options.maximal_coupling_distance = maximal_within;
        options.single_precision = float32;
        options.validate();
        const analysis::StartDistribution start_distribution = parse_start(start, rbm);
        py::gil_scoped_release release;
        return analysis::convergence_bound(rbm, start_distribution, options);
      },
      "model"_a, "operator"_a = "gibbs", "lag"_a = 1, "pairs"_a = 100, "start"_a = "uniform", "max_sweeps"_a = 10000,
      "seed"_a = 1, "beta"_a = 1.0, "maximal_within"_a = analysis::default_maximal_coupling_distance,
      "float32"_a = false,
      "The L-lag coupling bound on d_TV(π₀Pᵗ, π) and on the Hamming-Wasserstein distance with Monte Carlo standard "
      "errors, from `pairs` coupled pairs (as `rbmix convergence`, the same options). start: 'zeros', 'ones', "
      "'uniform', 'data:FILE', or a 2-D 0/1 array of visible rows (hidden drawn from p(h | v)). Pairs within "
      "`maximal_within` differing units use the maximal coupling of each layer, further ones shared uniforms (-1: "
      "shared uniforms only). Any model size; operator 'modified:RULE' (the whole-sweep modified matrix) for at most "
      "10 units.");
  module.def(
      "exact_total_variation",
      [](const Rbm& rbm, const std::string& operator_name, const py::handle& start, Eigen::Index sweeps, double beta) {
        const analysis::OperatorSpecification specification = analysis::parse_operator_specification(operator_name);
        const analysis::StartDistribution start_distribution = parse_start(start, rbm);
        VectorD distances;
        {
          py::gil_scoped_release release;
          distances = analysis::exact_total_variation(rbm, specification.rule, beta, start_distribution, sweeps,
                                                      specification.modified);
        }
        return to_numpy(distances);
      },
      "model"_a, "operator"_a = "gibbs", "start"_a = "uniform", "sweeps"_a = 100, "beta"_a = 1.0,
      "The exact d_TV(π₀Pᵗ, π) for t = 0 … sweeps on a model of at most 20 units (matrix-free), for the start "
      "distributions convergence_bound takes: the truth a bound is set beside.");
}

}  // namespace rbmix::python
