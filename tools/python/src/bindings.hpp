#pragma once
// The parts of the Python module rbmix._rbmix, one per area of the library; module.cpp calls them in order. Each is
// a thin layer: arrays are checked at the boundary (arrays.hpp), the library does the work with the GIL released,
// and callbacks into Python re-acquire it.
#include <pybind11/pybind11.h>

namespace rbmix::python {

namespace py = pybind11;

void bind_model(py::module_& module);      // Rbm, load_model, random_model, log_partition, ais
void bind_analysis(py::module_& module);   // analyze, autocorrelation_time
void bind_convergence(py::module_& module);  // convergence_bound, exact_total_variation
void bind_training(py::module_& module);   // train
void bind_sampling(py::module_& module);   // sample
void bind_ladder(py::module_& module);     // place_ladder, sample_ptt, ladder_convergence_bound
void bind_verify(py::module_& verify);     // audit_sampler, check_rule
void bind_experiments(py::module_& module);  // experiments, run_experiment

}  // namespace rbmix::python
