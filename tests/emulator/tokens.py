"""Personal access tokens: format, checksum and storage hash (as real servers do)."""

from __future__ import annotations

import base64
import hashlib
import random
import zlib

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PREFIX = "nbp_"
SECRET_LEN = 30
CHECKSUM_LEN = 6
TOKEN_LEN = len(PREFIX) + SECRET_LEN + CHECKSUM_LEN


def b62encode(number: int) -> str:
    """Encode a non-negative integer in base62 (alphabet 0-9A-Za-z)."""
    if number == 0:
        return "0"
    digits = []
    while number:
        number, rem = divmod(number, 62)
        digits.append(BASE62[rem])
    return "".join(reversed(digits))


def b62decode(text: str) -> int:
    """Decode base62 text; raises ValueError on a foreign character."""
    number = 0
    for char in text:
        index = BASE62.find(char)
        if index < 0:
            raise ValueError(f"invalid base62 character {char!r}")
        number = number * 62 + index
    return number


def checksum(secret: str) -> str:
    """Six-character, zero-padded base62 CRC32-IEEE of the secret."""
    return b62encode(zlib.crc32(secret.encode()) & 0xFFFFFFFF).rjust(CHECKSUM_LEN, "0")


def make_token(rng: random.Random | None = None) -> str:
    """Return a new well-formed plain token."""
    source = rng or random.SystemRandom()
    secret = "".join(source.choice(BASE62) for _index in range(SECRET_LEN))
    return PREFIX + secret + checksum(secret)


def is_well_formed(token: str) -> bool:
    """Length, prefix and checksum checks, in the order real servers run them."""
    if len(token) != TOKEN_LEN or not token.startswith(PREFIX):
        return False
    secret = token[len(PREFIX):len(PREFIX) + SECRET_LEN]
    check = token[len(PREFIX) + SECRET_LEN:]
    try:
        return b62decode(check) == zlib.crc32(secret.encode()) & 0xFFFFFFFF
    except ValueError:
        return False


def hash_token(token: str) -> str:
    """Storage form of a token: std base64 of its SHA-256."""
    return base64.b64encode(hashlib.sha256(token.encode()).digest()).decode()
