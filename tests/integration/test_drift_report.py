# -*- coding: utf-8 -*-
"""The nms.overlay.drift_report playbook against the emulator, both dialects: it exits 0 without drift and non-zero
with it, its Markdown and JSON name what drifted down to the field, it never writes to the server, and a description
that cannot be compared is an error the report and the last message tell from drift."""

from __future__ import annotations

import copy
import json
import re

import pytest
import yaml

from tests.integration.test_network import DESCRIPTION, state_task
from tests.support.emulator import writes_of as writes

PLAYBOOK = 'nms.overlay.drift_report'
DRIFT_TASK = 'Fail, because the network drifted from its description'
ERROR_TASK = 'Stop, because the comparison could not be made (this is not drift)'
NO_DRIFT_TASK = 'Say that there is no drift'
# the description the tests build, with the account's allow-all policy kept, so that prune leaves it alone
BUILT = dict(copy.deepcopy(DESCRIPTION), default_policy='keep')


def build(run, description=None):
    result = run([state_task(BUILT if description is None else description)])
    assert result.rc == 0, result


def drift(run, tmp_path, name, extra_vars):
    """The playbook run writing tmp_path/<name>.md and .json: (result, Markdown text, JSON data); a file not written is None."""
    markdown, data = tmp_path / ('%s.md' % name), tmp_path / ('%s.json' % name)
    result = run([], playbook=PLAYBOOK, verbosity=0, extra_vars=dict(
        {'nms_drift_report_markdown': str(markdown), 'nms_drift_report_json': str(data)}, **extra_vars))
    assert 'Traceback' not in result.stdout and 'DEPRECATION' not in result.stdout, result
    return (result, markdown.read_text(encoding='utf-8') if markdown.exists() else None,
            json.loads(data.read_text(encoding='utf-8')) if data.exists() else None)


def only_reads(emulator):
    methods = {request['method'].upper() for request in emulator.requests()}
    assert writes(emulator) == [] and methods <= {'GET'}, (writes(emulator), methods)


def test_no_drift_exits_zero_with_identical_reports_and_no_write(emulator, run, tmp_path):
    build(run)
    emulator.clear_log()
    # as ansible-playbook nms.overlay.drift_report -e @network.yml, with a file holding network_description
    first, markdown, data = drift(run, tmp_path, 'first', {'network_description': BUILT})
    assert first.rc == 0, first
    assert first[NO_DRIFT_TASK]['msg'].startswith('No drift: the network is as described. Written to '), first[NO_DRIFT_TASK]
    assert data['drift'] is False and data['changes'] == [] and data['changes_count'] == 0 and data['error'] is None
    assert data['server'] == emulator.url and emulator.token not in json.dumps(data) + markdown
    assert data['summary']['groups'] == dict(would_create=0, would_update=0, would_delete=0, unchanged=3)
    assert data['summary']['policies']['unchanged'] == 1
    assert '**No drift.**' in markdown and '| groups | 0 | 0 | 0 | 3 |' in markdown
    only_reads(emulator)
    reads = len(emulator.requests())
    assert reads > 0

    # the same network again, the description from a file: the same bytes, the same reads, still no write
    described = tmp_path / 'network.yml'
    described.write_text(yaml.safe_dump({'network_description': BUILT}), encoding='utf-8')
    emulator.clear_log()
    again, markdown_again, dummy = drift(run, tmp_path, 'again', {'nms_drift_description_file': str(described)})
    assert again.rc == 0, again
    assert markdown_again == markdown
    assert (tmp_path / 'again.json').read_bytes() == (tmp_path / 'first.json').read_bytes()
    only_reads(emulator)
    assert len(emulator.requests()) == reads


