# Every dependency comes from a Debian 12 package; scripts/bootstrap.sh installs them.
find_package(Boost 1.74 REQUIRED)                 # libboost-graph-dev (Boost.Graph is header-only here)
find_package(TBB REQUIRED)                        # libtbb-dev
find_package(yaml-cpp REQUIRED)                   # libyaml-cpp-dev (used only in sim/config)
find_package(HDF5 REQUIRED COMPONENTS C)          # libhdf5-dev
find_package(CLI11 REQUIRED)                      # libcli11-dev
find_package(nlohmann_json 3.10 REQUIRED)         # nlohmann-json3-dev
find_package(fmt REQUIRED)                        # libfmt-dev
find_package(Eigen3 REQUIRED NO_MODULE)           # libeigen3-dev (Levenberg-Marquardt for calibration fits)
find_package(Pagmo REQUIRED)                      # libpagmo-dev (CMA-ES, hypervolume)
find_library(GLPK_LIBRARY glpk REQUIRED)          # libglpk-dev (the fusion ILP)
find_path(GLPK_INCLUDE_DIR glpk.h REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)  # libinih-dev (SCALE-Sim .cfg files)
find_package(Protobuf REQUIRED)                   # libprotobuf-dev (ONNX's CMake package needs it first)
find_package(ONNX REQUIRED)                       # libonnx-dev
if(DSE_BUILD_TESTS)
  find_package(GTest REQUIRED)                    # libgtest-dev
endif()
if(DSE_BUILD_BENCH)
  find_package(benchmark QUIET)                   # libbenchmark-dev (optional)
endif()

find_package(Threads REQUIRED)                  # the calibration backends' samplers

# Optional: CUDA (real GPU measurements) and MPI (cluster sweeps).
function(dse_optional_feature feature mode out)
  if(NOT mode MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "DSE_WITH_${feature} must be AUTO, ON or OFF, got '${mode}'")
  endif()
  set(${out} ${mode} PARENT_SCOPE)
endfunction()

set(DSE_HAVE_CUDA OFF)
dse_optional_feature(CUDA "${DSE_WITH_CUDA}" cuda_mode)
if(NOT cuda_mode STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND)
      set(DSE_HAVE_CUDA ON)
    endif()
  endif()
  if(cuda_mode STREQUAL "ON" AND NOT DSE_HAVE_CUDA)
    message(FATAL_ERROR "DSE_WITH_CUDA=ON but no usable CUDA compiler/toolkit was found")
  endif()
endif()

set(DSE_HAVE_MPI OFF)
dse_optional_feature(MPI "${DSE_WITH_MPI}" mpi_mode)
if(NOT mpi_mode STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(DSE_HAVE_MPI ON)
  elseif(mpi_mode STREQUAL "ON")
    message(FATAL_ERROR "DSE_WITH_MPI=ON but no MPI C++ library was found (apt-get install libopenmpi-dev)")
  endif()
endif()
