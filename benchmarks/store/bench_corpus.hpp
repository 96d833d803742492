// Synthetic conversation text for the store benchmarks: words drawn from a fixed
// vocabulary with a Zipf-like distribution, so the index has a few very common words and a
// long tail of rare ones, as real transcripts do.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::bench {

// Text generator; deterministic for a given seed.
class TextGenerator {
 public:
  explicit TextGenerator(uint32_t seed = 42);
  // `words` words separated by spaces.
  std::string sentence(int words);
  // A turn of `count` messages alternating user and assistant, 8-40 words each.
  std::vector<Message> turn(std::size_t count);
  // The vocabulary word of frequency rank `rank` (0 is the most common).
  const std::string& word(std::size_t rank) const { return vocabulary_[rank]; }
  std::size_t vocabulary_size() const { return vocabulary_.size(); }

 private:
  std::mt19937 rng_;
  std::vector<std::string> vocabulary_;
  std::vector<double> cumulative_;  // Zipf weights, summed.
};

// The path of a SQLite store holding `messages` synthetic messages (sessions of 100),
// built on first use and cached under cache_dir().
std::string search_corpus(std::size_t messages);

// Queries of every kind for the search benchmark: common, mid-frequency and rare words,
// two-word conjunctions, a phrase, a prefix and an OR.
std::vector<std::string> search_queries(const TextGenerator& text, std::size_t count);

// The kinds of search_queries() in turn: query i is of kind i % kSearchQueryKinds.
inline constexpr std::size_t kSearchQueryKinds = 7;
inline constexpr const char* kSearchQueryKindNames[kSearchQueryKinds] = {
    "common", "mid", "rare", "mid_and_common", "common_phrase", "prefix", "rare_or_mid"};

}  // namespace hermes::bench
