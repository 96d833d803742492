"""hermes.classify_api_error and hermes.parse_context_limit_from_error."""
import pytest

import hermes


def test_rate_limit_is_retryable_and_keeps_retry_after_out_of_the_reason():
    result = hermes.classify_api_error(status_code=429, message="Rate limit reached for requests")
    assert result["reason"] == "rate_limit"
    assert result["retryable"] is True
    assert result["should_compress"] is False


def test_a_context_overflow_asks_for_compression():
    result = hermes.classify_api_error(
        status_code=400,
        body={"error": {"message": "This model's maximum context length is 8192 tokens. "
                                   "However, your messages resulted in 9000 tokens.",
                        "code": "context_length_exceeded"}},
    )
    assert result["reason"] == "context_overflow"
    assert result["should_compress"] is True


def test_an_invalid_key_asks_for_rotation_and_is_not_retried_as_is():
    result = hermes.classify_api_error(status_code=401, message="Incorrect API key provided")
    assert result["reason"] in ("auth", "auth_permanent")
    assert result["should_rotate_credential"] is True


def test_a_timeout_below_http_is_a_timeout():
    result = hermes.classify_api_error(transport="timeout", message="Operation timed out")
    assert result["reason"] == "timeout"
    assert result["retryable"] is True


def test_a_dropped_connection_on_a_large_session_is_context_overflow():
    result = hermes.classify_api_error(
        transport="disconnect", message="Connection reset by peer",
        approx_tokens=190000, context_length=200000, num_messages=400,
    )
    assert result["reason"] == "context_overflow"


def test_an_openrouter_upstream_limit_names_the_provider_and_keeps_the_key():
    result = hermes.classify_api_error(
        status_code=429, provider="openrouter", message="Provider returned error",
        body={"error": {"message": "Provider returned error", "code": 429,
                        "metadata": {"provider_name": "DeepSeek",
                                     "raw": '{"error":{"message":"Rate limit exceeded"}}'}}},
    )
    assert result["reason"] == "upstream_rate_limit"
    assert result["should_rotate_credential"] is False
    assert result["error_context"] == {"upstream_provider": "DeepSeek"}
    assert result["billing_unverified"] is False


def test_ambiguous_billing_is_marked_unverified():
    result = hermes.classify_api_error(
        status_code=400, provider="anthropic",
        message="You're out of extra usage. Add more at claude.ai/settings/usage and keep going.",
    )
    assert result["reason"] == "billing"
    assert result["billing_unverified"] is True
    assert result["error_context"]["possible_content_filter"] is True


def test_a_usage_limit_with_retry_after_is_a_rate_limit():
    kwargs = dict(status_code=429, message="usage limit reached",
                  body={"error": {"type": "usage_limit_reached",
                                  "message": "Your account has reached its usage limit."}})
    assert hermes.classify_api_error(**kwargs)["reason"] == "billing"
    assert hermes.classify_api_error(retry_after=3600, **kwargs)["reason"] == "rate_limit"


def test_408_and_unreachable_hosts_are_retryable_timeouts():
    assert hermes.classify_api_error(status_code=408, message="Request Timeout")["reason"] == "timeout"
    for message in ("fetch failed", "getaddrinfo ENOTFOUND api.example.com", "No route to host"):
        result = hermes.classify_api_error(message=message, approx_tokens=190000,
                                           context_length=200000, num_messages=400)
        assert result["reason"] == "timeout", message
        assert result["retryable"] is True
        assert result["should_compress"] is False


def test_an_unknown_transport_name_is_a_value_error():
    with pytest.raises(ValueError, match="transport"):
        hermes.classify_api_error(transport="carrier-pigeon")


def test_parse_context_limit_reads_the_stated_window():
    assert hermes.parse_context_limit_from_error(
        "This model's maximum context length is 8192 tokens") == 8192
    assert hermes.parse_context_limit_from_error("something else went wrong") is None


def test_an_explicit_context_length_wins():
    assert hermes.get_model_context_length("anything", config_context_length=12345) == 12345


def test_a_known_model_family_is_found_without_asking_any_server(tmp_path):
    length = hermes.get_model_context_length("anthropic/claude-sonnet-4", home=str(tmp_path))
    assert length >= 200000


def test_an_unknown_model_on_a_dead_endpoint_gets_the_default(tmp_path):
    length = hermes.get_model_context_length(
        "no-such-model-xyz", base_url="http://127.0.0.1:9/v1", home=str(tmp_path))
    assert length == 256000


def test_current_model_families_and_spellings_resolve_from_the_table(tmp_path):
    home = str(tmp_path)
    for model, window in [("deepseek/deepseek-v4-flash", 1_000_000), ("z-ai/glm-5.2:free", 256_000),
                          ("z-ai/glm-5.3", 1_310_720), ("gemma4:31b-cloud", 256_000),
                          ("local:claude-opus-4.8", 1_000_000), ("x-ai/grok-4.6", 500_000),
                          ("", 256_000)]:
        assert hermes.get_model_context_length(model, home=home) == window, model


def test_dangerous_commands_are_detected_and_harmless_ones_are_not():
    dangerous, description = hermes.detect_dangerous_command("rm -rf /tmp/build")
    assert dangerous is True
    assert isinstance(description, str) and description
    assert hermes.detect_dangerous_command("ls -la") == (False, None)


def test_hardline_commands_are_dangerous_and_refused_whatever_the_approval():
    hardline, description = hermes.detect_hardline_command("rm -rf /")
    assert hardline is True and description
    assert hermes.detect_dangerous_command("rm -rf /")[0] is True
    assert hermes.detect_hardline_command("rm -rf /tmp/build") == (False, None)


def test_secrets_are_redacted():
    text = hermes.redact_sensitive_text("key=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789")
    assert "abcdefghijklmnopqrstuvwxyz0123456789" not in text


def test_token_estimate_grows_with_the_text():
    assert hermes.estimate_tokens_rough("") == 0
    assert hermes.estimate_tokens_rough("word " * 400) > hermes.estimate_tokens_rough("word " * 10)
