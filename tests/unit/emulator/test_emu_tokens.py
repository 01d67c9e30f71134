"""Token format helpers, in-process."""

from __future__ import annotations

import random

from tests.emulator import tokens


def test_known_tokens_from_the_reference_are_well_formed_and_hash_as_documented() -> None:
    known = "nbp_9999EUDNdkeusjentDLSJEn1902u84390W6W"
    assert tokens.is_well_formed(known)
    assert tokens.hash_token(known) == "sH/ioIwYyGezVPaHDNBDr4Y9+FAsj388qLoY0v67z0w="
    other = "nbp_z1pvsg2wP3EzmEou4S679KyTNhov632eyrXe"
    assert tokens.is_well_formed(other)
    assert tokens.hash_token(other) == "T++xDNgfAeAfydMqF3ZRLN54DnWjZC7i97S6y3owHt8="


def test_make_token_shape_and_checksum() -> None:
    rng = random.Random(3)
    for _round in range(50):
        token = tokens.make_token(rng)
        assert len(token) == 40 and token.startswith("nbp_")
        assert tokens.is_well_formed(token)
        assert token[-6:] == tokens.checksum(token[4:34])


def test_malformed_tokens_are_rejected() -> None:
    good = tokens.make_token()
    assert not tokens.is_well_formed(good[:-1])
    assert not tokens.is_well_formed("nbx_" + good[4:])
    flipped = good[:10] + ("A" if good[10] != "A" else "B") + good[11:]
    assert not tokens.is_well_formed(flipped)
    assert not tokens.is_well_formed(good[:34] + "!!!!!!")


def test_base62_round_trip_and_zero_padding() -> None:
    for number in (0, 1, 61, 62, 4294967295):
        assert tokens.b62decode(tokens.b62encode(number)) == number
    assert tokens.checksum("a" * 30).__len__() == 6
