#include "models/ops/op_factory.h"

#include <stdexcept>

#include "models/ops/op_library.h"

namespace dse::ops {
namespace {

class Reader {
 public:
  Reader(const std::string& name, const Attributes& attributes) : name_(name), attributes_(attributes) {}

  std::int64_t integer(const std::string& key, std::optional<std::int64_t> fallback = std::nullopt) const {
    const auto it = attributes_.find(key);
    if (it == attributes_.end()) return fallback ? *fallback : missing<std::int64_t>(key);
    if (const auto* value = std::get_if<std::int64_t>(&it->second)) return *value;
    throw std::invalid_argument(name_ + ": attribute '" + key + "' must be an integer");
  }
  // A count of something (MACs, bytes, parameters): an integer of at least 0.
  std::int64_t count(const std::string& key, std::optional<std::int64_t> fallback = std::nullopt) const {
    const std::int64_t value = integer(key, fallback);
    if (value < 0) throw std::invalid_argument(name_ + ": attribute '" + key + "' must be a count >= 0");
    return value;
  }
  std::vector<std::int64_t> ints(const std::string& key,
                                 std::optional<std::vector<std::int64_t>> fallback = std::nullopt) const {
    const auto it = attributes_.find(key);
    if (it == attributes_.end()) return fallback ? *fallback : missing<std::vector<std::int64_t>>(key);
    if (const auto* value = std::get_if<std::vector<std::int64_t>>(&it->second)) return *value;
    throw std::invalid_argument(name_ + ": attribute '" + key + "' must be a list of integers");
  }
  std::vector<std::int64_t> pair(const std::string& key, std::int64_t fallback) const {
    const auto value = ints(key, std::vector<std::int64_t>{fallback, fallback});
    if (value.size() != 2) throw std::invalid_argument(name_ + ": attribute '" + key + "' must have 2 entries");
    return value;
  }
  std::string text(const std::string& key) const {
    const auto it = attributes_.find(key);
    if (it == attributes_.end()) return missing<std::string>(key);
    if (const auto* value = std::get_if<std::string>(&it->second)) return *value;
    throw std::invalid_argument(name_ + ": attribute '" + key + "' must be a string");
  }
  Window window() const {
    const auto k = pair("kernel", 1), s = pair("stride", 1), p = pair("pad", 0), d = pair("dilation", 1);
    Window w{k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1]};
    const std::int64_t rounding = integer("rounding", 0);
    if (rounding < 0 || rounding > 2) throw std::invalid_argument(name_ + ": attribute 'rounding' must be 0, 1 or 2");
    w.rounding = static_cast<Window::Rounding>(rounding);
    return w;
  }

 private:
  template <class T>
  [[noreturn]] T missing(const std::string& key) const {
    throw std::invalid_argument(name_ + ": missing attribute '" + key + "'");
  }
  const std::string& name_;
  const Attributes& attributes_;
};

void require_inputs(const std::string& name, const std::vector<TensorId>& inputs, std::size_t count) {
  if (inputs.size() != count)
    throw std::invalid_argument(name + ": expected " + std::to_string(count) + " inputs, found " +
                                std::to_string(inputs.size()));
}

}  // namespace

Window recorded_window(const Op& op) { return Reader(op.name, op.attributes).window(); }

std::int64_t recorded_groups(const Op& op) { return Reader(op.name, op.attributes).integer("groups", 1); }

