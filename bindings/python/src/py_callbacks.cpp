#include "py_callbacks.hpp"

#include <pybind11/stl.h>

#include <exception>
#include <string>
#include <utility>

#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

using Fn = std::shared_ptr<PyRef>;

Fn hold(const py::object& fn) {
  return fn.is_none() ? nullptr : std::make_shared<PyRef>(fn);
}

Json tool_event(const ToolProgress& p) {
  Json event = {{"type", "tool"},
                {"phase", p.phase == ToolProgress::Phase::kStarted ? "started" : "completed"},
                {"call_id", p.call_id},
                {"name", p.name},
                {"preview", p.preview}};
  if (p.arguments != nullptr) event["arguments"] = *p.arguments;
  if (p.phase == ToolProgress::Phase::kCompleted) {
    event["duration"] = static_cast<double>(p.duration.count()) / 1000.0;
    event["is_error"] = p.is_error;
    event["result"] = std::string(p.result);
  }
  return event;
}

// Text and reasoning deltas. An empty delta only closes a block; the stream skips it.
std::function<void(std::string_view)> delta_callback(const py::object& fn, const char* type,
                                                     const char* what,
                                                     std::shared_ptr<EventTap> tap) {
  Fn ref = hold(fn);
  return [ref, type, what, tap](std::string_view delta) {
    if (!delta.empty() && tap->attached())
      tap->emit({{"type", type}, {"text", std::string(delta)}});
    if (ref) run_guarded(what, [&] { ref->get()(delta); });
  };
}

std::function<void(const ToolProgress&)> tool_callback(const py::object& fn,
                                                       std::shared_ptr<EventTap> tap) {
  Fn ref = hold(fn);
  return [ref, tap](const ToolProgress& p) {
    if (!ref && !tap->attached()) return;
    Json event = tool_event(p);
    if (ref) {
      run_guarded("hermes tool_progress_callback", [&] {
        Json args = event;
        args.erase("type");
        ref->get()(to_python(args));
      });
    }
    tap->emit(std::move(event));
  };
}

std::function<void(std::string_view, std::string_view)> status_callback(
    const py::object& fn, std::shared_ptr<EventTap> tap) {
  Fn ref = hold(fn);
  return [ref, tap](std::string_view kind, std::string_view message) {
    if (tap->attached()) {
      tap->emit(
          {{"type", "status"}, {"kind", std::string(kind)}, {"message", std::string(message)}});
    }
    if (ref) run_guarded("hermes status_callback", [&] { ref->get()(kind, message); });
  };
}

std::function<void(int, const std::vector<ToolOutcome>&)> step_callback(const py::object& fn) {
  Fn ref = hold(fn);
  if (!ref) return nullptr;
  return [ref](int api_call_count, const std::vector<ToolOutcome>& previous) {
    run_guarded("hermes step_callback", [&] {
      py::list tools;
      for (const ToolOutcome& t : previous) {
        py::dict d;
        d["name"] = t.name;
        d["arguments"] = t.arguments;
        d["result"] = t.result;
        tools.append(d);
      }
      ref->get()(api_call_count, tools);
    });
  };
}

// Upstream's clarify callback answers with text; None (or a failure) means nobody did.
std::function<std::optional<std::string>(const std::string&, const std::vector<std::string>&)>
clarify_callback(const py::object& fn) {
  Fn ref = hold(fn);
  if (!ref) return nullptr;
  return [ref](const std::string& question, const std::vector<std::string>& choices) {
    std::optional<std::string> answer;
    run_guarded("hermes clarify_callback", [&] {
      py::object reply = ref->get()(question, choices);
      if (reply.is_none()) return;
      if (!py::isinstance<py::str>(reply))
        throw py::type_error("clarify_callback must return str or None");
      answer = reply.cast<std::string>();
    });
    return answer;
  };
}

ApprovalDecision decision_from_name(const std::string& name) {
  if (name == "once") return ApprovalDecision::kOnce;
  if (name == "session") return ApprovalDecision::kSession;
  if (name == "always") return ApprovalDecision::kAlways;
  if (name != "deny") {
    throw py::value_error(
        "approval_callback must return 'deny', 'once', 'session' or "
        "'always', not '" +
        name + "'");
  }
  return ApprovalDecision::kDeny;
}

// Anything but a recognised approval (an exception, an unknown answer) denies.
std::function<ApprovalDecision(const ApprovalRequest&)> approval_callback(const py::object& fn) {
  Fn ref = hold(fn);
  if (!ref) return nullptr;
  return [ref](const ApprovalRequest& request) {
    ApprovalDecision decision = ApprovalDecision::kDeny;
    run_guarded("hermes approval_callback", [&] {
      py::object reply = ref->get()(request.command, request.description);
      if (!py::isinstance<py::str>(reply))
        throw py::type_error("approval_callback must return a str");
      decision = decision_from_name(reply.cast<std::string>());
    });
    return decision;
  };
}

// A fresh credential, or None (or a failure): the agent then rotates keys or falls back.
std::function<std::optional<std::string>(const AuthRefreshRequest&)> auth_refresh_callback(
    const py::object& fn) {
  Fn ref = hold(fn);
  if (!ref) return nullptr;
  return [ref](const AuthRefreshRequest& request) {
    std::optional<std::string> key;
    run_guarded("hermes auth_refresh_callback", [&] {
      py::dict d;
      d["provider"] = request.provider;
      d["base_url"] = request.base_url;
      d["model"] = request.model;
      d["http_status"] = request.http_status;
      d["message"] = request.message;
      py::object reply = ref->get()(d);
      if (reply.is_none()) return;
      if (!py::isinstance<py::str>(reply))
        throw py::type_error("auth_refresh_callback must return str or None");
      key = reply.cast<std::string>();
    });
    return key;
  };
}

}  // namespace

Callbacks make_callbacks(const PythonCallbacks& fns, std::shared_ptr<EventTap> tap) {
  Callbacks c;
  c.on_stream_delta = delta_callback(fns.stream, "text", "hermes stream_callback", tap);
  c.on_reasoning_delta =
      delta_callback(fns.reasoning, "reasoning", "hermes reasoning_callback", tap);
  c.on_tool_progress = tool_callback(fns.tool_progress, tap);
  c.on_status = status_callback(fns.status, tap);
  c.on_step = step_callback(fns.step);
  c.on_clarify = clarify_callback(fns.clarify);
  c.on_approval = approval_callback(fns.approval);
  c.on_auth_refresh = auth_refresh_callback(fns.auth_refresh);
  return c;
}

}  // namespace hermes::python
