#include "prompt_file.hpp"

#include <fstream>
#include <set>

#include "hermes/json.hpp"

namespace hermes_batch {
namespace {

using hermes::Json;

// Parses one line; returns an error text, or "" with `out` filled.
std::string parse_line(const std::string& text, int line, Prompt& out) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return "not valid JSON";
  if (!j.is_object()) return "not a JSON object";
  if (!j.contains("prompt") || !j["prompt"].is_string() || j["prompt"].get<std::string>().empty()) {
    return "\"prompt\" must be a non-empty string";
  }
  out.prompt = j["prompt"].get<std::string>();
  out.line = line;
  if (j.contains("id")) {
    if (j["id"].is_string() && !j["id"].get<std::string>().empty()) {
      out.id = j["id"].get<std::string>();
    } else if (j["id"].is_number_integer()) {
      out.id = std::to_string(j["id"].get<long long>());
    } else {
      return "\"id\" must be a non-empty string or an integer";
    }
  } else {
    out.id = "line-" + std::to_string(line);
  }
  if (j.contains("system")) {
    if (!j["system"].is_string()) return "\"system\" must be a string";
    out.system = j["system"].get<std::string>();
  }
  return "";
}

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace

PromptFile read_prompt_file(const std::string& path) {
  PromptFile file;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    file.readable = false;
    file.problems.push_back(path + ": cannot be read");
    return file;
  }
  std::set<std::string> seen;
  int number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    if (blank(text)) continue;
    Prompt p;
    std::string error = parse_line(text, number, p);
    if (error.empty() && !seen.insert(p.id).second) error = "duplicate id \"" + p.id + "\"";
    if (!error.empty()) {
      file.problems.push_back(path + ":" + std::to_string(number) + ": " + error + "; skipped");
      continue;
    }
    file.prompts.push_back(std::move(p));
  }
  return file;
}

std::vector<std::string> finished_ids(const std::string& output_path) {
  std::vector<std::string> ids;
  std::ifstream in(output_path, std::ios::binary);
  for (std::string text; std::getline(in, text);) {
    Json j = Json::parse(text, nullptr, false);
    if (j.is_object() && j.contains("id") && j["id"].is_string())
      ids.push_back(j["id"].get<std::string>());
  }
  return ids;
}

}  // namespace hermes_batch
