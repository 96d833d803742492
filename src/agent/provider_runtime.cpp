#include "agent/provider_runtime.hpp"

#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr std::chrono::seconds kPrimaryCooldown{60};

}  // namespace

ProviderRuntime::ProviderRuntime(std::shared_ptr<Provider> primary, std::string primary_model,
                                 std::vector<std::string> keys,
                                 std::vector<ProviderConfig> fallbacks)
    : primary_(std::move(primary)),
      primary_model_(std::move(primary_model)),
      keys_(std::move(keys)),
      fallbacks_(std::move(fallbacks)),
      active_(primary_),
      model_(primary_model_) {}

void ProviderRuntime::begin_turn() {
  consecutive_rate_limits_ = 0;
  if (fallback_index_ < 0) return;
  if (std::chrono::steady_clock::now() < primary_cooling_until_) return;
  active_ = primary_;
  model_ = primary_model_;
  fallback_index_ = -1;
  fallback_key_.clear();
}

std::string ProviderRuntime::api_key() const {
  if (on_fallback()) return fallback_key_;
  if (keys_.empty()) return "";
  return keys_[key_index_];
}

void ProviderRuntime::replace_active_key(std::string key) {
  if (on_fallback()) {
    fallback_key_ = std::move(key);
  } else if (keys_.empty()) {
    keys_.push_back(std::move(key));
  } else {
    keys_[key_index_] = std::move(key);
  }
}

bool ProviderRuntime::keys_left() const { return !on_fallback() && key_index_ + 1 < keys_.size(); }

bool ProviderRuntime::rotate_key_for(const ApiError& error) {
  if (on_fallback() || keys_.size() < 2) return false;
  bool rotate = false;
  switch (error.reason) {
    case FailoverReason::kBilling:
      rotate = true;
      break;
    case FailoverReason::kRateLimit:
      // The first 429 retries the same key; the second in a row rotates.
      rotate = ++consecutive_rate_limits_ >= 2;
      break;
    case FailoverReason::kAuth:
    case FailoverReason::kAuthPermanent:
      rotate = error.should_rotate_credential;
      break;
    default:
      break;
  }
  if (!rotate || key_index_ + 1 >= keys_.size()) return false;
  ++key_index_;
  consecutive_rate_limits_ = 0;
  HERMES_LOG_INFO("rotating to API key {} of {} after {}", key_index_ + 1, keys_.size(),
                  failover_reason_name(error.reason));
  return true;
}

bool ProviderRuntime::activate_fallback(const ApiError& reason, std::string* status_text) {
  const ProviderInfo& current = active_->info();
  while (fallback_index_ + 1 < static_cast<int>(fallbacks_.size())) {
    ProviderConfig config = fallbacks_[static_cast<std::size_t>(++fallback_index_)];
    // An entry equal to what just failed cannot help.
    if (config.model == model_ && (config.provider == current.name || config.base_url == current.base_url)) {
      continue;
    }
    auto provider = config.instance ? Result<std::shared_ptr<Provider>>(config.instance)
                                    : make_provider(config);
    if (!provider.ok()) {
      HERMES_LOG_WARN("skipping fallback {}: {}", config.model, provider.status().to_string());
      continue;
    }
    if (reason.reason == FailoverReason::kRateLimit || reason.reason == FailoverReason::kBilling) {
      primary_cooling_until_ = std::chrono::steady_clock::now() + kPrimaryCooldown;
    }
    active_ = std::move(*provider);
    model_ = config.model;
    fallback_key_.clear();
    if (status_text != nullptr) {
      *status_text = "\xF0\x9F\x94\x84 Primary model failed \xE2\x80\x94 switching to fallback: " +
                     config.model + " via " +
                     (config.provider.empty() ? active_->info().name : config.provider);
    }
    return true;
  }
  return false;
}

}  // namespace hermes::internal
