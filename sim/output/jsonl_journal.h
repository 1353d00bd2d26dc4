// A journal of JSON lines: a header line saying what wrote it, then one record per line, each
// flushed as it is written, so a killed run resumes from it. The search's trials (search/journal.h)
// and a calibration session's measurements (hwcal/measure/session_journal.h) are such journals.
//
// It is also the output's lock: while open it holds an exclusive flock on the file, so a second
// run on the same output stops at once instead of interleaving lines. Starting fresh refuses a
// journal that holds records; resume refuses one with another header and one with a line that is
// not a record before its end (only the last line may be cut short, by a kill: it is dropped and
// its work runs again); a failed write (a full disk) throws with the reason, the records before it
// kept.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dse {

enum class JournalStart { fresh, resume, force };

// How messages name the journal's owner and records: {"search", "trial"}, {"calibration session",
// "measurement"}.
struct JournalWords {
  std::string owner;
  std::string record;
};

// Throws (anything) on JSON that is not a record.
using RecordCheck = std::function<void(const nlohmann::json&)>;

class JsonLinesJournal {
 public:
  // Locks `path` (creating it) and opens it as `start` says; UserError naming the file otherwise.
  JsonLinesJournal(std::string path, nlohmann::json header, JournalStart start, JournalWords words, RecordCheck check);
  JsonLinesJournal(const JsonLinesJournal&) = delete;
  JsonLinesJournal& operator=(const JsonLinesJournal&) = delete;
  ~JsonLinesJournal() = default;

  // The records an interrupted run wrote (resume), in file order.
  const std::vector<nlohmann::json>& records() const { return records_; }
  // The line cut short by a kill, if the journal ended in one (dropped).
  std::optional<int> cut_line() const { return cut_line_; }
  // Appends one record; UserError with the system's reason if it cannot be written in full. With
  // `flush` false it stays in the buffer until a later append flushes (several records written in
  // one system call: the search's coordinator journals a request's results so).
  void append(const nlohmann::json& record, bool flush = true);
  // Appends a record already written as its line (json_line's text, newline included).
  void append_line(const std::string& line, bool flush = true) { write(line, flush); }

 private:
  void write(const std::string& text, bool flush);

  struct Descriptor {  // closed (and the lock released) by its destructor, also when the constructor throws
    int fd = -1;
    ~Descriptor();
  };
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };

  std::string path_;
  JournalWords words_;
  Descriptor lock_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::vector<nlohmann::json> records_;
  std::optional<int> cut_line_;
};

// The records of the journal at `path` written under `header` (for readers that only read, like
// the search's other MPI ranks); the last line, if a kill cut it short, by number and byte offset
// (-1: none). No file: none.
std::vector<nlohmann::json> read_json_lines(const std::string& path, const nlohmann::json& header,
                                            const JournalWords& words, const RecordCheck& check,
                                            std::optional<int>* cut_line = nullptr, std::int64_t* cut_offset = nullptr);

// One JSON line; text that is not valid UTF-8 (an error message quoting a file's bytes) has the
// bad bytes replaced by U+FFFD instead of making nlohmann throw.
std::string json_line(const nlohmann::json& json);

}  // namespace dse
