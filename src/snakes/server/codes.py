"""Room codes and seat secrets.

A room code is 6 characters from a 32-symbol alphabet: the digits 2-9 and the capital
letters without I and O, so 0/O and 1/I never meet. That gives exactly 30 bits. Only
capitals are shown (an uppercase L is not read as 1); codes are read case-insensitively
and spaces or dashes typed between groups are ignored.

>>> len(new_room_code()), normalise_code(" k7q-2mx ")
(6, 'K7Q2MX')
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
SECRET_BYTES = 24
"""192 bits per seat secret."""

_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def new_room_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """The canonical form of a code as typed; it may still name no room."""
    return re.sub(r"[\s-]", "", text).upper()


def is_room_code(text: str) -> bool:
    return _CODE.fullmatch(text) is not None


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def hash_secret(secret: str) -> str:
    """What the store keeps instead of the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(secret: str, digest: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), digest)
