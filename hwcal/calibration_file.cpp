#include "hwcal/calibration_file.h"

#include <fmt/format.h>

#include <array>

#include "sim/config/config_loader.h"
#include "sim/gpu/kernel_calibration_io.h"

namespace dse {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string numbers(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += fmt::format("{}{:.6g}", i ? ", " : "", values[i]);
  return out + "]";
}

// One measured op as a flow mapping (latency and power given separately).
std::string op_yaml(const KernelMeasurement& m) {
  std::string out =
      fmt::format("op: {}, dtype: {}, b: {}, m: {}, n: {}, k: {}", m.op, dtype_name(m.dtype), m.b, m.m, m.n, m.k);
  if (m.conv) {
    const ConvShape& c = *m.conv;
    out += fmt::format(", conv: [{}, {}, {}, {}, {}, {}, {}, {}, {}]", c.channels, c.height, c.width, c.out, c.r, c.s,
                       c.stride, c.pad, c.groups);
  }
  return out;
}

KernelMeasurement read_op(const ConfigNode& node, const std::string& path, const std::string& gpu) {
  node.expect_map("a measured op: op, dtype, b, m, n, k, conv");
  KernelMeasurement m;
  m.op = node.param<std::string>("op").required();
  const std::string dtype = node.param<std::string>("dtype").with_default("fp32");
  const auto parsed = parse_dtype(dtype);
  if (!parsed) node.find("dtype")->fail("expected a dtype (fp32, fp16, bf16), found \"" + dtype + "\"");
  m.dtype = *parsed;
  const std::array<std::pair<const char*, std::int64_t*>, 4> sizes{
      {{"b", &m.b}, {"m", &m.m}, {"n", &m.n}, {"k", &m.k}}};
  for (auto [key, field] : sizes)
    *field = node.param<std::int64_t>(key).in_range(0, std::int64_t{1} << 40).with_default(0);
  // The sizes the op is built from, the first `needed` of b, m, n, k, are counts of at least 1: a
  // launch row has none, a GEMM all four, a convolution its batch (the rest is in `conv`), the
  // others B rows of M.
  const std::size_t needed = m.op == "launch" ? 0 : m.op == "linear" || m.op == "bmm" ? 4 : m.op == "conv2d" ? 1 : 2;
  for (std::size_t i = 0; i < needed; ++i) {
    const auto [key, field] = sizes[i];
    if (*field >= 1) continue;
    const std::string message = std::string("expected a size of at least 1 for a ") + m.op + " op's " + key +
                                ", found " + std::to_string(*field);
    if (const ConfigNode* cell = node.find(key)) cell->fail(message);
    node.fail(message);
  }
  if (const ConfigNode* conv = node.find("conv")) {
    const auto items = conv->items();
    if (items.size() != 9) conv->fail("expected [channels, height, width, out, r, s, stride, pad, groups]");
    std::array<std::int64_t, 9> v{};
    for (std::size_t i = 0; i < 9; ++i) {
      v[i] = items[i].as<std::int64_t>();
      if (v[i] < (i == 7 ? 0 : 1) || v[i] > (std::int64_t{1} << 30))
        items[i].fail("expected a size from 1 (padding 0) to 2^30, found " + std::to_string(v[i]));
    }
    m.conv = ConvShape{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
  }
  m.back_to_back = true;
  m.device = gpu;
  m.file = path;
  m.line = node.mark().line;
  return m;
}

std::vector<double> read_triple(const ConfigNode* node) {
  std::vector<double> out;
  if (!node) return out;
  for (const auto& item : node->items()) out.push_back(item.as<double>());
  if (!out.empty() && out.size() != 3) node->fail("expected [min, mean, max], found " + std::to_string(out.size()));
  return out;
}

}  // namespace

std::string calibration_file_yaml(const CalibrationFile& file) {
  std::string yaml = kernel_calibration_yaml(file.parameters, file.fitted_on, file.source);
  if (!file.session) return yaml;
  const CalibrationSession& s = *file.session;
  yaml += "session:\n";
  yaml += fmt::format("  gpu: {}\n  device: {}\n  driver: {}\n  cuda: {}\n  backend: {}\n  date_utc: {}\n", s.gpu,
                      quoted(s.device), quoted(s.driver), quoted(s.cuda), s.backend, s.date_utc);
  if (s.idle_w) yaml += fmt::format("  idle_w: {:.6g}\n", *s.idle_w);
  if (!s.clocks_seen_mhz.empty()) yaml += "  clocks_seen_mhz: " + numbers(s.clocks_seen_mhz) + "\n";
  if (!s.power_seen_w.empty()) yaml += "  power_seen_w: " + numbers(s.power_seen_w) + "\n";
  yaml += fmt::format(
      "  wall_s: {:.6g}\n  serial_estimate_s: {:.6g}\n  speedup_vs_serial: {:.6g}\n  error_vs_serial_pct: {:.6g}\n",
      s.wall_s, s.serial_estimate_s, s.speedup_vs_serial, s.error_vs_serial_pct);
  yaml += s.rows.empty() ? "  rows: []\n" : "  rows:\n";
  for (const auto& r : s.rows) {
    std::string models;
    for (const auto& m : r.models) models += (models.empty() ? "" : ", ") + m;
    yaml += fmt::format("    - {{{}, latency_ms: {:.8g}{}, held_out: {}, models: [{}], count: {}}}\n", op_yaml(r.op),
                        r.op.latency_ms, r.op.power_w ? fmt::format(", power_w: {:.6g}", *r.op.power_w) : "",
                        r.held_out ? "true" : "false", models, r.count);
  }
  yaml += s.pairs.empty() ? "  pairs: []\n" : "  pairs:\n";
  for (const auto& p : s.pairs)
    yaml +=
        fmt::format("    - {{a: {{{}}}, b: {{{}}}, latency_ms: {:.8g}}}\n", op_yaml(p.a), op_yaml(p.b), p.latency_ms);
  yaml += s.failed.empty() ? "  failed: []\n" : "  failed:\n";
  for (const auto& f : s.failed)
    yaml += fmt::format("    - {{name: {}, status: {}, message: {}}}\n", quoted(f.name), f.status, quoted(f.message));
  return yaml;
}

CalibrationFile read_calibration_file(const std::string& path) {
  const ConfigNode root = load_config_file(path);
  CalibrationFile file;
  file.parameters = read_kernel_calibration(root);  // checks every key but the session's
  file.fitted_on = kernel_calibration_fitted_on(root);
  file.source = root.param<std::string>("source").with_default("");
  const ConfigNode* node = root.find("session");
  if (!node) return file;
  node->expect_map("the calibration session: gpu, device, rows, ...");
  CalibrationSession s;
  s.gpu = node->param<std::string>("gpu").required();
  for (auto [key, field] : {std::pair{"device", &s.device},
                            {"driver", &s.driver},
                            {"cuda", &s.cuda},
                            {"backend", &s.backend},
                            {"date_utc", &s.date_utc}})
    *field = node->param<std::string>(key).with_default("");
  s.idle_w = node->param<double>("idle_w").in_range(0, 1e5).optional();
  s.clocks_seen_mhz = read_triple(node->find("clocks_seen_mhz"));
  s.power_seen_w = read_triple(node->find("power_seen_w"));
  for (auto [key, field] : {std::pair{"wall_s", &s.wall_s},
                            {"serial_estimate_s", &s.serial_estimate_s},
                            {"speedup_vs_serial", &s.speedup_vs_serial},
                            {"error_vs_serial_pct", &s.error_vs_serial_pct}})
    *field = node->param<double>(key).in_range(0, 1e12).with_default(0);
  if (const ConfigNode* rows = node->find("rows")) {
    for (const auto& item : rows->items()) {
      CalibrationRow row;
      row.op = read_op(item, path, s.gpu);
      row.op.latency_ms = item.param<double>("latency_ms").in_range(1e-9, 1e9).required();
      row.op.power_w = item.param<double>("power_w").in_range(0, 1e5).optional();
      row.held_out = item.param<bool>("held_out").with_default(false);
      if (const ConfigNode* models = item.find("models"))
        for (const auto& m : models->items()) row.models.push_back(m.as<std::string>());
      row.count = static_cast<std::size_t>(item.param<std::int64_t>("count").in_range(1, 1'000'000).with_default(1));
      s.rows.push_back(std::move(row));
    }
  }
  if (const ConfigNode* pairs = node->find("pairs")) {
    for (const auto& item : pairs->items()) {
      item.expect_map("a pair: a, b, latency_ms");
      CalibrationPair pair{read_op(item.at("a", "the first op"), path, s.gpu),
                           read_op(item.at("b", "the second op"), path, s.gpu),
                           item.param<double>("latency_ms").in_range(1e-9, 1e9).required()};
      s.pairs.push_back(std::move(pair));
    }
  }
  if (const ConfigNode* failed = node->find("failed")) {
    for (const auto& item : failed->items()) {
      item.expect_map("a failed kernel: name, status, message");
      s.failed.push_back({item.param<std::string>("name").required(), item.param<std::string>("status").required(),
                          item.param<std::string>("message").with_default("")});
    }
  }
  node->check_unknown_keys();
  file.session = std::move(s);
  return file;
}

}  // namespace dse
