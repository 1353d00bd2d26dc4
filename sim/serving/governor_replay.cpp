#include "sim/serving/governor_replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "sim/config/overrides.h"
#include "sim/serving/replay_history.h"

namespace dse {

std::vector<double> batch_dvfs_p40_clock_levels_mhz() {
  return {544, 632, 734, 835, 949, 1063, 1189, 1303, 1430, 1531};
}

namespace {

std::optional<std::size_t> find_column(const CsvTable& table, const std::string& name) {
  const auto& header = table.header();
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return std::nullopt;
}

constexpr std::int64_t kMaxBatchIndex = 100000;

struct LoggedRow {
  int line = 0;
  double time_s = 0;
  double power_w = 0;
  double cap_w = 0;
  ReplayState state;
  int clock_level = -1;  // index of state.clock_mhz in the levels; -1 if not recorded
};

// The columns a file has decide what its state is: BestBS (+1: the batch), minBS and maxBS, DVFS.
// Rows are read one at a time (CsvTable::for_each_row): only the log's own records are kept.
std::vector<LoggedRow> read_log(const std::string& csv_path, const std::vector<double>& levels) {
  std::size_t time = 0, power = 0, cap = 0;
  std::optional<std::size_t> best, min_bs, max_bs, dvfs;
  const auto on_header = [&](const CsvTable& table) {
    time = table.column("time stamp");
    power = table.column("power");
    cap = table.column("power cap");
    best = find_column(table, "BestBS");
    min_bs = find_column(table, "minBS");
    max_bs = find_column(table, "maxBS");
    dvfs = find_column(table, "DVFS");
  };
  std::vector<LoggedRow> rows;
  const auto on_row = [&](const CsvTable& table, const CsvTable::Row& row) {
    LoggedRow r;
    r.line = row.line;
    r.time_s = table.number(row, time);
    r.power_w = table.number(row, power);
    r.cap_w = table.number(row, cap);
    const auto fail = [&](std::size_t column, const std::string& message) {
      throw UserError(fmt::format("{}:{}:{}: {}: {}", table.path(), row.line, table.cell_column(row, column),
                                  cut_input(table.header()[column]), message));
    };
    if (!rows.empty() && r.time_s < rows.back().time_s)
      fail(time, fmt::format("expected time stamps in non-decreasing order, found {} after {}",
                             cut_input(table.text(row, time)), rows.back().time_s));
    if (!rows.empty() && r.cap_w != rows.back().cap_w)
      fail(cap, fmt::format("expected one power cap for the whole run, found {} after {}",
                            cut_input(table.text(row, cap)), rows.back().cap_w));
    if (r.cap_w <= 0) fail(cap, "expected a cap in W > 0, found " + cut_input(table.text(row, cap)));
    // Batch indices (batch - 1): the paper's runs reach 254; far more is no GPU's batch.
    const auto batch_index = [&](std::size_t column) {
      const auto index = table.integer(row, column);
      if (index < 0 || index > kMaxBatchIndex)
        fail(column, fmt::format("expected a batch index in [0, {}], found {}", kMaxBatchIndex,
                                 cut_input(table.text(row, column))));
      return static_cast<int>(index);
    };
    if (best) r.state.batch = batch_index(*best) + 1;
    for (const auto& [column, name] : {std::pair{min_bs, "minBS"}, std::pair{max_bs, "maxBS"}})
      if (column) r.state.inner.emplace_back(name, batch_index(*column));
    if (dvfs) {
      r.state.clock_mhz = table.number(row, *dvfs);
      const auto it = std::find_if(levels.begin(), levels.end(),
                                   [&](double level) { return std::abs(level - r.state.clock_mhz) <= 0.5; });
      if (it == levels.end())
        fail(*dvfs, fmt::format("expected one of the clock levels ({}), found {}", fmt::join(levels, ", "),
                                table.text(row, *dvfs)));
      r.clock_level = static_cast<int>(it - levels.begin());
    }
    rows.push_back(std::move(r));
  };
  CsvTable::for_each_row(csv_path, on_header, on_row, /*drop_trailing_empty=*/true, /*stop_at_blank_line=*/true);
  if (rows.size() < 2)
    throw UserError(csv_path + ": expected at least two rows to replay, found " + std::to_string(rows.size()));
  return rows;
}

// A governor and the time it last acted under one reading of the log's timing.
struct Hypothesis {
  std::unique_ptr<Governor> governor;
  ServingKnobs knobs;
  std::optional<double> last_action_s;                                   // nullopt: the loop's start (not in the log)
  std::shared_ptr<const ActionHistory> history = ActionHistory::root();  // the rows it acted before
};

// Whether `a` comes before `b` in the order the replay made its readings (the first is reported).
bool comes_first(const Hypothesis& a, const Hypothesis& b) { return acted_first(*a.history, *b.history); }

// The readings the replay follows, by when each last acted: a row visits the one that has not
// acted yet and those whose period is up, not the many still waiting through theirs, so a replay
// costs O(rows log readings) (issue 54: 10,000 rows in one period took 98 s at rows x readings²).
struct Readings {
  std::optional<Hypothesis> unstarted;            // not acted since the loop's start
  std::multimap<double, Hypothesis> by_action_s;  // the others, by last_action_s

