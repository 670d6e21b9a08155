// rbmix.verify: the black-box audit of a Python sampler (verify/black_box_audit.hpp) and the checks of a Python
// unit rule (verify/rule_contract.hpp, verify/operator_invariants.hpp), run by the same C++ code as a C++ user's.
// The library runs with the GIL released; the Python callbacks re-acquire it.
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "rbmix/verify/black_box_audit.hpp"
#include "rbmix/verify/operator_invariants.hpp"
#include "rbmix/verify/rule_contract.hpp"

namespace rbmix::python {
namespace {

using namespace pybind11::literals;
using verify::VerificationResult;

// The audit's step from a Python function step(visible, hidden, rng) -> (visible, hidden); rng is one
// numpy.random.Generator seeded from `seed` and passed to every call.
verify::BatchStep python_step(const py::object& step, std::uint64_t seed) {
  py::object rng = py::module_::import("numpy").attr("random").attr("default_rng")(seed);
  auto shared = std::make_shared<std::pair<py::object, py::object>>(step, rng);
  return [shared](MatrixD& visible, MatrixD& hidden) {
    py::gil_scoped_acquire acquire;
    const py::object out = shared->first(to_numpy(visible), to_numpy(hidden), shared->second);
    require(py::isinstance<py::tuple>(out) && py::len(out) == 2,
            "sampler step: must return the pair (visible, hidden) of next states");
    const py::tuple pair = out.cast<py::tuple>();
    visible = binary_matrix(pair[0], "sampler step: visible");
    hidden = binary_matrix(pair[1], "sampler step: hidden");
  };
}

// A unit rule written in Python: probability_of_one(x, s, decay) on numpy arrays (vectorised), called here one unit
// at a time with arrays of one entry, and cached per (x, s, decay): the checks evaluate few distinct points many
// times. The claim of per-unit detailed balance is the rule's type, as for a C++ rule; its claim of ergodicity is the
// caller's (check_rule's `ergodic`).
template <bool Balanced>
struct PythonRule {
  static constexpr std::string_view name = "python";
  static constexpr std::string_view description = "a unit rule written in Python";
  static constexpr bool per_unit_detailed_balance = Balanced;
  bool ergodic = true;
  bool claims_ergodicity() const { return ergodic; }
  struct Shared {
    py::object function;
    std::map<std::tuple<double, double, double>, double> cache;
  };
  std::shared_ptr<Shared> shared;

