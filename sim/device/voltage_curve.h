// Supply voltage against clock for CMOS logic, from one published table: neither NVIDIA nor Google
// publish their chips' voltage/frequency curves, so the GPU power model and the accelerator
// template both take their shape from a real FinFET chip's operating points (voltage_curve.cpp).
#pragma once

namespace dse {

// The voltage at `clock_share` of the table's top clock (1.0 = the top, 1.10 V); flat at the lowest
// point (0.70 V) below its clock share (0.38): logic does not go below its minimum supply.
double voltage_at_clock_share(double clock_share);
inline constexpr double kCurveMinVolts = 0.70;
inline constexpr double kCurveMaxVolts = 1.10;
// The clock share at which the table reaches kCurveMinVolts (903 of 2,362 MHz, voltage_curve.cpp).
inline constexpr double kCurveMinVoltsClockShare = 903.0 / 2362;

}  // namespace dse
