// Worker processes for measurements: each runs one request (a line on its stdin) and answers on its
// stdout, so a kernel that crashes, hangs or corrupts its CUDA context takes only its own process
// down (TVM's and DOPpler's runners isolate candidates the same way).
#pragma once

#include <string>
#include <vector>

namespace dse {

struct WorkerRun {
  int exit_code = 0;       // the worker's exit status (-1 if it was killed or could not start)
  bool timed_out = false;  // killed at the timeout
  std::string out, err;    // what it wrote
  double wall_s = 0;       // from its start to its end
};

// Starts `program args...` once per request, all at once, writes each its request and closes its
// stdin, and collects what they write until each exits or `timeout_s` passes (then it is killed).
std::vector<WorkerRun> run_workers(const std::string& program, const std::vector<std::string>& args,
                                   const std::vector<std::string>& requests, double timeout_s);

}  // namespace dse
