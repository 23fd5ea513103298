"""Stored models are data: a JSON object of plain numbers and strings, checked against an exact schema.

Nothing here unpickles or imports anything named by the data, so loading a model cannot run code.
``parse_model_data`` takes what was stored (a JSON text or bytes, or the already decoded object of a
JSONField) and returns it only when it is exactly one of the known formats: every required key
present, no other key, every value of its type (finite floats, strings, lists of them). Anything
else — a pickle, a joblib file, an extra key, a string where a number belongs — raises
ModelDataError naming the problem.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable


class ModelDataError(ValueError):
    """Stored model parameters that are not exactly the expected data."""


Check = Callable[[object, str], None]


def _fail(where: str, expected: str, value) -> None:
    raise ModelDataError(f"{where}: expected {expected}, got {type(value).__name__}")


def number(value, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        _fail(where, "a finite number", value)


def integer(value, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, "an integer", value)


def text(value, where: str) -> None:
    if not isinstance(value, str):
        _fail(where, "a string", value)


def list_of(check: Check, *, min_length: int = 0) -> Check:
    def checked(value, where: str) -> None:
        if not isinstance(value, list):
            _fail(where, "a list", value)
        if len(value) < min_length:
            raise ModelDataError(f"{where}: expected at least {min_length} entries, got {len(value)}")
        for i, item in enumerate(value):
            check(item, f"{where}[{i}]")
    return checked


def flat_mapping(value, where: str) -> None:
    """Training metadata: a JSON object of numbers, strings, booleans or null (nothing nested)."""
    if not isinstance(value, dict):
        _fail(where, "an object", value)
    for key, item in value.items():
        if not isinstance(key, str):
            _fail(f"{where} key", "a string", key)
        if item is not None and not isinstance(item, (str, bool, int, float)):
            _fail(f"{where}.{key}", "a number, string, boolean or null", item)


def record(schema: dict[str, Check]) -> Check:
    def checked(value, where: str) -> None:
        if not isinstance(value, dict):
            _fail(where, "an object", value)
        missing = sorted(set(schema) - set(value))
        extra = sorted(set(value) - set(schema))
        if missing:
            raise ModelDataError(f"{where}: missing key(s) {', '.join(missing)}")
        if extra:
            raise ModelDataError(f"{where}: unexpected key(s) {', '.join(map(str, extra))}")
        for key, check in schema.items():
            check(value[key], f"{where}.{key}")
    return checked


FORMATS: dict[str, tuple[int, dict[str, Check]]] = {}


def register_format(name: str, version: int, schema: dict[str, Check]) -> None:
    """A format's schema: its keys besides ``format`` and ``version``."""
    FORMATS[name] = (version, schema)


def decode(stored) -> dict:
    """The stored object as a dict: JSON text/bytes are parsed (strictly), a dict is taken as is."""
    if isinstance(stored, (bytes, bytearray, memoryview)):
        try:
            stored = bytes(stored).decode("utf-8")
        except UnicodeDecodeError:
            raise ModelDataError("stored model is binary, not JSON text (a pickle or joblib file is refused)") from None
    if isinstance(stored, str):
        try:
            stored = json.loads(stored, parse_constant=_refuse_constant)
        except ValueError as exc:
            raise ModelDataError(f"stored model is not JSON data: {exc}") from None
    if not isinstance(stored, dict):
        _fail("stored model", "a JSON object", stored)
    return stored


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a model may hold")


def parse_model_data(stored, expected_format: str) -> dict:
    """The checked parameters of a model of ``expected_format``, or ModelDataError."""
    data = decode(stored)
    if data.get("format") != expected_format:
        raise ModelDataError(f"stored model has format {data.get('format')!r}, expected {expected_format!r}")
    version, schema = FORMATS[expected_format]
    if data.get("version") != version:
        raise ModelDataError(f"stored {expected_format} has version {data.get('version')!r}; this code reads {version}")
    record({"format": text, "version": integer, **schema})(data, expected_format)
    return data
