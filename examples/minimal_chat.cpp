// The smallest useful hermes program: one question to an OpenAI-compatible model.
//
//   OPENAI_API_KEY=sk-... ./minimal_chat "What is the capital of France?"
//
// OPENAI_BASE_URL and HERMES_MODEL select another endpoint and model.
#include <cstdio>
#include <cstdlib>

#include "hermes/hermes.hpp"

int main(int argc, char** argv) {
  const char* key = std::getenv("OPENAI_API_KEY");
  const char* base_url = std::getenv("OPENAI_BASE_URL");
  const char* model = std::getenv("HERMES_MODEL");

  hermes::AgentOptions options;
  options.provider.model = model ? model : "gpt-4.1-mini";
  if (base_url) options.provider.base_url = base_url;
  if (key) options.provider.api_key = key;
  options.persistence.enabled = false;  // Nothing written to disk.

  auto agent = hermes::Agent::create(options);
  if (!agent.ok()) {
    std::fprintf(stderr, "%s\n", agent.status().to_string().c_str());
    return 2;
  }
  auto answer = (*agent)->chat(argc > 1 ? argv[1] : "Say hello in one short sentence.");
  if (!answer.ok()) {
    std::fprintf(stderr, "%s\n", answer.status().to_string().c_str());
    return 1;
  }
  std::printf("%s\n", answer->c_str());
  return 0;
}
