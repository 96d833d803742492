// When the background review is due: one counter of user turns
// since the memory tool was last used, one of tool-calling iterations since skill_manage
// was. The skills counter carries over between turns, so a long task split over several
// turns still earns a review.
#pragma once

#include <string_view>

namespace hermes::internal {

class ReviewNudges {
 public:
  // Intervals of 0 disable the corresponding review.
  void configure(int memory_interval, int skill_interval) {
    memory_interval_ = memory_interval;
    skill_interval_ = skill_interval;
  }

  // A user turn starts. True when this turn should end with a memory review.
  bool begin_user_turn(bool memory_offered) {
    if (memory_interval_ <= 0 || !memory_offered) return false;
    if (++turns_since_memory_ < memory_interval_) return false;
    turns_since_memory_ = 0;
    return true;
  }

  // The model answered with tool calls.
  void count_tool_iteration(bool skill_manage_offered) {
    if (skill_interval_ > 0 && skill_manage_offered) ++iters_since_skill_;
  }

  // The model used a tool itself: the nudge for that kind of saving starts over.
  void tool_used(std::string_view name) {
    if (name == "memory") turns_since_memory_ = 0;
    if (name == "skill_manage") iters_since_skill_ = 0;
  }

  // The turn is over. True when a skills review is due (the counter starts over).
  bool end_turn_skill_review() {
    if (skill_interval_ <= 0 || iters_since_skill_ < skill_interval_) return false;
    iters_since_skill_ = 0;
    return true;
  }

 private:
  int memory_interval_ = 0;
  int skill_interval_ = 0;
  int turns_since_memory_ = 0;
  int iters_since_skill_ = 0;
};

}  // namespace hermes::internal