  void add(Hypothesis h) {
    if (h.last_action_s)
      by_action_s.emplace(*h.last_action_s, std::move(h));
    else
      unstarted = std::move(h);
  }
  // Adds `h` unless a reading with its knobs acted at the same time; of the two the first stays.
  void add_or_merge(Hypothesis h) {
    const auto [begin, end] = by_action_s.equal_range(*h.last_action_s);
    for (auto it = begin; it != end; ++it) {
      if (it->second.knobs != h.knobs) continue;
      if (comes_first(h, it->second)) it->second = std::move(h);
      return;
    }
    by_action_s.emplace_hint(end, *h.last_action_s, std::move(h));
  }
  const Hypothesis* any() const {
    if (unstarted) return &*unstarted;
    return by_action_s.empty() ? nullptr : &by_action_s.begin()->second;
  }
  template <typename F>
  void for_each(F&& f) const {
    if (unstarted) f(*unstarted);
    for (const auto& [time_s, h] : by_action_s) f(h);
  }
};

ReplayState state_of(const Hypothesis& h, const std::vector<double>& levels) {
  ReplayState s;
  s.batch = h.knobs.batch;
  s.clock_mhz = h.knobs.clock_level >= 0 ? levels[static_cast<std::size_t>(h.knobs.clock_level)] : 0;
  s.inner = h.governor->search_state();
  return s;
}

// Whether the governor's state agrees with what the row recorded (only what the row records).
bool agrees(const Hypothesis& h, const LoggedRow& row) {
  if (row.state.batch > 0 && h.knobs.batch != row.state.batch) return false;
  if (row.clock_level >= 0 && h.knobs.clock_level != row.clock_level) return false;
  const auto inner = h.governor->search_state();
  for (const auto& recorded : row.state.inner) {
    const auto it =
        std::find_if(inner.begin(), inner.end(), [&](const auto& entry) { return entry.first == recorded.first; });
    if (it != inner.end() && it->second != recorded.second) return false;
  }
  return true;
}

bool same_recorded_state(const LoggedRow& a, const LoggedRow& b) {
  return a.state.batch == b.state.batch && a.clock_level == b.clock_level && a.state.inner == b.state.inner;
}

}  // namespace

ReplayReport replay_governor(const std::string& csv_path, const ReplayOptions& options) {
  const std::vector<double> levels =
      options.clock_levels_mhz.empty() ? batch_dvfs_p40_clock_levels_mhz() : options.clock_levels_mhz;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    if (!std::isfinite(levels[i]) || levels[i] <= 0)
      throw UserError(fmt::format("--clock-levels: expected clock levels in MHz > 0, found {:g}", levels[i]));
    if (i > 0 && levels[i] <= levels[i - 1])
      throw UserError(
          fmt::format("--clock-levels: expected clock levels in ascending order, each once, found {:g} after {:g}",
                      levels[i], levels[i - 1]));
  }
  const auto names = GovernorRegistry::instance().names();
  if (std::find(names.begin(), names.end(), options.governor) == names.end())
    throw UserError("--governor: expected one of " + join_names(names) + ", found '" + options.governor + "'" +
                    did_you_mean_suffix(options.governor, names));
  const std::vector<LoggedRow> rows = read_log(csv_path, levels);

  GovernorContext context;
  context.max_batch = options.max_batch;
  context.clock_levels_mhz = levels;
  const auto initial = std::find_if(levels.begin(), levels.end(),
                                    [&](double level) { return std::abs(level - options.initial_clock_mhz) <= 0.5; });
  if (initial == levels.end())
    throw UserError(fmt::format("--initial-clock: expected one of the clock levels ({}), found {:g}",
                                fmt::join(levels, ", "), options.initial_clock_mhz));
  context.default_clock_level = static_cast<int>(initial - levels.begin());

  // The governor block: its name, the run's cap (from the log), then the user's -p assignments.
  const SourceMark mark{csv_path, rows.front().line, 1};
  ConfigNode block = ConfigNode::map(mark);
  block.set("name", ConfigNode::scalar(options.governor, false, mark), mark);
  block.set("power_cap_w", ConfigNode::scalar(fmt::format("{:g}", rows.front().cap_w), false, mark), mark);
  apply_overrides(block, options.assignments);
  Hypothesis start;
  start.governor = make_governor(block, context);
  block.check_unknown_keys();
  start.knobs = start.governor->initial();
  const double period_s = start.governor->period_s();

