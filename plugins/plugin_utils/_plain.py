# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Data as plain dicts, lists, texts and numbers: ansible-core hands plugins its own kinds of each (texts tagged with
where they came from on 2.19 and later, unsafe texts before, its mappings and sequences)."""

from __future__ import annotations

from collections.abc import Mapping


def keep(value):
    return value


def plain_data(value, other=keep):
    """``value`` with every mapping a dict, every list or tuple a list, every text a str, every number an int or a
    float (bools and None as they are); ``other(value)`` gives what a value of any other kind becomes (by default
    the value itself)."""
    if isinstance(value, Mapping):
        return {plain_data(key, other): plain_data(item, other) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_data(item, other) for item in value]
    if isinstance(value, str):
        return str.__str__(value)  # the text itself, of type str: str() of ansible-core's texts gives them back
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    return other(value)
