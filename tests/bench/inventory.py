# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Speed of the nms.overlay.peers inventory plugin next to a static YAML inventory of the same content.

The baseline is what ansible-core needs for the same inventory without the plugin: a YAML file with the same hosts,
the same groups with the same members and the same host variables, read by ansible-core's yaml inventory plugin. It
is written from the plugin's own ``ansible-inventory --list`` output, and the two listings must be equal apart from
ordering, so the baseline always holds what the plugin gives with the options measured.

    python -m tests.bench.inventory [--size XL] [--repeats 3] [--options '{"peer_fields": ["id"]}']
                                    [--python .venv-oldest/bin/python] [--url URL --token TOKEN]

Without --url, an emulator seeded at --size is started (and stopped) for the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types

import yaml

from tests.support.emulator import EmulatorStartError, start_emulator

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGIN = 'nms.overlay.peers'
# how ansible-inventory --list prints a value marked unsafe (ansible-core 2.19 and later)
UNSAFE_KEY = '__ansible_unsafe'
SEED_TIMEOUT = 900
BaseDumper = getattr(yaml, 'CSafeDumper', yaml.SafeDumper)


class Unsafe(str):
    """A text the listing shows as unsafe: written with YAML's !unsafe tag, so that the static file holds it as such."""


class StaticDumper(BaseDumper):  # pylint: disable=too-many-ancestors
    pass


StaticDumper.add_representer(Unsafe, lambda dumper, value: dumper.represent_scalar('!unsafe', str(value)))


def as_yaml_value(value):
    """A value of the listing as the static file holds it."""
    if isinstance(value, dict):
        if set(value) == {UNSAFE_KEY} and isinstance(value[UNSAFE_KEY], str):
            return Unsafe(value[UNSAFE_KEY])
        return {key: as_yaml_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_yaml_value(item) for item in value]
    return value


def static_document(listing):
    """The YAML inventory of an ``ansible-inventory --list`` output: every host with its variables under ``all``,
    every group with its hosts, child groups and variables. Host names the listing shows as unsafe (ansible-core
    before 2.19 shows so a name that could be a template) are written as unsafe too."""
    hostvars = listing.get('_meta', {}).get('hostvars', {})
    names = {}  # the name of each host as the static file writes it
    children = {}
    for name, group in listing.items():
        if name in ('_meta', 'all'):
            continue
        entry = {}
        if group.get('hosts'):
            members = [as_yaml_value(host) for host in group['hosts']]
            names.update((str(member), member) for member in members)
            entry['hosts'] = {member: None for member in members}
        if group.get('children'):
            entry['children'] = {child: None for child in group['children']}
        if group.get('vars'):
            entry['vars'] = as_yaml_value(group['vars'])
        children[name] = entry
    document = {'hosts': {names.get(host, host): as_yaml_value(values) for host, values in hostvars.items()},
                'children': children}
    if listing.get('all', {}).get('vars'):
        document['vars'] = as_yaml_value(listing['all']['vars'])
    return {'all': document}


def unordered(listing):
    """A listing with the order of hosts and child groups left out (the static file adds them in another order)."""
    result = {}
    for name, group in listing.items():
        if name == '_meta':
            result[name] = group
            continue
        result[name] = {key: sorted(value, key=json.dumps) if key in ('hosts', 'children') else value
                        for key, value in group.items()}
    return result


def first_difference(left, right):
    """Where two unordered listings differ, for the error message."""
    for name in sorted(set(left) | set(right)):
        if name == '_meta':
            continue
        if left.get(name) != right.get(name):
            return 'group %s' % name
    left_vars, right_vars = left.get('_meta', {}).get('hostvars', {}), right.get('_meta', {}).get('hostvars', {})
    for host in sorted(set(left_vars) | set(right_vars)):
        if left_vars.get(host) != right_vars.get(host):
            return 'hostvars of %s: %r != %r' % (host, left_vars.get(host), right_vars.get(host))
    return 'nothing'


