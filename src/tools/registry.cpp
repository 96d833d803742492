#include <algorithm>
#include <map>
#include <set>
#include <shared_mutex>

#include "hermes/tool.hpp"
#include "tools/availability_cache.hpp"

namespace hermes {
namespace {

bool is_valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

}  // namespace

struct ToolRegistry::Impl {
  mutable std::shared_mutex mu;
  std::map<std::string, std::shared_ptr<const ToolSpec>, std::less<>> tools;
  std::map<std::string, std::vector<std::string>, std::less<>> includes;  // Composite toolsets.
  uint64_t generation = 0;
  std::map<std::string, Json, std::less<>> settings;
  internal::AvailabilityCache availability;

  // Adds the tools of `toolset` (and of what it includes) to `out`. Caller holds mu.
  void expand(const std::string& toolset, std::set<std::string>& out,
              std::set<std::string>& visiting) const {
    if (!visiting.insert(toolset).second) return;  // Cyclic includes.
    for (const auto& [name, spec] : tools) {
      if (spec->toolset == toolset) out.insert(name);
    }
    if (auto it = includes.find(toolset); it != includes.end()) {
      for (const auto& inc : it->second) expand(inc, out, visiting);
    }
  }
};

ToolRegistry::ToolRegistry() : impl_(std::make_unique<Impl>()) {}
ToolRegistry::~ToolRegistry() = default;

std::unique_ptr<ToolRegistry> ToolRegistry::clone() const {
  auto copy = std::make_unique<ToolRegistry>();
  std::shared_lock lock(impl_->mu);
  copy->impl_->tools = impl_->tools;
  copy->impl_->includes = impl_->includes;
  copy->impl_->settings = impl_->settings;
  return copy;
}

Status ToolRegistry::register_tool(ToolSpec spec, bool allow_override) {
  if (!is_valid_tool_name(spec.name)) {
    return Status::invalid_argument("tool name '" + spec.name +
                                    "' must be 1-64 characters of [A-Za-z0-9_-]");
  }
  if (!spec.handler) return Status::invalid_argument("tool '" + spec.name + "' has no handler");
  if (spec.parameters.is_null()) {
    spec.parameters = Json{{"type", "object"}, {"properties", Json::object()}};
  }
  if (!spec.parameters.is_object()) {
    return Status::invalid_argument("tool '" + spec.name +
                                    "': parameters must be a JSON Schema object");
  }
  if (spec.toolset.empty()) spec.toolset = "custom";

  std::unique_lock lock(impl_->mu);
  auto it = impl_->tools.find(spec.name);
  if (it != impl_->tools.end() && it->second->toolset != spec.toolset && !allow_override) {
    return Status::already_exists("tool '" + spec.name + "' is already registered by toolset '" +
                                  it->second->toolset + "'");
  }
  std::string name = spec.name;
  impl_->availability.forget(name);
  impl_->tools[name] = std::make_shared<const ToolSpec>(std::move(spec));
  ++impl_->generation;
  return {};
}

Status ToolRegistry::unregister_tool(std::string_view name) {
  std::unique_lock lock(impl_->mu);
  auto it = impl_->tools.find(name);
  if (it == impl_->tools.end())
    return Status::not_found("no tool named '" + std::string(name) + "'");
  impl_->availability.forget(it->first);
  impl_->tools.erase(it);
  ++impl_->generation;
  return {};
}

std::shared_ptr<const ToolSpec> ToolRegistry::find(std::string_view name) const {
  std::shared_lock lock(impl_->mu);
  auto it = impl_->tools.find(name);
  return it == impl_->tools.end() ? nullptr : it->second;
}

void ToolRegistry::define_toolset(std::string name, std::vector<std::string> includes) {
  std::unique_lock lock(impl_->mu);
  impl_->includes[std::move(name)] = std::move(includes);
  ++impl_->generation;
}

std::vector<std::string> ToolRegistry::resolve(const std::vector<std::string>& enabled,
                                               const std::vector<std::string>& disabled) const {
  std::vector<std::shared_ptr<const ToolSpec>> candidates;
  {
    std::shared_lock lock(impl_->mu);
    std::set<std::string> names;
    if (enabled.empty()) {
      for (const auto& [name, spec] : impl_->tools) names.insert(name);
    } else {
      for (const auto& ts : enabled) {
        std::set<std::string> visiting;
        impl_->expand(ts, names, visiting);
      }
    }
    std::set<std::string> removed;
    for (const auto& ts : disabled) {
      std::set<std::string> visiting;
      impl_->expand(ts, removed, visiting);
    }
    for (const auto& name : names) {
      if (removed.count(name) == 0) candidates.push_back(impl_->tools.find(name)->second);
    }
  }
  // Availability probes run without the lock: they may be slow or touch the registry.
  // Their answers are remembered for a while (see AvailabilityCache).
  std::vector<std::string> out;
  for (const auto& spec : candidates) {
    if (impl_->availability.available(*spec)) out.push_back(spec->name);
  }
  return out;
}

Json ToolRegistry::definitions(const std::vector<std::string>& names) const {
  Json out = Json::array();
  std::shared_lock lock(impl_->mu);
  for (const auto& name : names) {
    auto it = impl_->tools.find(name);
    if (it == impl_->tools.end()) continue;
    const ToolSpec& spec = *it->second;
    out.push_back({{"type", "function"},
                   {"function",
                    {{"name", spec.name},
                     {"description", spec.description},
                     {"parameters", spec.parameters}}}});
  }
  return out;
}

std::vector<std::string> ToolRegistry::names() const {
  std::shared_lock lock(impl_->mu);
  std::vector<std::string> out;
  out.reserve(impl_->tools.size());
  for (const auto& [name, spec] : impl_->tools) out.push_back(name);
  return out;
}

std::vector<std::string> ToolRegistry::toolsets() const {
  std::shared_lock lock(impl_->mu);
  std::set<std::string> out;
  for (const auto& [name, spec] : impl_->tools) out.insert(spec->toolset);
  for (const auto& [name, inc] : impl_->includes) out.insert(name);
  return {out.begin(), out.end()};
}

uint64_t ToolRegistry::generation() const {
  std::shared_lock lock(impl_->mu);
  return impl_->generation;
}

void ToolRegistry::record_setting(std::string key, Json value) {
  std::unique_lock lock(impl_->mu);
  impl_->settings[std::move(key)] = std::move(value);
}

std::optional<Json> ToolRegistry::setting(std::string_view key) const {
  std::shared_lock lock(impl_->mu);
  const auto it = impl_->settings.find(key);
  if (it == impl_->settings.end()) return std::nullopt;
  return it->second;
}

}  // namespace hermes
