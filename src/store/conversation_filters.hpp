// What resume leaves out of a stored conversation. Background memory and skill reviews run
// on a fork of the conversation, and older versions persisted their exchange into the
// session; replaying it would make the model answer a review prompt nobody sent.
#pragma once

#include <vector>

#include "hermes/message.hpp"

namespace hermes::store {

// Drops persisted review prompts with the reply that followed (and the results of any
// tool calls in it), and empties assistant tool-call messages whose whole text is a bare
// "[tool_name]" marker.
void apply_resume_filters(std::vector<Message>& conversation);

}  // namespace hermes::store