def run_listing(command, source, workdir, env, enabled):
    """Wall seconds of ``ansible-inventory -i source --list`` with only the inventory plugin ``enabled``, and its
    output."""
    run_env = dict(env, ANSIBLE_INVENTORY_ENABLED=enabled)
    started = time.perf_counter()
    proc = subprocess.run([command, '-i', source, '--list'], cwd=workdir, env=run_env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit('ansible-inventory -i %s failed: %s' % (source, proc.stderr[-3000:]))
    return seconds, proc.stdout


def inventory_speed(emulator, workdir, env, repeats=3, options=None, ansible_inventory=None):
    """Median wall seconds of ``ansible-inventory --list`` with the plugin (``options`` added to its file) and with a
    static YAML file of the same inventory, from interleaved runs, their ratio and the number of hosts.

    ``ansible_inventory``: the command to run (by default that of this Python's virtualenv).
    """
    command = ansible_inventory or os.path.join(os.path.dirname(sys.executable), 'ansible-inventory')
    env = dict(env, NMS_API_URL=emulator.url, NMS_API_TOKEN=emulator.token)
    plugin_source = os.path.join(workdir, 'speed.nms.yml')
    static_source = os.path.join(workdir, 'speed-static.yml')
    with open(plugin_source, 'w', encoding='utf-8') as handle:
        yaml.safe_dump(dict({'plugin': PLUGIN}, **(options or {})), handle)
    plugin_runs, static_runs = [], []
    listing = None
    for index in range(repeats):
        seconds, output = run_listing(command, plugin_source, workdir, env, PLUGIN)
        plugin_runs.append(seconds)
        if index == 0:  # the static file is written from the first listing (the server may order a peer's groups anyhow)
            listing = json.loads(output)
            with open(static_source, 'w', encoding='utf-8') as handle:
                yaml.dump(static_document(listing), handle, Dumper=StaticDumper, sort_keys=False)
        seconds, output = run_listing(command, static_source, workdir, env, 'yaml')
        static_runs.append(seconds)
        if index == 0:
            expected, got = unordered(listing), unordered(json.loads(output))
            if got != expected:
                raise SystemExit('the static inventory lists something else than the plugin (first difference: %s)'
                                 % first_difference(expected, got))
    plugin_seconds, static_seconds = statistics.median(plugin_runs), statistics.median(static_runs)
    return dict(plugin_seconds=plugin_seconds, static_seconds=static_seconds, ratio=plugin_seconds / static_seconds,
                hosts=len(listing.get('_meta', {}).get('hostvars', {})))


def inventory_env(workdir, python=sys.executable):
    """The environment of ansible-inventory: this collection (linked into workdir) and no settings of the caller."""
    link = os.path.join(workdir, 'collections', 'ansible_collections', 'nms', 'overlay')
    if not os.path.exists(link):
        os.makedirs(os.path.dirname(link))
        os.symlink(REPO, link)
    env = {key: value for key, value in os.environ.items() if not key.startswith(('ANSIBLE_', 'NMS_'))}
    env.update({
        'ANSIBLE_COLLECTIONS_PATH': os.path.join(workdir, 'collections'), 'ANSIBLE_NOCOLOR': '1',
        'ANSIBLE_LOCALHOST_WARNING': 'False', 'ANSIBLE_INVENTORY_UNPARSED_WARNING': 'False',
        'PATH': os.path.dirname(python) + os.pathsep + os.environ.get('PATH', ''),
    })
    return env


def main(argv=None):
    parser = argparse.ArgumentParser(description='ansible-inventory --list: the peers plugin next to a static YAML file')
    parser.add_argument('--size', default='XL', help='account size of the emulator started for the run')
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--options', default='{}', help='plugin options, as YAML or JSON')
    parser.add_argument('--python', default=sys.executable,
                        help='the Python of the virtualenv whose ansible-inventory runs (another ansible-core release)')
    parser.add_argument('--url', help='a running emulator (with --token) instead of starting one')
    parser.add_argument('--token')
    args = parser.parse_args(argv)
    options = yaml.safe_load(args.options) or {}
    python = os.path.abspath(args.python)  # (not resolved: a virtualenv's python is a link out of it)
    command = os.path.join(os.path.dirname(python), 'ansible-inventory')
    with tempfile.TemporaryDirectory(prefix='nms-bench-inventory-') as workdir:
        if args.url:
            emulator = types.SimpleNamespace(url=args.url, token=args.token, stop=lambda: None)
        else:
            try:
                emulator = start_emulator('netbird', workdir, extra_args=['--seed-size', args.size], timeout=SEED_TIMEOUT)
            except EmulatorStartError as exc:
                raise SystemExit('the emulator (%s) did not start: %s' % (args.size, exc)) from exc
        try:
            figures = inventory_speed(emulator, workdir, inventory_env(workdir, python), args.repeats, options,
                                      ansible_inventory=command)
        finally:
            emulator.stop()
    print('ansible-inventory --list, %d hosts, options %s (%s, median of %d):'
          % (figures['hosts'], json.dumps(options), command, args.repeats))
    print('  plugin  %.2f s' % figures['plugin_seconds'])
    print('  static  %.2f s (YAML file of the same hosts, groups and host variables)' % figures['static_seconds'])
    print('  ratio   %.2f (target <= 1.1)' % figures['ratio'])
    return 0


if __name__ == '__main__':
    sys.exit(main())
