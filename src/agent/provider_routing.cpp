#include "agent/provider_routing.hpp"

#include <string>

#include "providers/endpoint_url.hpp"

namespace hermes::internal {
namespace {

bool is_openrouter(const ProviderInfo& service) {
  return service.name == "openrouter" || provider_for_base_url(service.base_url) == "openrouter";
}

Json routing_object(const AgentOptions::ProviderRouting& r) {
  Json object = Json::object();
  if (!r.only.empty()) object["only"] = r.only;
  if (!r.ignore.empty()) object["ignore"] = r.ignore;
  if (!r.order.empty()) object["order"] = r.order;
  if (!r.sort.empty()) object["sort"] = r.sort;
  if (r.require_parameters) object["require_parameters"] = true;
  if (!r.data_collection.empty()) object["data_collection"] = r.data_collection;
  return object;
}

}  // namespace

Status check_provider_routing(const AgentOptions::ProviderRouting& routing) {
  const std::string& sort = routing.sort;
  if (!sort.empty() && sort != "price" && sort != "throughput" && sort != "latency") {
    return Status::invalid_argument(
        "request.provider_routing.sort: expected price, throughput or latency, got '" + sort + "'");
  }
  const std::string& data = routing.data_collection;
  if (!data.empty() && data != "allow" && data != "deny") {
    return Status::invalid_argument(
        "request.provider_routing.data_collection: expected allow or deny, got '" + data + "'");
  }
  return {};
}

void apply_provider_routing(const AgentOptions::ProviderRouting& routing,
                            const ProviderInfo& service, ProviderRequest& request) {
  Json object = is_openrouter(service) ? routing_object(routing) : Json::object();
  if (!object.empty()) {
    if (!request.extra_body.is_object()) request.extra_body = Json::object();
    request.extra_body["provider"] = std::move(object);
  } else if (request.extra_body.is_object()) {
    request.extra_body.erase("provider");
    if (request.extra_body.empty()) request.extra_body = nullptr;
  }
}

}  // namespace hermes::internal
