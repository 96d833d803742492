#include "store/usage_accounting.hpp"

namespace hermes::store {

void apply_usage_delta(SessionInfo& session, const UsageDelta& delta) {
  session.usage += delta.usage;
  session.api_call_count += delta.api_calls;
  session.estimated_cost_usd += delta.estimated_cost_usd;
  if (session.billing_provider.empty()) session.billing_provider = delta.billing_provider;
  if (session.billing_base_url.empty()) session.billing_base_url = delta.billing_base_url;
  if (session.model.empty()) session.model = delta.model;
  mark_usage_reported(session);
}

void mark_usage_reported(SessionInfo& session) {
  const Usage& u = session.usage;
  session.usage.reported = session.api_call_count > 0 || u.input_tokens != 0 ||
                           u.output_tokens != 0 || u.cache_read_tokens != 0 ||
                           u.cache_write_tokens != 0 || u.reasoning_tokens != 0;
}

}  // namespace hermes::store
