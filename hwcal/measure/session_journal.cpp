#include "hwcal/measure/session_journal.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace dse {
namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
// Typed reads of a journal record that throw on a wrong kind (nlohmann's get<int> of a float is
// undefined behaviour).
double number(const nlohmann::json& json) {
  if (!json.is_number()) throw std::invalid_argument("not a number");
  return json.get<double>();
}
std::int64_t integer(const nlohmann::json& json) {
  if (!json.is_number_integer()) throw std::invalid_argument("not an integer");
  return json.get<std::int64_t>();
}
bool boolean(const nlohmann::json& json) {
  if (!json.is_boolean()) throw std::invalid_argument("not a boolean");
  return json.get<bool>();
}
std::string text(const nlohmann::json& json) {
  if (!json.is_string()) throw std::invalid_argument("not a string");
  return json.get<std::string>();
}
std::optional<double> optional_number(const nlohmann::json& json) {
  if (json.is_null()) return std::nullopt;
  return number(json);
}

nlohmann::json result_json(std::size_t index, const CandidateResult& r) {
  return {{"i", index},
          {"status", kMeasureStatusNames.name(r.status)},
          {"message", r.message},
          {"latency_ms", r.latency_ms},
          {"parallel_ms", optional_json(r.parallel_ms)},
          {"serial_ms", optional_json(r.serial_ms)},
          {"dop", r.dop},
          {"outlier", r.outlier},
          {"sampled", r.sampled},
          {"corrected", r.corrected},
          {"isolated", r.isolated},
          {"error_estimate", r.error_estimate},
          {"power_w", optional_json(r.power_w)}};
}

std::pair<std::size_t, CandidateResult> result_from_json(const nlohmann::json& json) {
  if (!json.is_object()) throw std::invalid_argument("not an object");
  CandidateResult r;
  const auto status = kMeasureStatusNames.parse(text(json.at("status")));
  if (!status) throw std::invalid_argument("unknown status");
  r.status = *status;
  r.message = text(json.at("message"));
  r.latency_ms = number(json.at("latency_ms"));
  r.parallel_ms = optional_number(json.at("parallel_ms"));
  r.serial_ms = optional_number(json.at("serial_ms"));
  const std::int64_t dop = integer(json.at("dop")), index = integer(json.at("i"));
  if (dop < 1 || dop > 1'000'000 || index < 0) throw std::invalid_argument("out of range");
  r.dop = static_cast<int>(dop);
  r.outlier = boolean(json.at("outlier"));
  r.sampled = boolean(json.at("sampled"));
  r.corrected = boolean(json.at("corrected"));
  r.isolated = boolean(json.at("isolated"));
  r.error_estimate = number(json.at("error_estimate"));
  r.power_w = optional_number(json.at("power_w"));
  return {static_cast<std::size_t>(index), r};
}

}  // namespace

void write_session_record(JsonLinesJournal& journal, const SessionRecord& record) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& [i, r] : record.results) results.push_back(result_json(i, r));
  if (!record.chunk) {
    journal.append(
        {{"isolation", true}, {"wall_s", record.wall_s}, {"setups_s", record.setups_s}, {"results", results}});
    return;
  }
  nlohmann::json board = nlohmann::json::array();
  for (const auto& s : record.samples) board.push_back({s.time_s(), s.power_w, s.clock_mhz});
  journal.append({{"dop", record.chunk->dop},
                  {"setups_s", record.setups_s},
                  {"dop_next", record.dop_next},
                  {"w_max", record.w_max},
                  {"error", record.chunk->error},
                  {"failure_share", record.chunk->failure_share},
                  {"bias", record.chunk->bias},
                  {"wall_s", record.wall_s},
                  {"samples", board},
                  {"results", results}});
}

SessionRecord read_session_record(const nlohmann::json& json) {
  SessionRecord record;
  for (const auto& item : json.at("results")) record.results.push_back(result_from_json(item));
  for (const auto& s : json.at("setups_s")) record.setups_s.push_back(number(s));
  record.wall_s = number(json.at("wall_s"));
  if (json.contains("isolation")) return record;
  record.dop_next = static_cast<int>(integer(json.at("dop_next")));
  record.w_max = number(json.at("w_max"));
  record.chunk = ChunkLog{static_cast<int>(integer(json.at("dop"))), record.results.size(),   number(json.at("error")),
                          number(json.at("failure_share")),          number(json.at("bias")), record.wall_s};
  for (const auto& s : json.at("samples"))
    record.samples.push_back(
        {static_cast<TimePs>(std::llround(number(s.at(0)) * 1e12)), number(s.at(1)), number(s.at(2))});
  return record;
}

nlohmann::json session_journal_header(const std::vector<Candidate>& candidates, const SessionSettings& settings) {
  nlohmann::json names = nlohmann::json::array();
  for (const auto& c : candidates) names.push_back(c.name);
  const ParallelSettings& p = settings.parallel;
  return {{"calibration_session",
           {{"candidates", names},
            {"measure",
             {settings.measure.warmup, settings.measure.repeat, settings.measure.min_repeat_ms,
              settings.measure.timeout_s, settings.measure.exclusive_timing}},
            {"parallel",
             {p.adaptive, p.dop, p.beta, p.error_threshold, p.failure_threshold, p.increment_min, p.increment_max,
              p.ceiling, p.remeasure_share, p.outlier_z, p.bias_limit, p.isolate_top_share, p.model_packing}},
            {"seed", settings.seed}}}};
}

void check_session_record(const nlohmann::json& record) {
  if (!record.is_object() || !record.contains("results") || !record.at("results").is_array())
    throw std::invalid_argument("not a session record");
  for (const auto& item : record.at("results")) (void)result_from_json(item);
  (void)number(record.at("wall_s"));
  if (!record.at("setups_s").is_array()) throw std::invalid_argument("no set-up times");
  for (const auto& s : record.at("setups_s")) (void)number(s);
  if (record.contains("isolation")) return;
  for (const char* key : {"error", "failure_share", "bias", "w_max"}) (void)number(record.at(key));
  for (const char* key : {"dop", "dop_next"})
    if (const std::int64_t dop = integer(record.at(key)); dop < 1 || dop > 1'000'000)
      throw std::invalid_argument("a dop out of range");
  if (!record.at("samples").is_array()) throw std::invalid_argument("no samples");
  for (const auto& s : record.at("samples")) {
    if (!s.is_array() || s.size() != 3) throw std::invalid_argument("a sample is not [t, W, MHz]");
    for (const auto& v : s) (void)number(v);
    // Session seconds become picoseconds (PowerSample): 1e6 s (11.6 days, longer than any session)
    // keeps them far inside TimePs.
    if (const double t = number(s.at(0)); !(t >= 0 && t < 1e6))
      throw std::invalid_argument("a sample's time is not within [0, 1e6) s");
  }
}

}  // namespace dse
