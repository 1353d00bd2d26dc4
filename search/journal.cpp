#include "search/journal.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "models/base/errors.h"
#include "models/base/input_file.h"

namespace dse {
namespace {

TrialStatus status_from(const std::string& name) {
  if (const auto status = kTrialStatusNames.parse(name)) return *status;
  throw std::invalid_argument("unknown status '" + name + "'");
}

// JSON has no NaN or infinity (nlohmann writes null): a non-finite number goes as "nan", "inf" or
// "-inf", so a journal line holding one reads back as the trial it was.
nlohmann::json journal_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

}  // namespace

nlohmann::json trial_result_json(const TrialResult& r, double wall_s) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [name, value] : r.metrics) metrics[name.str()] = journal_number(value);
  nlohmann::json scores = nlohmann::json::array();
  for (const double score : r.scores) scores.push_back(journal_number(score));
  return {{"id", r.trial.id},
          {"values", r.trial.values},
          {"status", kTrialStatusNames.name(r.status)},
          {"metrics", metrics},
          {"message", r.message},
          {"wall_s", wall_s},
          {"objective", r.objective ? journal_number(*r.objective) : nlohmann::json(nullptr)},
          {"scores", scores}};
}

// Each field is type-checked before it is read: nlohmann's get<> converts a float to an integer with
// undefined behaviour (an id of 3e30) and throws its own type_error on a wrong kind.
TrialResult trial_result_from_json(const nlohmann::json& json) {
  const auto field = [&](const char* key) -> const nlohmann::json& {
    if (!json.is_object() || !json.contains(key)) throw std::invalid_argument(std::string("no '") + key + "'");
    return json[key];
  };
  const auto number = [](const nlohmann::json& value, const char* what) {
    if (value.is_number()) return value.get<double>();
    if (value == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (value == "inf") return std::numeric_limits<double>::infinity();
    if (value == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument(std::string(what) + " is not a number");
  };
  const auto text = [](const nlohmann::json& value, const char* what) {
    if (!value.is_string()) throw std::invalid_argument(std::string(what) + " is not a string");
    return value.get<std::string>();
  };
  TrialResult r;
  const auto& id = field("id");
  if (!id.is_number_integer()) throw std::invalid_argument("'id' is not an integer");
  r.trial.id = id.get<std::int64_t>();
  const auto& values = field("values");
  if (!values.is_array()) throw std::invalid_argument("'values' is not a list");
  for (const auto& value : values) r.trial.values.push_back(text(value, "a value"));
  r.status = status_from(text(field("status"), "'status'"));
  const auto& metrics = field("metrics");
  if (!metrics.is_object()) throw std::invalid_argument("'metrics' is not an object");
  for (const auto& [name, value] : metrics.items()) r.metrics[name] = number(value, "a metric");
  r.message = text(field("message"), "'message'");
  if (const auto& objective = field("objective"); !objective.is_null()) r.objective = number(objective, "'objective'");
  if (json.contains("scores")) {
    const auto& scores = json["scores"];
    if (!scores.is_array()) throw std::invalid_argument("'scores' is not a list");
    for (const auto& score : scores) r.scores.push_back(number(score, "a score"));
  }
  return r;
}

namespace {

const JournalWords kSearchWords{"search", "trial"};

nlohmann::json search_header(const std::string& description, const nlohmann::json& extra) {
  nlohmann::json header = {{"search", description}};
  for (const auto& [key, value] : extra.items()) header[key] = value;
  return header;
}

void check_trial(const nlohmann::json& json) { (void)trial_result_from_json(json); }

std::map<std::int64_t, TrialResult> by_id(const std::vector<nlohmann::json>& records) {
  std::map<std::int64_t, TrialResult> trials;
  for (const auto& record : records) {
    TrialResult r = trial_result_from_json(record);
    trials[r.trial.id] = std::move(r);
  }
  return trials;
}

}  // namespace

std::map<std::int64_t, TrialResult> read_journal_trials(const std::string& path, const std::string& description,
                                                        std::optional<int>* cut_line, std::int64_t* cut_offset,
                                                        const nlohmann::json& extra) {
  return by_id(
      read_json_lines(path, search_header(description, extra), kSearchWords, check_trial, cut_line, cut_offset));
}

nlohmann::json read_search_journal_header(const std::string& path) {
  check_input_kind(path, "a search journal");
  std::ifstream in(path);
  if (!in) throw UserError(path + ": cannot read: " + std::strerror(errno));
  std::string line;
  if (!std::getline(in, line))
    throw UserError(path + ":1: expected a search journal's header line, found an empty file");
  nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
  if (header.is_discarded() || !header.is_object() || !header.contains("search") || !header["search"].is_string())
    throw UserError(path + ":1: expected a search journal's header ({\"search\": ...}), found another line");
  return header;
}

SearchJournal::SearchJournal(std::string path, const std::string& description, JournalStart start,
                             const nlohmann::json& extra)
    : journal_(std::move(path), search_header(description, extra), start, kSearchWords, check_trial),
      trials_(by_id(journal_.records())) {}

void SearchJournal::append(const TrialResult& result, double wall_s, bool flush) {
  journal_.append(trial_result_json(result, wall_s), flush);
}

}  // namespace dse
