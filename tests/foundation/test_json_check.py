"""The one check for free-form JSON a user sends (``annuminas.validation.json_check``): bounded
size, depth and texts, no NUL or lone surrogate anywhere (keys included), plain JSON only."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from annuminas.validation import json_check


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):  # the msgids the assertions read
        yield


def refused(value, **bounds) -> str:
    with pytest.raises(ValidationError) as error:
        json_check(value, **bounds)
    return error.value.messages[0]


def test_plain_bounded_json_passes():
    json_check({"a": [1, 2.5, "x", True, None, {"b": []}]}, max_depth=4)
    json_check([], max_bytes=2)
    json_check("é" * 10, max_bytes=22, max_string_length=10)


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("a\x00b", ""),
        ({"rows": [{"result": "dead\x00"}]}, "rows.0.result"),
        ({"rows": [{"res\x00ult": "dead"}]}, "rows.0"),
        ({"\x00": 1}, ""),
    ],
)
def test_a_nul_anywhere_is_refused_and_located(value, where):
    message = refused(value)
    assert "NUL" in message
    assert message.startswith(f"{where}: ") if where else ":" not in message.split("NUL")[0]


def test_a_lone_surrogate_is_refused():
    assert "cannot be stored" in refused({"name": "\ud800"})
    assert "cannot be stored" in refused({"\udfff": 1})


def test_size_is_counted_in_utf8_bytes_of_compact_json():
    json_check(["é" * 4], max_bytes=12)  # ["éééé"]: 2 + 2 + 8 bytes
    assert "at most 11 bytes" in refused(["é" * 4], max_bytes=11)
    assert "bytes" in refused({"k": "\n" * 10}, max_bytes=15)  # escapes counted too


def test_depth_is_bounded_without_recursion():
    deep: object = 1
    for _level in range(100_000):
        deep = [deep]
    assert "Nested too deeply" in refused(deep, max_depth=8)
    json_check([[[1]]], max_depth=3)
    assert "at most 2 levels" in refused([[[1]]], max_depth=2)


def test_string_length_covers_values_and_keys():
    assert "At most 5 characters" in refused({"k": "x" * 6}, max_string_length=5)
    assert "At most 5 characters" in refused({"x" * 6: 1}, max_string_length=5)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1: "a"}, {"a": {1, 2}}, b"x"])
def test_only_plain_json_is_accepted(value):
    assert "plain JSON" in refused(value)


def test_a_huge_number_is_refused():
    assert "too large" in refused({"n": 10**30})


def test_the_field_names_the_error():
    with pytest.raises(ValidationError) as error:
        json_check({"a": "\x00"}, field="tables")
    assert list(error.value.message_dict) == ["tables"]
