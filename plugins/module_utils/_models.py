# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Client-side validation with pydantic: shared base and error formatting.

Resource-specific models live in the ``_models_<area>.py`` files so that a module imports and builds
only the models it needs. Every model field is named like the Ansible option it checks, and all of
them are optional: a model validates what the user set, before any request is sent.
"""

from __future__ import annotations

import traceback

from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError

try:
    from pydantic import BaseModel, ConfigDict, ValidationError, constr
    HAS_PYDANTIC = True
    PYDANTIC_IMPORT_ERROR = None
    NonEmptyStr = constr(strip_whitespace=True, min_length=1)
except ImportError:  # pragma: no cover - reported through missing_required_lib
    HAS_PYDANTIC = False
    PYDANTIC_IMPORT_ERROR = traceback.format_exc()

    class BaseModel:  # pylint: disable=too-few-public-methods
        """Stand-in so that model classes can still be defined without pydantic."""

    def ConfigDict(**kwargs):  # pylint: disable=invalid-name
        return kwargs

    ValidationError = ValueError
    NonEmptyStr = str


class OptionsError(TaskError):
    """Options that break a rule; the message names each option and the rule."""


class Options(BaseModel):
    """Base of every options model: unknown keys are ignored, values are not coerced silently."""

    model_config = ConfigDict(extra='ignore', strict=False)


def option_path(loc, prefix=''):
    """('rules', 0, 'ports', 1) -> rules[0].ports[1], the way a user writes it in a task."""
    text = prefix
    for part in loc:
        if isinstance(part, int):
            text += '[%d]' % part
        elif part in ('function-after', 'function-before', 'function-wrap') or '[' in str(part):
            continue
        else:
            text += ('.' if text else '') + str(part)
    return text or 'options'


def _message(error):
    message = error.get('msg', 'is not valid')
    for noise in ('Value error, ', 'Assertion failed, '):
        if message.startswith(noise):
            message = message[len(noise):]
    return message


def validate(model, data, prefix=''):
    """Validate data with model; raise OptionsError naming every failing option."""
    if not HAS_PYDANTIC:
        raise OptionsError('the pydantic library (version 2) is required to validate options')
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = ['option %s: %s' % (option_path(err.get('loc', ()), prefix), _message(err))
                    for err in exc.errors()]
        raise OptionsError('; '.join(problems)) from None
