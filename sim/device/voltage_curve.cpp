#include "sim/device/voltage_curve.h"

#include <iterator>

namespace dse {
namespace {

// [LX] The Linux kernel's operating points for the Cortex-A73 cluster of the HiSilicon Hi3660
//      (Kirin 960, a TSMC 16 nm FinFET SoC): arch/arm64/boot/dts/hisilicon/hi3660.dtsi, opp-hz /
//      opp-microvolt: 0.70 V at 903 MHz, 0.80 V at 1,421, 0.90 V at 1,805, 1.00 V at 2,112, 1.10 V
//      at 2,362 MHz. Here as shares of the top clock.
struct Point {
  double clock_share;
  double volts;
};
constexpr double kTopMhz = 2362;
constexpr Point kCurve[] = {{kCurveMinVoltsClockShare, kCurveMinVolts},
                            {1421 / kTopMhz, 0.80},
                            {1805 / kTopMhz, 0.90},
                            {2112 / kTopMhz, 1.00},
                            {1.0, 1.10}};

}  // namespace

double voltage_at_clock_share(double clock_share) {
  if (clock_share <= kCurve[0].clock_share) return kCurve[0].volts;
  for (std::size_t i = 1; i < std::size(kCurve); ++i) {
    const Point &a = kCurve[i - 1], &b = kCurve[i];
    if (clock_share <= b.clock_share)
      return a.volts + (b.volts - a.volts) * (clock_share - a.clock_share) / (b.clock_share - a.clock_share);
  }
  return kCurve[std::size(kCurve) - 1].volts;
}

}  // namespace dse
