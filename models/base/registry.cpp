#include "models/base/registry.h"

namespace dse {

FamilyCatalog& FamilyCatalog::instance() {
  static FamilyCatalog catalog;
  return catalog;
}

void FamilyCatalog::add_family(Family family) {
  const std::string name = family.name;
  if (!families_.emplace(name, std::move(family)).second) {
    throw std::logic_error("duplicate registry family '" + name + "'");
  }
}

std::vector<FamilyCatalog::Family> FamilyCatalog::families() const {
  std::vector<Family> out;
  for (const auto& [name, family] : families_) out.push_back(family);
  return out;
}

const FamilyCatalog::Family* FamilyCatalog::find(std::string_view name) const {
  auto it = families_.find(name);
  if (it == families_.end() && name.ends_with('s')) it = families_.find(name.substr(0, name.size() - 1));
  return it == families_.end() ? nullptr : &it->second;
}

}  // namespace dse
