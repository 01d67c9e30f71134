# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every resource kind, declared once, and the tables derived from the declarations.

One file per kind in ``_resources`` (``group.py``, ``policy.py``, ...) holds the kind's class: its attributes are the
kind's descriptor (path, nouns, natural key, fields with their options and normalisers, references, strategy), its few
hooks what is particular to the kind. This file lists the kinds in dependency order (a kind refers only to kinds before
it, so network_state applies them in this order) and derives from the declarations network_state's sections and the
tables every task reads: the resolver's, the answers' types and the usage table.

Those three tables are written out as ``_tables.py`` (``make tables``; a unit test fails when it differs from what this
file derives), so that a module process imports its own kind only: compiling every kind's declaration costs a module
process about a quarter of a ``ping``. Only network_state (and `make tables`) imports this file.
"""

from __future__ import annotations

from ansible_collections.nms.overlay.plugins.module_utils._client import FLAG, LIST, NUMBER, OBJECT, TEXT
from ansible_collections.nms.overlay.plugins.module_utils._kind import load_model
from ansible_collections.nms.overlay.plugins.module_utils._resources.group import GroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.instance import InstanceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer import PeerModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.posture_check import PostureCheckModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.policy import PolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.route import RouteModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.nameserver_group import NameserverGroupModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_settings import DnsSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_zone import DnsZoneModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.dns_record import DnsRecordModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.setup_key import SetupKeyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user import UserModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.token import TokenModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.account_settings import AccountSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.identity_provider import IdentityProviderModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_invite import UserInviteModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_service import ReverseProxyServiceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_domain import ReverseProxyDomainModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_token import ReverseProxyTokenModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.reverse_proxy_cluster import ReverseProxyClusterModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_settings import AgentNetworkSettingsModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_provider import AgentNetworkProviderModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_guardrail import AgentNetworkGuardrailModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_policy import AgentNetworkPolicyModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.agent_network_budget_rule import AgentNetworkBudgetRuleModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network import NetworkModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_resource import NetworkResourceModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.network_router import NetworkRouterModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_temporary_access import PeerTemporaryAccessModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.peer_job import PeerJobModule
from ansible_collections.nms.overlay.plugins.module_utils._resources.user_password import UserPasswordModule

RESOURCES = (
    GroupModule,
    PeerModule,
    PostureCheckModule,
    # a policy's rule may name a network resource as its source or destination
    NetworkModule,
    NetworkResourceModule,
    NetworkRouterModule,
    PolicyModule,
    RouteModule,
    NameserverGroupModule,
    DnsSettingsModule,
    DnsZoneModule,
    DnsRecordModule,
    SetupKeyModule,
    UserModule,
    TokenModule,
    AccountSettingsModule,
    IdentityProviderModule,
    UserInviteModule,
    ReverseProxyDomainModule,   # before the services: a service under a custom domain needs its domain first
    ReverseProxyServiceModule,
    ReverseProxyTokenModule,
    ReverseProxyClusterModule,
    AgentNetworkSettingsModule,
    AgentNetworkProviderModule,
    AgentNetworkGuardrailModule,
    AgentNetworkPolicyModule,
    AgentNetworkBudgetRuleModule,
)

# every kind whose options have a model (MODEL_OPTIONS): the resources, and the engines of modules that are no kind of
# RESOURCES (no network_state section) but validate with a model: the instance's setup, a peer's temporary access, a
# peer's job, a password change
MODELLED = RESOURCES + (InstanceModule, PeerTemporaryAccessModule, PeerJobModule, UserPasswordModule)

# kinds referred to by name whose objects live under a parent (a network's resources): their resolver list is the
# account-wide one, which servers that have them answer (a group's resources name them)
LISTED_UNDER_PARENT = {
    'network_resources': (NetworkModule.path + NetworkResourceModule.sub_path, NetworkResourceModule),
}

# network_state's sections: (key, class) of each kind a description holds at its top, in the order they are applied;
# and of every kind it handles, nested ones after their parent (deletions run in the reverse order)
SECTIONS = tuple((cls.section, cls) for cls in RESOURCES if cls.section and not cls.nested_in)
ALL_SECTIONS = tuple((cls.section, cls) for cls in RESOURCES if cls.section)


def nested_sections(parent):
    """(key in a parent's entry, class) of each kind described inside the entries of the section ``parent``."""
    return tuple((cls.nested_in[1], cls) for cls in RESOURCES if cls.nested_in and cls.nested_in[0] == parent)


# -- the tables of _tables.py ----------------------------------------------------------------------------------------

def resolver_table():
    """kind -> (list path, noun, fields a reference may match after the id), for every kind referred to by name."""
    table = {cls.kind: (cls.path, cls.what, tuple(cls.lookup or (cls.natural_key,)))
             for cls in RESOURCES if cls.kind and cls.path and not cls.singleton}
    for kind, (path, holder) in LISTED_UNDER_PARENT.items():
        table[kind] = (path, holder.what, (holder.natural_key,))
    return table


# the JSON type each option type of a declaration stands for, in answers (see answer_types)
JSON_TYPES = {'str': TEXT, 'int': NUMBER, 'float': NUMBER, 'bool': FLAG, 'list': LIST, 'dict': OBJECT}
JSON_TYPES.update((kind, kind) for kind in (TEXT, NUMBER, FLAG, LIST, OBJECT))  # a Field's ``answer`` names one


def answer_types():
    """field name -> the JSON type answers give it (see _client.field_problem), for every field a kind declares: its
    request fields' types and their suboptions' (from the option specs), and the answer-only fields it declares with
    their types (``answers``). A name means one type wherever it appears (a unit test holds the declarations to it);
    what a module reads besides the kinds (events, locations) its engine adds (NmsModule.answers)."""
    table = {}
    for cls in RESOURCES:
        for name, field in cls.fields.items():
            _option_types(table, name, dict(field.spec, type=field.answer) if field.answer else field.spec)
        table.update((name, kind) for name, kind in cls.answers.items() if kind)
    return table


def _option_types(table, name, spec):
    kind = JSON_TYPES.get(spec.get('type', 'str'))
    if kind and name not in table:
        table[name] = kind
    for sub_name, sub_spec in (spec.get('options') or {}).items():
        _option_types(table, sub_name, sub_spec)


def usage_table():
    """referenced kind -> ((section, what one of them is called, its name key or None, its kind, its path, whether it
    is a singleton, its references), ...): for each kind whose deletion checks what refers to it, every other kind
    with fields that refer to it. The references are (option, None) for an option of ids, (option, key) for the key of
    each item of a list option (a policy's rules' sources); see _usage.references."""
    table = {}
    for target in RESOURCES:
        if not target.usage_checked:
            continue
        entries = []
        for cls in RESOURCES:
            if not cls.section or cls.requires:
                # a kind network_state does not describe, or one of today's servers only (a v0.27 server cannot list
                # it): the server is the judge of its references
                continue
            references = []
            for name, field in cls.fields.items():
                if not field.in_use:
                    continue
                if field.ref == target.kind:
                    references.append((name, None))
                references.extend((name, key) for key, kind in field.item_refs.items() if kind == target.kind)
            if references:
                what = 'the %s' % cls.what if cls.singleton else cls.what
                entries.append((cls.section, what, None if cls.singleton else cls.natural_key, cls.kind, cls.path,
                                bool(cls.singleton), tuple(references)))
        table[target.kind] = tuple(entries)
    return table


def model_options():
    """options model -> (the options a task checks as non-empty text without pydantic, the options that load the model
    when a task sets one), for every kind that validates with a model (see _kind.check_with_model). The first are the
    options the model holds to non-empty text and nothing more (Options.option_rules) whose argument spec makes them what
    the model makes them, a string or a list of strings; every other option of the model is in the second."""
    table = {}
    for cls in MODELLED:
        if cls.model is None:
            continue
        spec = cls.full_argument_spec()
        nonempty, ruled = load_model(cls.model)[0].option_rules()
        texts = tuple(name for name, many in nonempty.items() if _is_text(spec.get(name), many))
        table[cls.model] = (texts, ruled + tuple(name for name in nonempty if name not in texts))
    return table


def _is_text(spec, many):
    """Whether an option spec makes the option a list of strings (``many``) or a string (an option without a type is
    a string)."""
    if spec is None:
        return False
    kind = spec.get('type', 'str')
    return (kind == 'list' and spec.get('elements') == 'str') if many else kind == 'str'


TABLES_HEADER = """# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Generated by `make tables` from the kinds' declarations (plugins/module_utils/_kinds.py): do not edit.
# tests/unit/test_architecture.py fails when this differs from what the declarations give.
\"\"\"The tables derived from the kinds' declarations that every task reads, so that a task imports its own kind only:
the resolver's (kind -> list path, noun, fields a reference may match), the JSON type of every answer field, what
refers to a kind whose deletion checks it, and which options of each options model load pydantic (see _kinds.py).\"\"\"

from __future__ import annotations
"""


def tables_source():
    """The text of _tables.py, as the declarations give it (one entry a line, sorted)."""
    parts = [TABLES_HEADER]
    for name, table in (('RESOLVER_TABLE', resolver_table()), ('ANSWER_TYPES', answer_types()), ('USAGE_TABLE', usage_table()),
                        ('MODEL_OPTIONS', model_options())):
        lines = []
        for key in sorted(table):
            value = table[key]
            if name == 'USAGE_TABLE':  # a tuple of entries, one a line
                lines.append('    %r: (\n%s    ),' % (key, ''.join('        %r,\n' % (entry,) for entry in value)))
            else:
                lines.append('    %r: %r,' % (key, value))
        parts.append('\n%s = {\n%s\n}\n' % (name, '\n'.join(lines)))
    return ''.join(parts)
