# Finds what the Python front-end needs: a Python 3 interpreter with its headers and numpy, and pybind11. Sets
# RBMIX_PYTHON_FOUND. Debian's /usr/bin/python3 is preferred where the user names no interpreter: another python3
# earlier on the PATH (pyenv, conda) often lacks numpy, and Debian's python3-numpy and pybind11-dev belong to it.
if(NOT DEFINED Python3_EXECUTABLE AND NOT DEFINED Python3_ROOT_DIR AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of the rbmix Python module")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module NumPy QUIET)
set(RBMIX_PYTHON_FOUND OFF)
if(Python3_FOUND AND Python3_NumPy_FOUND)
  # pybind11 from Debian's pybind11-dev, or the one installed into that interpreter (pip install pybind11).
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pybind11; print(pybind11.get_cmake_dir())"
                  OUTPUT_VARIABLE rbmix_pybind11_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  find_package(pybind11 CONFIG QUIET HINTS ${rbmix_pybind11_dir})
  if(pybind11_FOUND)
    set(RBMIX_PYTHON_FOUND ON)
  endif()
endif()
