// AgentOptions' special members. Defined here, where the deprecated names' warnings are
// silenced, so that a caller's copies and moves of options do not warn; only code that
// names a deprecated option does.
#include "hermes/agent.hpp"

#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

namespace hermes {

AgentOptions::AgentOptions() = default;
AgentOptions::AgentOptions(const AgentOptions&) = default;
AgentOptions::AgentOptions(AgentOptions&&) noexcept = default;
AgentOptions& AgentOptions::operator=(const AgentOptions&) = default;
AgentOptions& AgentOptions::operator=(AgentOptions&&) noexcept = default;
AgentOptions::~AgentOptions() = default;

}  // namespace hermes

#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic pop
#endif
