#include "config_file.hpp"

#include <fstream>
#include <sstream>

#include "hermes/json.hpp"
#include "hermes/safety.hpp"

namespace hermes_cli {
namespace {

using hermes::Json;

// Line and column (1-based) of byte `offset` in `text`.
std::string position_of(const std::string& text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Reads the keys of one JSON object, recording a problem for each bad one.
class KeyReader {
 public:
  KeyReader(const Json& object, std::string prefix, std::vector<std::string>& problems)
      : object_(object), prefix_(std::move(prefix)), problems_(problems) {}

  void text(const char* key, std::optional<std::string>& out) {
    const Json* v = take(key);
    if (v == nullptr) return;
    if (v->is_string() && !v->get<std::string>().empty()) {
      out = v->get<std::string>();
    } else {
      bad(key, "a non-empty string");
    }
  }

  void flag(const char* key, std::optional<bool>& out) {
    const Json* v = take(key);
    if (v == nullptr) return;
    if (v->is_boolean()) {
      out = v->get<bool>();
    } else {
      bad(key, "true or false");
    }
  }

  void positive(const char* key, std::optional<int>& out) {
    const Json* v = take(key);
    if (v == nullptr) return;
    if (v->is_number_integer() && v->get<long long>() >= 1 && v->get<long long>() <= 100000) {
      out = v->get<int>();
    } else {
      bad(key, "a whole number between 1 and 100000");
    }
  }

  void names(const char* key, std::optional<std::vector<std::string>>& out) {
    const Json* v = take(key);
    if (v == nullptr) return;
    std::vector<std::string> list;
    if (v->is_array()) {
      for (const Json& item : *v) {
        if (!item.is_string()) return bad(key, "a list of strings");
        list.push_back(item.get<std::string>());
      }
      out = std::move(list);
    } else {
      bad(key, "a list of strings");
    }
  }

  // The nested object under `key`, or nullptr (a problem when present but not an object).
  const Json* object(const char* key) {
    const Json* v = take(key);
    if (v == nullptr) return nullptr;
    if (v->is_object()) return v;
    bad(key, "an object");
    return nullptr;
  }

  // Reports keys nobody asked for; call last.
  void report_unknown() {
    for (const auto& item : object_.items()) {
      bool known = false;
      for (const std::string& k : seen_) known = known || k == item.key();
      if (!known) problems_.push_back(prefix_ + "unknown key \"" + item.key() + "\" ignored");
    }
  }

 private:
  const Json* take(const char* key) {
    seen_.emplace_back(key);
    auto it = object_.find(key);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }
  void bad(const char* key, const char* expected) {
    problems_.push_back(prefix_ + "\"" + key + "\" must be " + expected + "; using the default");
  }

  const Json& object_;
  std::string prefix_;
  std::vector<std::string>& problems_;
  std::vector<std::string> seen_;
};

void read_approvals(const Json& object, const std::string& name, ConfigFile& out) {
  KeyReader r(object, name + ": approvals: ", out.problems);
  std::optional<std::string> mode;
  r.text("mode", mode);
  if (mode && !hermes::approval_mode_from_name(*mode)) {
    out.problems.push_back(
        name + ": approvals: \"mode\" must be manual, smart, off, ask or allowlist; using manual");
    mode.reset();
  }
  out.approval_mode = mode;
  r.positive("timeout_seconds", out.approval_timeout_seconds);
  std::optional<std::vector<std::string>> allowed;
  r.names("allowed_commands", allowed);
  if (allowed) out.allowed_commands = *allowed;
  r.report_unknown();
}

void read_skills(const Json& object, const std::string& name, ConfigFile& out) {
  KeyReader r(object, name + ": skills: ", out.problems);
  std::optional<std::vector<std::string>> dirs;
  std::optional<std::vector<std::string>> disabled;
  r.names("external_dirs", dirs);
  r.names("disabled", disabled);
  r.report_unknown();
  if (dirs) out.skill_dirs = *dirs;
  if (disabled) out.disabled_skills = *disabled;
}

}  // namespace

ConfigFile parse_config_text(const std::string& text, const std::string& name) {
  ConfigFile out;
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    out.unusable = name + ": not valid JSON at " + position_of(text, e.byte > 0 ? e.byte - 1 : 0);
    return out;
  }
  if (!root.is_object()) {
    out.unusable = name + ": must hold a JSON object ({\"model\": ...})";
    return out;
  }
  KeyReader r(root, name + ": ", out.problems);
  r.text("model", out.model);
  r.text("provider", out.provider);
  r.text("base_url", out.base_url);
  r.text("api_mode", out.api_mode);
  r.names("toolsets", out.toolsets);
  r.names("disabled_toolsets", out.disabled_toolsets);
  r.positive("max_iterations", out.max_iterations);
  r.flag("stream", out.stream);
  r.flag("quiet", out.quiet);
  r.text("reasoning_effort", out.reasoning_effort);
  if (const Json* approvals = r.object("approvals")) read_approvals(*approvals, name, out);
  if (const Json* skills = r.object("skills")) read_skills(*skills, name, out);
  r.report_unknown();
  return out;
}

ConfigFile load_config_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  std::ostringstream text;
  text << file.rdbuf();
  return parse_config_text(text.str(), path);
}

}  // namespace hermes_cli