TensorId make_op(Graph& graph, OpKind kind, const std::string& name, const std::vector<TensorId>& inputs,
                 const Attributes& attributes) {
  const Reader read(name, attributes);
  const auto one = [&] {
    require_inputs(name, inputs, 1);
    return inputs[0];
  };
  switch (kind) {
    case OpKind::conv2d:
      return conv2d(graph, name, one(), read.integer("out_channels"), read.window(), read.integer("groups", 1),
                    read.integer("bias", 0) != 0);
    case OpKind::conv_transpose2d:
      return conv_transpose2d(graph, name, one(), read.integer("out_channels"), read.window(),
                              read.integer("groups", 1), read.integer("bias", 0) != 0,
                              read.integer("output_padding", 0));
    case OpKind::matmul:
      if (attributes.contains("out_features"))
        return linear(graph, name, one(), read.integer("out_features"), read.integer("bias", 0) != 0);
      require_inputs(name, inputs, 2);
      return matmul(graph, name, inputs[0], inputs[1], read.integer("transpose_b", 0) != 0);
    case OpKind::attention:
      if (inputs.size() != 3 && inputs.size() != 4)
        throw std::invalid_argument(name + ": expected q, k, v and an optional mask");
      return attention(graph, name, inputs[0], inputs[1], inputs[2],
                       inputs.size() == 4 ? std::optional<TensorId>(inputs[3]) : std::nullopt);
    case OpKind::fused: {
      FusedWork work{read.text("members"),
                     read.count("macs"),
                     read.count("flops"),
                     read.count("params"),
                     read.count("param_bytes"),
                     {},
                     read.count("side_bytes_written", 0)};
      const auto gemms = read.ints("gemms");
      if (gemms.size() % 4 != 0) throw std::invalid_argument(name + ": attribute 'gemms' must hold 4 numbers per GEMM");
      for (std::size_t i = 0; i < gemms.size(); i += 4)
        work.gemms.push_back({gemms[i], gemms[i + 1], gemms[i + 2], gemms[i + 3]});
      const auto shape = read.ints("shape");
      const auto dtype = parse_dtype(read.text("dtype"));
      if (!dtype) throw std::invalid_argument(name + ": unknown dtype '" + read.text("dtype") + "'");
      return fused(graph, name, inputs, Shape(shape.begin(), shape.end()), *dtype, work);
    }
    case OpKind::batchnorm: return batchnorm(graph, name, one());
    case OpKind::layernorm: return layernorm(graph, name, one());
    case OpKind::groupnorm: return groupnorm(graph, name, one(), read.integer("groups"));
    case OpKind::softmax: return softmax(graph, name, one(), read.integer("axis", -1));
    case OpKind::cast: {
      const auto to = parse_dtype(read.text("to"));
      if (!to) throw std::invalid_argument(name + ": unknown dtype '" + read.text("to") + "'");
      return cast(graph, name, one(), *to);
    }
    case OpKind::add:
    case OpKind::sub:
    case OpKind::mul:
    case OpKind::div:
    case OpKind::pow:
    case OpKind::maximum:
    case OpKind::minimum: require_inputs(name, inputs, 2); return binary(graph, name, kind, inputs[0], inputs[1]);
    case OpKind::elementwise: {
      std::optional<DType> to;
      if (attributes.contains("to")) {
        to = parse_dtype(read.text("to"));
        if (!to) throw std::invalid_argument(name + ": unknown dtype '" + read.text("to") + "'");
      }
      if (read.text("function") == "dropout") {
        require_inputs(name, inputs, 1);
        return dropout(graph, name, inputs[0]);
      }
      return elementwise(graph, name, read.text("function"), inputs, read.integer("flops_per_element"), to);
    }
    case OpKind::where: require_inputs(name, inputs, 3); return where(graph, name, inputs[0], inputs[1], inputs[2]);
    case OpKind::maxpool: return maxpool(graph, name, one(), read.window());
    case OpKind::avgpool: return avgpool(graph, name, one(), read.window());
    case OpKind::global_avgpool: return global_avgpool(graph, name, one());
    case OpKind::global_maxpool: return global_maxpool(graph, name, one());
    case OpKind::reduce_mean:
    case OpKind::reduce_sum:
    case OpKind::reduce_max:
      return reduce(graph, name, kind, one(), read.ints("axes", std::vector<std::int64_t>{}),
                    read.integer("keep_dims", 1) != 0);
    case OpKind::concat: return concat(graph, name, inputs, read.integer("axis"));
    case OpKind::slice: {
      const auto range = read.ints("range");
      if (range.size() != 3) throw std::invalid_argument(name + ": attribute 'range' must be [start, end, step]");
      return slice(graph, name, one(), read.integer("axis"), range[0], range[1], range[2]);
    }
    case OpKind::transpose: return transpose(graph, name, one(), read.ints("permutation"));
    case OpKind::pad: return pad(graph, name, one(), read.ints("pads"));
    case OpKind::gather:
      require_inputs(name, inputs, 2);
      return gather(graph, name, inputs[0], inputs[1], read.integer("axis", 0));
    case OpKind::expand: {
      const auto shape = read.ints("shape");
      return expand(graph, name, one(), Shape(shape.begin(), shape.end()));
    }
    case OpKind::resize: {
      const auto size = read.ints("size");
      if (size.size() != 2) throw std::invalid_argument(name + ": attribute 'size' must be [height, width]");
      return resize(graph, name, one(), size[0], size[1], read.text("mode"));
    }
    case OpKind::kv_cache_append:
      require_inputs(name, inputs, 2);
      return kv_cache_append(graph, name, inputs[0], inputs[1], read.integer("axis", -2));
    case OpKind::reshape: {
      const auto shape = read.ints("shape");
      return reshape(graph, name, one(), Shape(shape.begin(), shape.end()));
    }
    case OpKind::flatten: return flatten(graph, name, one(), read.integer("axis", 1));
    default: return unary(graph, name, kind, one());
  }
}

}  // namespace dse::ops
