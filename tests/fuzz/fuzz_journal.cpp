// A search journal (OUTPUT.journal.jsonl) as `dse run --resume` reads it: the header line names the
// search, then one JSON trial per line. The search's description is taken from the input's own
// header where it has one, so the trial lines are read rather than the header refused.
#include <nlohmann/json.hpp>

#include "search/journal.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = dse::fuzz::text(data, size);
  const auto header = nlohmann::json::parse(text.substr(0, text.find('\n')), nullptr, false);
  const std::string description = header.is_object() && header.contains("search") && header["search"].is_string()
                                      ? header["search"].get<std::string>()
                                      : "fuzz";
  return dse::fuzz::expect_result_or_user_error([&] {
    std::optional<int> cut_line;
    std::int64_t cut_offset = -1;
    const auto trials =
        dse::read_journal_trials(dse::fuzz::as_file(data, size, ".jsonl"), description, &cut_line, &cut_offset);
    if (cut_offset > static_cast<std::int64_t>(size)) __builtin_trap();
    for (const auto& [id, trial] : trials) (void)dse::trial_result_json(trial, 0);
  });
}
