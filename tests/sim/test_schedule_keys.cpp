// The keys each schedule generator declares (KeySpec, `dse list schedule`, the table of
// docs/multitenant.md) are exactly the keys it reads from the schedule block, and a declared default
// given explicitly generates the same schedule as leaving the key out.
#include <gtest/gtest.h>

#include "sim/config/config_loader.h"
#include "sim/run/experiment.h"
#include "sim/runtime/schedule_generator.h"
#include "sim/runtime/schedule_yaml.h"
#include "tests/declared_keys.h"

namespace dse {
namespace {

// Two ResNet-18s and a MobileNet-V2 (batch 1): three tenants, as the examples' `priorities` expect.
std::vector<std::shared_ptr<const Graph>> three_tenants() {
  const Experiment e = read_experiment(load_config_text("name: mix\nworkload:\n  models:\n"
                                                        "    - {name: resnet18, batch: 1, dtype: fp16}\n"
                                                        "    - {name: resnet18, batch: 1, dtype: fp16}\n"
                                                        "    - {name: mobilenet_v2, batch: 1, dtype: fp16}\n"
                                                        "device: {gpu: a100_sxm4_40gb}\noutput: ~\n",
                                                        "mix.yaml"),
                                       "mix.yaml");
  std::vector<std::shared_ptr<const Graph>> out;
  for (const auto& m : e.models) out.push_back(m.graph);
  return out;
}

}  // namespace

TEST(DeclaredKeys, ScheduleGeneratorsReadExactlyTheKeysTheyDeclare) {
  const auto tenants = three_tenants();
  test::KeyCheckOptions options;
  options.head_key = "policy";  // read by the schedule block's reader, not the generator
  test::check_declared_keys<ScheduleGenerator>(
      [&tenants](const std::string& policy, const ConfigNode& block) {
        return schedule_yaml(generate_schedule(policy, block, tenants), tenants);
      },
      options);
}

// docs/multitenant.md's table is `dse list schedule --json` as scripts/update_key_tables.sh writes it.
TEST(DeclaredKeys, TheScheduleDocsTableIsTheDeclarations) {
  test::check_key_table<ScheduleGenerator>("docs/multitenant.md");
}

}  // namespace dse
