// `dse report RUN.h5 [MORE.h5 ...] [--out DIR] [--format png|svg] [--compare] [--json]`: plots and
// one self-contained index.html for result files (docs/report.md). The plotting is matplotlib's, in
// scripts/dse_report.py, which this binary carries embedded and runs with the system's Python 3
// (Debian's /usr/bin/python3 with python3-matplotlib, python3-h5py and python3-yaml; DSE_PYTHON
// overrides it).
// Its exit status is the command's: 0 written, 2 bad input (missing, truncated, foreign or malformed
// files) or a report folder that cannot take the report (read-only, full: left as it was).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "models/base/errors.h"

namespace dse {

std::string_view report_script();  // generated from scripts/dse_report.py (cli/CMakeLists.txt)

namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string out;
  std::string format = "png";
  bool compare = false;
  OutputMode mode;  // --json, -q: passed on to the script
};

std::string python_interpreter() {
  if (const char* chosen = std::getenv("DSE_PYTHON"); chosen && *chosen) return chosen;
  // Debian's interpreter is the one its python3-h5py and python3-matplotlib are installed for.
  std::error_code error;
  if (std::filesystem::exists("/usr/bin/python3", error)) return "/usr/bin/python3";
  return "python3";
}

int report(const ReportOptions& options) {
  const std::string python = python_interpreter();
  const std::string script(report_script());
  std::vector<std::string> args{python, "-c", script};
  args.insert(args.end(), options.files.begin(), options.files.end());
  if (!options.out.empty()) args.insert(args.end(), {"--out", options.out});
  args.insert(args.end(), {"--format", options.format});
  if (options.compare) args.push_back("--compare");
  if (options.mode.json) args.push_back("--json");
  if (options.mode.quiet) args.push_back("--quiet");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw UserError("report: cannot start " + python + ": " + std::strerror(errno));
  if (pid == 0) {
    ::execvp(argv[0], argv.data());
    const int reason = errno;
    std::fprintf(
        stderr,
        "dse: error: report: cannot run %s (%s): install Debian's python3, python3-matplotlib, python3-yaml and "
        "python3-h5py (scripts/bootstrap.sh does), or set DSE_PYTHON\n",
        python.c_str(), std::strerror(reason));
    ::_exit(2);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw UserError("report: lost the " + python + " process: " + std::strerror(errno));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  throw UserError("report: " + python + " ended by signal " + std::to_string(WTERMSIG(status)));
}

}  // namespace

Subcommand add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Plots and one self-contained index.html for result files (searches, serving, validation and single runs)");
  command->add_option("files", options->files, "Result files (HDF5) written by dse run or dse validate --output")
      ->required();
  command->add_option("--out", options->out,
                      "Folder for the plots and index.html (default RUN.report/ beside the first file)");
  command->add_option("--format", options->format, "Image format: png or svg (default png)")
      ->check(CLI::IsMember({"png", "svg"}));
  command->add_flag("--compare", options->compare,
                    "Also overlay the runs in shared plots (convergence, latency CDF, power)");
  add_output_flags(*command, options->mode, true);  // --json: {"index", "figures"}
  return {command, [options] { return report(*options); }};
}

}  // namespace dse
