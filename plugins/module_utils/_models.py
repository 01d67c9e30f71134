# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Client-side validation with pydantic: shared base and error formatting.

Resource-specific models live in the ``_models_<area>.py`` files so that a module imports and builds
only the models it needs. Every model field is named like the Ansible option it checks, and all of
them are optional: a model validates what the user set, before any request is sent. A model declares only
the options with a rule beyond the type the argument spec already checks (or that such a rule reads).
"""

from __future__ import annotations

import traceback
from typing import List, Optional

from ansible_collections.nms.overlay.plugins.module_utils._client import url_problem
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError

try:
    # pylint: disable-next=unused-import  # the area models import pydantic's names from here, stand-ins included
    from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, conint, constr,
                          field_validator, model_validator)
    HAS_PYDANTIC = True
    PYDANTIC_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - reported through missing_required_lib
    HAS_PYDANTIC = False
    PYDANTIC_IMPORT_ERROR = traceback.format_exc()

    # Stand-ins, so that the models of every area can still be defined (and never used) without pydantic.
    class BaseModel:  # pylint: disable=too-few-public-methods
        """Stand-in base of the model classes."""

    def ConfigDict(**kwargs):  # pylint: disable=invalid-name
        return kwargs

    def Field(default=None, **dummy_kwargs):  # pylint: disable=invalid-name
        return default

    def field_validator(*dummy_args, **dummy_kwargs):
        return lambda function: function

    model_validator = field_validator

    def AfterValidator(function):  # pylint: disable=invalid-name
        return function

    def constr(**dummy_kwargs):
        return str

    def conint(**dummy_kwargs):
        return int

    ValidationError = ValueError
    ValidationInfo = object

NonEmptyStr = constr(strip_whitespace=True, min_length=1)


def check_url(value):
    return passing(value, url_problem(value, example='https://sso.example.com'))


def passing(value, problem):
    """A validator's answer: the value when its rule found no problem (None), else the problem as pydantic's error."""
    if problem:
        raise ValueError(problem)
    return value


try:
    from typing import Annotated
    UrlStr = Annotated[str, AfterValidator(check_url)]
except ImportError:  # pragma: no cover - Python before 3.9
    UrlStr = str


class Options(BaseModel):
    """Base of every options model: unknown keys are ignored, values are not coerced silently."""

    model_config = ConfigDict(extra='ignore', strict=False)

    @classmethod
    def option_rules(cls):
        """({option: whether it is a list} of the options whose only rule is non-empty text, (the other options)), for
        ``make tables``: the first are optional NonEmptyStr or lists of them with nothing more (no validator of theirs,
        no validator or setting of the whole model, no bound), which a task checks without pydantic
        (_kind.check_with_model)."""
        validated = {name for decorator in cls.__pydantic_decorators__.field_validators.values() for name in decorator.info.fields}
        whole = (bool(cls.__pydantic_decorators__.model_validators) or '*' in validated
                 or set(cls.model_config) - set(Options.model_config) or cls.model_post_init is not BaseModel.model_post_init)
        shapes = {Optional[NonEmptyStr]: False, Optional[List[NonEmptyStr]]: True}
        texts = {name: shapes[info.annotation] for name, info in cls.model_fields.items()
                 if not whole and name not in validated and not info.metadata and not info.is_required()
                 and info.annotation in shapes}
        return texts, tuple(name for name in cls.model_fields if name not in texts)


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


def _count(number, noun):
    return '%s %s%s' % (number, noun, '' if number == 1 else 's')


def _length(ctx, bound, key):
    """A length rule: lists 'must list at least 2 items', dictionaries 'must have at most 1 entry'."""
    number = ctx[key]
    if str(ctx.get('field_type') or '').lower() in ('dict', 'dictionary', 'mapping'):
        return 'must have %s %s %s' % (bound, number, 'entry' if number == 1 else 'entries')
    return 'must list %s %s' % (bound, _count(number, 'item'))


# pydantic's error types (https://docs.pydantic.dev/latest/errors/validation_errors/) as short rules, written
# from the error's context; types not listed keep pydantic's text.
RULES = {
    'missing': lambda ctx: 'is required',
    'extra_forbidden': lambda ctx: 'is not a known option',
    'too_short': lambda ctx: _length(ctx, 'at least', 'min_length'),
    'too_long': lambda ctx: _length(ctx, 'at most', 'max_length'),
    'string_too_short': lambda ctx: ('must not be empty' if ctx['min_length'] == 1
                                     else 'must be at least %s long' % _count(ctx['min_length'], 'character')),
    'string_too_long': lambda ctx: 'must be at most %s long' % _count(ctx['max_length'], 'character'),
    'string_pattern_mismatch': lambda ctx: 'must match the pattern %s' % ctx['pattern'],
    'literal_error': lambda ctx: 'must be %s' % ctx['expected'],
    'enum': lambda ctx: 'must be %s' % ctx['expected'],
    'greater_than_equal': lambda ctx: 'must be at least %s' % ctx['ge'],
    'greater_than': lambda ctx: 'must be greater than %s' % ctx['gt'],
    'less_than_equal': lambda ctx: 'must be at most %s' % ctx['le'],
    'less_than': lambda ctx: 'must be less than %s' % ctx['lt'],
    'multiple_of': lambda ctx: 'must be a multiple of %s' % ctx['multiple_of'],
    'int_parsing': lambda ctx: 'must be a whole number',
    'int_type': lambda ctx: 'must be a whole number',
    'int_from_float': lambda ctx: 'must be a whole number',
    'float_parsing': lambda ctx: 'must be a number',
    'float_type': lambda ctx: 'must be a number',
    'bool_parsing': lambda ctx: 'must be true or false',
    'bool_type': lambda ctx: 'must be true or false',
    'string_type': lambda ctx: 'must be a string',
    'list_type': lambda ctx: 'must be a list',
    'dict_type': lambda ctx: 'must be a dictionary',
    'model_type': lambda ctx: 'must be a dictionary',
    'model_attributes_type': lambda ctx: 'must be a dictionary',
}


def _message(error):
    """One pydantic error as a short rule ('must list at least 1 item'); a validator's own text as it is."""
    rule = RULES.get(error.get('type'))
    if rule is not None:
        try:
            return rule(error.get('ctx') or {})
        except (KeyError, TypeError, ValueError):
            pass  # a context without the expected values: pydantic's own text below
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
