"""The bench compares the output format of each migrated request with the original one's."""

from __future__ import annotations

from tests.equivalence.output_format import text_config

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}


def test_flat_json_schema_matches_the_nested_chat_one():
    chat = {"response_format": {"type": "json_schema", "json_schema": {"name": "place", "schema": SCHEMA, "strict": True}}}
    responses = {"text": {"format": {"type": "json_schema", "name": "place", "schema": SCHEMA, "strict": True}}}
    assert text_config(chat) == text_config(responses)


def test_chat_strict_default_must_be_kept():
    chat = {"response_format": {"type": "json_schema", "json_schema": {"name": "place", "schema": SCHEMA}}}
    explicit = {"text": {"format": {"type": "json_schema", "name": "place", "schema": SCHEMA, "strict": False}}}
    left_to_the_service = {"text": {"format": {"type": "json_schema", "name": "place", "schema": SCHEMA}}}
    assert text_config(chat) == text_config(explicit)
    assert text_config(chat) != text_config(left_to_the_service)


def test_nested_format_in_a_responses_request_differs():
    nested = {"type": "json_schema", "json_schema": {"name": "place", "schema": SCHEMA, "strict": True}}
    assert text_config({"response_format": nested}) != text_config({"text": {"format": nested}})


def test_verbosity_moves_into_text():
    assert text_config({"verbosity": "low"}) == text_config({"text": {"verbosity": "low"}})
    assert text_config({"verbosity": "low"}) != text_config({})


def test_no_format_is_plain_text_in_both():
    assert text_config({"messages": []}) == text_config({"input": "Hi"}) == {"format": {"type": "text"}, "verbosity": None}
