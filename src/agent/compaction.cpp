#include "agent/compaction.hpp"

#include <set>
#include <tuple>

#include "agent/compression_lease_guard.hpp"
#include "agent/memory_provider_call.hpp"
#include "agent/safe_callback.hpp"
#include "common/tracer.hpp"
#include "hermes/context_compressor.hpp"
#include "hermes/session_store.hpp"
#include "hermes/token_estimate.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

void notify(const AgentCore& core, std::string_view kind, const std::string& message) {
  safe_callback("status", core.options.callbacks.on_status, kind, std::string_view(message));
}

constexpr const char* kStoreCannotCompact =
    "the session store cannot compact; the compacted transcript lives in memory only";

// A compaction the store could not keep: the host hears it once per agent, the caller of
// Agent::compress every time (in the outcome's note).
void report_store_cannot_compact(AgentCore& core, CompactionOutcome& out) {
  out.note = kStoreCannotCompact;
  if (core.store_cannot_compact_reported) return;
  core.store_cannot_compact_reported = true;
  HERMES_LOG_WARN("{}", kStoreCannotCompact);
  notify(core, "store_cannot_compact",
         "\xE2\x9A\xA0 This session store cannot keep compacted conversations: the compacted "
         "context lives in memory only and the stored session keeps its full transcript.");
}

// A note for the model after a compaction (the active todo list): folded into the API copy
// of a trailing user message, so roles keep alternating and the user's words stay as typed,
// or added as a user message of its own.
void inject_note(std::vector<Message>& compacted, const std::string& note) {
  if (!compacted.empty() && compacted.back().role == Role::kUser &&
      !is_context_summary(compacted.back())) {
    Message& last = compacted.back();
    last.api_content = last.wire_text() + "\n\n" + note;
    return;
  }
  compacted.push_back(Message::user(note));
}

// The messages of `before` that the compaction did not keep verbatim.
std::vector<Message> discarded_messages(const std::vector<Message>& before,
                                        const std::vector<Message>& after) {
  std::multiset<std::tuple<Role, std::string, std::string>> kept;
  for (const Message& m : after) kept.emplace(m.role, m.content, m.tool_call_id);
  std::vector<Message> out;
  for (const Message& m : before) {
    auto it = kept.find({m.role, m.content, m.tool_call_id});
    if (it == kept.end()) {
      out.push_back(m);
    } else {
      kept.erase(it);
    }
  }
  return out;
}

// The memory provider sees what is about to go and may keep some of it: its text rides
// along after the summary.
void preserve_provider_notes(const AgentCore& core, const std::vector<Message>& before,
                             std::vector<Message>& compacted) {
  MemoryProvider* provider = core.options.memory_provider.get();
  if (provider == nullptr) return;
  const std::vector<Message> discarded = discarded_messages(before, compacted);
  std::string notes = call_memory_provider(
      provider, "on_compaction", [&](MemoryProvider& p) { return p.on_compaction(discarded); });
  if (!notes.empty()) {
    compacted.push_back(
        Message::user("[Notes kept by the memory provider from the compacted "
                      "conversation]\n" +
                      notes));
  }
}

}  // namespace

