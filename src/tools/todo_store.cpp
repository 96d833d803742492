#include "tools/todo_store.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kTruncationMarker = "\xE2\x80\xA6 [truncated]";
constexpr std::string_view kInjectionHeader =
    "[Your active task list was preserved across context compression]";

bool valid_status(const std::string& s) {
  return s == "pending" || s == "in_progress" || s == "completed" || s == "cancelled";
}

// The text of a field the model may have sent as a number or a boolean.
std::string field_text(const Json& item, const char* key) {
  auto it = item.find(key);
  if (it == item.end() || it->is_null()) return "";
  if (it->is_string()) return strip(it->get<std::string>());
  if (it->is_boolean()) return it->get<bool>() ? "True" : "False";
  return strip(dump_json(*it));
}

// One item of a plan is a short task, not a document: a huge one would inflate every
// re-injection after compression.
std::string cap_content(const std::string& content) {
  if (utf8_length(content) <= TodoStore::kMaxContentChars) return content;
  const std::size_t keep = TodoStore::kMaxContentChars - utf8_length(kTruncationMarker);
  return std::string(utf8_head(content, keep)) + std::string(kTruncationMarker);
}

TodoItem validate(const Json& raw) {
  if (!raw.is_object()) return {"?", "(invalid item)", "pending", ""};
  TodoItem item;
  item.id = field_text(raw, "id");
  if (item.id.empty()) item.id = "?";
  item.content = field_text(raw, "content");
  item.content = item.content.empty() ? "(no description)" : cap_content(item.content);
  item.status = raw.contains("status") ? lower_ascii(field_text(raw, "status")) : "pending";
  if (!valid_status(item.status)) item.status = "pending";
  item.parent = field_text(raw, "parent");
  if (item.parent == item.id) item.parent.clear();
  return item;
}

// Duplicate ids collapse to their last occurrence, kept at that position. Items without an
// id cannot collide and are all kept.
std::vector<const Json*> dedupe_by_id(const Json& todos) {
  std::map<std::string, std::size_t> last;
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < todos.size(); ++i) {
    const std::string id = todos[i].is_object() ? field_text(todos[i], "id") : "";
    if (id.empty()) {
      keep.push_back(i);
    } else {
      last[id] = i;
    }
  }
  for (const auto& [id, i] : last) keep.push_back(i);
  std::sort(keep.begin(), keep.end());
  std::vector<const Json*> out;
  for (std::size_t i : keep) out.push_back(&todos[i]);
  return out;
}

// In a flat list, the item in progress moves ahead of the pending placeholders before it.
void normalize_order(std::vector<TodoItem>& items) {
  if (std::any_of(items.begin(), items.end(), [](const TodoItem& i) { return !i.parent.empty(); }))
    return;
  auto active = std::find_if(items.begin(), items.end(),
                             [](const TodoItem& i) { return i.status == "in_progress"; });
  if (active == items.end()) return;
  auto pending =
      std::find_if(items.begin(), active, [](const TodoItem& i) { return i.status == "pending"; });
  if (pending == active) return;
  std::rotate(pending, active, active + 1);
}

// Parents that do not exist, or chains that loop, are dropped: such items become roots.
void sanitize_parents(std::vector<TodoItem>& items) {
  std::map<std::string, TodoItem*> by_id;
  for (TodoItem& i : items) by_id[i.id] = &i;
  for (TodoItem& i : items) {
    if (!i.parent.empty() && !by_id.count(i.parent)) i.parent.clear();
  }
  for (TodoItem& i : items) {
    std::set<std::string> seen{i.id};
    const TodoItem* node = &i;
    while (!node->parent.empty()) {
      if (!seen.insert(node->parent).second) {
        i.parent.clear();
        break;
      }
      node = by_id[node->parent];
    }
  }
}

