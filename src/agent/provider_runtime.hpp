// The providers an agent can call and the recovery state around them: the pool of API
// keys of the primary, the fallback chain, and which of them is active.
//
// The primary is restored at the start of every turn, unless it was rate limited or out
// of credit less than a minute ago.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

class ProviderRuntime {
 public:
  ProviderRuntime(std::shared_ptr<Provider> primary, std::string primary_model,
                  std::vector<std::string> keys, std::vector<ProviderConfig> fallbacks);

  // Turn start: back to the primary unless it is cooling down.
  void begin_turn();

  Provider& provider() const { return *active_; }
  const std::string& model() const { return model_; }
  // The key to send ("" = the provider's configured key).
  std::string api_key() const;
  bool on_fallback() const { return fallback_index_ >= 0; }
  // The fallback entry in use; nullptr on the primary.
  const ProviderConfig* active_fallback() const {
    return on_fallback() ? &fallbacks_[static_cast<std::size_t>(fallback_index_)] : nullptr;
  }

  // Key rotation after `error`, following the upstream rules: billing rotates at once, a
  // rate limit retries the same key once and rotates on the second in a row, auth
  // rotates. Returns true when another key is now active (the caller resets its retry
  // count).
  bool rotate_key_for(const ApiError& error);
  // Replaces the active credential with `key` (refreshed by the host): the primary's
  // current pool entry, or the fallback's key until the agent leaves that fallback.
  void replace_active_key(std::string key);
  // Whether rotating could still help with a rate limit (more keys left to try).
  bool keys_left() const;
  // Clears the consecutive-rate-limit memory after a success.
  void note_success() { consecutive_rate_limits_ = 0; }

  // Switches to the next usable fallback entry; false when none is left. `reason` marks
  // the primary as cooling for rate limits and billing.
  bool activate_fallback(const ApiError& reason, std::string* status_text);

 private:
  std::shared_ptr<Provider> primary_;
  std::string primary_model_;
  std::vector<std::string> keys_;
  std::size_t key_index_ = 0;
  int consecutive_rate_limits_ = 0;
  std::vector<ProviderConfig> fallbacks_;

  std::shared_ptr<Provider> active_;
  std::string model_;
  int fallback_index_ = -1;
  std::string fallback_key_;  // A refreshed key for the active fallback; "" = its own.
  std::chrono::steady_clock::time_point primary_cooling_until_{};
};

}  // namespace hermes::internal
