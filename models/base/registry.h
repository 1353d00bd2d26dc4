// Registries of pluggable implementations, one per family, filled by the implementations themselves.
//
// A family is an interface that declares
//   static constexpr const char* family_name;         // "device", "model", "gpu_timing", "strategy", ...
//   static constexpr const char* family_description;  // one line, shown by `dse list`
//   using Factory = std::function<...>;               // how an implementation is made
// and an implementation registers in its own .cpp:
//   DSE_REGISTER(Strategy, RandomSearch, "random", "Uniform random sampling of the space");
//
// Contract: registration happens during static initialisation (the build links dse libraries whole,
// see cmake/DseTargets.cmake); lookups happen after main starts and never modify the registry, so
// concurrent lookups from many threads are safe. Names are unique within a family; a duplicate is a
// programming error and throws std::logic_error at start-up.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/base/did_you_mean.h"

namespace dse {

// One key an implementation reads from its config block, declared as data beside the code that
// reads it, so `dse list FAMILY` and the docs tables generated from it (scripts/update_key_tables.sh)
// say what the code reads (the DeclaredKeys tests, tests/declared_keys.h, check the two agree, key
// for key).
struct KeySpec {
  std::string name;
  std::string type;          // "number", "integer", "boolean", "string", "list of integers", ...
  std::string default_text;  // "required", "none" (optional, no default) or the default as YAML
  std::string unit;          // "W", "ms", "1/s", ... ("" for none)
  std::string help;          // one line
  std::string example;       // a valid value as YAML (what the tests set it to)
};

struct RegistryEntryInfo {
  std::string name;
  std::string description;
  std::string unit;           // families of quantities (metrics) only; "" otherwise
  std::vector<KeySpec> keys;  // the keys its block takes, where the family declares them
};

// Every family, so `dse list` can print them without knowing them.
class FamilyCatalog {
 public:
  struct Family {
    std::string name;
    std::string description;
    std::function<std::vector<RegistryEntryInfo>()> entries;
  };
  static FamilyCatalog& instance();
  void add_family(Family family);
  // Families sorted by name.
  std::vector<Family> families() const;
  // By name, or by its plural ("metrics" finds "metric").
  const Family* find(std::string_view name) const;

 private:
  std::map<std::string, Family, std::less<>> families_;
};

template <class Interface>
class Registry {
 public:
  using Factory = typename Interface::Factory;
  struct Entry {
    std::string name;
    std::string description;
    Factory factory;
    std::vector<KeySpec> keys;  // declared by implementations registered with DSE_REGISTER_KEYED
  };

  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  void add(Entry entry) {
    const std::string name = entry.name;
    if (!entries_.emplace(name, std::move(entry)).second) {
      throw std::logic_error(std::string("duplicate registration of '") + name + "' in family " +
                             Interface::family_name);
    }
  }

  // nullptr when no implementation has that name.
  const Entry* find(std::string_view name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }

  // Names in natural order (resnet18 before resnet101), for error messages and listings.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }

  std::vector<RegistryEntryInfo> infos() const {
    std::vector<RegistryEntryInfo> out;
    for (const auto& [name, entry] : entries_) out.push_back({name, entry.description, {}, entry.keys});
    return out;
  }

 private:
  Registry() {
    FamilyCatalog::instance().add_family(
        {Interface::family_name, Interface::family_description, [this] { return infos(); }});
  }
  std::map<std::string, Entry, NaturalLess> entries_;
};

// The factory of a polymorphic family: constructs Impl from the factory's arguments.
template <class Interface, class Impl>
typename Interface::Factory make_factory() {
  return [](auto&&... args) { return std::make_unique<Impl>(std::forward<decltype(args)>(args)...); };
}

}  // namespace dse

#define DSE_REGISTRY_CONCAT_INNER(a, b) a##b
#define DSE_REGISTRY_CONCAT(a, b) DSE_REGISTRY_CONCAT_INNER(a, b)

// Registers `factory` (a callable convertible to Family::Factory) under `name`, with the keys its
// block takes (KeySpec; {} where it reads none): a factory function's keys come from a function
// beside it, as `breadth_first_keys()` does.
#define DSE_REGISTER_ENTRY(Family, name, description, factory, keys)                       \
  namespace {                                                                              \
  [[maybe_unused]] const bool DSE_REGISTRY_CONCAT(dse_registered_, __LINE__) =             \
      (::dse::Registry<Family>::instance().add({name, description, factory, keys}), true); \
  }

// Registers `factory` (a callable convertible to Family::Factory) under `name`.
#define DSE_REGISTER_FACTORY(Family, name, description, factory) \
  DSE_REGISTER_ENTRY(Family, name, description, factory, {})

// Registers class Impl, constructed from the family factory's arguments.
#define DSE_REGISTER(Family, Impl, name, description) \
  DSE_REGISTER_FACTORY(Family, name, description, (::dse::make_factory<Family, Impl>()))

// Registers class Impl with the keys its block takes, Impl::declared_keys() (KeySpec).
#define DSE_REGISTER_KEYED(Family, Impl, name, description) \
  DSE_REGISTER_ENTRY(Family, name, description, (::dse::make_factory<Family, Impl>()), Impl::declared_keys())
