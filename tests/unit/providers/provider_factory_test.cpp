#include <doctest/doctest.h>

#include "hermes/provider.hpp"

using hermes::ProviderConfig;
using hermes::resolve_api_mode;

TEST_CASE("an explicit api_mode wins over everything else") {
  CHECK(resolve_api_mode("codex_responses", "anthropic", "https://api.anthropic.com") ==
        "codex_responses");
  CHECK(resolve_api_mode(" Chat_Completions ", "", "") == "chat_completions");
}

TEST_CASE("the provider name picks the wire format next") {
  CHECK(resolve_api_mode("", "anthropic", "https://example.com/v1") == "anthropic_messages");
  CHECK(resolve_api_mode("", "openai-codex", "") == "codex_responses");
  CHECK(resolve_api_mode("", "Codex", "") == "codex_responses");
  CHECK(resolve_api_mode("", "openrouter", "https://openrouter.ai/api/v1") == "chat_completions");
}

TEST_CASE("base-URL heuristics match exact hosts and path suffixes") {
  CHECK(resolve_api_mode("", "custom", "https://api.anthropic.com") == "anthropic_messages");
  CHECK(resolve_api_mode("", "custom", "https://API.ANTHROPIC.COM/v1/") == "anthropic_messages");
  CHECK(resolve_api_mode("", "minimax", "https://api.minimax.io/anthropic") ==
        "anthropic_messages");
  CHECK(resolve_api_mode("", "", "https://gw.example.com/anthropic/?x=1") == "anthropic_messages");
  CHECK(resolve_api_mode("", "", "https://chatgpt.com/backend-api/codex") == "codex_responses");
  // Look-alikes do not count.
  CHECK(resolve_api_mode("", "", "https://api.anthropic.com.evil.test/v1") == "chat_completions");
  CHECK(resolve_api_mode("", "", "https://proxy.test/api.anthropic.com/v1") == "chat_completions");
  CHECK(resolve_api_mode("", "", "https://proxy.test/v1?path=/anthropic") == "chat_completions");
  CHECK(resolve_api_mode("", "", "http://127.0.0.1:8080/v1") == "chat_completions");
}

TEST_CASE("make_provider builds a Chat Completions provider with its info") {
  ProviderConfig config;
  config.provider = "openrouter";
  config.base_url = "https://openrouter.ai/api/v1";
  config.model = "anthropic/claude-sonnet-4.5";
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  const hermes::ProviderInfo& info = (*provider)->info();
  CHECK(info.name == "openrouter");
  CHECK(info.api_mode == "chat_completions");
  CHECK(info.base_url == "https://openrouter.ai/api/v1");
  CHECK(info.model == "anthropic/claude-sonnet-4.5");
}

TEST_CASE("a malformed base_url is rejected naming base_url") {
  for (const char* url :
       {"", "not a url", "ftp://example.com/v1", "localhost:8080/v1", "http://"}) {
    CAPTURE(url);
    ProviderConfig config;
    config.base_url = url;
    auto provider = hermes::make_provider(config);
    REQUIRE_FALSE(provider.ok());
    CHECK(provider.status().code() == hermes::StatusCode::kInvalidArgument);
    CHECK(provider.status().message().rfind("base_url", 0) == 0);
  }
}

TEST_CASE("header and key values cannot smuggle extra header lines") {
  ProviderConfig config;
  config.base_url = "http://127.0.0.1:1/v1";
  config.headers = {{"X-Title", "hermes\r\nX-Evil: 1"}};
  auto provider = hermes::make_provider(config);
  REQUIRE_FALSE(provider.ok());
  CHECK(provider.status().message().rfind("headers", 0) == 0);
  config.headers = {};
  config.api_key = "sk-1\nX-Evil: 1";
  CHECK(hermes::make_provider(config).status().message().rfind("api_key", 0) == 0);
}

TEST_CASE("make_provider builds each wire format's provider") {
  const struct {
    const char* provider;
    const char* base_url;
    const char* api_mode;
  } cases[] = {{"anthropic", "https://api.anthropic.com", "anthropic_messages"},
               {"openai", "https://api.openai.com/v1", "codex_responses"},
               {"custom", "http://127.0.0.1:8080/v1", "chat_completions"}};
  for (const auto& c : cases) {
    CAPTURE(c.base_url);
    ProviderConfig config;
    config.provider = c.provider;
    config.base_url = c.base_url;
    auto provider = hermes::make_provider(config);
    REQUIRE(provider.ok());
    CHECK((*provider)->info().api_mode == c.api_mode);
    CHECK((*provider)->info().name == c.provider);
  }

  ProviderConfig config;
  config.provider = "custom";
  config.base_url = "https://api.anthropic.com";
  config.api_mode = "bedrock_converse";
  auto unknown = hermes::make_provider(config);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == hermes::StatusCode::kInvalidArgument);
  CHECK(unknown.status().message().rfind("api_mode", 0) == 0);
}

TEST_CASE("OpenAI and xAI hosts speak Responses, Kimi's coding endpoint speaks Anthropic") {
  CHECK(resolve_api_mode("", "openai", "https://api.openai.com/v1") == "codex_responses");
  CHECK(resolve_api_mode("", "custom", "https://api.x.ai/v1") == "codex_responses");
  CHECK(resolve_api_mode("", "xai", "") == "codex_responses");
  CHECK(resolve_api_mode("responses", "", "") == "codex_responses");
  CHECK(resolve_api_mode("", "", "https://api.kimi.com/coding/") == "anthropic_messages");
  CHECK(resolve_api_mode("", "", "https://api.minimax.io/anthropic/v1") == "anthropic_messages");
  CHECK(resolve_api_mode("", "", "https://api.openai.com.evil.test/v1") == "chat_completions");
  CHECK(resolve_api_mode("", "", "https://api.kimi.com/v1") == "chat_completions");
}
