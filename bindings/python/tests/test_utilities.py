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


def test_an_unknown_transport_name_is_a_value_error():
    with pytest.raises(ValueError, match="transport"):
        hermes.classify_api_error(transport="carrier-pigeon")


def test_parse_context_limit_reads_the_stated_window():
    assert hermes.parse_context_limit_from_error(
        "This model's maximum context length is 8192 tokens") == 8192
    assert hermes.parse_context_limit_from_error("something else went wrong") is None
