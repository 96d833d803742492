// What the model reads when it calls a tool that was not offered.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// The tool result for a call to `name`, which is not among `offered`. A blank name is
// not a typo but tool-call syntax the model read in data and echoed: listing the tools
// would feed it more names to imitate, so it gets a short refusal. A wrong name gets the
// sorted list of the tools it may call ("Tool 'x' does not exist. Available tools: a, b").
std::string invalid_tool_name_error(std::string_view name, const std::vector<std::string>& offered);

// `name` cut to 80 bytes (on a character boundary) with "..." when longer, for messages
// that quote a name the model invented.
std::string tool_name_preview(std::string_view name);

}  // namespace hermes::internal