def test_drift_out_of_band_exits_non_zero_and_names_the_field(emulator, run, tmp_path):
    build(run)
    # out of band: another port and another description on the policy, a group gone
    changed = copy.deepcopy(BUILT['policies'][0])
    changed.update(description='changed by hand')
    changed['rules'][0]['ports'] = ['22', '2200']
    tampered = run([{'name': 'policy', 'nms.overlay.policy': changed},
                    {'name': 'route', 'nms.overlay.route': {'network_id': 'office-lan', 'state': 'absent'}}])
    assert tampered.rc == 0, tampered
    emulator.clear_log()
    result, markdown, data = drift(run, tmp_path, 'drift', {'network_description': BUILT})
    assert result.rc == 2, result
    assert result[DRIFT_TASK]['failed'] is True and ERROR_TASK not in [r['task'] for r in result.failed]
    assert result[DRIFT_TASK]['msg'].startswith(
        'Drift: 2 changes, in policies (would update 1: ssh) and routes (would create 1: office-lan). Written to '), result[DRIFT_TASK]
    only_reads(emulator)

    assert data['drift'] is True and data['changes_count'] == 2 and data['kinds'] == ['policies', 'routes']
    policy, route = data['changes']
    assert {key: policy[key] for key in ('kind', 'name', 'action', 'pruned')} == dict(kind='policies', name='ssh', action='updated', pruned=False)
    assert policy['differences'] == [dict(field='description', before='changed by hand', after='developers to servers'),
                                     dict(field='rules[ssh].ports', before=['22', '2200'], after=['22'])]
    assert route['action'] == 'created' and 'id' not in route
    assert dict(field='network', after='192.168.10.0/24') in route['differences']
    assert data['diff'][0]['before_header'] == 'policy ssh' and data['diff'][0]['after']['description'] == 'developers to servers'
    assert data['totals'] == dict(would_create=1, would_update=1, would_delete=0, would_revoke=0)

    assert '**Drift: 2 changes.**' in markdown
    assert '### policies: ssh\n\nWould update, id %s.' % policy['id'] in markdown
    assert '| rules\\[ssh\\].ports | 22, 2200 | 22 |' in markdown
    assert '| description | changed by hand | developers to servers |' in markdown
    assert '### routes: office-lan\n\nWould create.' in markdown and '| network | — | 192.168.10.0/24 |' in markdown
    assert '| policies | 0 | 1 | 0 | 0 |' in markdown

    # the drift report is stable too
    again, markdown_again, dummy = drift(run, tmp_path, 'drift-again', {'network_description': BUILT})
    assert again.rc == 2 and markdown_again == markdown
    assert (tmp_path / 'drift-again.json').read_bytes() == (tmp_path / 'drift.json').read_bytes()
    only_reads(emulator)


def test_prune_makes_what_the_description_does_not_name_drift(emulator, run, tmp_path):
    build(run)
    status, stray = emulator.api('POST', '/api/groups', {'name': 'stray'})
    assert status == 200, stray
    described = tmp_path / 'network.yml'
    described.write_text(yaml.safe_dump({'network_description': BUILT, 'network_prune': True}), encoding='utf-8')
    emulator.clear_log()

    # without prune, an object the description does not name is no drift
    plain, dummy, data = drift(run, tmp_path, 'plain', {'network_description': BUILT})
    assert plain.rc == 0 and data['drift'] is False and data['prune'] is False, plain
    # with prune (here from the description file), it is
    for name, extra_vars in (('var', {'network_description': BUILT, 'network_prune': True}),
                             ('file', {'nms_drift_description_file': str(described)})):
        result, markdown, data = drift(run, tmp_path, name, extra_vars)
        assert result.rc == 2, result
        assert result[DRIFT_TASK]['msg'].startswith('Drift: 1 change, in groups (would delete 1: stray).'), result[DRIFT_TASK]
        assert data['prune'] is True and len(data['changes']) == 1
        change = data['changes'][0]
        assert {key: value for key, value in change.items() if key != 'differences'} == dict(
            kind='groups', name='stray', action='deleted', pruned=True, id=stray['id'])
        assert change['differences'][:2] == [dict(field='name', before='stray'), dict(field='peers', before=[])]
        assert 'Would delete (prune: the description does not name it), id %s.' % stray['id'] in markdown
        assert 'Prune: yes' in markdown
    # the default prune of the command line wins over the file's
    result, dummy, data = drift(run, tmp_path, 'override', {'nms_drift_description_file': str(described), 'network_prune': False})
    assert result.rc == 0 and data['prune'] is False, result
    only_reads(emulator)
    assert [g['name'] for g in emulator.api('GET', '/api/groups')[1] if g['name'] == 'stray'] == ['stray']


