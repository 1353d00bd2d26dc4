// The inputs `dse merge OUT SHARD...` reads: each shard's journal header (its place K/N and resolved
// config), the shards given as a set (one search, one split, each once, none missing), and each
// shard's trials read under its own header. The input is the shards' journals separated by NUL
// bytes (at most 8 shards): a real journal is a one-shard input. The filesystem checks (a journal
// beside each file, an output over an input) and the search the header's config describes (its
// YAML is fuzz_config's) are left out.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "search/journal.h"
#include "search/merge_inputs.h"
#include "search/search_run.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

constexpr std::size_t kShardsGiven = 8;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input = dse::fuzz::text(data, size);
  std::vector<dse::MergeShard> shards;
  std::size_t start = 0;
  for (std::size_t k = 0; k < kShardsGiven && start <= input.size(); ++k) {
    const std::size_t end = std::min(input.find('\0', start), input.size());
    // Shard k's result file, and its journal beside it as dse run --shard writes it.
    const std::string file = dse::fuzz::process_path(".shard-" + std::to_string(k) + ".h5");
    const std::string journal = dse::shard_journal_path(file);
    dse::fuzz::write_file(journal, data + start, end - start);
    dse::fuzz::expect_result_or_user_error([&] {
      dse::MergeShard shard = dse::shard_from_header(file, journal, dse::read_search_journal_header(journal));
      if (shard.index < 0 || shard.index >= shard.count || shard.count > dse::kMaxShards) __builtin_trap();
      shards.push_back(std::move(shard));
    });
    start = end + 1;
  }
  if (shards.empty()) return 0;
  dse::fuzz::expect_result_or_user_error([&] {
    const dse::MergeShard& first = shards.front();
    const auto by_index = dse::shards_by_index(shards);
    for (const auto& [k, shard] : by_index)
      if (k < 0 || k >= first.count || shard->count != first.count) __builtin_trap();
    dse::check_no_shard_missing(by_index, first.count, dse::fuzz::process_path(".h5"),
                                first.header["config_file"].get<std::string>());
  });
  // Each shard's trials, as the merge reads them once the set is whole.
  for (const auto& shard : shards)
    dse::fuzz::expect_result_or_user_error([&] {
      nlohmann::json extra = shard.header;
      extra.erase("search");
      const auto trials =
          dse::read_journal_trials(shard.journal, shard.header["search"].get<std::string>(), nullptr, nullptr, extra);
      for (const auto& [id, trial] : trials) (void)dse::trial_result_json(trial, 0);
    });
  return 0;
}
