// rbmix._rbmix: the compiled part of the Python package rbmix (tools/python/rbmix, docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "rbmix/core/error.hpp"

PYBIND11_MODULE(_rbmix, module) {
  namespace py = pybind11;
  module.doc() = "rbmix: verified MCMC for binary restricted Boltzmann machines (compiled core)";
  // The version `rbmix --version` reports (CMakeLists.txt's project(); the wheel's metadata reads the same line).
  module.attr("__version__") = RBMIX_VERSION;
  // rbmix::InputError is a ValueError in Python: bad arrays, files and options are bad values.
  py::register_exception<rbmix::InputError>(module, "InputError", PyExc_ValueError);
  rbmix::python::bind_model(module);
  rbmix::python::bind_analysis(module);
  rbmix::python::bind_convergence(module);
  rbmix::python::bind_training(module);
  rbmix::python::bind_experiments(module);
  rbmix::python::bind_sampling(module);
  rbmix::python::bind_ladder(module);
  py::module_ verify = module.def_submodule("verify", "black-box checks of samplers and unit rules (rbmix::verify)");
  rbmix::python::bind_verify(verify);
}
