// Multi-tenant schedules (sim/runtime/schedule.h): what the validator refuses and how it says so,
// what the generators make, how schedules run on the GPU model, and the schedule search parameter
// (search/schedule_space.h).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "models/ops/op_library.h"
#include "search/schedule_space.h"
#include "sim/config/config_loader.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"
#include "sim/runtime/schedule_generator.h"
#include "sim/runtime/schedule_yaml.h"
#include "tests/cli/cli_runner.h"

namespace dse {
namespace {

// Two ResNet-18s and a MobileNet-V2 on an A100 (batch 1), with `schedule` as written.
std::string mix_yaml(const std::string& schedule, const std::string& models = "") {
  return "name: mix\nworkload:\n  models:\n" +
         (models.empty() ? "    - {name: resnet18, batch: 1, dtype: fp16}\n"
                           "    - {name: resnet18, batch: 1, dtype: fp16}\n"
                           "    - {name: mobilenet_v2, batch: 1, dtype: fp16}\n"
                         : models) +
         "device: {gpu: a100_sxm4_40gb}\noutput: ~\n" + (schedule.empty() ? "" : "schedule: " + schedule + "\n");
}

Experiment mix(const std::string& schedule, const std::string& models = "") {
  return read_experiment(load_config_text(mix_yaml(schedule, models), "mix.yaml"), "mix.yaml");
}

// The message of the ConfigError reading `schedule` gives.
std::string refusal(const std::string& schedule) {
  try {
    mix(schedule);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

std::vector<std::shared_ptr<const Graph>> graphs_of(const Experiment& e) {
  std::vector<std::shared_ptr<const Graph>> out;
  for (const auto& m : e.models) out.push_back(m.graph);
  return out;
}

// Runs `body` in a child process with `extra_mib` MiB of address space beyond what this one has
// mapped; its exit code (1 if it threw, as std::bad_alloc past the limit; 128 + a signal's number).
int exit_code_within(std::size_t extra_mib, const std::function<int()>& body) {
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  const auto limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) +
                     (static_cast<rlim_t>(extra_mib) << 20);
  const pid_t child = ::fork();
  if (child == 0) {
    const rlimit address_space{limit, limit};
    int code = ::setrlimit(RLIMIT_AS, &address_space) == 0 ? 1 : 3;
    try {
      if (code == 1) code = body();
    } catch (...) {}
    std::_Exit(code);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST(Schedule, ABrokenDataDependencyIsNamedWithItsSegments) {
  // ResNet-18 cut after its stem, the rest on another stream, nothing ordering the two.
  const std::string message =
      refusal("\n  tenants:\n    - {cut_after: [maxpool], streams: [0, 1]}\n    - {stream: 2}\n    - {stream: 3}\n");
  EXPECT_NE(message.find("mix.yaml:11:7: schedule.tenants[0]"), std::string::npos) << message;
  EXPECT_NE(message.find("found 0.1 (stream 1) reading 'maxpool:out' from 0.0 (stream 0)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("`waits: {\"0.1\": [\"0.0\"]}`"), std::string::npos) << message;
  // With that sync point, or on one stream, it runs.
  EXPECT_EQ(refusal("\n  tenants:\n    - {cut_after: [maxpool], streams: [0, 1]}\n    - {stream: 2}\n    - {stream: "
                    "3}\n  waits: {\"0.1\": [\"0.0\"]}\n"),
            "(accepted)");
  EXPECT_EQ(refusal("{tenants: [{cut_after: [maxpool], stream: 0}, {stream: 0}, {stream: 1}]}"), "(accepted)");
}

TEST(Schedule, SyncPointsThatDeadlockAreRefusedNamingTheCycle) {
  // 0.0 waits for 1.0, which waits for 0.1, which stream 0 runs after 0.0.
  const std::string message = refusal(
      "\n  tenants:\n    - {cut_after: [maxpool], stream: 0}\n    - {stream: 1}\n    - {stream: 2}\n"
      "  waits:\n    \"0.0\": [\"1.0\"]\n    \"1.0\": [\"0.1\"]\n");
  EXPECT_NE(message.find("found a deadlock"), std::string::npos) << message;
  EXPECT_NE(message.find("stream 0 runs 0.1 after 0.0"), std::string::npos) << message;
  EXPECT_NE(message.find("1.0 waits for 0.1"), std::string::npos) << message;
  EXPECT_NE(message.find("0.0 waits for 1.0"), std::string::npos) << message;
  EXPECT_NE(message.find("mix.yaml:15:5: schedule.waits.0.0"), std::string::npos) << message;  // a sync point of it
  // A wait on a segment issued later is a dependency like any other when it closes no cycle.
  EXPECT_EQ(
      refusal("\n  tenants:\n    - {stream: 0}\n    - {stream: 1}\n    - {stream: 2}\n  waits: {\"0.0\": [\"2.0\"]}\n"),
      "(accepted)");
}

TEST(Schedule, EveryOtherMistakeNamesItsPlace) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{tenants: [{stream: 0}, {stream: 1}]}", "expected one entry per workload model (3), found 2"},
      {"{tenants: [{cut_after: [nope]}, {}, {}]}", "expected an op of resnet18 to cut after, found 'nope'"},
      {"{tenants: [{cut_after: [layer2.0.conv1, maxpool], stream: 0}, {}, {}]}", "expected cuts in the order"},
      {"{tenants: [{cut_after: [fc]}, {}, {}]}", "expected cuts after ops before the last"},
      {"{tenants: [{cut_after: [maxpool], streams: [0]}, {}, {}]}", "expected a stream for each of tenant 0's 2"},
      {"{tenants: [{}, {}, {}], order: [0, 1]}", "expected tenant 2 1 times in the issue order"},
      {"{tenants: [{}, {}, {}], order: [0, 0, 1]}", "found it more often"},
      {"{tenants: [{}, {}, {}], order: sideways}", "expected depth_first, breadth_first or a list"},
      {"{tenants: [{}, {}, {}], waits: {\"0.0\": [\"7.0\"]}}", "found 7.0"},
      {"{tenants: [{}, {}, {}], waits: {\"0.0\": [\"x\"]}}", "expected a segment as TENANT.SEGMENT"},
      {"{tenants: [{}, {}, {}], waits: {\"0.0\": [\"0.0\"]}}", "waiting for itself"},
      {"{tenants: [{stream: 2}, {}, {}], streams: [0, 1]}", "expected a priority in streams for every stream used"},
      {"{policy: breadth_frist}", "did you mean 'breadth_first'"},
      {"{policy: priority, priorities: [1]}", "expected one priority per workload model (3), found 1"},
      {"{policy: single_stream, segment_ops: 2}", "unknown key"},
      {"{file: no_such_schedule.yaml}", "no_such_schedule.yaml"},
  };
  for (const auto& [schedule, expected] : cases) {
    const std::string message = refusal(schedule);
    EXPECT_NE(message.find(expected), std::string::npos) << schedule << "\n  " << message;
    EXPECT_NE(message.find("mix.yaml:"), std::string::npos) << schedule << "\n  " << message;
  }
}

TEST(Schedule, AScheduleFileIsReadRelativeToTheConfig) {
  const auto dir = std::filesystem::temp_directory_path() / ("dse_schedule_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "s.yaml") << "tenants:\n  - {stream: 0}\n  - {stream: 1}\n  - {stream: 1}\nhost_threads: 2\n";
  std::ofstream(dir / "mix.yaml") << mix_yaml("{file: s.yaml}");
  const std::string config = (dir / "mix.yaml").string();
  const Experiment e = read_experiment(load_config_file(config), config);
  EXPECT_EQ(e.schedule->summary(), "explicit: 3 tenants on 2 streams, 3 segments, 0 sync points, 2 host threads");
  std::ofstream(dir / "s.yaml") << "tenants: [{stream: 0}, {stream: 1}]\n";
  try {
    read_experiment(load_config_file(config), config);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("s.yaml:1:"), std::string::npos) << error.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(Schedule, GeneratorsMakeWhatTheyDescribe) {
  const auto summary = [](const std::string& schedule) { return mix(schedule).schedule->summary(); };
  EXPECT_EQ(summary(""), "single_stream: 3 tenants on 1 stream, 3 segments, 0 sync points, 1 host thread");
  EXPECT_EQ(summary("{policy: stream_per_model}"),
            "stream_per_model: 3 tenants on 3 streams, 3 segments, 0 sync points, 1 host thread");
  const Experiment breadth = mix("{policy: breadth_first, segment_ops: 4}");
  std::size_t ops = 0;
  for (const auto& m : breadth.models) ops += (m.graph->ops().size() + 3) / 4;
  EXPECT_EQ(breadth.schedule->segments.size(), ops);
  // Breadth-first: the first three segments issued are one of each model.
  EXPECT_EQ(breadth.schedule->segments[0].ref.tenant, 0u);
  EXPECT_EQ(breadth.schedule->segments[1].ref.tenant, 1u);
  EXPECT_EQ(breadth.schedule->segments[2].ref.tenant, 2u);
  const Experiment priority = mix("{policy: priority, priorities: [0, 5, 1]}");
  EXPECT_EQ(priority.schedule->stream_priority, (std::vector<int>{0, 5, 1}));
  const Experiment realtime = mix("{policy: realtime, tenant: 2}");
  EXPECT_EQ(realtime.schedule->segments.front().ref.tenant, 2u);  // issued first, whole
  EXPECT_EQ(realtime.schedule->stream_priority[2], 1);
  EXPECT_EQ(realtime.schedule->stream_priority[0], 0);
}

// Two 100,000-op chains cut op by op (breadth_first, one op a segment): the check that each segment
// runs after those it reads from keeps, per segment, the first place it reaches on each stream. Its
// table of segment pairs took 5 GB (std::bad_alloc); the whole check now runs in 1 GB more.
TEST(Schedule, CheckingALongScheduleTakesMemoryLinearInItsSegments) {
  if (!test::address_space_limits_work()) GTEST_SKIP() << "no address-space limit under a sanitizer";
  std::vector<std::shared_ptr<const Graph>> tenants;
  for (int t = 0; t < 2; ++t) {
    Graph chain("chain" + std::to_string(t));
    TensorId x = chain.add_input("x", {1, 64}, DType::fp16);
    for (int i = 0; i < 100'000; ++i) x = ops::relu(chain, "r" + std::to_string(i), x);
    tenants.push_back(std::make_shared<const Graph>(std::move(chain)));
  }
  const ConfigNode block = load_config_text("{policy: breadth_first}", "s.yaml");
  EXPECT_EQ(exit_code_within(1024,
                             [&] {
                               const ResolvedSchedule schedule = read_schedule(&block, "s.yaml", tenants);
                               return schedule.segments.size() == 200'000 ? 0 : 2;
                             }),
            0);
}

TEST(Schedule, WrittenOutItReadsBackToTheSameRun) {
  for (const std::string policy : {"single_stream", "breadth_first", "priority", "realtime"}) {
    const Experiment generated = mix("{policy: " + policy + ", host_threads: 2}");
    const std::string text = schedule_yaml(generated.schedule->spec, graphs_of(generated));
    const Experiment reread = mix(text);
    EXPECT_EQ(reread.schedule->segments.size(), generated.schedule->segments.size()) << text;
    EXPECT_EQ(run_experiment(reread).makespan_ps, run_experiment(generated).makespan_ps) << text;
  }
}

TEST(Schedule, TheHostIssuesKernelsAtItsLaunchCostAndStreamsOverlap) {
  const RunResult sequential = run_experiment(mix(""));
  const RunResult depth_first = run_experiment(mix("{policy: stream_per_model}"));
  const RunResult breadth_first = run_experiment(mix("{policy: breadth_first}"));
  const RunResult threads = run_experiment(mix("{policy: stream_per_model, host_threads: 3}"));
  // One host thread, 3 us per launch: a run is never shorter than its launches.
  EXPECT_GE(breadth_first.makespan_ps, static_cast<TimePs>(breadth_first.ops.size()) * 3'000'000);
  EXPECT_LT(depth_first.makespan_ps, sequential.makespan_ps);
  EXPECT_LT(breadth_first.makespan_ps, depth_first.makespan_ps);  // no model's launches wait for a whole model
  EXPECT_LT(threads.makespan_ps, breadth_first.makespan_ps);      // a thread per model: launches in parallel
  // Sequential and depth-first issue start the second model when the first model's kernels are out.
  const auto first_kernels = std::count_if(sequential.ops.begin(), sequential.ops.end(),
                                           [](const OpRecord& op) { return op.model_index == 0; });
  EXPECT_EQ(depth_first.models[1].start_ps, first_kernels * 3'000'000);
  EXPECT_EQ(threads.models[1].start_ps, 0);
  // Completion times are from the common start: the sequential second model's includes the first.
  EXPECT_DOUBLE_EQ(*sequential.metrics.find("completion_ms_model1"), ps_to_ms(sequential.models[1].end_ps));
}

TEST(Schedule, ConcurrencyHelpsWhereOneTenantLeavesTheGpuIdleAndNotWhereBothFillIt) {
  // Sequential over concurrent makespan of two models, each issued by its own host thread.
  const auto speedup = [](const std::string& models) {
    const auto makespan = [&](const char* policy) {
      return static_cast<double>(
          run_experiment(mix(std::string("{host_threads: 2, policy: ") + policy + "}", models)).makespan_ps);
    };
    return makespan("single_stream") / makespan("stream_per_model");
  };
  // Two ResNet-50s at batch 64: every conv fills the A100 for several waves; running them side by
  // side changes next to nothing.
  const double both_fill = speedup(
      "    - {name: resnet50, batch: 64, dtype: fp16}\n"
      "    - {name: resnet50, batch: 64, dtype: fp16}\n");
  EXPECT_LT(both_fill, 1.03);
  EXPECT_GE(both_fill, 0.99);
  // A compute-bound ResNet-50 (batch 8) beside a memory-bound GPT-2 decode step (matrix-vector
  // products streaming 355M weights): the decode's few blocks run in the slots the convs leave.
  EXPECT_GT(speedup("    - {name: resnet50, batch: 8, dtype: fp16}\n"
                    "    - {name: gpt2_medium, batch: 1, dtype: fp16, phase: decode, past_len: 512}\n"),
            1.15);
}

TEST(Schedule, TheAcceleratorRunsWholeModelsOnItsQueuesOnly) {
  const std::string accel =
      "name: a\nworkload:\n  models:\n    - {name: resnet18, batch: 1, dtype: bf16}\n"
      "    - {name: mobilenet_v2, batch: 1, dtype: bf16}\n"
      "device: {accelerator: tpu_v3_like}\noutput: ~\n";
  EXPECT_NO_THROW(
      read_experiment(load_config_text(accel + "schedule: {policy: stream_per_model}\n", "a.yaml"), "a.yaml"));
  try {
    read_experiment(load_config_text(accel + "schedule: {policy: breadth_first}\n", "a.yaml"), "a.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("a.yaml:8:11: schedule: expected a schedule that runs each model whole"),
              std::string::npos)
        << error.what();
  }
}

TEST(ScheduleSampler, DrawsAndMutationsAreValidAndDeterministic) {
  const Experiment e = mix("");
  const auto tenants = graphs_of(e);
  const ConfigNode block = load_config_text("{max_segments: 6, streams: 3, priorities: 2, sync_points: 0.3}", "s.yaml");
  const ScheduleSampler sampler(tenants, block);
  EXPECT_EQ(sampler.seeds().size(), ScheduleGeneratorRegistry::instance().names().size());
  int mutated = 0;
  for (int i = 0; i < 40; ++i) {
    const double u = (i + 0.5) / 40;
    const std::string value = sampler.sample(u);
    EXPECT_EQ(value, sampler.sample(u));  // a pure function of u
    const ConfigNode node = parse_yaml_value(value, {"v", 1, 1});
    const ResolvedSchedule drawn = read_schedule(&node, "", tenants);
    for (const auto& tenant : drawn.spec.tenants) EXPECT_LE(tenant.cuts.size() + 1, 6u);
    // A chain of mutations stays valid (read_schedule checks dependencies and deadlocks).
    std::string child = i < 5 ? sampler.seeds()[static_cast<std::size_t>(i)] : value;
    for (int step = 0; step < 10; ++step) {
      const std::string next = sampler.mutate(child, (step + 0.37 + i) / 51.0);
      mutated += next != child;
      child = next;
      const ConfigNode again = parse_yaml_value(child, {"v", 1, 1});
      EXPECT_NO_THROW(read_schedule(&again, "", tenants)) << child;
    }
  }
  EXPECT_GT(mutated, 350);  // nearly every mutation changes something
}

}  // namespace dse
