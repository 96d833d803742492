// What the fuzz targets share: reading the input as text, failing loudly when an
// invariant breaks, and feeding a body in slices the way a network delivers it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string_view>
#include <vector>

namespace hermes::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Aborts, which libFuzzer records as a crash with the input that caused it.
[[noreturn]] inline void fail(const char* invariant, std::string_view detail = {}) {
  std::fprintf(stderr, "\ninvariant violated: %s\n%.*s\n", invariant,
               static_cast<int>(detail.size() > 2000 ? 2000 : detail.size()), detail.data());
  std::abort();
}

inline void require(bool holds, const char* invariant, std::string_view detail = {}) {
  if (!holds) fail(invariant, detail);
}

// Runs `body`, turning an escaping exception into a named failure: every surface fuzzed
// here promises not to throw.
template <class Body>
void no_throw(const char* surface, Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    fail(surface, e.what());
  } catch (...) {
    fail(surface, "a non-standard exception");
  }
}

// Slice boundaries for `text`, pseudo-random but derived from the text itself so a crash
// reproduces from the input file alone. Slices are 1 to 16 bytes long.
inline std::vector<std::size_t> slice_cuts(std::string_view text) {
  std::uint32_t state = 2166136261u;
  for (char c : text) state = (state ^ static_cast<unsigned char>(c)) * 16777619u;
  std::vector<std::size_t> cuts;
  for (std::size_t at = 0; at < text.size();) {
    state = state * 1664525u + 1013904223u;
    at += 1 + (state >> 28);
    if (at < text.size()) cuts.push_back(at);
  }
  return cuts;
}

// Calls `feed` with each slice of `text` in its own heap buffer, freed as soon as the call
// returns, so AddressSanitizer catches a view kept past the slice it points into.
template <class Feed>
void feed_in_slices(std::string_view text, const std::vector<std::size_t>& cuts, Feed&& feed) {
  std::size_t start = 0;
  auto send = [&](std::size_t end) {
    const std::size_t n = end - start;
    auto copy = std::make_unique<char[]>(n + 1);
    for (std::size_t i = 0; i < n; ++i) copy[i] = text[start + i];
    feed(std::string_view(copy.get(), n));
    start = end;
  };
  for (std::size_t cut : cuts) send(cut);
  send(text.size());
}

}  // namespace hermes::fuzz
