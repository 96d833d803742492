// Calls the packaged hermes through both of its interfaces.
#include <cstdio>
#include <cstring>
#include <hermes/hermes.hpp>

#include "hermes_c.h"

int main() {
  if (std::strcmp(hermes::version(), HERMES_VERSION_STRING) != 0) {
    std::fprintf(stderr, "libhermes_agent %s, headers %s\n", hermes::version(),
                 HERMES_VERSION_STRING);
    return 1;
  }
  if (!hermes_abi_compatible(HERMES_ABI_VERSION)) {
    std::fprintf(stderr, "libhermes_agent_c %s does not match hermes_c.h\n", hermes_version());
    return 1;
  }
  hermes::AgentOptions options;  // No model: creating an agent must fail, and say why.
  options.persist_sessions = false;
  auto agent = hermes::Agent::create(options);
  if (agent.ok() || agent.status().code() != hermes::StatusCode::kInvalidArgument) {
    std::fprintf(stderr, "an agent without a model was not refused\n");
    return 1;
  }
  std::printf("hermes %s (C ABI %u): ok\n", hermes::version(), hermes_abi_version());
  return 0;
}
