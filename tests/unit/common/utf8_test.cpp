// The library's one UTF-8 decoder and encoder, and the counts and cuts made with them.
#include "common/utf8.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace hermes::internal;

TEST_CASE("decode_utf8_at reads one to four byte characters with their lengths") {
  const std::string text = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";  // a é 中 😀
  CHECK(decode_utf8_at(text, 0).cp == U'a');
  CHECK(decode_utf8_at(text, 0).length == 1);
  CHECK(decode_utf8_at(text, 1).cp == 0xE9);
  CHECK(decode_utf8_at(text, 1).length == 2);
  CHECK(decode_utf8_at(text, 3).cp == 0x4E2D);
  CHECK(decode_utf8_at(text, 3).length == 3);
  CHECK(decode_utf8_at(text, 6).cp == 0x1F600);
  CHECK(decode_utf8_at(text, 6).length == 4);
  CHECK(decode_utf8_at(text, 6).valid());
}

TEST_CASE("decode_utf8_at escapes each byte of a malformed sequence on its own") {
  const char* const malformed[] = {
      "\x80",              // A stray continuation byte.
      "\xC0\xAF",          // Overlong.
      "\xE0\x80\xAF",      // Overlong.
      "\xED\xA0\x80",      // A surrogate (CESU-8).
      "\xF4\x90\x80\x80",  // Past U+10FFFF.
      "\xE4\xB8",          // Cut short.
      "\xFF",
  };
  for (const char* bytes : malformed) {
    const std::string text(bytes);
    CAPTURE(text);
    const Utf8Char c = decode_utf8_at(text, 0);
    CHECK_FALSE(c.valid());
    CHECK(c.length == 1);
    CHECK(c.cp == 0xDC00 + static_cast<unsigned char>(text[0]));
  }
}

TEST_CASE("to_code_points and to_utf8 give back any bytes, valid or not") {
  const std::string text = "x\xC3\xA9\xFF\xE4\xB8\xAD\xED\xA0\x80\xF0\x9F\x98\x80\x80";
  const std::u32string points = to_code_points(text);
  CHECK(points.size() == 9);  // The surrogate is three escaped bytes.
  CHECK(points[1] == 0xE9);
  CHECK(points[2] == 0xDCFF);
  CHECK(to_utf8(points) == text);
}

TEST_CASE("append_utf8 encodes every range") {
  std::string out;
  append_utf8(out, U'A');
  append_utf8(out, 0xE9);
  append_utf8(out, 0x4E2D);
  append_utf8(out, 0x1F600);
  CHECK(out == "A\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80");
}

TEST_CASE("utf8_length, utf8_head and utf8_tail count code points and never split one") {
  const std::string text = "h\xC3\xA9llo \xE4\xB8\xAD";  // "héllo 中"
  CHECK(utf8_length(text) == 7);
  CHECK(utf8_head(text, 2) == "h\xC3\xA9");
  CHECK(utf8_head(text, 0).empty());
  CHECK(utf8_head(text, 99) == text);
  CHECK(utf8_tail(text, 2) == " \xE4\xB8\xAD");
  CHECK(utf8_tail(text, 0).empty());
  CHECK(utf8_tail(text, 99) == text);
}

TEST_CASE("sanitize_utf8 replaces what the decoder rejects and keeps the rest") {
  CHECK(is_valid_utf8("plain \xC3\xA9"));
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));
  CHECK(sanitize_utf8("a\xFF"
                      "b") ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(sanitize_utf8("a\xED\xA0\x80"
                      "b") ==
        "a\xEF\xBF\xBD"
        "b");  // One U+FFFD a surrogate.
  CHECK(utf8_prefix_length("\xC3\xA9\xC3\xA9", 3) == 2);
}
