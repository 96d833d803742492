#include "store/code_points.hpp"

namespace hermes::store {

std::u32string to_code_points(std::string_view utf8) {
  return internal::to_code_points(internal::sanitize_utf8(utf8));
}

bool is_unicode_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || (c >= 0x1C && c <= 0x1F) || c == 0x85 ||
         c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace hermes::store
