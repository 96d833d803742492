// Regex execution: a Pike VM. All threads advance one code point at a time in priority
// order, so the first thread to reach Match is the leftmost-first (Python) match, and no
// input can make the work exceed O(text × program).
#include <algorithm>
#include <unordered_map>

#include "safety/log.hpp"
#include "safety/regex.hpp"
#include "safety/regex_program.hpp"

namespace hermes::internal {

std::size_t previous_utf8_start(std::string_view text, std::size_t pos) {
  std::size_t start = pos - 1;
  // A lead byte is at most three bytes back; anything else is an invalid byte on its own.
  for (std::size_t back = 1; back <= 3 && back <= pos; ++back) {
    const auto b = static_cast<unsigned char>(text[pos - back]);
    if ((b & 0xC0) != 0x80) {
      if (decode_utf8_at(text, pos - back).length == back) start = pos - back;
      break;
    }
  }
  return start;
}

bool regex_is_digit(char32_t cp) {
  return cp >= U'0' && cp <= U'9';
}

bool regex_is_space(char32_t cp) {
  if (cp == U' ' || (cp >= U'\t' && cp <= U'\r') || (cp >= 0x1C && cp <= 0x1F)) return true;
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

bool regex_is_word(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= U'a' && cp <= U'z') || (cp >= U'A' && cp <= U'Z') || regex_is_digit(cp) ||
           cp == U'_';
  }
  if (cp >= 0xDC80 && cp <= 0xDCFF) return false;  // Invalid UTF-8 bytes.
  if (cp < 0xC0) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
  if (cp == 0xD7 || cp == 0xF7) return false;
  if (cp >= 0x2000 && cp <= 0x2BFF) return false;  // Punctuation, symbols, arrows.
  if (cp >= 0x3000 && cp <= 0x303F) return false;  // CJK punctuation.
  if (cp >= 0xFE00 && cp <= 0xFE0F) return false;  // Variation selectors.
  if (cp == 0xFEFF || (cp >= 0xFF00 && cp <= 0xFF0F)) return false;
  return !regex_is_space(cp);
}

bool CharClass::contains(char32_t cp) const {
  bool in = std::any_of(ranges.begin(), ranges.end(),
                        [cp](const auto& r) { return cp >= r.first && cp <= r.second; });
  for (std::size_t i = 0; !in && i < sets.size(); ++i) {
    bool member = false;
    switch (sets[i].first) {
      case BuiltinSet::kDigit:
        member = regex_is_digit(cp);
        break;
      case BuiltinSet::kWord:
        member = regex_is_word(cp);
        break;
      case BuiltinSet::kSpace:
        member = regex_is_space(cp);
        break;
    }
    in = member != sets[i].second;
  }
  return in != negated;
}

namespace {

// Look-around results remembered per search; beyond this many they are recomputed, so
// the memory of a search stays bounded whatever its budget.
constexpr std::size_t kMaxCachedLooks = std::size_t{1} << 20;

// What one search may still spend, shared by the VMs of its look-arounds.
class WorkBudget {
 public:
  explicit WorkBudget(std::uint64_t steps) : left_(steps) {}
  // Takes `steps`; false, for good, once they are not there.
  bool spend(std::uint64_t steps) {
    if (steps > left_) {
      left_ = 0;
      exhausted_ = true;
      return false;
    }
    left_ -= steps;
    return true;
  }
  bool exhausted() const { return exhausted_; }

 private:
  std::uint64_t left_;
  bool exhausted_ = false;
};

Status budget_error(std::uint64_t budget) {
  return Status::resource_exhausted(
      "the regex needs more than " + std::to_string(budget) +
      " steps on this text, the most one search may take; simplify it (a look-around such "
      "as (?=.*x) re-reads the rest of the text at every position it is tried)");
}

// The budget of a search with one of hermes' own patterns over `bytes` of text.
std::uint64_t own_budget(const RegexProgram& prog, std::size_t bytes) {
  constexpr std::uint64_t kMax = ~std::uint64_t{0} - kRegexWorkBudget;
  const std::uint64_t positions = static_cast<std::uint64_t>(bytes) + 1;
  const std::uint64_t per_char = std::max<std::uint64_t>(prog.steps_per_char, 1);
  const std::uint64_t linear = positions > kMax / per_char ? kMax : positions * per_char;
  return linear + kRegexWorkBudget;
}

void log_exhausted(const char* what, std::uint64_t budget) {
  HERMES_LOG_WARN("a built-in regex {} gave up after {} steps", what, budget);
}

// The program counters reached at one position, in priority order, with their captures.
class ThreadList {
 public:
  ThreadList(std::size_t insts, int ncap)
      : sparse_(insts, 0),
        dense_(insts, 0),
        caps_(insts * static_cast<std::size_t>(ncap)),
        ncap_(ncap) {}

