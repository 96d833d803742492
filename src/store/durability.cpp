// The names of the SQLite store's durability levels, as options documents spell them.
#include "common/text_utils.hpp"
#include "hermes/session_store.hpp"

namespace hermes {

std::string_view durability_name(Durability durability) {
  switch (durability) {
    case Durability::kFull:
      return "full";
    case Durability::kNormal:
      return "normal";
  }
  return "full";
}

std::optional<Durability> durability_from_name(std::string_view name) {
  for (Durability d : {Durability::kFull, Durability::kNormal}) {
    if (internal::iequals(name, durability_name(d))) return d;
  }
  return std::nullopt;
}

}  // namespace hermes
