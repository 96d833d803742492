// hermes.ContextCompressor: the default context engine on its own, for callers that keep
// their transcripts themselves. The summariser may be any Python callable; the GIL is
// released while the compressor works and re-taken only to call it.
#include <pybind11/stl.h>

#include <atomic>
#include <exception>
#include <optional>
#include <utility>

#include "hermes/context_compressor.hpp"
#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

std::string object_type_name(const py::handle& object) {
  return py::str(py::type::handle_of(object).attr("__name__"));
}

// A Python callable `(prompt: str) -> str | None` as the compressor's summariser model.
// The compressor sends one user message and judges the text that answers it. An
// exception the callable raises, or a value that is not text, fails this model call with
// an error the compressor treats as an ordinary summariser failure: it falls back to its
// static summary instead of giving up on the compaction. KeyboardInterrupt and SystemExit
// are not failures but the user leaving: the compaction is abandoned, and the exception
// is kept for compress() to raise again.
//
// Owned by one compressor, which runs one compress() at a time.
class CallableSummarizer final : public Provider {
 public:
  explicit CallableSummarizer(py::object fn) : fn_(std::move(fn)) {
    info_.name = "python";
    info_.api_mode = std::string(kApiModeChatCompletions);
  }

  const ProviderInfo& info() const override { return info_; }

  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& /*context*/) override {
    const std::string prompt = request.messages.empty() ? "" : request.messages.back().content;
    py::gil_scoped_acquire gil;
    try {
      py::object answer = fn_.get()(prompt);
      if (!answer.is_none() && !py::isinstance<py::str>(answer)) {
        return Status::internal("the summarizer returned " + object_type_name(answer) +
                                ", expected str");
      }
      ProviderResponse response;
      if (!answer.is_none()) {
        response.message = Message::assistant(from_python(answer).get<std::string>());
      }
      response.message.finish_reason = "stop";
      return response;
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_Exception)) {
        interruption_ = e.value();
        return Status::cancelled("the summarizer was interrupted: " + describe_python_error(e));
      }
      return Status::internal("the summarizer raised " + describe_python_error(e));
    } catch (const std::exception& e) {
      return Status::internal(std::string("the summarizer failed: ") + e.what());
    }
  }

  // Raises the KeyboardInterrupt or SystemExit the last call ended with, if any. Called
  // with the GIL held.
  void reraise_interruption() {
    py::object pending = std::exchange(interruption_, py::object());
    if (!pending) return;
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(pending.ptr())), pending.ptr());
    throw py::error_already_set();
  }

 private:
  PyRef fn_;
  ProviderInfo info_;
  py::object interruption_;  // Set and cleared with the GIL held.
};

py::dict report_to_python(const CompressionReport& r) {
  py::dict d;
  d["compacted"] = r.compacted;
  d["aborted"] = r.aborted;
  d["used_static_summary"] = r.used_static_summary;
  d["error"] = r.error;
  d["messages_before"] = r.messages_before;
  d["messages_after"] = r.messages_after;
  d["tokens_before"] = r.tokens_before;
  d["tokens_after"] = r.tokens_after;
  d["pruned_tool_results"] = r.pruned_tool_results;
  d["shortened_tool_results"] = r.shortened_tool_results;
  d["summarized_messages"] = r.summarized_messages;
  d["savings_percent"] = r.savings_percent;
  return d;
}

std::vector<Message> messages_from_python(const py::handle& messages) {
  if (!py::isinstance<py::list>(messages) && !py::isinstance<py::tuple>(messages)) {
    throw py::type_error("messages: expected a list of message dicts, got " +
                         object_type_name(messages));
  }
  auto parsed = messages_from_json(from_python(messages, "messages"));
  if (!parsed.ok()) throw py::value_error(parsed.status().message());
  return std::move(*parsed);
}

