// Batched chains from Python: rbmix's own sampler (sampling/batched_chains.hpp) running any operator, with the
// energy traces of sampling/energy_trace.hpp (003 §4.3), as `rbmix mixing` runs them. Chain b draws from
// RandomStream(seed, b), so the numbers do not depend on the thread count.
#include "arrays.hpp"
#include "bindings.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/sampling/energy_trace.hpp"

namespace rbmix::python {

using namespace pybind11::literals;

void bind_sampling(py::module_& module) {
  module.def(
      "sample",
      [](const Rbm& rbm, const py::handle& visible, const py::object& hidden, Eigen::Index sweeps,
         const std::string& rule, std::uint64_t seed, Eigen::Index burn_in) {
        const MatrixD start = binary_matrix(visible, "visible", rbm.n_visible());
        require(sweeps >= 1 && burn_in >= 0, "sweeps: at least 1 recorded sweep; burn_in: at least 0");
        const UnitRule parsed = parse_unit_rule(rule);
        BatchedChains<double> chains(start.rows(), rbm.n_visible(), rbm.n_hidden(), seed);
        chains.set_visible(start);
        if (!hidden.is_none()) {
          const MatrixD hidden_start = binary_matrix(hidden, "hidden", rbm.n_hidden());
          require(hidden_start.rows() == start.rows(), "hidden: one row per chain, as visible has");
          chains.hidden() = hidden_start;
        }
        MatrixD traces;
        {
          py::gil_scoped_release release;
          traces = record_energy_trace(chains, rbm, parsed, sweeps, burn_in);
        }
        return py::make_tuple(to_numpy(chains.visible()), to_numpy(chains.hidden()),
                              to_numpy(MatrixD(traces.transpose())));
      },
      "model"_a, "visible"_a, "hidden"_a = py::none(), py::kw_only(), "sweeps"_a = 1, "operator"_a = "gibbs",
      "seed"_a = 1, "burn_in"_a = 0,
      "Runs one chain per row of visible (N, n_visible) of 0/1, hidden states from hidden or 0, with rbmix's "
      "batched sampler under an operator (gibbs, flip, mix:A, naive, unit-modified:γ): burn_in unrecorded sweeps, "
      "then `sweeps` sweeps. Returns (visible, hidden, energies) with energies (N, sweeps), the energy of every "
      "chain after each recorded sweep: rbmix.autocorrelation_time takes it as it is.");
}

}  // namespace rbmix::python
