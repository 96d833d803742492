#include "jobs_file.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "hermes/json.hpp"

namespace hermes_jobs {
namespace {

using hermes::Json;

const std::set<std::string> kKeys = {"id",     "prompt", "schedule", "skills",        "toolsets",
                                     "output", "model",  "enabled",  "max_iterations"};

std::optional<std::vector<std::string>> names(const Json& v) {
  if (!v.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const Json& item : v) {
    if (!item.is_string() || item.get<std::string>().empty()) return std::nullopt;
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string text_or_empty(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// Reads one job; returns the problem ("" when the job is valid) and fills `job`.
std::string read_job(const Json& j, Job& job, bool& enabled) {
  if (!j.is_object()) return "is not a JSON object";
  job.id = text_or_empty(j, "id");
  if (job.id.empty()) return "\"id\" must be a non-empty string";
  job.prompt = text_or_empty(j, "prompt");
  if (job.prompt.empty()) return "\"prompt\" must be a non-empty string";
  if (!j.contains("schedule") || !j["schedule"].is_string()) return "\"schedule\" must be a string";
  std::string error;
  auto schedule = Schedule::parse(j["schedule"].get<std::string>(), error);
  if (!schedule) return "\"schedule\": " + error;
  job.schedule = *schedule;
  for (const char* key : {"skills", "toolsets"}) {
    if (!j.contains(key)) continue;
    auto list = names(j[key]);
    if (!list) return std::string("\"") + key + "\" must be a list of names";
    (std::string(key) == "skills" ? job.skills : job.toolsets) = *list;
  }
  for (const char* key : {"output", "model"}) {
    if (j.contains(key) && (!j[key].is_string() || j[key].get<std::string>().empty())) {
      return std::string("\"") + key + "\" must be a non-empty string";
    }
  }
  job.output = text_or_empty(j, "output");
  if (job.output.empty()) job.output = job.id + ".md";
  job.model = text_or_empty(j, "model");
  if (j.contains("enabled")) {
    if (!j["enabled"].is_boolean()) return "\"enabled\" must be true or false";
    enabled = j["enabled"].get<bool>();
  }
  if (j.contains("max_iterations")) {
    const Json& m = j["max_iterations"];
    if (!m.is_number_integer() || m.get<long long>() < 1 || m.get<long long>() > 10000) {
      return "\"max_iterations\" must be a whole number from 1 to 10000";
    }
    job.max_iterations = m.get<int>();
  }
  for (const auto& item : j.items()) {
    if (kKeys.count(item.key()) == 0) return "unknown key \"" + item.key() + "\"";
  }
  return "";
}

}  // namespace

JobsFile read_jobs_file(const std::string& path) {
  JobsFile file;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    file.found = false;
    return file;
  }
  std::ostringstream text;
  text << in.rdbuf();
  Json root = Json::parse(text.str(), nullptr, false);
  if (root.is_discarded() || !root.is_object() || !root.contains("jobs") ||
      !root["jobs"].is_array()) {
    file.problems.push_back(path + ": must be a JSON object with a \"jobs\" list");
    return file;
  }
  std::set<std::string> seen;
  int index = 0;
  for (const Json& j : root["jobs"]) {
    Job job;
    bool enabled = true;
    std::string problem = read_job(j, job, enabled);
    if (problem.empty() && !seen.insert(job.id).second)
      problem = "\"id\" is used by an earlier job";
    const std::string name =
        job.id.empty() ? "job #" + std::to_string(index + 1) : "job \"" + job.id + "\"";
    ++index;
    if (!problem.empty()) {
      file.problems.push_back(path + ": " + name + ": " + problem + "; skipped");
    } else if (enabled) {
      file.jobs.push_back(std::move(job));
    }
  }
  return file;
}

}  // namespace hermes_jobs