class PyContextCompressor {
 public:
  PyContextCompressor(int64_t context_length, double threshold_percent, int protect_first_n,
                      int protect_last_n, double summary_target_ratio, const py::object& summarizer,
                      const std::string& model, std::optional<int64_t> max_tokens) {
    ContextCompressorOptions options;
    options.context_length = context_length;
    options.threshold_percent = threshold_percent;
    options.protect_first_n = protect_first_n;
    options.protect_last_n = protect_last_n;
    options.summary_target_ratio = summary_target_ratio;
    options.model = model;
    options.max_tokens = max_tokens;
    if (!summarizer.is_none()) {
      if (!PyCallable_Check(summarizer.ptr())) {
        throw py::type_error("summarizer: expected a callable (prompt: str) -> str, got " +
                             object_type_name(summarizer));
      }
      summarizer_ = std::make_shared<CallableSummarizer>(summarizer);
      options.summary_provider = summarizer_;
    }
    auto created = ContextCompressor::create(std::move(options));
    if (!created.ok()) {
      if (created.status().code() == StatusCode::kInvalidArgument)
        throw py::value_error(created.status().message());
      raise_status(created.status());
    }
    engine_ = std::move(*created);
  }

  bool should_compress(int64_t prompt_tokens) {
    Slot slot(*this);
    return engine_->should_compress(prompt_tokens);
  }

  py::list compress(const py::handle& messages, std::optional<int64_t> current_tokens,
                    std::optional<std::string> focus_topic, bool force) {
    CompressOptions options;
    options.current_tokens = current_tokens;
    options.focus_topic = std::move(focus_topic).value_or("");
    options.force = force;
    std::vector<Message> input = messages_from_python(messages);
    Slot slot(*this);
    Result<std::vector<Message>> out = [&] {
      py::gil_scoped_release release;
      return engine_->compress(input, options);
    }();
    if (summarizer_) summarizer_->reraise_interruption();
    if (!out.ok()) raise_status(out.status());
    return to_python(messages_to_json(*out)).cast<py::list>();
  }

  std::size_t find_tail_cut_by_tokens(const py::handle& messages, std::size_t head_end,
                                      std::optional<int64_t> token_budget) {
    const std::vector<Message> input = messages_from_python(messages);
    Slot slot(*this);
    return engine_->find_tail_cut_by_tokens(input, head_end, token_budget);
  }

  py::tuple prune_old_tool_results(const py::handle& messages, int protect_tail_count,
                                   std::optional<int64_t> protect_tail_tokens) {
    const std::vector<Message> input = messages_from_python(messages);
    Slot slot(*this);
    ContextCompressor::PrunedMessages out =
        engine_->prune_old_tool_results(input, protect_tail_count, protect_tail_tokens);
    return py::make_tuple(to_python(messages_to_json(out.messages)), out.pruned);
  }

  // Fixed at construction: readable at any time.
  int64_t context_length() const { return engine_->context_length(); }
  int64_t threshold_tokens() const { return engine_->threshold_tokens(); }
  double threshold_percent() const { return engine_->threshold_percent(); }
  int64_t tail_token_budget() const { return engine_->tail_token_budget(); }

  // Changed by compress(): read between calls only.
  int compression_count() {
    Slot slot(*this);
    return engine_->compression_count();
  }
  std::string previous_summary() {
    Slot slot(*this);
    return engine_->previous_summary();
  }
  py::dict last_report() {
    Slot slot(*this);
    return report_to_python(engine_->last_report());
  }
  py::dict status() {
    Slot slot(*this);
    return to_python(engine_->status()).cast<py::dict>();
  }

 private:
  // One call at a time: compress() runs without the GIL, so another thread (or the
  // summarizer itself) could otherwise reach the engine while it works.
  class Slot {
   public:
    explicit Slot(PyContextCompressor& owner) : busy_(owner.busy_) {
      if (busy_.exchange(true)) {
        raise_status(Status::failed_precondition(
            "the compressor is busy: compress() is running on another thread or called "
            "this from its summarizer"));
      }
    }
    ~Slot() { busy_ = false; }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    std::atomic<bool>& busy_;
  };

