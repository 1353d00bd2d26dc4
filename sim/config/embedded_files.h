// The files of configs/ compiled into the binary (see cmake/embed_files.cmake), so the shipped GPU
// specs and example experiments work with nothing but the `dse` executable.
#pragma once

#include <span>
#include <string_view>

namespace dse {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository root: "configs/hardware/gpu/h200.yaml"
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();

// Paths of embedded files are written "embedded:configs/..." wherever a file name is expected.
inline constexpr std::string_view kEmbeddedPrefix = "embedded:";

}  // namespace dse
