# -*- coding: utf-8 -*-
"""A task checks the options its kind's model holds to non-empty text only without pydantic, and loads the model only
when it sets an option with any other rule (issue 30): what counts as such an option (Options.option_rules, on models
made here for each rule), the table that says which is which (MODEL_OPTIONS), and that both ways give the same answer
to a blank and to a good value of every text option of every model."""

from __future__ import annotations

import types
from typing import List, Optional

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _kind, _kinds
from ansible_collections.nms.overlay.plugins.module_utils._errors import OptionsError
from ansible_collections.nms.overlay.plugins.module_utils._kind import check_with_model, load_model
from ansible_collections.nms.overlay.plugins.module_utils._kinds import MODELLED
from ansible_collections.nms.overlay.plugins.module_utils._models import (ConfigDict, Field, NonEmptyStr, Options,
                                                                          field_validator, model_validator)
from ansible_collections.nms.overlay.plugins.module_utils._tables import MODEL_OPTIONS


class Made(Options):
    """Every way an option can be more than a plain text, beside two plain ones."""

    text: Optional[NonEmptyStr] = None
    texts: Optional[List[NonEmptyStr]] = None
    required: NonEmptyStr
    bounded: Optional[List[NonEmptyStr]] = Field(default=None, min_length=1)
    checked: Optional[NonEmptyStr] = None
    checked_first: Optional[NonEmptyStr] = None
    other: Optional[str] = None

    @field_validator('checked')
    @classmethod
    def _checked(cls, value):
        return value

    @field_validator('checked_first', mode='before')
    @classmethod
    def _checked_first(cls, value):
        return value


class Across(Options):
    text: Optional[NonEmptyStr] = None

    @model_validator(mode='after')
    def _across(self):
        return self


class Configured(Options):
    model_config = ConfigDict(extra='ignore', strict=False, str_max_length=10)
    text: Optional[NonEmptyStr] = None


def test_only_an_optional_non_empty_text_or_list_of_them_with_nothing_more_is_a_text_option():
    assert Made.option_rules() == ({'text': False, 'texts': True},
                                   ('required', 'bounded', 'checked', 'checked_first', 'other'))
    assert Across.option_rules() == ({}, ('text',))  # a rule across options may read any of them
    assert Configured.option_rules() == ({}, ('text',))  # a setting of the whole model is a rule of every option


TEXT_OPTIONS = sorted((model, name) for model, (texts, dummy) in MODEL_OPTIONS.items() for name in texts)


def engine(model, params):
    """The little of a task check_with_model reads: fields that are no reference and no natural key, so that only the
    model's text options are checked as such."""
    return types.SimpleNamespace(model=model, fields={name: types.SimpleNamespace(ref=None) for name in params},
                                 natural_key=None, params=params, options={})


def is_list(model, name):
    """Whether the model declares the option a list (of texts), else a text."""
    return 'List' in str(load_model(model)[0].model_fields[name].annotation)


def model_problem(model, params):
    model_class, validate = load_model(model)
    with pytest.raises(OptionsError) as exc:
        validate(model_class, params)
    return str(exc.value)


def test_every_kind_with_a_model_is_in_the_table_and_its_options_are_the_models():
    kinds = {cls.model: cls for cls in MODELLED if cls.model}
    assert sorted(MODEL_OPTIONS) == sorted(kinds)
    for model, (texts, ruled) in MODEL_OPTIONS.items():
        assert sorted(texts + ruled) == sorted(load_model(model)[0].model_fields), model
        assert not set(texts) & set(ruled)
    # what the tables must say of a few (each side can be wrong): a rule of its own, a rule across options, lengths
    assert 'email' in MODEL_OPTIONS['identity.UserOptions'][1] and 'name' in MODEL_OPTIONS['identity.UserOptions'][0]
    assert MODEL_OPTIONS['access.PolicyOptions'][0] == ()  # its model validator sees every option
    assert 'groups' in MODEL_OPTIONS['routing.RouteOptions'][1]  # at least one item
    assert 'peer' in MODEL_OPTIONS['routing.RouteOptions'][0]
    assert 'name' in MODEL_OPTIONS['routing.NameserverGroupOptions'][1]  # at most 40 characters
    assert MODEL_OPTIONS['identity.InstanceOptions'] == (('name',), ('email', 'password', 'pat_expire_in'))


