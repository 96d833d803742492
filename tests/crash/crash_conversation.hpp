// The conversation the crash harness kills: what the child says and what the scripted
// model answers, shared by the child (which runs it) and the parent (which checks what
// survived of it).
#pragma once

#include <memory>
#include <string>

#include "hermes/agent.hpp"
#include "support/mock_server.hpp"

namespace hermes::testing::crash {

// The user messages of the three turns; a compaction runs between the second and the
// third. The first turn makes three tool rounds, the third one.
inline constexpr const char* kUserMessages[] = {
    "Please add 2 and 3, then 5 and 8, then 13 and 21.",
    "Thank you, which sum was the largest of them all?",
    "Now add 34 and 55 for me as well, please.",
};

// Scripts every model answer of the conversation (summary included), in order.
void script_conversation(MockServer& server);

// True for the summariser's request: the only one that offers the model no tools.
bool is_summary_request(const RecordedRequest& request);

// A registry with the one tool the conversation uses ("add").
std::shared_ptr<ToolRegistry> conversation_tools(std::function<void()> on_call = {});

// Agent options against `server`, keeping sessions in `store`, with a window large
// enough that only the explicit compaction compacts.
AgentOptions conversation_options(const MockServer& server, const std::string& home,
                                  std::shared_ptr<SessionStore> store);

}  // namespace hermes::testing::crash
