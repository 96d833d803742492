// UsageTally: tokens, model calls and cost of the session so far, for /usage.
#pragma once

#include <string>
#include <vector>

#include "hermes/hermes.hpp"

namespace hermes_cli {

struct UsageTally {
  hermes::Usage usage;
  int turns = 0;
  int api_calls = 0;
  double cost_usd = 0;
  bool cost_known = false;        // Some turn had a priced model.
  bool usage_unreported = false;  // Some turn's provider reported no usage.
  int64_t last_prompt_tokens = 0;

  void add(const hermes::ConversationResult& result);

  // The lines /usage prints.
  std::vector<std::string> describe(const std::string& model) const;
};

}  // namespace hermes_cli