  ReplayReport report;
  report.file = csv_path;
  report.governor = options.governor;
  report.power_cap_w = rows.front().cap_w;
  report.rows = static_cast<int>(rows.size());
  if (!agrees(start, rows.front())) {
    report.mismatches.push_back({rows.front().line, rows.front().time_s, 0, state_of(start, levels), rows.front().state,
                                 state_of(start, levels)});
    start.governor->adopt({rows.front().state.batch > 0 ? rows.front().state.batch : start.knobs.batch,
                           rows.front().clock_level >= 0 ? rows.front().clock_level : start.knobs.clock_level},
                          rows.front().state.inner);
    start.knobs = {rows.front().state.batch > 0 ? rows.front().state.batch : start.knobs.batch,
                   rows.front().clock_level >= 0 ? rows.front().clock_level : start.knobs.clock_level};
  }
  Readings readings;
  readings.add(std::move(start));

  for (std::size_t k = 1; k < rows.size(); ++k) {
    const LoggedRow& before = rows[k - 1];
    const LoggedRow& row = rows[k];
    const bool transition = !same_recorded_state(before, row);
    if (transition) ++report.transitions;
    // Whether a reading's governor may act before this row (its period is up) and may wait (not past it).
    const auto timing = [&](const Hypothesis& h) {
      bool may_act = true, may_wait = true;
      if (period_s <= 0) {
        may_act = false;
      } else if (h.last_action_s) {
        const double elapsed = before.time_s - *h.last_action_s;
        may_act = elapsed > period_s - options.timing_tolerance_s;
        may_wait = elapsed < period_s + options.timing_tolerance_s;
      }
      return std::pair{may_act, may_wait};
    };
    const auto only_waits = [&](const Hypothesis& h) {
      const auto [may_act, may_wait] = timing(h);
      return !may_act && may_wait;
    };
    // The readings the row may change: the one that has not acted yet, and those whose period is up
    // (the longest since their action: the first by it). The others wait through the row.
    std::vector<Hypothesis> due;
    if (readings.unstarted && !only_waits(*readings.unstarted)) {
      due.push_back(std::move(*readings.unstarted));
      readings.unstarted.reset();
    }
    while (!readings.by_action_s.empty() && !only_waits(readings.by_action_s.begin()->second))
      due.push_back(std::move(readings.by_action_s.extract(readings.by_action_s.begin()).mapped()));
    // Without an action the window keeps its maximum, so the reading cannot fall. Each waiting
    // reading was kept for agreeing with the row before (or is the only one), and a governor names
    // the same inner state whatever its values, so they agree or disagree with this row alike: one
    // is asked.
    const Hypothesis* waiting = readings.any();
    const bool rest_wait = waiting && row.power_w >= before.power_w && agrees(*waiting, row);
    std::vector<Hypothesis> actions;
    std::vector<bool> keeps(due.size());
    bool acted = false, waited = rest_wait;
    for (std::size_t i = 0; i < due.size(); ++i) {
      const Hypothesis& h = due[i];
      const auto [may_act, may_wait] = timing(h);
      if (may_act) {
        Hypothesis a{h.governor->clone(), {}, before.time_s, ActionHistory::acted(h.history, k)};
        a.knobs = a.governor->decide({before.time_s, before.power_w, std::nullopt, 1.0, h.knobs});
        if (agrees(a, row)) {
          actions.push_back(std::move(a));
          acted = true;
        }
      }
      keeps[i] = may_wait && agrees(h, row) && row.power_w >= before.power_w;
      waited = waited || keeps[i];
    }
    if (!acted && !waited) {
      // Nothing explains the row: report what dse would have done, then take the recorded state.
      const Hypothesis* first = readings.any();
      for (const auto& h : due)
        if (!first || comes_first(h, *first)) first = &h;
      readings.for_each([&](const Hypothesis& h) {
        if (comes_first(h, *first)) first = &h;
      });
      Hypothesis a{first->governor->clone(), {}, before.time_s};
      a.knobs = a.governor->decide({before.time_s, before.power_w, std::nullopt, 1.0, first->knobs});
      report.mismatches.push_back(
          {row.line, before.time_s, before.power_w, state_of(*first, levels), row.state, state_of(a, levels)});
      a.knobs = {row.state.batch > 0 ? row.state.batch : a.knobs.batch,
                 row.clock_level >= 0 ? row.clock_level : a.knobs.clock_level};
      a.governor->adopt(a.knobs, row.state.inner);
      readings = Readings{};
      readings.add(std::move(a));
      continue;
    }
    if (acted && !waited) ++report.decisions;
    if (acted && waited) ++report.ambiguous;
    if (transition) ++report.matched;
    if (!rest_wait) readings = Readings{};
    for (std::size_t i = 0; i < due.size(); ++i)
      if (keeps[i]) readings.add(std::move(due[i]));
    // Readings that agree on when the governor last acted are one reading: the first is kept.
    for (auto& a : actions) readings.add_or_merge(std::move(a));
  }
  return report;
}

}  // namespace dse
