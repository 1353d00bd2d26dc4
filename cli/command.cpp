#include "cli/command.h"

namespace dse {

void OutputMode::print_json(const nlohmann::json& object) const {
  const std::string text = object.dump(2) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void add_output_flags(CLI::App& command, OutputMode& mode, bool with_quiet) {
  command.add_flag("--json", mode.json, "Print one JSON object on stdout (human text goes to stderr)");
  if (with_quiet) command.add_flag("-q,--quiet", mode.quiet, "Print no human-readable text, only errors");
}

}  // namespace dse
