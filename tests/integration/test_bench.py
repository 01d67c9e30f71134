# -*- coding: utf-8 -*-
"""`make bench` runs on a fresh checkout and writes its table (issue 9): size S, one run per figure.

Seconds vary from machine to machine, so this checks what does not: every row is there, and the
request counts of unchanged tasks and of the example network re-runs (the bench itself stops when
an unchanged task or a re-run writes).
"""

from __future__ import annotations

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_bench_at_size_s_writes_the_table(tmp_path):
    output = tmp_path / 'performance.md'
    proc = subprocess.run([sys.executable, '-m', 'tests.bench.bench', '--sizes', 'S', '--repeats', '1',
                           '--output', str(output)], cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {cells[1]: cells[2:] for cells in (
        [cell.strip() for cell in line.strip('|').split('|')] for line in output.read_text(encoding='utf-8').splitlines()
        if line.startswith('| S |'))}
    for task in ('group', 'policy', 'setup_key'):
        for way, target_prefix in (('', '<= 0.25 x ping: '), (', as a module process', '<= 1.25 x ping: ')):
            # at S each row names the ansible-core release it was measured with
            found = [cells for label, cells in rows.items() if label.startswith('unchanged %s task%s [ansible-core ' % (task, way))]
            assert len(found) == 1, rows
            seconds, requests, dummy_ratio, target = found[0]
            assert float(seconds) > 0
            assert requests == '2'  # one list of its own kind, one of groups
            assert target.startswith(target_prefix)
    network = [cells for label, cells in rows.items() if label.startswith('example network re-run')]
    # 13 tasks versus the playbook's probe of the server (one read on v0.27) and network_state
    assert sorted(cells[1] for cells in network) == ['10', '19']
    assert all(cells[3] == 'no write: met' for cells in network)
    assert any(label.startswith('speed-up of network_state') for label in rows)
