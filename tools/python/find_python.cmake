# Finds what the Python front-end needs: a Python 3 interpreter with its headers, and pybind11 (RBMIX_PYTHON_FOUND:
# the module can be built), and numpy, which the module needs at run time only (RBMIX_PYTHON_NUMPY_FOUND: it can be
# imported and tested here). The pip build (tools/python/packaging) builds it where pip's isolated build environment
# hides numpy, which the wheel declares as its dependency instead. Debian's /usr/bin/python3 is preferred where the
# user names no interpreter: another python3 earlier on the PATH (pyenv, conda) often lacks numpy, and Debian's
# python3-numpy and pybind11-dev belong to it.
if(NOT DEFINED Python3_EXECUTABLE AND NOT DEFINED Python3_ROOT_DIR AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the rbmix Python module")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module OPTIONAL_COMPONENTS NumPy QUIET)
set(RBMIX_PYTHON_FOUND OFF)
set(RBMIX_PYTHON_NUMPY_FOUND ${Python3_NumPy_FOUND})
if(Python3_Interpreter_FOUND AND Python3_Development.Module_FOUND)
  # pybind11 from Debian's pybind11-dev, or the one installed into that interpreter (pip install pybind11).
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pybind11; print(pybind11.get_cmake_dir())"
                  OUTPUT_VARIABLE rbmix_pybind11_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  find_package(pybind11 CONFIG QUIET HINTS ${rbmix_pybind11_dir})
  if(pybind11_FOUND)
    set(RBMIX_PYTHON_FOUND ON)
  endif()
endif()