@pytest.mark.parametrize('model, name', TEXT_OPTIONS)
@pytest.mark.parametrize('blank', ['', '   '])
def test_a_blank_text_option_fails_as_the_model_would_fail_it(model, name, blank):
    value = ['fine', blank] if is_list(model, name) else blank
    with pytest.raises(OptionsError) as exc:
        check_with_model(engine(model, {name: value}))
    assert str(exc.value) == model_problem(model, {name: value})


@pytest.mark.parametrize('model, name', TEXT_OPTIONS)
def test_a_text_option_the_model_passes_is_passed_without_it(model, name):
    value = ['ops', 'dev'] if is_list(model, name) else 'ops'
    check_with_model(engine(model, {name: value}))  # no model, no error
    model_class, validate = load_model(model)
    assert getattr(validate(model_class, {name: value}), name) == value  # and the model passes it as it is


def test_a_ruled_option_set_validates_every_option_the_task_sets_with_the_model():
    # a route's peer is a text option, but with peer_groups (which has a rule that reads peer) the model sees both
    with pytest.raises(OptionsError, match='option peer_groups: cannot be set together with peer'):
        check_with_model(engine('routing.RouteOptions', {'peer': 'gw', 'peer_groups': ['gateways']}))
    check_with_model(engine('routing.RouteOptions', {'peer': 'gw'}))
    with pytest.raises(OptionsError, match="option email: 'bot' is not an email address"):
        check_with_model(engine('identity.UserOptions', {'name': 'Bot', 'email': 'bot'}))


def test_a_name_or_reference_is_checked_whatever_the_model():
    fields = {'name': types.SimpleNamespace(ref=None), 'groups': types.SimpleNamespace(ref='groups')}
    engine_without_model = types.SimpleNamespace(model=None, fields=fields, options={},
                                                 natural_key='name', params={'name': ' ', 'groups': ['a', '']})
    with pytest.raises(OptionsError) as exc:
        check_with_model(engine_without_model)
    assert str(exc.value) == 'option name: must not be empty; option groups[1]: must not be empty'


def test_a_model_the_table_does_not_hold_is_loaded_for_any_option_set(monkeypatch):
    loaded = []
    load = _kind.load_model
    monkeypatch.setattr(_kind, 'load_model', lambda name: loaded.append(name) or load(name))
    check_with_model(engine('identity.UserOptions', {'name': 'Bot'}))
    assert loaded == []  # the table holds it: a user's name is a text option
    monkeypatch.delitem(MODEL_OPTIONS, 'identity.UserOptions')  # as if make tables had not run since it was added
    check_with_model(engine('identity.UserOptions', {'name': 'Bot'}))
    assert loaded == ['identity.UserOptions']


def test_an_option_is_a_text_only_when_its_spec_has_the_models_shape():
    assert _kinds._is_text({'type': 'str'}, False) and _kinds._is_text({}, False)  # no type is a string
    assert _kinds._is_text({'type': 'list', 'elements': 'str'}, True)
    assert not _kinds._is_text({'type': 'list', 'elements': 'str'}, False)
    assert not _kinds._is_text({'type': 'str'}, True)
    assert not _kinds._is_text({'type': 'raw'}, False) and not _kinds._is_text(None, False)


def test_with_an_option_that_has_a_rule_the_model_reports_every_problem_at_once():
    with pytest.raises(OptionsError) as exc:
        check_with_model(engine('identity.UserOptions', {'name': ' ', 'email': 'bot'}))
    assert str(exc.value) == "option email: 'bot' is not an email address; option name: must not be empty"
