#include "search/trial_wire.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "search/journal.h"
#include "sim/output/jsonl_journal.h"

namespace dse {
namespace {

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_text(std::string& out, std::string_view text) {
  put<std::uint32_t>(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
}

}  // namespace

void write_u64(std::string& out, std::uint64_t value) { put(out, value); }
void write_u8(std::string& out, std::uint8_t value) { put(out, value); }

void write_wire_trial(std::string& out, std::size_t index, const TrialResult& r, double wall_s,
                      bool with_journal_line) {
  put<std::uint64_t>(out, index);
  put<double>(out, wall_s);
  put_text(out, with_journal_line ? json_line(trial_result_json(r, wall_s)) : std::string());
  put<std::int64_t>(out, r.trial.id);
  put<std::uint8_t>(out, static_cast<std::uint8_t>(r.status));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.trial.values.size()));
  for (const auto& value : r.trial.values) put_text(out, value);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.metrics.size()));
  for (const auto& [name, value] : r.metrics) {
    put_text(out, name.str());
    put<double>(out, value);
  }
  put_text(out, r.message);
  put<std::uint8_t>(out, r.objective ? 1 : 0);
  put<double>(out, r.objective.value_or(0.0));
  put<std::uint32_t>(out, static_cast<std::uint32_t>(r.scores.size()));
  for (const double score : r.scores) put<double>(out, score);
}

std::string_view WireReader::take(std::size_t bytes) {
  if (bytes > in_.size() - std::min(offset_, in_.size())) throw std::runtime_error("a trial record cut short");
  const std::string_view out = in_.substr(offset_, bytes);
  offset_ += bytes;
  return out;
}

template <class T>
T WireReader::scalar() {
  T value;
  std::memcpy(&value, take(sizeof value).data(), sizeof value);
  return value;
}

std::uint64_t WireReader::u64() { return scalar<std::uint64_t>(); }
std::uint8_t WireReader::u8() { return scalar<std::uint8_t>(); }
double WireReader::f64() { return scalar<double>(); }

std::string WireReader::text() {
  const auto size = scalar<std::uint32_t>();
  return std::string(take(size));
}

WireTrial WireReader::trial() {
  WireTrial t;
  t.index = static_cast<std::size_t>(u64());
  t.wall_s = f64();
  t.journal_line = text();
  TrialResult& r = t.result;
  r.trial.id = static_cast<std::int64_t>(u64());
  r.status = static_cast<TrialStatus>(u8());
  const auto count = [this] { return scalar<std::uint32_t>(); };
  for (std::uint32_t n = count(), k = 0; k < n; ++k) r.trial.values.push_back(text());
  for (std::uint32_t n = count(), k = 0; k < n; ++k) {
    const std::string name = text();
    r.metrics[name] = f64();
  }
  r.message = text();
  const bool has_objective = u8() != 0;
  const double objective = f64();
  if (has_objective) r.objective = objective;
  for (std::uint32_t n = count(), k = 0; k < n; ++k) r.scores.push_back(f64());
  return t;
}

}  // namespace dse
