# -*- coding: utf-8 -*-
"""The description_yaml filter: block YAML in the order given, and texts Ansible would render tagged !unsafe."""

from __future__ import annotations

import pytest
import yaml

from ansible.errors import AnsibleError
from ansible.utils.unsafe_proxy import wrap_var

from ansible_collections.nms.overlay.plugins.filter.description_yaml import description_yaml


class UnsafeLoader(yaml.SafeLoader):
    """Loads !unsafe as the text it tags, as Ansible's loader does."""


UnsafeLoader.add_constructor('!unsafe', lambda loader, node: loader.construct_scalar(node))


DESCRIPTION = {'network_description': {'groups': [{'name': 'servers', 'peers': ['web-1', 'db-1']}],
                                       'policies': [{'name': 'p', 'description': 'uses {{ name }} and {% raw %}', 'enabled': False,
                                                     'rules': [{'name': 'r', 'ports': ['22'], 'bidirectional': True}]}],
                                       'account_settings': {'peer_login_expiration': 86400, 'jwt_groups_claim_name': ''}}}


def test_keys_keep_their_order_lists_are_indented_and_values_their_types():
    text = description_yaml(DESCRIPTION)
    assert text.startswith('network_description:\n  groups:\n    - name: servers\n      peers:\n        - web-1\n        - db-1\n')
    assert yaml.load(text, Loader=UnsafeLoader) == DESCRIPTION  # nosec: the test's own text
    assert "ports:\n            - '22'" in text  # a port stays a text


def test_a_text_ansible_would_render_is_tagged_unsafe_and_no_other():
    text = description_yaml(DESCRIPTION)
    assert "description: !unsafe 'uses {{ name }} and {% raw %}'" in text
    assert text.count('!unsafe') == 1
    with pytest.raises(yaml.constructor.ConstructorError):
        yaml.safe_load(text)  # a plain YAML reader does not know the tag: it is really there


def test_ansible_s_own_kinds_of_values_are_written_plain():
    text = description_yaml(wrap_var(DESCRIPTION))
    assert text == description_yaml(DESCRIPTION)


def test_a_value_yaml_cannot_hold_is_a_clear_error():
    with pytest.raises(AnsibleError, match='description_yaml: object cannot be written as YAML'):
        description_yaml({'a': object()})


@pytest.mark.parametrize('name', ['nel\x85inside', 'nel at the end\x85', '\x85', 'line\u2028separator', 'paragraph\u2029end',
                                  '{{ templated }} and nel\x85', 'crlf\r\n', 'tab\t', ' spaced ', '# hash', 'a: b', '"\'',
                                  '\U0001F680', 'bell\x07', 'c1\x9f', 'bom\ufeff', 'yes', '~'])
def test_every_text_loads_back_as_it_is(name):
    """Issue 44: PyYAML writes a NEL (and the other YAML line breaks) as it is in a plain or single-quoted text, which
    loading folds into a space; such a text is written double-quoted, escaped, and loads back whole, with Ansible's
    loader too."""
    from ansible.parsing.utils.yaml import from_yaml  # pylint: disable=import-outside-toplevel
    text = description_yaml({'groups': [{'name': name}]})
    assert yaml.load(text, Loader=UnsafeLoader)['groups'][0]['name'] == name  # nosec: the test's own text
    assert from_yaml(text)['groups'][0]['name'] == name
    if '\x85' in name and '{{' not in name:
        assert text == 'groups:\n  - name: "%s"\n' % name.replace('\x85', '\\N').replace('\t', '\\t')
