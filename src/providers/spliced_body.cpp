#include "providers/spliced_body.hpp"

#include "common/json_text.hpp"

namespace hermes::internal {

Result<std::string> write_spliced_body(const Json& envelope, std::string_view key,
                                       std::size_t reserve,
                                       const std::function<Status(std::string&)>& write_value) {
  std::string out;
  out.reserve(reserve);
  out.push_back('{');
  bool written = false;
  auto write_key = [&](std::string_view name) {
    if (out.size() > 1) out.push_back(',');
    append_json(out, Json(std::string(name)));
    out.push_back(':');
  };
  auto write_spliced = [&]() -> Status {
    write_key(key);
    written = true;
    return write_value(out);
  };
  // The object's members are kept sorted by key, as the serialiser writes them.
  for (auto it = envelope.begin(); it != envelope.end(); ++it) {
    if (!written && std::string_view(it.key()) > key) HERMES_RETURN_IF_ERROR(write_spliced());
    write_key(it.key());
    append_json(out, it.value());
  }
  if (!written) HERMES_RETURN_IF_ERROR(write_spliced());
  out.push_back('}');
  return out;
}

}  // namespace hermes::internal
