// The floor: the benchmark's HTTP exchanges made with libcurl and nothing else. The same
// request bodies as hermes sends (captured from a hermes run), one keep-alive connection
// per conversation, the response read and dropped.
#pragma once

#include <string>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::bench {

// The request bodies of one conversation, in order: one per model call.
using ConversationBodies = std::vector<std::string>;

// Runs `conversations` conversations one after another against the chat completions
// endpoint at `base_url` (".../v1"), on one connection. Fails on any non-200 answer.
Status run_floor_sequential(const std::string& base_url, const ConversationBodies& bodies,
                            int conversations);

// Runs `lanes` conversations at once from one thread (curl multi), each lane on its own
// connection and mock server conversation key (`base_url_of(lane)`), each lane running
// `conversations` conversations in turn.
Status run_floor_concurrent(const std::vector<std::string>& base_urls,
                            const ConversationBodies& bodies, int conversations);

}  // namespace hermes::bench
