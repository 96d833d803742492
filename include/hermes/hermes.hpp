// hermes/hermes.hpp — the whole public C++ API of hermes.
#pragma once

#include "hermes/agent.hpp"
#include "hermes/api_error.hpp"
#include "hermes/callbacks.hpp"
#include "hermes/cancel.hpp"
#include "hermes/context_engine.hpp"
#include "hermes/home.hpp"
#include "hermes/json.hpp"
#include "hermes/log.hpp"
#include "hermes/mcp.hpp"
#include "hermes/message.hpp"
#include "hermes/provider.hpp"
#include "hermes/session_store.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"
#include "hermes/version.hpp"
