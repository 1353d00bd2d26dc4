// A recorded run of the BatchDVFS paper read and summarised by hand numbers, its name and file
// checked, and one run simulated in the paper's setting (sim/serving/batchdvfs_validation.h).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "models/base/errors.h"
#include "sim/config/config_loader.h"
#include "sim/run/experiment.h"
#include "sim/serving/batchdvfs_validation.h"

namespace dse {
namespace {

namespace fs = std::filesystem;

const std::string kBatchDvfsHeader =
    "time stamp, Througput (image/sec), power, batch size, minBS, maxBS, BestBS, power cap, DVFS\n";

// A file `name` holding `text` in a fresh folder.
class RunFile {
 public:
  RunFile(const std::string& name, const std::string& text)
      : dir_(fs::temp_directory_path() /
             ("dse_batchdvfs_" + std::to_string(::getpid()) + "_" + std::to_string(next_folder_++))) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / name) << text;
    path_ = (dir_ / name).string();
  }
  ~RunFile() { fs::remove_all(dir_); }
  const std::string& path() const { return path_; }

 private:
  static inline int next_folder_ = 0;
  fs::path dir_;
  std::string path_;
};

std::string error_of(const std::string& path) {
  try {
    (void)read_batchdvfs_run(path);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(BatchDvfsValidation, ARecordedRunIsSummarisedAfterItsWarmUpCall) {
  // The warm-up call (batch 1, 5 s) ends at 100 s; then batch 4 at 1,063 MHz logs 100 W at 101 s and
  // batch 8 at 1,189 MHz 150 W at 103 s, under a 120 W cap; the summary block after the blank line
  // is not a row.
  const RunFile file("13_ResNetV2_50_BatchDVFS.csv", kBatchDvfsHeader +
                                                         "100.0,0.2,74.0,1,0,254,0,120,1063\n"
                                                         "101.0,4.0,100.0,4,0,254,3,120,1063\n"
                                                         "103.0,4.0,150.0,8,0,254,7,120,1189\n"
                                                         "\n ,min, 0.2, 74.0,1.0,0.0,254.0,0.0,120.0, 1063.0\n");
  const BatchDvfsRecordedRun run = read_batchdvfs_run(file.path());
  EXPECT_EQ(run.run, "13_ResNetV2_50_BatchDVFS");
  EXPECT_EQ(run.paper_model, "ResNetV2_50");
  EXPECT_EQ(run.model, "resnet_v2_50");
  EXPECT_EQ(run.controller, "batch_dvfs");
  EXPECT_EQ(run.skipped, "");
  EXPECT_DOUBLE_EQ(run.power_cap_w, 120.0);
  EXPECT_DOUBLE_EQ(run.duration_s, 3.0);
  EXPECT_DOUBLE_EQ(run.recorded.power_mean_w, 125.0);   // (100 + 150) / 2
  EXPECT_DOUBLE_EQ(run.recorded.over_cap_share, 0.5);   // 150 W > 120 W
  EXPECT_DOUBLE_EQ(run.recorded.batch_mean, 6.0);       // (4 + 8) / 2
  EXPECT_DOUBLE_EQ(run.recorded.images_per_s, 4.0);     // 12 images in 3 s
  ASSERT_EQ(run.recorded.clock_time_share.size(), 2u);  // 1 s at 1,063 MHz, 2 s at 1,189
  EXPECT_NEAR(run.recorded.clock_time_share.at(1063), 1.0 / 3, 1e-12);
  EXPECT_NEAR(run.recorded.clock_time_share.at(1189), 2.0 / 3, 1e-12);
  // The simulation it asks for is a config dse reads.
  const ConfigNode root = load_config_text(batchdvfs_experiment_yaml(run, {}), "validate.yaml");
  EXPECT_NO_THROW((void)read_experiment(root, "validate.yaml"));
}

TEST(BatchDvfsValidation, DvfsOnlyRunsAtTheirMostFrequentBatchAndClipperAtTheDefaultClock) {
  const RunFile dvfs("ResNetV2_101_DVFS.csv",
                     "time stamp, Througput (image/sec), power cap, power, batch size, DVFS\n"
                     "10,20,167,120,256,1063\n11,70,167,130,256,1189\n12,70,167,60,77,1189\n");
  const BatchDvfsRecordedRun d = read_batchdvfs_run(dvfs.path());
  EXPECT_EQ(d.controller, "dvfs_only");
  EXPECT_EQ(d.model, "resnet_v2_101");
  EXPECT_EQ(d.fixed_batch, 256);  // the last batch was cut to the images left
  const RunFile clipper("05_MobilenetV1_05_Clipper.csv",
                        "time stamp, Througput (image/sec), power, batch size, "
                        "BestBS, power cap\n1,5,60,1,0,89,\n2,5,70,5,4,89,\n"
                        "3,5,95,9,8,89,\n");
  const BatchDvfsRecordedRun c = read_batchdvfs_run(clipper.path());
  EXPECT_EQ(c.controller, "clipper_power");
  EXPECT_EQ(c.model, "mobilenet_v1_050");
  ASSERT_EQ(c.recorded.clock_time_share.size(), 1u);
  EXPECT_DOUBLE_EQ(c.recorded.clock_time_share.at(1531), 1.0);
  EXPECT_DOUBLE_EQ(c.recorded.over_cap_share, 0.5);
}

TEST(BatchDvfsValidation, AModelTheZooLacksIsSkippedWithAReason) {
  const RunFile file("10_NASNet_A_Large_331_Clipper.csv",
                     "time stamp, Througput (image/sec), power, batch size, BestBS, power cap\n"
                     "1,5,60,1,0,89,\n2,5,70,5,4,89,\n3,5,95,9,8,89,\n");
  const BatchDvfsValidation v = validate_batchdvfs_run(file.path());
  EXPECT_EQ(v.run.skipped, "dse's zoo has no NASNet-A Large (dse list model)");
  EXPECT_EQ(v.run.model, "");
  EXPECT_DOUBLE_EQ(v.simulated.images_per_s, 0.0);
}

TEST(BatchDvfsValidation, AFileThatIsNotARecordedRunIsNamedWithWhatWasExpected) {
  const std::string rows = "1,5,60,1,0,254,0,89,1063\n2,5,70,5,0,254,4,89,1063\n3,5,95,9,0,254,8,89,1063\n";
  EXPECT_NE(error_of(RunFile("results.csv", kBatchDvfsHeader + rows).path())
                .find("results.csv: expected a recorded run named NN_MODEL_CONTROLLER.csv"),
            std::string::npos);
  EXPECT_NE(
      error_of(RunFile("13_ResNetV2_50_Batch.csv", kBatchDvfsHeader + rows).path()).find("found controller 'Batch'"),
      std::string::npos);
  EXPECT_NE(error_of(RunFile("13_ResNet50_BatchDVFS.csv", kBatchDvfsHeader + rows).path())
                .find("expected one of the paper's models (InceptionV1, "),
            std::string::npos);
  const std::string no_clock =
      error_of(RunFile("13_ResNetV2_50_BatchDVFS.csv", "time stamp, power, batch size, power cap\n1,60,1,89\n").path());
  EXPECT_NE(no_clock.find("13_ResNetV2_50_BatchDVFS.csv:1:1: expected a recorded run of the paper's BatchDVFS "
                          "controller (tests/data/batchdvfs/README.md) with the columns time stamp, power, batch "
                          "size, power cap, DVFS; found columns time stamp, power, batch size, power cap"),
            std::string::npos)
      << no_clock;
  const std::string clock =
      error_of(RunFile("13_ResNetV2_50_BatchDVFS.csv", kBatchDvfsHeader + rows + "4,5,95,9,0,254,8,89,1000\n").path());
  EXPECT_NE(clock.find("13_ResNetV2_50_BatchDVFS.csv:5:21: DVFS: expected one of the paper's clock levels (544, "),
            std::string::npos)
      << clock;
  EXPECT_NE(error_of(RunFile("13_ResNetV2_50_BatchDVFS.csv", kBatchDvfsHeader + "1,5,60,1,0,254,0,89,1063\n").path())
                .find("expected a recorded run of at least three rows"),
            std::string::npos);
  EXPECT_NE(
      error_of(RunFile("13_ResNetV2_50_BatchDVFS.csv", kBatchDvfsHeader + rows + "4,5,95,0,0,254,8,89,1063\n").path())
          .find(":5:8: batch size: expected a batch size from 1 to 65,536, found 0"),
      std::string::npos);
}

TEST(BatchDvfsValidation, TheSimulatedJobIsHostBoundAsThePapersWas) {
  // DVFS-only at batch 256 on ResNetV2-50: each call decodes 256 images on the host (44.1 ms +
  // 256 x 11.86 ms = 3.08 s) before a pass of a few tenths of a second, so the job runs at about the
  // recorded 77 images/s (a GPU fed without the host stage would serve several hundred).
  const BatchDvfsValidation v =
      validate_batchdvfs_run(std::string(DSE_REFERENCE_DIR) + "/batchdvfs/dvfs256/13_ResNetV2_50_DVFS.csv");
  EXPECT_EQ(v.run.skipped, "");
  EXPECT_DOUBLE_EQ(v.simulated.batch_mean, 256.0);
  EXPECT_NEAR(v.simulated.images_per_s / v.run.recorded.images_per_s, 1.0, 0.1);
  EXPECT_LT(v.simulated.images_per_s, 256 / 3.08);
  double share = 0;
  for (const auto& [mhz, s] : v.simulated.clock_time_share) share += s;
  EXPECT_NEAR(share, 1.0, 1e-9);
  EXPECT_GT(v.simulated.power_mean_w, 0.0);
}

}  // namespace
}  // namespace dse
