#include "search/journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "models/base/errors.h"

namespace dse {
namespace {

TrialStatus status_from(const std::string& name) {
  for (const auto status : {TrialStatus::ok, TrialStatus::infeasible, TrialStatus::failed, TrialStatus::timeout})
    if (trial_status_name(status) == name) return status;
  throw std::invalid_argument("unknown status '" + name + "'");
}

std::string system_reason() { return std::strerror(errno); }

// JSON has no NaN or infinity (nlohmann writes null): a non-finite number goes as "nan", "inf" or
// "-inf", so a journal line holding one reads back as the trial it was.
nlohmann::json journal_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

// One JSON line; text that is not valid UTF-8 (an error message quoting a file's bytes) has the
// bad bytes replaced by U+FFFD instead of making nlohmann throw.
std::string json_line(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The search's description as its journal header stores it (the same replacement).
std::string stored_description(const std::string& description) {
  return nlohmann::json::parse(json_line(description)).get<std::string>();
}

}  // namespace

nlohmann::json trial_result_json(const TrialResult& r, double wall_s) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [name, value] : r.metrics) metrics[name] = journal_number(value);
  nlohmann::json scores = nlohmann::json::array();
  for (const double score : r.scores) scores.push_back(journal_number(score));
  return {{"id", r.trial.id},
          {"values", r.trial.values},
          {"status", trial_status_name(r.status)},
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

std::map<std::int64_t, TrialResult> read_journal_trials(const std::string& path, const std::string& description,
                                                        std::optional<int>* cut_line, std::int64_t* cut_offset) {
  std::map<std::int64_t, TrialResult> done;
  std::ifstream in(path);
  if (!in) return done;
  std::string line;
  int number = 0;
  std::optional<int> unreadable;  // a line that is not a trial record; only the last may be one
  std::int64_t unreadable_offset = 0;
  for (std::int64_t offset = 0; std::getline(in, line); offset += static_cast<std::int64_t>(line.size()) + 1) {
    ++number;
    if (unreadable)
      throw UserError(path + ":" + std::to_string(*unreadable) +
                      ": expected a trial record (one JSON object per line), found a line that is not one before "
                      "the journal's end: it was edited or written by two runs at once; delete that line, or "
                      "start over with --force");
    const auto json = nlohmann::json::parse(line, nullptr, false);
    if (number == 1) {
      // A header whose "search" is not a string (or missing) is another file, not this search's.
      const bool this_search = json.is_object() && json.contains("search") && json["search"].is_string() &&
                               json["search"].get<std::string>() == stored_description(description);
      if (!this_search)
        throw UserError(path +
                        ":1: expected the journal of this search, found one of a different search (delete it, "
                        "or start over with --force)");
      continue;
    }
    try {
      if (json.is_discarded()) throw std::invalid_argument("not JSON");
      TrialResult r = trial_result_from_json(json);
      done[r.trial.id] = std::move(r);
    } catch (const std::exception&) {
      unreadable = number;  // a line cut short by a kill is fine as the last one
      unreadable_offset = offset;
    }
  }
  if (cut_line) *cut_line = unreadable;
  if (cut_offset) *cut_offset = unreadable ? unreadable_offset : -1;
  return done;
}

SearchJournal::SearchJournal(std::string path, const std::string& description, JournalStart start)
    : path_(std::move(path)) {
  lock_.fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_.fd < 0) throw UserError(path_ + ": cannot open the search journal: " + system_reason());
  if (::flock(lock_.fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string reason = errno == EWOULDBLOCK
                                   ? "another dse run is writing this output (it holds the journal's lock); "
                                     "wait for it, or give this run another output"
                                   : system_reason();
    throw UserError(path_ + ": cannot lock the search journal: " + reason);
  }
  const bool has_trials = [&] {
    std::ifstream in(path_);
    std::string line;
    int lines = 0;
    while (lines < 2 && std::getline(in, line)) ++lines;
    return lines >= 2;
  }();
  if (start == JournalStart::fresh && has_trials)
    throw UserError(path_ +
                    ": a journal of an earlier search is here; --resume continues it, --force starts over "
                    "(and discards its trials)");
  std::int64_t cut_offset = -1;
  if (start == JournalStart::resume) trials_ = read_journal_trials(path_, description, &cut_line_, &cut_offset);
  // The line a kill cut short is dropped; its trial runs again.
  if (cut_offset >= 0 && ::ftruncate(lock_.fd, static_cast<off_t>(cut_offset)) != 0)
    throw UserError(path_ + ": cannot drop the journal's cut-short last line: " + system_reason());
  const bool append = start == JournalStart::resume && has_trials;
  file_.reset(std::fopen(path_.c_str(), append ? "a" : "w"));
  if (!file_) throw UserError(path_ + ": cannot write the search journal: " + system_reason());
  if (!append) write(json_line({{"search", description}}));
}

SearchJournal::Descriptor::~Descriptor() {
  if (fd >= 0) ::close(fd);  // releases the lock
}

void SearchJournal::write(const std::string& text) {
  errno = 0;
  if (std::fputs(text.c_str(), file_.get()) < 0 || std::fflush(file_.get()) != 0)
    throw UserError(
        path_ + ": cannot append to the search journal: " + (errno ? system_reason() : std::string("write failed")) +
        "; the trials before this one are kept (--resume once there is room)");
}

void SearchJournal::append(const TrialResult& result, double wall_s) {
  write(json_line(trial_result_json(result, wall_s)));
}

}  // namespace dse