namespace {

CompactionOutcome compact(AgentCore& core, std::vector<Message>& messages,
                          const CompactionRequest& request) {
  CompactionOutcome out;
  ContextEngine* engine = core.engine.get();
  if (engine == nullptr) {
    out.error = "no context engine is configured";
    return out;
  }
  out.messages_before = messages.size();
  out.tokens_before = estimate_messages_tokens_rough(messages);

  // Everything accepted so far reaches the store before anything is compacted.
  if (Status s = core.flush(messages); !s.ok()) {
    out.error = "could not persist the transcript before compacting: " + s.message();
    return out;
  }
  SessionStore* store = core.store.get();
  SessionCompaction* compaction = store != nullptr ? store->compaction_capability() : nullptr;
  // The holder names this host: on a store shared by several machines, another host must
  // never judge the lease by looking for our pid among its own processes.
  CompressionLeaseGuard lease(compaction, core.session_id, compression_lease_holder(),
                              core.options.compression.lease_ttl_seconds);
  if (!lease.held()) {
    out.skipped = true;
    out.error = "another process is compacting this session";
    notify(core, "warning",
           "\xE2\x9A\xA0 Skipping concurrent compression \xE2\x80\x94 another path is already "
           "compressing this session. Will retry after it finishes.");
    return out;
  }
  int64_t watermark = 0;
  if (compaction != nullptr) {
    auto w = compaction->active_message_watermark(core.session_id);
    if (w.ok()) watermark = *w;
  }

  notify(core, "lifecycle",
         "\xF0\x9F\x97\x9C\xEF\xB8\x8F Compacting context \xE2\x80\x94 summarizing earlier "
         "conversation so I can continue...");
  CompressOptions opts;
  opts.current_tokens = request.current_tokens;
  opts.focus_topic = request.focus_topic;
  opts.force = request.force;
  opts.overflow = request.reason == "overflow" || request.reason == "payload_too_large";
  auto compressed = engine->compress(messages, opts);
  if (!compressed.ok()) {
    out.error = compressed.status().message();
    notify(core, "compression_failed",
           "\xE2\x9A\xA0 Compression aborted: " + out.error +
               ". No messages were dropped \xE2\x80\x94 conversation continues unchanged.");
    return out;
  }
  std::vector<Message> compacted = std::move(*compressed);
  if (compacted.size() >= messages.size() &&
      estimate_messages_tokens_rough(compacted) >= out.tokens_before) {
    out.skipped = true;
    out.error = "nothing to compress";
    return out;
  }
  preserve_provider_notes(core, messages, compacted);
  if (core.after_compaction_injection) {
    if (auto note = core.after_compaction_injection(); !note.empty()) inject_note(compacted, note);
  }

  // Commit: the store first, so a failure leaves both the store and memory unchanged.
  const std::string old_session = core.session_id;
  std::string new_session = old_session;
  if (store != nullptr && compaction == nullptr) report_store_cannot_compact(core, out);
  if (compaction != nullptr) {
    Status committed;
    if (core.options.compression.in_place) {
      committed =
          compaction->compact_in_place(old_session, compacted, watermark, lease.commit_holder());
    } else {
      SessionInfo child;
      child.id = new_session_id();
      child.source = core.options.source;
      child.model = core.runtime ? core.runtime->model() : core.options.provider.model;
      child.parent_session_id = old_session;
      committed = compaction->rotate_for_compression(old_session, child, compacted, watermark,
                                                     lease.commit_holder());
      if (committed.ok()) new_session = child.id;
    }
    if (!committed.ok() && committed.code() != StatusCode::kUnimplemented) {
      out.error = "could not commit the compaction: " + committed.message();
      notify(core, "warning", "\xE2\x9A\xA0 Compression not applied: " + out.error);
      return out;
    }
    if (committed.code() == StatusCode::kUnimplemented) report_store_cannot_compact(core, out);
  }

  messages = std::move(compacted);
  core.session_id = new_session;
  core.session_row_created = store != nullptr;
  core.writer.reset(new_session, messages.size());
  core.rebuild_system_prompt = true;
  ++core.compression_count;
  engine->on_session_start(new_session, "compression");
  if (new_session != old_session) core.switch_memory_session({new_session, old_session, false});

  out.compacted = true;
  out.messages_after = messages.size();
  out.tokens_after = estimate_messages_tokens_rough(messages);
  notify(core, "compacted",
         fmt::format("Context compacted: {} \xE2\x86\x92 {} messages (~{} \xE2\x86\x92 ~{} tokens)",
                     out.messages_before, out.messages_after, out.tokens_before, out.tokens_after));
  if (core.compression_count >= 2) {
    notify(
        core, "compression_repeated",
        fmt::format("\xE2\x9A\xA0\xEF\xB8\x8F  Session compressed {} times \xE2\x80\x94 accuracy "
                    "may degrade.",
                    core.compression_count));
  }
  return out;
}

}  // namespace

CompactionOutcome compact_transcript(AgentCore& core, std::vector<Message>& messages,
                                     const CompactionRequest& request) {
  // Inside a turn under the turn's span; a compaction asked for outside any (compress())
  // is a trace of its own.
  SpanParent parent = current_span();
  if (!parent) {
    const TracingOptions& tracing = core.options.tracing;
    parent = {tracing.sink,
              SpanContext::from_traceparent(tracing.traceparent).value_or(SpanContext{}),
              tracing.capture_content};
  }
  ActiveSpan span(parent, "hermes.compaction", SpanKind::kInternal,
                  {{"hermes.compaction.reason", request.reason},
                   {"hermes.compaction.messages_before", static_cast<int64_t>(messages.size())}});
  CompactionOutcome out;
  {
    // The summary call and the commit's store writes hang under the compaction.
    SpanScope scope(span.as_parent());
    out = compact(core, messages, request);
  }
  if (span) {
    span.set("hermes.compaction.compacted", out.compacted);
    span.set("hermes.compaction.tokens_before", out.tokens_before);
    if (out.compacted) {
      span.set("hermes.compaction.messages_after", static_cast<int64_t>(out.messages_after));
      span.set("hermes.compaction.tokens_after", out.tokens_after);
    } else if (out.skipped) {
      span.set("hermes.compaction.skipped", out.error);
    } else {
      span.set_error("compaction_failed", out.error);
    }
  }
  return out;
}

}  // namespace hermes::internal