def test_an_unknown_reference_is_an_error_not_drift(emulator, run, tmp_path):
    build(run)
    broken = copy.deepcopy(BUILT)
    broken['policies'][0]['rules'][0]['sources'] = ['developers', 'contractors']
    emulator.clear_log()
    result, markdown, data = drift(run, tmp_path, 'error', {'network_description': broken})
    assert result.rc == 2, result
    assert DRIFT_TASK not in [r['task'] for r in result.failed]
    message = result[ERROR_TASK]['msg']
    assert message.startswith('ERROR, not drift: The comparison could not be made, so whether the network drifted is not '
                              'known: Find what applying the description would change'), message
    assert "'contractors'" in message and 'Written to ' in message, message
    assert data['drift'] is None and "'contractors'" in data['error'] and data['changes'] == []
    assert '**The comparison could not be made**' in markdown and 'contractors' in markdown
    only_reads(emulator)


@pytest.mark.dialects('current')  # checked before any request: the server does not matter
def test_a_bad_description_fails_before_any_request(emulator, run, tmp_path):
    emulator.clear_log()
    cases = [
        ({'network_description': dict(BUILT, groupz=[{'name': 'x'}])},
         'The network description has unknown keys: groupz (known: groups, '),
        ({'network_description': ['groups']}, 'The network description is not a mapping of kinds to their items'),
        ({'network_description': {'groups': []}}, 'The network description describes nothing'),
        ({}, 'No network description: run with -e @network.yml'),
        ({'nms_drift_description_file': str(tmp_path / 'missing.yml')}, 'Read the description file: '),
    ]
    for index, (extra_vars, expected) in enumerate(cases):
        result, markdown, data = drift(run, tmp_path, 'bad%d' % index, extra_vars)
        assert result.rc == 2, result
        message = result[ERROR_TASK]['msg']
        assert expected in message and message.startswith('ERROR, not drift: '), (expected, message)
        assert data['drift'] is None and expected in data['error'] and '**The comparison could not be made**' in markdown
    assert emulator.requests() == []


@pytest.mark.dialects('netbird')  # where the files go is Ansible's part
def test_report_paths_default_to_the_working_directory_and_empty_skips(emulator, run, tmp_path):
    build(run, {'groups': [{'name': 'office'}]})
    result = run([], playbook=PLAYBOOK, verbosity=0, extra_vars={'network_description': {'groups': [{'name': 'office'}]}})
    assert result.rc == 0, result
    written = sorted(path.name for path in tmp_path.glob('run*/nms-drift-report.*'))
    assert written == ['nms-drift-report.json', 'nms-drift-report.md'], written
    result = run([], playbook=PLAYBOOK, verbosity=0, check=True, extra_vars={
        'network_description': {'groups': [{'name': 'office'}, {'name': 'new'}]},
        'nms_drift_report_markdown': '', 'nms_drift_report_json': 'sub.json'})
    assert result.rc == 2, result
    assert result[DRIFT_TASK]['msg'].endswith('Written to %s.' % next(tmp_path.glob('run*/sub.json'))), result[DRIFT_TASK]
    assert len(list(tmp_path.glob('run*/nms-drift-report.md'))) == 1  # the first run's only
    assert 'generated_at' not in json.loads(next(tmp_path.glob('run*/sub.json')).read_text(encoding='utf-8'))
    # a time only when asked for
    stamped, markdown, data = drift(run, tmp_path, 'stamped', {'network_description': {'groups': [{'name': 'office'}]},
                                                               'nms_drift_report_timestamp': True})
    assert stamped.rc == 0, stamped
    assert re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', data['generated_at']), data
    assert '- Generated: %s' % data['generated_at'] in markdown