  bool contains(uint32_t pc) const { return sparse_[pc] < size_ && dense_[sparse_[pc]] == pc; }
  void insert(uint32_t pc) {
    sparse_[pc] = size_;
    dense_[size_++] = pc;
  }
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  uint32_t at(uint32_t i) const { return dense_[i]; }
  std::ptrdiff_t* caps(uint32_t pc) { return caps_.data() + static_cast<std::size_t>(pc) * ncap_; }

 private:
  std::vector<uint32_t> sparse_;
  std::vector<uint32_t> dense_;
  std::vector<std::ptrdiff_t> caps_;
  int ncap_;
  uint32_t size_ = 0;
};

class Vm {
 public:
  Vm(const RegexProgram& prog, std::string_view text, int ncap, WorkBudget& budget)
      : prog_(prog),
        text_(text),
        ncap_(ncap),
        budget_(budget),
        clist_(prog.insts.size(), ncap),
        nlist_(prog.insts.size(), ncap),
        scratch_(static_cast<std::size_t>(ncap), -1) {}

  // Runs from `start`. Anchored runs only start a thread at `start`. With `must_end`, a
  // match counts only when it ends there. Captures go to `out` when given. A run that
  // exhausts the budget returns false: the caller tells that from a miss by the budget.
  bool run(std::size_t start, bool anchored, std::optional<std::size_t> must_end,
           std::vector<std::ptrdiff_t>* out) {
    if (budget_.exhausted()) return false;
    const std::vector<std::ptrdiff_t> fresh(static_cast<std::size_t>(ncap_), -1);
    clist_.clear();
    nlist_.clear();
    bool matched = false;
    for (std::size_t pos = start;;) {
      if (!anchored && !matched && clist_.empty() && prog_.has_start_filter) {
        pos = skip_to_candidate(pos);
        if (pos >= text_.size()) break;
      }
      if (!matched && (!anchored || pos == start))
        add_thread(clist_, prog_.start, pos, fresh.data());
      if (budget_.exhausted()) return false;
      if (clist_.empty() && (matched || anchored)) break;
      const Utf8Char c = pos < text_.size() ? decode_utf8_at(text_, pos) : Utf8Char{};
      for (uint32_t i = 0; i < clist_.size(); ++i) {
        const uint32_t pc = clist_.at(i);
        const Inst& inst = prog_.insts[pc];
        if (inst.op == Op::kMatch) {
          if (must_end && pos != *must_end) continue;
          matched = true;
          if (out == nullptr) return true;
          out->assign(clist_.caps(pc), clist_.caps(pc) + ncap_);
          break;  // Lower-priority threads lose.
        }
        if (c.length != 0 && consumes(inst, c.cp))
          add_thread(nlist_, pc + 1, pos + c.length, clist_.caps(pc));
        if (budget_.exhausted()) return false;
      }
      if (pos >= text_.size() || (must_end && pos >= *must_end)) break;
      std::swap(clist_, nlist_);
      nlist_.clear();
      pos += c.length;
    }
    return matched;
  }

 private:
  struct Frame {
    uint32_t pc;
    int slot;  // >= 0: restore scratch_[slot] to `old`.
    std::ptrdiff_t old;
  };

  // The next position at or after `pos` where a match could start. Only ASCII characters
  // are skipped, so the result stays on a character boundary.
  std::size_t skip_to_candidate(std::size_t pos) const {
    const std::size_t n = text_.size();
    while (pos < n) {
      const auto b = static_cast<unsigned char>(text_[pos]);
      if (b >= 0x80) break;
      if (prog_.first_bytes[b]) {
        if (pos + 1 >= n) break;
        const auto next = static_cast<unsigned char>(text_[pos + 1]);
        if (next >= 0x80 || prog_.first_pairs[b * 128 + next]) break;
      }
      ++pos;
    }
    return pos;
  }

  bool consumes(const Inst& inst, char32_t cp) const {
    switch (inst.op) {
      case Op::kChar:
        return cp == inst.arg;
      case Op::kClass:
        return prog_.classes[inst.arg].contains(cp);
      case Op::kAny:
        return true;
      case Op::kAnyNoNl:
        return cp != U'\n';
      default:
        return false;
    }
  }

