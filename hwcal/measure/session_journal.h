// A calibration session's journal (sim/output/jsonl_journal.h) and its records: the header names the
// candidates and settings; then one record per chunk as it finishes and one for the final isolation,
// each with its candidates' results, so an interrupted session resumes without re-measuring them
// (hwcal/measure/session.h runs the session; this file only writes and reads the lines).
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hwcal/measure/session.h"
#include "sim/output/jsonl_journal.h"

namespace dse {

// One record: a chunk measured, with the DOP controller's state after it, or the final isolation of
// the fastest candidates (no chunk).
struct SessionRecord {
  // None: the isolation record. A chunk's wall_s and candidates are the record's wall_s and number of
  // results.
  std::optional<ChunkLog> chunk;
  int dop_next = 1;                                              // chunk: the controller's dop after it
  double w_max = 0;                                              // chunk: and its w_max
  std::vector<PowerSample> samples;                              // chunk: the board's samples while it ran
  double wall_s = 0;                                             // with its re-measurements
  std::vector<double> setups_s;                                  // set-up times seen alone in it
  std::vector<std::pair<std::size_t, CandidateResult>> results;  // (candidate index, its result)
};

void write_session_record(JsonLinesJournal& journal, const SessionRecord& record);
// A record as the journal holds it; std::invalid_argument (or nlohmann's exceptions) if it is none.
// The chunk's `candidates` is its number of results.
SessionRecord read_session_record(const nlohmann::json& record);

// The journal's header for these candidates and settings, and its record check.
nlohmann::json session_journal_header(const std::vector<Candidate>& candidates, const SessionSettings& settings);
void check_session_record(const nlohmann::json& record);

}  // namespace dse
