#include "sim/output/build_info.h"

namespace dse {

bool built_with_cuda() {
#ifdef DSE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

bool built_with_mpi() {
#ifdef DSE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace dse
