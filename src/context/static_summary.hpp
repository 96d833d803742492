// The summary written without a model, when every summariser failed: the last user ask,
// the tool calls made, the files touched, the errors seen and the last turns dropped, so
// the conversation keeps its anchors instead of silently losing the middle.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// The body of a static summary of `turns` (at most 8,000 characters), in the template's
// structure. `previous_summary` (cut to 3,000 characters) is carried along as background;
// `reason` names the summariser's failure.
std::string build_static_summary(const std::vector<Message>& turns,
                                 std::string_view previous_summary, std::string_view reason,
                                 const RedactionHook& redact);

}  // namespace hermes::internal