  double evaluate(double x, double s, double decay) const {
    const auto key = std::make_tuple(x, s, decay);
    if (const auto found = shared->cache.find(key); found != shared->cache.end()) return found->second;
    py::gil_scoped_acquire acquire;
    const py::module_ numpy = py::module_::import("numpy");
    const auto one = [&](double value) { return numpy.attr("full")(1, value); };
    const py::object out = shared->function(one(x), one(s), one(decay));
    const double p = py::cast<double>(
        numpy.attr("broadcast_to")(numpy.attr("asarray")(out, "dtype"_a = "float64"), 1).attr("__getitem__")(0));
    shared->cache.emplace(key, p);
    return p;
  }
  double probability_of_one(double x, double s, double decay) const { return evaluate(x, s, decay); }
  float probability_of_one(float x, float s, float decay) const {
    return static_cast<float>(evaluate(x, s, decay));
  }
};

// The tiny RBMs a Python rule's operator is checked on: random ones with continuous parameters, and tied ones
// (integer weights, zero biases, and W = 0) where inputs of exactly 0 occur and a tie rule is needed.
std::vector<Rbm> rule_check_models(std::uint64_t seed) {
  std::vector<Rbm> models;
  for (std::uint64_t k = 0; k < 3; ++k) models.push_back(uniform_random_rbm(3, 3, 2.0, 1.0, seed + k));
  for (std::uint64_t k = 0; k < 3; ++k) {
    Rbm tied = uniform_random_rbm(3, 2, 1.49, 0.0, seed + 100 + k);
    tied.weights = tied.weights.array().round().matrix();  // −1, 0, 1
    models.push_back(tied);
  }
  models.emplace_back(2, 2);
  return models;
}

template <bool Balanced>
VerificationResult check_python_rule(const py::object& function, bool ergodic, std::uint64_t seed,
                                     const std::vector<Rbm>& models) {
  PythonRule<Balanced> rule{ergodic, std::make_shared<typename PythonRule<Balanced>::Shared>()};
  rule.shared->function = function;
  VerificationResult contract = verify::check_rule_contract_on_grid(rule);
  if (!contract) return contract;
  const std::vector<Rbm> checked = models.empty() ? rule_check_models(seed) : models;
  for (const Rbm& rbm : checked) {
    VerificationResult invariants = verify::check_operator_invariants(rbm, rule, 1.0);
    if (!invariants) return invariants;
  }
  std::ostringstream message;
  message << contract.message << "; its exact operator keeps every invariant on " << checked.size()
          << " tiny RBMs (ties included)";
  return VerificationResult::pass(message.str());
}

py::dict audit_dict(const verify::AuditResult& result) {
  py::dict out;
  out["passed"] = result.verdict.passed;
  out["message"] = result.verdict.message;
  return out;
}

}  // namespace

void bind_verify(py::module_& verify) {
  py::class_<VerificationResult>(verify, "VerificationResult", "passed, and a message saying what was checked")
      .def_readonly("passed", &VerificationResult::passed)
      .def_readonly("message", &VerificationResult::message)
      .def("__bool__", [](const VerificationResult& r) { return r.passed; })
      .def("__repr__", [](const VerificationResult& r) {
        std::ostringstream text;
        text << r;
        return text.str();
      });
  py::class_<verify::AuditResult>(verify, "AuditResult", "The verdict of audit_sampler and what it measured.")
      .def_property_readonly("passed", [](const verify::AuditResult& r) { return r.verdict.passed; })
      .def_property_readonly("message", [](const verify::AuditResult& r) { return r.verdict.message; })
      .def_readonly("invariance", &verify::AuditResult::invariance)
      .def_readonly("ergodicity", &verify::AuditResult::ergodicity)
      .def_readonly("same_as", &verify::AuditResult::same_as)
      .def_readonly("invariance_p_value", &verify::AuditResult::invariance_p_value)
      .def_readonly("threshold", &verify::AuditResult::threshold, "per χ² test, after Bonferroni")
      .def_property_readonly("irreducible",
                             [](const verify::AuditResult& r) { return r.empirical_ergodicity.irreducible; })
      .def_property_readonly("period", [](const verify::AuditResult& r) { return r.empirical_ergodicity.period; })
      .def_property_readonly("communicating_classes",
                             [](const verify::AuditResult& r) { return r.empirical_ergodicity.communicating_classes; })
      .def_property_readonly("slem", [](const verify::AuditResult& r) { return r.empirical_slem.estimate; })
      .def_property_readonly("slem_interval", [](const verify::AuditResult& r) {
        return py::make_tuple(r.empirical_slem.lower, r.empirical_slem.upper);
      })
      .def_readonly("same_as_slem", &verify::AuditResult::same_as_slem)
      .def_readonly("states", &verify::AuditResult::states)
      .def("__bool__", [](const verify::AuditResult& r) { return r.verdict.passed; })
      .def("__repr__", [](const verify::AuditResult& r) { return std::string(py::repr(audit_dict(r))); });

  verify.def(
      "audit_sampler",
      [](const Rbm& rbm, const py::object& step, Eigen::Index chains, Eigen::Index invariance_chains,
         std::uint64_t seed, const std::optional<std::string>& same_as, double beta, double false_failure_rate,
         int bootstrap_replicates) {
        verify::AuditOptions options;
        options.chains_per_start = chains;
        options.invariance_chains = invariance_chains;
        options.seed = seed;
        if (same_as) options.same_as = parse_unit_rule(*same_as);
        options.inverse_temperature = beta;
        options.false_failure_rate = false_failure_rate;
        options.bootstrap_replicates = bootstrap_replicates;
        options.validate();
        const verify::BatchStep batch_step = python_step(step, seed);
        py::gil_scoped_release release;
        return verify::audit_sampler(rbm, batch_step, options);
      },
      "model"_a, "step"_a, py::kw_only(), "chains"_a = 20000, "invariance_chains"_a = 200000, "seed"_a = 20240611,
      "same_as"_a = py::none(), "beta"_a = 1.0, "false_failure_rate"_a = 1e-6, "bootstrap_replicates"_a = verify::AuditOptions{}.bootstrap_replicates,
      "Audits a sampler given only as step(visible, hidden, rng) -> (visible, hidden), which advances every row "
      "(one chain; float64 arrays of 0/1) by one step, drawing from rng (a numpy.random.Generator seeded from "
      "seed). On a tiny model (at most 10 units): (a) π invariance from exact samples of π by χ²; (b) "
      "irreducibility and aperiodicity of the observed transitions from `chains` chains per joint state, and "
      "their SLEM with a bootstrap interval; (c) with same_as (an operator name), every row against that "
      "operator's exact row by χ². A correct sampler fails (a) and (c) with probability at most "
      "false_failure_rate (Bonferroni).");

  verify.def(
      "check_rule",
      [](const py::object& probability_of_one, bool per_unit_detailed_balance, bool ergodic, std::uint64_t seed,
         const std::vector<Rbm>& models) {
        py::gil_scoped_release release;
        return per_unit_detailed_balance ? check_python_rule<true>(probability_of_one, ergodic, seed, models)
                                         : check_python_rule<false>(probability_of_one, ergodic, seed, models);
      },
      "probability_of_one"_a, py::kw_only(), "per_unit_detailed_balance"_a = true, "ergodic"_a = true,
      "seed"_a = 1, "models"_a = std::vector<Rbm>{},
      "Checks a unit rule written in Python as rbmix checks its own: probability_of_one(x, s, decay) gives "
      "P(next = 1 | input x, current state s) from numpy arrays x, s and decay = exp(-|x|). First the rule "
      "contract on a fixed grid (ties included), then the invariants of its exact operator (rows, π "
      "stationary, layer detailed balance where claimed, exact structural zeros, ergodicity where claimed) on "
      "tiny RBMs with and without ties (or on `models`). Returns a VerificationResult naming the first failure.");
}

}  // namespace rbmix::python
