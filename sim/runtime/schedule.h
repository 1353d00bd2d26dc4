// How an experiment's models share the device (`schedule.policy`): one after another on one
// stream, or each on its own stream so their work overlaps.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dse {

enum class Schedule { single_stream, stream_per_model };

std::string schedule_name(Schedule schedule);
std::vector<std::string> schedule_names();
std::optional<Schedule> parse_schedule(std::string_view name);

}  // namespace dse
