#include "job_runner.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "job_state.hpp"

namespace hermes_jobs {
namespace {

// The job's message: the instructions of each of its skills, then the prompt.
hermes::Result<std::string> compose_message(const Job& job, const std::string& home,
                                            const std::string& session_id) {
  std::string message;
  for (const std::string& skill : job.skills) {
    auto text = hermes::build_skill_invocation_message(home, hermes::SkillsOptions{}, skill, "",
                                                       session_id);
    if (!text.ok())
      return hermes::Status::not_found("skill \"" + skill + "\": " + text.status().message());
    message += *text + "\n\n";
  }
  return message + job.prompt;
}

std::string output_path(const Job& job, const std::string& home) {
  std::filesystem::path p(job.output);
  if (p.is_relative()) p = std::filesystem::path(home) / "jobs" / "output" / p;
  return p.string();
}

// Creates the missing directories of `dir`, each 0700 whatever the umask.
void make_private_directories(const std::filesystem::path& dir) {
  std::error_code ec;
  if (dir.empty() || std::filesystem::is_directory(dir, ec)) return;
  make_private_directories(dir.parent_path());
  if (::mkdir(dir.c_str(), 0700) == 0) ::chmod(dir.c_str(), 0700);
}

// Job output is conversation text, as private as the sessions it comes from.
void append_output(const std::string& path, const Job& job, std::time_t slot,
                   const std::string& heading_note, const std::string& body) {
  make_private_directories(std::filesystem::path(path).parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << "## " << job.id << " \xE2\x80\x94 " << iso_utc(slot) << heading_note << "\n\n"
      << body << "\n\n";
}

}  // namespace

JobOutcome run_job(const Job& job, std::time_t slot, const hermes::AgentOptions& base) {
  JobOutcome outcome;
  hermes::AgentOptions options = base;
  options.source = "cron";
  if (!job.model.empty()) options.provider.model = job.model;
  if (!job.toolsets.empty()) options.tool_use.enabled_toolsets = job.toolsets;
  if (job.max_iterations > 0) options.max_iterations = job.max_iterations;
  const std::string home = options.home.empty() ? hermes::default_home() : options.home;
  outcome.output_path = output_path(job, home);

  auto agent = hermes::Agent::create(options);
  hermes::ConversationResult result;
  if (!agent.ok()) {
    outcome.error = agent.status().to_string();
  } else if (auto message = compose_message(job, home, (*agent)->session_id()); !message.ok()) {
    outcome.error = message.status().message();
  } else {
    result = (*agent)->run_conversation(*message);
    outcome.completed = result.completed;
    if (!result.completed)
      outcome.error = result.exit_reason + (result.error.empty() ? "" : ": " + result.error);
  }
  if (outcome.completed) {
    append_output(outcome.output_path, job, slot, "", result.final_response.value_or(""));
  } else {
    append_output(outcome.output_path, job, slot, " (failed)", outcome.error);
  }
  return outcome;
}

}  // namespace hermes_jobs
