// An ONNX model file through the importer (protobuf parse, shape inference, op mapping).
#include "models/import/onnx_import.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dse::fuzz::expect_result_or_user_error(
      [&] { (void)dse::import_onnx(dse::fuzz::as_file(data, size, ".onnx")); });
}
