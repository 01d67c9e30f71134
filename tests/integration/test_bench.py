# -*- coding: utf-8 -*-
"""`make bench` runs and writes its page and figures (issue 30): size S, one round, four modules (one of them on the
`current` dialect, whose setup makes what every module of today's servers finds).

Seconds vary from machine to machine, so this checks what does not: every row and figure is there, the unchanged
tasks sent the requests they should and no write (the bench itself stops when one changes, fails or writes), the
-vvv proof of the module process was found, the floors (the same reads with requests alone, and after a pydantic
model) were measured, and the lead's "Where the time goes" text survives a new run. The enrolment case, which starts
8 real agents, is left out (--no-enrolment): it is measured by make bench, not in a stage that runs no real server.
The bench is a tool of requirements-dev.txt's ansible-core (its --compare-python measures the others): not run by
make oldest and make next.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.bench.bench import NOT_MEASURED, without_machine_paths

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# requests of each unchanged task: its lists (and on the current dialect the version probe first), no write
MODULES = {'group': 1, 'policy': 2, 'group_info': 1, 'reverse_proxy_domain_info': 2}
# of those, the one whose task needs pydantic, both ways (its action plugin preloads the model; its task sets options
# with rules): held to the pydantic floor
PYDANTIC = {'controller': ['policy'], 'process': ['policy']}
KEPT = 'Profiled by the lead: the kept paragraph.'

pytestmark = pytest.mark.tooling


def test_quick_bench_writes_the_page_and_the_figures(tmp_path):
    output = tmp_path / 'performance.md'
    output.write_text('old page\n<!-- where-the-time-goes -->\n%s\n<!-- /where-the-time-goes -->\n' % KEPT, encoding='utf-8')
    proc = subprocess.run([sys.executable, '-m', 'tests.bench.bench', '--sizes', 'S', '--repeats', '1', '--modules',
                           ','.join(MODULES), '--serving-seconds', '1', '--no-enrolment', '--output', str(output)],
                          cwd=REPO, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads((tmp_path / 'performance.json').read_text(encoding='utf-8'))
    python = without_machine_paths(sys.executable)  # as the JSON names it
    assert [pair['python'] for pair in report['pairs']] == [python]
    assert report['pairs'][0]['label'].startswith('ansible-core ')

    modules = report['modules']
    floors = {'%s@%s' % (floor, way) for floor in ('floor', 'pydantic_floor') for way in ('controller', 'process')}
    assert set(modules['walls'][python]) == {'empty', 'ping'} | floors | {
        '%s@%s' % (m, way) for m in MODULES for way in ('controller', 'process')}
    assert all(len(walls) == 1 for walls in modules['walls'][python].values())  # one round
    for way in ('controller', 'process'):
        assert set(modules[way]) == set(MODULES)
        for module, requests in MODULES.items():
            assert isinstance(modules[way][module][python]['ratio'], float)
            assert modules['requests']['%s@%s' % (module, way)] == requests  # the timed play's log / 10 tasks
            assert report['requests'][python][module][way] == requests  # the checking run, task by task
            assert report['verdicts']['%s %s' % (way, module)][python] in ('met', 'missed')
            floor = modules['pydantic_floor' if module in PYDANTIC[way] else 'floor'][way][python]
            assert modules[way][module][python]['floor_ratio'] == pytest.approx(modules[way][module][python]['ratio'] / floor)
    assert modules['pydantic_modules'] == PYDANTIC  # found by importing each action plugin in a Python of its own

    for floor in ('floor', 'pydantic_floor'):  # the reads of an unchanged group task, with requests (and pydantic)
        for way in ('controller', 'process'):
            assert isinstance(modules[floor][way][python], float)
            assert modules['requests']['%s@%s' % (floor, way)] == modules['requests']['group@' + way]

    proof = report['proof'][python]
    assert proof['process']['line'] == 'nms.overlay.group runs as a module process: nms_overlay_in_process is false'
    assert proof['process']['ansiballz'].endswith('AnsiballZ_group.py')
    assert proof['controller']['ansiballz'] is None

    serving = report['serving']['S']
    assert serving['emulator_rps'] > 0 and serving['static_rps'] > 0 and serving['bytes'] > 0
    assert 'xl' not in report and 'inventory' not in report and 'enrolment' not in report

    page = output.read_text(encoding='utf-8')
    for heading in ('## Method', '## 1. An unchanged task in the controller', '## 2. The same task as a module process',
                    '## 4. The emulator serving', '## Where the time goes'):
        assert heading in page
    rows = [line for line in page.splitlines() if line.startswith('| `')]
    assert sorted(row.split('|')[1].strip(' `') for row in rows) == sorted(list(MODULES) * 2)
    assert 'AnsiballZ_group.py' in page
    floor_rows = [line.split('|')[1].strip() for line in page.splitlines() if line.startswith('| *floor: ')]
    assert floor_rows == [
        '*floor: only the reads, with requests (requests_floor)*',
        '*floor: the reads after an options model, with requests and pydantic (pydantic_floor)*',
        '*floor: only the reads, with requests (requests_floor_module)*',
        '*floor: the reads after an options model, with requests and pydantic (requests_floor_module, options_model: true)*']
    assert '| `reverse_proxy_domain_info` | v0.77 (current) | 2 | floor |' in page
    assert '| `policy` | v0.27 (netbird) | 2 | pydantic floor |' in page
    assert report['not_measured'] == NOT_MEASURED
    for module, reason in NOT_MEASURED.items():  # the modules with no unchanged task, each with its reason
        assert '- `%s`: %s.' % (module, reason) in page.split('### Modules not in 1 and 2', 1)[1]
    assert '<!-- where-the-time-goes -->\n%s\n<!-- /where-the-time-goes -->' % KEPT in page
    assert 'old page' not in page