  std::shared_ptr<CallableSummarizer> summarizer_;  // Also held by the engine; may be null.
  std::unique_ptr<ContextCompressor> engine_;
  std::atomic<bool> busy_{false};
};

}  // namespace

void register_context_compressor(py::module_& m) {
  m.attr("CONTEXT_SUMMARY_PREFIX") = py::str(std::string(kContextSummaryPrefix));
  m.attr("CONTEXT_SUMMARY_END_MARKER") = py::str(std::string(kContextSummaryEndMarker));
  // The upstream runtime's names for the texts a compaction writes.
  const std::pair<const char*, std::string_view> upstream_names[] = {
      {"SUMMARY_PREFIX", kContextSummaryPrefix},
      {"LEGACY_SUMMARY_PREFIX", kLegacySummaryPrefix},
      {"COMPRESSED_SUMMARY_METADATA_KEY", kCompressedSummaryMetadataKey},
      {"COMPRESSION_CONTINUATION_USER_CONTENT", kCompressionContinuationUserContent},
      {"_SUMMARY_END_MARKER", kContextSummaryEndMarker},
      {"_MERGED_PRIOR_CONTEXT_HEADER", kMergedPriorContextHeader},
      {"_MERGED_SUMMARY_DELIMITER", kMergedSummaryDelimiter},
      {"_PRUNED_TOOL_PLACEHOLDER", kPrunedToolPlaceholder},
      {"DUPLICATE_TOOL_OUTPUT", kDuplicateToolOutput},
      {"SCREENSHOT_REMOVED", kScreenshotRemoved},
      {"SUMMARIZED_RESULT_STUB", kSummarizedResultStub},
  };
  for (const auto& [name, text] : upstream_names) m.attr(name) = py::str(std::string(text));
  m.def(
      "is_context_summary",
      [](const py::handle& message) {
        Result<Message> parsed = message_from_json(from_python(message, "message"));
        if (!parsed.ok()) throw py::value_error("message: " + parsed.status().message());
        return is_context_summary(*parsed);
      },
      py::arg("message"),
      "Whether a message dict is a compaction summary, on its own or merged into another "
      "message (by its \"_compressed_summary\" key or its text).");
  py::class_<PyContextCompressor>(m, "ContextCompressor", R"doc(
Keeps a long conversation inside a model's window: the engine the agent compresses with,
for callers that keep their own transcripts.

    def summarize(prompt):
        return cheap_model(prompt)          # your own model call

    compressor = hermes.ContextCompressor(200_000, summarizer=summarize)
    if compressor.should_compress(prompt_tokens):
        messages = compressor.compress(messages)

compress() prunes old tool output, keeps the first protect_first_n messages and a
token-budgeted tail (at least the latest user message, never splitting a tool call from
its result), and replaces the middle with a handoff summary. `summarizer(prompt)` receives
the whole summarisation request as one string and returns the summary: structured text
with the template's "## ..." headings the prompt asks for. When it raises, returns
something else, or there is no summarizer, a summary built without a model stands in.
The summarizer is called on the thread that called compress(), with the GIL held.

Raises ValueError for out-of-range settings (threshold_percent outside (0, 1], negative
protect counts, summary_target_ratio <= 0, context_length <= 0).)doc")
      .def(py::init<int64_t, double, int, int, double, const py::object&, const std::string&,
                    std::optional<int64_t>>(),
           py::arg("context_length"), py::arg("threshold_percent") = 0.50,
           py::arg("protect_first_n") = 3, py::arg("protect_last_n") = 20,
           py::arg("summary_target_ratio") = 0.20, py::arg("summarizer") = py::none(),
           py::kw_only(), py::arg("model") = "", py::arg("max_tokens") = py::none())
      .def("should_compress", &PyContextCompressor::should_compress, py::arg("prompt_tokens"),
           "Whether a prompt of `prompt_tokens` tokens should be compressed: at or above "
           "threshold_tokens, unless repeated failed or ineffective compactions paused "
           "compression.")
      .def("compress", &PyContextCompressor::compress, py::arg("messages"),
           py::arg("current_tokens") = py::none(), py::arg("focus_topic") = py::none(),
           py::kw_only(), py::arg("force") = false,
           R"doc(A compacted copy of `messages` (chat message dicts).

The result starts with the protected head (a system message gains a note that earlier
turns were compacted), then one message carrying the summary (it begins with
CONTEXT_SUMMARY_PREFIX and ends with CONTEXT_SUMMARY_END_MARKER), then the protected tail,
whose older tool results may be shortened to one-line descriptions. When there is nothing
to summarise, or the result is still over threshold_tokens, the largest tool results are
cut (beginning and end kept), protected ones included, until it fits; the input comes back
unchanged (old tool output pruned at most) when nothing could be done. `current_tokens` is the prompt size to judge the savings by (estimated when
None); `focus_topic` gives that topic most of the summary; `force` clears the pauses
after failed or ineffective compactions, as a manual compaction does. Raises TypeError
or ValueError for messages that are not a list of message dicts.)doc")
      .def("find_tail_cut_by_tokens", &PyContextCompressor::find_tail_cut_by_tokens,
           py::arg("messages"), py::arg("head_end"), py::arg("token_budget") = py::none(),
           R"doc(The index where the protected tail of `messages` starts after a head of `head_end`.

Walks back from the end under `token_budget` tokens (tail_token_budget when None; one
message may overshoot it by half), keeps at least three messages, never separates a tool
call from its results and always keeps the latest user message. len(messages) when
`head_end` is at or past the end.)doc")
      .def("prune_old_tool_results", &PyContextCompressor::prune_old_tool_results,
           py::arg("messages"), py::arg("protect_tail_count") = 20,
           py::arg("protect_tail_tokens") = py::none(),
           R"doc((pruned copy of `messages`, number of messages changed), without a model call.

Repeated tool results become DUPLICATE_TOOL_OUTPUT everywhere; outside the protected tail
(the last `protect_tail_count` messages, or as many as fit in `protect_tail_tokens`,
whichever is more) long results become one-line descriptions, old screenshots
SCREENSHOT_REMOVED, and long strings in tool-call arguments are cut.)doc")
      .def_static("truncate_tool_call_args_json", &ContextCompressor::truncate_tool_call_args_json,
                  py::arg("args"), py::arg("head_chars") = 200,
                  "`args` with every string longer than `head_chars` inside its JSON cut to that "
                  "many characters plus '...[truncated]'; unchanged when it is not JSON.")
      .def_property_readonly("context_length", &PyContextCompressor::context_length,
                             "The model's window in tokens.")
      .def_property_readonly("threshold_tokens", &PyContextCompressor::threshold_tokens,
                             "The prompt size at which compression triggers.")
      .def_property_readonly("threshold_percent", &PyContextCompressor::threshold_percent,
                             "The share of the window (after max_tokens) that triggers.")
      .def_property_readonly("tail_token_budget", &PyContextCompressor::tail_token_budget,
                             "Tokens of recent messages the tail protects.")
      .def_property_readonly("compression_count", &PyContextCompressor::compression_count,
                             "Compactions done so far.")
      .def_property_readonly("previous_summary", &PyContextCompressor::previous_summary,
                             "The body of the last summary, updated by the next one; '' "
                             "before the first.")
      .def_property_readonly(
          "last_report", &PyContextCompressor::last_report,
          "What the last compress() did, as a dict: compacted, aborted, used_static_summary, "
          "error (the summarizer's failure), messages_before, messages_after, tokens_before, "
          "tokens_after, pruned_tool_results, shortened_tool_results, summarized_messages, "
          "savings_percent.")
      .def("status", &PyContextCompressor::status,
           "Limits and counters for status displays, as a dict (threshold_tokens, "
           "compression_count, cooldown_seconds, blocked_reason, ...).")
      .def("__repr__", [](PyContextCompressor& c) {
        return "hermes.ContextCompressor(context_length=" + std::to_string(c.context_length()) +
               ", threshold_tokens=" + std::to_string(c.threshold_tokens()) + ")";
      });
}

}  // namespace hermes::python
