// The search journal (OUTPUT.journal.jsonl): one JSON line per finished trial after a header line
// naming the search, flushed as each is written, so a killed search resumes from it (--resume).
//
// It is also the output's lock: while a search runs it holds an exclusive flock on the journal, so
// a second run on the same output stops at once instead of interleaving lines. Starting without
// --resume or --force refuses a journal that holds trials; --resume refuses one of another search
// and one with a corrupt line before its end (only the last line may be cut short, by a kill); a
// failed write (a full disk) stops the search with the reason, the trials before it kept.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "search/strategy.h"
#include "sim/output/jsonl_journal.h"

namespace dse {

// One trial as a journal line (and as the MPI exchange sends it), and back; the reader throws on a
// record that is not one.
nlohmann::json trial_result_json(const TrialResult& result, double wall_s);
TrialResult trial_result_from_json(const nlohmann::json& json);

// The search's journal: a JSON-lines journal (sim/output/jsonl_journal.h) whose header names the
// search and whose records are trials.
class SearchJournal {
 public:
  // Locks `path` (creating it) and opens it as `start` says; UserError naming the file otherwise.
  // `extra`: more header fields (a shard's config and place, search/search_run.h), compared on resume
  // like the description.
  SearchJournal(std::string path, const std::string& description, JournalStart start,
                const nlohmann::json& extra = nlohmann::json::object());

  // The trials an interrupted run finished (resume), by id.
  const std::map<std::int64_t, TrialResult>& trials() const { return trials_; }
  // The line cut short by a kill, if the journal ended in one (dropped; its trial runs again).
  std::optional<int> cut_line() const { return journal_.cut_line(); }
  // Appends one trial; UserError with the system's reason if it cannot be written in full.
  // `flush` false: written with the next flushed one (JsonLinesJournal::append).
  void append(const TrialResult& result, double wall_s, bool flush = true);
  // Appends a trial's line as another rank wrote it (search/trial_wire.h), so it is not formatted twice.
  void append_line(const std::string& line, bool flush = true) { journal_.append_line(line, flush); }

 private:
  JsonLinesJournal journal_;
  std::map<std::int64_t, TrialResult> trials_;
};

// The trials of a journal written by `description`'s search (for ranks that only read it); the
// last line, if a kill cut it short, by number and byte offset (-1: none).
std::map<std::int64_t, TrialResult> read_journal_trials(const std::string& path, const std::string& description,
                                                        std::optional<int>* cut_line = nullptr,
                                                        std::int64_t* cut_offset = nullptr,
                                                        const nlohmann::json& extra = nlohmann::json::object());

// The header line of a search's journal (its first line), for tools that take journals as they find
// them (dse merge); UserError naming the file if it has none or it is not a search's.
nlohmann::json read_search_journal_header(const std::string& path);

}  // namespace dse