  // Follows every zero-width path from `pc0` at `pos`, adding the threads that consume
  // (or match) to `list`. An explicit stack keeps deep programs off the call stack.
  void add_thread(ThreadList& list, uint32_t pc0, std::size_t pos, const std::ptrdiff_t* caps) {
    std::copy(caps, caps + ncap_, scratch_.begin());
    stack_.clear();
    stack_.push_back({pc0, -1, 0});
    while (!stack_.empty()) {
      const Frame f = stack_.back();
      stack_.pop_back();
      if (f.slot >= 0) {
        scratch_[static_cast<std::size_t>(f.slot)] = f.old;
        continue;
      }
      follow(list, f.pc, pos);
    }
  }

  void follow(ThreadList& list, uint32_t pc, std::size_t pos) {
    while (!list.contains(pc)) {
      if (!budget_.spend(1)) return;
      list.insert(pc);
      const Inst& inst = prog_.insts[pc];
      switch (inst.op) {
        case Op::kJmp:
          pc = inst.x;
          continue;
        case Op::kSplit:
          stack_.push_back({inst.y, -1, 0});
          pc = inst.x;
          continue;
        case Op::kSave:
          if (static_cast<int>(inst.arg) < ncap_) {
            stack_.push_back({0, static_cast<int>(inst.arg), scratch_[inst.arg]});
            scratch_[inst.arg] = static_cast<std::ptrdiff_t>(pos);
          }
          ++pc;
          continue;
        case Op::kAssert:
          if (!check_assert(static_cast<AssertKind>(inst.arg), pos)) return;
          ++pc;
          continue;
        case Op::kLook:
          if (!check_look(inst.arg, pos)) return;
          ++pc;
          continue;
        default:
          std::copy(scratch_.begin(), scratch_.end(), list.caps(pc));
          return;
      }
    }
  }

  bool check_assert(AssertKind kind, std::size_t pos) const {
    const std::size_t n = text_.size();
    switch (kind) {
      case AssertKind::kLineStart:
        return pos == 0 || text_[pos - 1] == '\n';
      case AssertKind::kLineEnd:
        return pos == n || text_[pos] == '\n';
      case AssertKind::kTextStart:
        return pos == 0;
      case AssertKind::kTextEndOrFinalNl:
        return pos == n || (pos + 1 == n && text_[pos] == '\n');
      case AssertKind::kTextEnd:
        return pos == n;
      case AssertKind::kWordBoundary:
      case AssertKind::kNotWordBoundary: {
        const bool before =
            pos > 0 && regex_is_word(decode_utf8_at(text_, previous_utf8_start(text_, pos)).cp);
        const bool after = pos < n && regex_is_word(decode_utf8_at(text_, pos).cp);
        return (before != after) == (kind == AssertKind::kWordBoundary);
      }
    }
    return false;
  }

  // False also when the budget ran out; run() then stops.
  bool check_look(uint32_t index, std::size_t pos) {
    const LookAround& look = prog_.looks[index];
    // A straight-line body costs its width to check: cheaper than remembering.
    if (look.straight_line) {
      return budget_.spend(look.body->insts.size()) &&
             straight_line_matches(look, pos) != look.negated;
    }
    const uint64_t key = (static_cast<uint64_t>(index) << 40) | pos;
    if (auto it = look_cache_.find(key); it != look_cache_.end()) return it->second;
    bool found = false;
    // Each nested VM first sets up lists the size of the body's program.
    const std::uint64_t setup = look.body->insts.size();
    if (look.ahead) {
      found = budget_.spend(setup) &&
              Vm(*look.body, text_, 0, budget_).run(pos, true, std::nullopt, nullptr);
    } else {
      for (int width : look.widths) {
        std::size_t start = pos;
        int stepped = 0;
        for (; stepped < width && start > 0; ++stepped) start = previous_utf8_start(text_, start);
        if (stepped == width && budget_.spend(setup) &&
            Vm(*look.body, text_, 0, budget_).run(start, true, pos, nullptr)) {
          found = true;
          break;
        }
      }
    }
    if (budget_.exhausted()) return false;
    const bool result = found != look.negated;
    if (look_cache_.size() < kMaxCachedLooks) look_cache_.emplace(key, result);
    return result;
  }

  // A straight-line body matched at `pos` (look-ahead) or ending at `pos` (look-behind).
  bool straight_line_matches(const LookAround& look, std::size_t pos) const {
    const std::vector<Inst>& insts = look.body->insts;
    const std::size_t width = insts.size() - 1;
    std::size_t p = pos;
    if (!look.ahead) {
      for (std::size_t k = 0; k < width; ++k) {
        if (p == 0) return false;
        p = previous_utf8_start(text_, p);
      }
    }
    for (std::size_t k = 0; k < width; ++k) {
      if (p >= text_.size()) return false;
      const Utf8Char c = decode_utf8_at(text_, p);
      const Inst& inst = insts[k];
      const bool ok = inst.op == Op::kClass  ? look.body->classes[inst.arg].contains(c.cp)
                      : inst.op == Op::kChar ? c.cp == inst.arg
                                             : (inst.op == Op::kAny || c.cp != U'\n');
      if (!ok) return false;
      p += c.length;
    }
    return true;
  }

