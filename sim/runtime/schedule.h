// How an experiment's models share the device (`schedule.policy`): one after another on one
// stream, or each on its own stream so their work overlaps.
#pragma once

#include <string>

#include "models/base/enum_table.h"

namespace dse {

enum class Schedule { single_stream, stream_per_model };

inline constexpr EnumTable<Schedule, 2> kScheduleNames{{{
    {Schedule::single_stream, "single_stream"},
    {Schedule::stream_per_model, "stream_per_model"},
}}};

inline std::string schedule_name(Schedule schedule) { return kScheduleNames.name(schedule); }

}  // namespace dse
