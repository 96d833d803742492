#include "hermes/agent_options_json.hpp"

#include <string>
#include <string_view>

#include "agent/option_table.hpp"

namespace hermes {
namespace {

using internal::option_table;
using internal::OptionEntry;

const OptionEntry* find_option(std::string_view name) {
  for (const OptionEntry& entry : option_table()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// True when some option lives inside the group `prefix` ("compression").
bool is_group(std::string_view prefix) {
  for (const OptionEntry& entry : option_table()) {
    const std::string_view name = entry.name;
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
        name[prefix.size()] == '.') {
      return true;
    }
  }
  return false;
}

// Sets each option of `object`, whose keys are relative to `prefix`.
Status apply_object(const Json& object, const std::string& prefix, AgentOptions& options) {
  for (const auto& item : object.items()) {
    const std::string name = prefix.empty() ? item.key() : prefix + "." + item.key();
    if (const OptionEntry* entry = find_option(name)) {
      HERMES_RETURN_IF_ERROR(entry->set(item.value(), options));
    } else if (is_group(name)) {
      if (!item.value().is_object()) {
        return Status::invalid_argument(name + ": expected an object, got " +
                                        std::string(item.value().type_name()));
      }
      HERMES_RETURN_IF_ERROR(apply_object(item.value(), name, options));
    } else {
      return Status::invalid_argument(name +
                                      ": unknown option (describe_agent_options() lists them)");
    }
  }
  return {};
}

// "/compression/threshold_percent" for "compression.threshold_percent".
Json::json_pointer pointer_to(const std::string& name) {
  std::string path = "/" + name;
  for (char& c : path) {
    if (c == '.') c = '/';
  }
  return Json::json_pointer(path);
}

}  // namespace

Json describe_agent_options() {
  const AgentOptions defaults;
  Json list = Json::array();
  for (const OptionEntry& entry : option_table()) {
    Json item{{"name", entry.name},
              {"type", entry.type},
              {"default", entry.get(defaults)},
              {"doc", entry.doc}};
    if (entry.bounds.minimum) {
      item["minimum"] = *entry.bounds.minimum;
      if (entry.bounds.exclusive_minimum) item["exclusive_minimum"] = true;
    }
    if (entry.bounds.maximum) item["maximum"] = *entry.bounds.maximum;
    if (!entry.values.empty()) item["values"] = entry.values;
    list.push_back(std::move(item));
  }
  return list;
}

Status apply_agent_options(const Json& document, AgentOptions& options) {
  if (!document.is_object()) {
    return Status::invalid_argument(std::string("options: expected a JSON object, got ") +
                                    document.type_name());
  }
  AgentOptions changed = options;
  HERMES_RETURN_IF_ERROR(apply_object(document, "", changed));
  options = std::move(changed);
  return {};
}

Json agent_options_to_json(const AgentOptions& options) {
  Json document = Json::object();
  for (const OptionEntry& entry : option_table())
    document[pointer_to(entry.name)] = entry.get(options);
  return document;
}

}  // namespace hermes
