"""make test's scheduler (.ci/stages.sh): one queue of stages, longest first, taken by two lanes; every stage runs."""

import os
import subprocess

SCRIPT = os.path.join(os.path.dirname(__file__), '..', '..', '.ci', 'stages.sh')

MAKEFILE = '''
oldest:
\t@echo oldest ran
next:
\t@echo next ran
lint:
\t@echo lint ran
sanity:
\t@echo sanity says no; false
quick:
\t@echo quick ran
'''


def run(tmp_path, *args, results=None):
    (tmp_path / 'Makefile').write_text(MAKEFILE)
    stages = tmp_path / '.build' / 'stages'
    stages.mkdir(parents=True)
    for stage, seconds in (results or {}).items():
        (stages / ('%s.result' % stage)).write_text('%s|passed|%d|0\n' % (stage, seconds))
    return subprocess.run(['bash', SCRIPT] + list(args), cwd=str(tmp_path), capture_output=True, text=True, timeout=120,
                          check=False)


def test_two_lanes_take_the_longest_stage_first_and_every_stage_runs(tmp_path):
    # given in make test's order, a short one first; oldest is the long one, then next (ESTIMATES), quick has none
    done = run(tmp_path, '-j', '2', 'lint', 'quick', 'next', 'sanity', 'oldest')
    out = done.stdout
    assert '=== 5 stages in 2 lanes, the longest first: oldest next sanity lint quick' in out, out
    for stage in ('oldest', 'next', 'lint', 'quick'):
        assert '%s ran' % stage in out
        assert '=== make %s passed' % stage in out
    assert 'lane 1)' in out and 'lane 2)' in out
    # a failed stage fails the run, and its output is shown whole; the table lists the stages in the order given
    assert done.returncode == 1
    assert 'sanity says no' in out and '=== make sanity FAILED (exit 2)' in out
    table = out[out.index('stage              result'):].splitlines()[1:6]
    assert [line.split()[0] for line in table] == ['lint', 'quick', 'next', 'sanity', 'oldest']
    assert 'stages: FAILED' in done.stderr


def test_a_stage_this_checkout_ran_counts_as_long_as_it_took(tmp_path):
    done = run(tmp_path, '-j', '2', 'oldest', 'lint', 'quick', results={'quick': 5000, 'lint': 90})
    assert 'the longest first: quick oldest lint' in done.stdout, done.stdout
    assert done.returncode == 0 and 'stages: all passed' in done.stdout


def test_without_lanes_the_stages_run_in_the_order_given(tmp_path):
    done = run(tmp_path, 'quick', 'oldest')
    out = done.stdout
    assert done.returncode == 0, out
    assert out.index('=== make quick started') < out.index('=== make oldest started')
    assert 'lanes' not in out


def test_the_makefile_hands_its_stages_no_pythondontwritebytecode():
    """A workplace's PYTHONDONTWRITEBYTECODE would make every pytest worker and emulator compile its sources again:
    the Makefile leaves it out of every recipe's environment."""
    makefile = os.path.join(os.path.dirname(__file__), '..', '..', 'Makefile')
    proc = subprocess.run(['make', '-s', '-f', makefile, '--eval', 'nms-env-probe:\n\t@echo "[$${PYTHONDONTWRITEBYTECODE-}]"',
                           'nms-env-probe'], env=dict(os.environ, PYTHONDONTWRITEBYTECODE='1'), capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == '[]', proc.stdout
