"""JSON text for everything a room sends, stores or forwards, through orjson.

Every roll encodes its update, its stored action and, with Redis, its forwarded intent
and envelope; every intent is parsed. orjson does each of these several times faster
than the standard library (see docs/BENCHMARKS.md for what it buys a roll), writes the
compact form (no spaces) and keeps non-ASCII text as it is.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

DecodeError = orjson.JSONDecodeError
"""Raised for text that is not JSON; a ``ValueError``, as the standard library's is."""


def dumps(data: Any) -> str:
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        # What orjson refuses and the standard library writes: integers past 64 bits.
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)