# write-only secrets a description may hold (issue 44, item 3): a quote, a backslash and non-ASCII between runs of
# letters and digits, which any form of a secret shown (escaped, cut) holds
IDP_SECRET = 'driftQ7zXwe"K9vPqT\\M3tRyé<B8nLkU'
AI_KEY = 'skDriftE3rT"I8oPaS\\D2fGhñ<J7kLzX'
SECRET_KINDS = {
    'identity_providers': [{'name': 'Drift SSO', 'type': 'oidc', 'issuer': 'http://127.0.0.1:8080/oauth2', 'client_id': 'cid',
                            'client_secret': IDP_SECRET}],
    'agent_network_providers': [{'name': 'Drift AI', 'provider_id': 'openai_api', 'upstream_url': 'https://api.openai.com',
                                 'api_key': AI_KEY, 'models': [{'id': 'gpt-5.4-mini', 'input_per_1k': 0.00075,
                                                                'output_per_1k': 0.0045}]}],
}


@pytest.mark.dialects('current')  # identity providers and Agent Network providers: v0.77 servers
@pytest.mark.parametrize('verbosity', [1, 4])
def test_the_descriptions_write_only_secrets_never_show(emulator, run, tmp_path, verbosity):
    """At -v and -vvvv, the description given as a variable and from a file: the report shows the drift (the two
    providers would be created), and nothing of either secret shows anywhere in the output."""
    description = dict(copy.deepcopy(SECRET_KINDS), groups=[{'name': 'drifting'}])
    described = tmp_path / 'secret-network.yml'
    described.write_text(yaml.safe_dump({'network_description': description}, allow_unicode=True), encoding='utf-8')
    for index, extra_vars in enumerate(({'network_description': description}, {'nms_drift_description_file': str(described)})):
        markdown, data = tmp_path / ('s%d.md' % index), tmp_path / ('s%d.json' % index)
        result = run([], playbook=PLAYBOOK, verbosity=verbosity, extra_vars=dict(
            {'nms_drift_report_markdown': str(markdown), 'nms_drift_report_json': str(data)}, **extra_vars))
        assert result.rc == 2 and DRIFT_TASK in result, result
        report = json.loads(data.read_text(encoding='utf-8'))
        assert report['summary']['identity_providers']['would_create'] == 1, report['summary']
        assert report['summary']['agent_network_providers']['would_create'] == 1, report['summary']
        shown = result.stdout + markdown.read_text(encoding='utf-8') + json.dumps(report, ensure_ascii=False)
        leaks = [chunk for secret in (IDP_SECRET, AI_KEY) for chunk in re.findall(r'[A-Za-z0-9]{4,}', secret)
                 if chunk in shown]
        assert not leaks, 'parts of a secret show: %s' % leaks
    # a file that is not YAML fails with Ansible's reason, without the line it quotes (the secret's own here)
    broken = tmp_path / 'broken.yml'
    broken.write_text('network_description:\n  identity_providers:\n  - {name: x, client_secret: %s\n' % json.dumps(IDP_SECRET),
                      encoding='utf-8')
    result, dummy, data = drift(run, tmp_path, 'broken', {'nms_drift_description_file': str(broken)})
    assert result.rc == 2 and data['drift'] is None and 'Read the description file: ' in data['error'], data
    leaks = [chunk for chunk in re.findall(r'[A-Za-z0-9]{4,}', IDP_SECRET) if chunk in result.stdout + data['error']]
    assert not leaks, 'parts of a secret show: %s' % leaks
    only_reads(emulator)