  const RegexProgram& prog_;
  std::string_view text_;
  int ncap_;
  WorkBudget& budget_;
  ThreadList clist_;
  ThreadList nlist_;
  std::vector<std::ptrdiff_t> scratch_;
  std::vector<Frame> stack_;
  std::unordered_map<uint64_t, bool> look_cache_;
};

}  // namespace

std::string_view Regex::Match::group(std::string_view text, int g) const {
  if (!has(g)) return {};
  const auto b = static_cast<std::size_t>(offsets[2 * g]);
  const auto e = static_cast<std::size_t>(offsets[2 * g + 1]);
  return text.substr(b, e - b);
}

Result<bool> Regex::try_search(std::string_view text, std::uint64_t budget) const {
  WorkBudget work(budget);
  const bool found = Vm(*program_, text, 0, work).run(0, false, std::nullopt, nullptr);
  if (work.exhausted()) return budget_error(budget);
  return found;
}

Result<std::optional<Regex::Match>> Regex::try_find(std::string_view text, std::size_t from,
                                                    std::uint64_t budget) const {
  if (from > text.size()) return std::optional<Match>();
  WorkBudget work(budget);
  Match m;
  const bool found = Vm(*program_, text, 2 * (program_->groups + 1), work)
                         .run(from, false, std::nullopt, &m.offsets);
  if (work.exhausted()) return budget_error(budget);
  if (!found) return std::optional<Match>();
  return std::optional<Match>(std::move(m));
}

bool Regex::search(std::string_view text) const {
  const std::uint64_t budget = own_budget(*program_, text.size());
  Result<bool> found = try_search(text, budget);
  if (found.ok()) return *found;
  log_exhausted("search", budget);
  return true;
}

std::optional<Regex::Match> Regex::find(std::string_view text, std::size_t from) const {
  const std::uint64_t budget = own_budget(*program_, text.size() - std::min(from, text.size()));
  Result<std::optional<Match>> found = try_find(text, from, budget);
  if (found.ok()) return std::move(*found);
  log_exhausted("find", budget);
  return std::nullopt;
}

std::optional<Regex::Match> Regex::match_at(std::string_view text, std::size_t pos) const {
  if (pos > text.size()) return std::nullopt;
  const std::uint64_t budget = own_budget(*program_, text.size() - pos);
  WorkBudget work(budget);
  Match m;
  if (!Vm(*program_, text, 2 * (program_->groups + 1), work)
           .run(pos, true, std::nullopt, &m.offsets)) {
    if (work.exhausted()) log_exhausted("match", budget);
    return std::nullopt;
  }
  return m;
}

bool Regex::full_match(std::string_view text) const {
  const std::uint64_t budget = own_budget(*program_, text.size());
  WorkBudget work(budget);
  const bool matched = Vm(*program_, text, 0, work).run(0, true, text.size(), nullptr);
  if (work.exhausted()) log_exhausted("full match", budget);
  return matched;
}

std::string Regex::replace(std::string_view text,
                           const std::function<std::string(const Match&)>& render) const {
  std::string out;
  std::size_t pos = 0;
  WorkBudget work(0);
  Vm vm(*program_, text, 2 * (program_->groups + 1), work);
  while (pos <= text.size()) {
    Match m;
    // Each run rescans what the last one read past its match: the budget is per run.
    work = WorkBudget(own_budget(*program_, text.size() - pos));
    if (!vm.run(pos, false, std::nullopt, &m.offsets)) break;
    out.append(text.substr(pos, m.begin() - pos));
    out += render(m);
    if (m.end() > m.begin()) {
      pos = m.end();
      continue;
    }
    // An empty match: keep the next character and move past it.
    if (m.end() >= text.size()) {
      pos = text.size() + 1;
      break;
    }
    const std::size_t len = decode_utf8_at(text, m.end()).length;
    out.append(text.substr(m.end(), len));
    pos = m.end() + len;
  }
  if (work.exhausted()) log_exhausted("replace", own_budget(*program_, text.size() - pos));
  if (pos < text.size()) out.append(text.substr(pos));
  return out;
}

int Regex::group_count() const {
  return program_->groups;
}

int Regex::group_index(std::string_view name) const {
  auto it = program_->names.find(name);
  return it == program_->names.end() ? -1 : it->second;
}

}  // namespace hermes::internal