void merge_into(std::vector<TodoItem>& items, const std::vector<const Json*>& incoming) {
  for (const Json* raw : incoming) {
    if (!raw->is_object()) continue;
    const std::string id = field_text(*raw, "id");
    if (id.empty()) continue;  // Nothing to merge with.
    auto it =
        std::find_if(items.begin(), items.end(), [&](const TodoItem& i) { return i.id == id; });
    if (it == items.end()) {
      items.push_back(validate(*raw));
      continue;
    }
    if (const std::string content = field_text(*raw, "content"); !content.empty())
      it->content = cap_content(content);
    if (const std::string status = lower_ascii(field_text(*raw, "status")); valid_status(status))
      it->status = status;
    if (raw->contains("parent"))
      it->parent = field_text(*raw, "parent") == it->id ? "" : field_text(*raw, "parent");
  }
}

}  // namespace

std::vector<TodoItem> TodoStore::write(const Json& todos, bool merge) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::vector<TodoItem> before = items_;
  const std::vector<const Json*> incoming = dedupe_by_id(todos);
  if (merge) {
    merge_into(items_, incoming);
  } else {
    items_.clear();
    for (const Json* raw : incoming) items_.push_back(validate(*raw));
  }
  normalize_order(items_);
  if (items_.size() > kMaxItems) items_.resize(kMaxItems);  // The head is the priority.
  sanitize_parents(items_);
  if (items_ != before) ++revision_;
  return items_;
}

std::vector<TodoItem> TodoStore::read() const {
  std::lock_guard<std::mutex> lock(mu_);
  return items_;
}

int64_t TodoStore::revision() const {
  std::lock_guard<std::mutex> lock(mu_);
  return revision_;
}

std::optional<std::string> TodoStore::format_for_injection() const {
  const std::vector<TodoItem> items = read();
  std::map<std::string, std::vector<const TodoItem*>> children;
  std::vector<const TodoItem*> roots;
  for (const TodoItem& i : items) (i.parent.empty() ? roots : children[i.parent]).push_back(&i);
  // Completed and cancelled items stay out: re-reading them makes models redo the work.
  // A finished parent stays when a descendant is active, so subtasks keep their context.
  std::function<bool(const TodoItem&, int, std::vector<std::string>&)> render =
      [&](const TodoItem& item, int depth, std::vector<std::string>& out) {
        std::vector<std::string> kid_lines;
        bool active_kid = false;
        for (const TodoItem* kid : children[item.id])
          active_kid = render(*kid, depth + 1, kid_lines) || active_kid;
        const bool keep = item.status == "pending" || item.status == "in_progress" || active_kid;
        if (!keep) return false;
        const char* marker = item.status == "completed"     ? "[x]"
                             : item.status == "in_progress" ? "[>]"
                             : item.status == "cancelled"   ? "[~]"
                                                            : "[ ]";
        out.push_back(std::string(2 * depth, ' ') + "- " + marker + " " + item.id + ". " +
                      item.content + " (" + item.status + ")");
        out.insert(out.end(), kid_lines.begin(), kid_lines.end());
        return true;
      };
  std::vector<std::string> lines;
  for (const TodoItem* root : roots) render(*root, 0, lines);
  if (lines.empty()) return std::nullopt;
  std::string text(kInjectionHeader);
  for (const std::string& line : lines) text += "\n" + line;
  return text;
}

Json todo_result_json(const std::vector<TodoItem>& items, int64_t revision) {
  Json todos = Json::array();
  std::map<std::string, int> counts{
      {"pending", 0}, {"in_progress", 0}, {"completed", 0}, {"cancelled", 0}};
  for (const TodoItem& i : items) {
    Json j = {{"id", i.id}, {"content", i.content}, {"status", i.status}};
    if (!i.parent.empty()) j["parent"] = i.parent;
    todos.push_back(std::move(j));
    ++counts[i.status];
  }
  Json summary = {{"total", items.size()}};
  for (const auto& [status, n] : counts) summary[status] = n;
  return {{"todos", std::move(todos)}, {"revision", revision}, {"summary", std::move(summary)}};
}

}  // namespace hermes::internal
