// Checks that a stored transcript is sound after a turn that met a fault.
#pragma once

#include <string>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::testing {

// One line naming a message: role, content, tool call ids, the id it answers.
std::string describe(const Message& message);

// The problems of `stored`, one sentence each; empty when it is sound. `accepted` is
// what the agent says the conversation is: every accepted message must be stored
// exactly once, in order, and nothing else. Independently of `accepted`: no message is
// stored twice, every assistant tool call has exactly one result after it, and every
// tool result answers a call made before it.
std::vector<std::string> transcript_problems(const std::vector<Message>& stored,
                                             const std::vector<Message>& accepted);

}  // namespace hermes::testing
