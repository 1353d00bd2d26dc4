#include "sim/output/jsonl_journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "models/base/errors.h"
#include "models/base/input_file.h"
#include "sim/output/atomic_file.h"

namespace dse {
namespace {

std::string system_reason() { return std::strerror(errno); }

}  // namespace

std::string json_line(const nlohmann::json& json) {
  return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::vector<nlohmann::json> read_json_lines(const std::string& path, const nlohmann::json& header,
                                            const JournalWords& words, const RecordCheck& check,
                                            std::optional<int>* cut_line, std::int64_t* cut_offset) {
  std::vector<nlohmann::json> records;
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return records;
  // A FIFO would block and a link to /dev/zero read forever, as for every other input.
  check_input_kind(path, "a " + words.owner + " journal");
  std::ifstream in(path);
  if (!in) throw UserError(path + ": cannot read: " + system_reason());
  // The header as it is stored (text that is not UTF-8 replaced as json_line writes it).
  const nlohmann::json stored_header = nlohmann::json::parse(json_line(header));
  std::string line;
  int number = 0;
  std::optional<int> unreadable;  // a line that is not a record; only the last may be one
  std::int64_t unreadable_offset = 0;
  for (std::int64_t offset = 0; std::getline(in, line); offset += static_cast<std::int64_t>(line.size()) + 1) {
    ++number;
    if (unreadable)
      throw UserError(path + ":" + std::to_string(*unreadable) + ": expected a " + words.record +
                      " record (one JSON object per line), found a line that is not one before the journal's end: "
                      "it was edited or written by two runs at once; delete that line, or start over with --force");
    const auto json = nlohmann::json::parse(line, nullptr, false);
    if (number == 1) {
      if (json != stored_header)
        throw UserError(path + ":1: expected the journal of this " + words.owner + ", found one of a different " +
                        words.owner + " (delete it, or start over with --force)");
      continue;
    }
    try {
      if (json.is_discarded()) throw std::invalid_argument("not JSON");
      check(json);
      records.push_back(json);
    } catch (const std::exception&) {
      unreadable = number;  // a line cut short by a kill is fine as the last one
      unreadable_offset = offset;
    }
  }
  if (cut_line) *cut_line = unreadable;
  if (cut_offset) *cut_offset = unreadable ? unreadable_offset : -1;
  return records;
}

JsonLinesJournal::JsonLinesJournal(std::string path, nlohmann::json header, JournalStart start, JournalWords words,
                                   RecordCheck check)
    : path_(std::move(path)), words_(std::move(words)) {
  const std::string journal = words_.owner + " journal";
  // Appended to in place: a symlink would be written through, a FIFO or device read forever.
  check_output_target(path_, " (the " + journal + " is written in place)");
  lock_.fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (lock_.fd < 0) throw UserError(path_ + ": cannot open the " + journal + ": " + system_reason());
  struct stat opened {};
  if (::fstat(lock_.fd, &opened) != 0 || !S_ISREG(opened.st_mode))
    throw UserError(path_ + ": cannot write: expected a regular file or a new path for the " + journal +
                    ", found another kind of file");
  if (::flock(lock_.fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string reason = errno == EWOULDBLOCK
                                   ? "another dse run is writing this output (it holds the journal's lock); "
                                     "wait for it, or give this run another output"
                                   : system_reason();
    throw UserError(path_ + ": cannot lock the " + journal + ": " + reason);
  }
  const bool has_records = [&] {
    std::ifstream in(path_);
    std::string line;
    int lines = 0;
    while (lines < 2 && std::getline(in, line)) ++lines;
    return lines >= 2;
  }();
  if (start == JournalStart::fresh && has_records)
    throw UserError(path_ + ": a journal of an earlier " + words_.owner +
                    " is here; --resume continues it, --force starts over (and discards its " + words_.record + "s)");
  std::int64_t cut_offset = -1;
  if (start == JournalStart::resume) records_ = read_json_lines(path_, header, words_, check, &cut_line_, &cut_offset);
  // The line a kill cut short is dropped; its work runs again.
  if (cut_offset >= 0 && ::ftruncate(lock_.fd, static_cast<off_t>(cut_offset)) != 0)
    throw UserError(path_ + ": cannot drop the journal's cut-short last line: " + system_reason());
  const bool append = start == JournalStart::resume && has_records;
  file_.reset(std::fopen(path_.c_str(), append ? "a" : "w"));
  if (!file_) throw UserError(path_ + ": cannot write the " + journal + ": " + system_reason());
  if (!append) write(json_line(header), true);
}

JsonLinesJournal::Descriptor::~Descriptor() {
  if (fd >= 0) ::close(fd);  // releases the lock
}

void JsonLinesJournal::write(const std::string& text, bool flush) {
  errno = 0;
  if (std::fputs(text.c_str(), file_.get()) < 0 || (flush && std::fflush(file_.get()) != 0))
    throw UserError(path_ + ": cannot append to the " + words_.owner +
                    " journal: " + (errno ? system_reason() : std::string("write failed")) + "; the " + words_.record +
                    "s before this one are kept (--resume once there is room)");
}

void JsonLinesJournal::append(const nlohmann::json& record, bool flush) { write(json_line(record), flush); }

}  // namespace dse
