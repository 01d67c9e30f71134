# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 21, point 5: the AWX job templates run through ansible-runner, as AWX runs them.

What AWX does for a job, done here with the files of awx/ as they are:

- the credential type (awx/credential_type/inputs.yml, injectors.yml) is applied the way AWX's
  CredentialType.inject_credential does it: inputs left empty are not in the template namespace; each
  file injector is rendered with Jinja2's immutable sandbox into a file of <private data dir>/env/,
  readable by the owner only, whose path is ``tower.filename``; each env injector is rendered with the
  same namespace;
- the inventory "overlay peers" is imported by an inventory update: ``ansible-inventory --list`` on the
  project's inventory source (awx/project/inventory/overlay.nms.yml) with the credential injected; the
  job then gets the imported hosts, groups and variables as a static inventory;
- each job template of awx/configure_controller.yml runs its playbook from the project (a copy of
  awx/project/ in the private data dir, as AWX checks it out) with the template's extra variables,
  --diff for diff_mode and --become for become_enabled.

Secrets: the API token and every setup key value the emulator holds must be in no file under the private
data dir (artifacts/*/stdout, job_events/*.json, artifacts/*/command, the inventory files, the inventory
update's output...), except in the copies of the environment handed to ansible-runner: env/envvars, which
this test writes (through ansible-runner's ``envvars``), and the ``env`` member of artifacts/*/command, which
ansible-runner writes for every run whatever its settings. Both hold the credential's variables by design,
readable by the owner only; AWX keeps them on the execution node, stores the job's environment with secret
values replaced, and removes the private data dir after the job. What the collection itself prints, records
as events or writes is all scanned.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import types

import pytest
import yaml

from tests.emulator import tls
from tests.integration import secrets_scan
from tests.integration.conftest import REPO_ROOT, running_emulator

ansible_runner = pytest.importorskip("ansible_runner", reason="ansible-runner is not installed (requirements-dev.txt)")
sandbox = pytest.importorskip("jinja2.sandbox")

pytestmark = pytest.mark.tooling

AWX = os.path.join(REPO_ROOT, "awx")
BIN = os.path.dirname(sys.executable)
ENV_FILE = os.path.join("env", "envvars")


def load(rel):
    with open(os.path.join(AWX, rel), encoding="utf-8") as stream:
        return yaml.safe_load(stream)


def controller_tasks(module):
    """The arguments of every task of awx/configure_controller.yml that uses ``module``."""
    [play] = load("configure_controller.yml")
    return [task[module] for task in play["tasks"] if module in task]


def job_template(name):
    [found] = [task for task in controller_tasks("awx.awx.job_template") if task["name"] == name]
    return found


def template_extra_vars(template, **controller_vars):
    """The job template's variables as awx.awx stores them: rendered with the configuring play's variables (and
    ``controller_vars`` over them, as ``-e`` would give them to that play)."""
    [play] = load("configure_controller.yml")
    namespace = dict(play.get("vars") or {}, **controller_vars)
    renderer = sandbox.ImmutableSandboxedEnvironment()
    return {name: renderer.from_string(value).render(**namespace) if isinstance(value, str) else value
            for name, value in (template.get("extra_vars") or {}).items()}


def inventory_source(inventory):
    [found] = [task for task in controller_tasks("awx.awx.inventory_source") if task["inventory"] == inventory]
    return found


def inject_credential(inputs, private_data_dir):
    """The environment AWX gives a job for a credential of the "nms.overlay API" type (see the module docstring)."""
    credential_type = {"inputs": load("credential_type/inputs.yml"), "injectors": load("credential_type/injectors.yml")}
    defined = {field["id"] for field in credential_type["inputs"]["fields"]}
    assert set(inputs) <= defined, "inputs that the credential type does not define: %s" % sorted(set(inputs) - defined)
    env_dir = os.path.join(private_data_dir, "env")
    os.makedirs(env_dir, exist_ok=True)
    tower = types.SimpleNamespace()
    namespace = {"tower": tower}
    namespace.update((name, value) for name, value in inputs.items() if len(value))
    renderer = sandbox.ImmutableSandboxedEnvironment()
    for label, template in credential_type["injectors"].get("file", {}).items():
        data = renderer.from_string(template).render(**namespace)
        handle, path = tempfile.mkstemp(dir=env_dir)
        with os.fdopen(handle, "w") as stream:
            stream.write(data)
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
        assert "." not in label, "only the single-file form (tower.filename) is used"
        tower.filename = path
    assert "extra_vars" not in credential_type["injectors"], "extra_vars injectors would need the inventory update path"
    return {name: renderer.from_string(template).render(**namespace)
            for name, template in credential_type["injectors"]["env"].items()}


def runner_env(credential_env, collections_dir):
    """What the execution environment provides (the collection, ansible-core) plus the credential's variables."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ANSIBLE_", "NMS_"))}
    env.update({
        "PATH": BIN + os.pathsep + os.environ.get("PATH", ""),
        "ANSIBLE_COLLECTIONS_PATH": collections_dir,
        "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "False",
        "ANSIBLE_LOCALHOST_WARNING": "False",
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_RETRY_FILES_ENABLED": "False",
    })
    env.update(credential_env)
    return env


class Job:
    """One private data dir: the project copied in, the credential injected, runs through ansible-runner."""

    def __init__(self, base, inputs, collections_dir, controller_vars=None):
        self.dir = str(base)
        self.controller_vars = controller_vars or {}
        shutil.copytree(os.path.join(AWX, "project"), os.path.join(self.dir, "project"))
        self.env = runner_env(inject_credential(inputs, self.dir), collections_dir)
        self.count = 0

    def _ident(self, what):
        self.count += 1
        return "%02d-%s" % (self.count, what)

    def inventory_update(self, inventory):
        """ansible-inventory --list on the inventory's source in the project; returns (rc, the listing, stderr)."""
        source = inventory_source(inventory)
        assert source["source"] == "scm" and source["credential"] == "{{ nms_awx_credential }}"
        output = os.path.join(self.dir, "inventory-update-%d.json" % (self.count + 1))
        out, err, rc = ansible_runner.run_command(
            executable_cmd="ansible-inventory",
            cmdline_args=["-i", os.path.join(self.dir, "project", source["source_path"]), "--list", "--output", output],
            private_data_dir=self.dir, envvars=self.env, ident=self._ident("inventory-update"), quiet=True,
            runner_mode="subprocess", timeout=300)
        listing = None
        if rc == 0:
            with open(output, encoding="utf-8") as stream:
                listing = json.load(stream)
        return rc, listing, (out or "") + (err or "")

    def run_template(self, name, inventory, extra_vars=None):
        """Launch the job template ``name`` with ``inventory`` (a dict: written as the job's static inventory)."""
        template = job_template(name)
        assert template["job_type"] == "run"
        cmdline = []
        if template.get("diff_mode"):
            cmdline.append("--diff")
        if template.get("become_enabled"):
            cmdline.append("--become")
        extravars = template_extra_vars(template, **self.controller_vars)
        extravars.update(extra_vars or {})
        return ansible_runner.run(
            private_data_dir=self.dir, playbook=template["playbook"], inventory=inventory, extravars=extravars,
            envvars=self.env, cmdline=" ".join(cmdline), ident=self._ident(template["playbook"]), quiet=True,
            timeout=600)

    def leaks(self, secrets):
        """Files under the private data dir that hold one of ``secrets`` ({value: kind}), but the environment copies."""
        found = []
        for root, _dirs, files in os.walk(self.dir):
            for name in files:
                path = os.path.join(root, name)
                rel = os.path.relpath(path, self.dir)
                if rel == ENV_FILE:
                    continue
                with open(path, "rb") as stream:
                    data = stream.read()
                if os.path.basename(root) != "job_events" and name == "command" and rel.startswith("artifacts"):
                    data = json.dumps(dict(json.loads(data), env=None)).encode()
                found.extend("%s in %s" % (kind, rel) for value, kind in secrets.items() if value.encode() in data)
        return found

    def stdout(self, runner):
        with open(os.path.join(self.dir, "artifacts", runner.config.ident, "stdout"), encoding="utf-8") as stream:
            return stream.read()


def static_inventory(listing):
    """The imported inventory as AWX hands it to a job: every group with its hosts, children and variables."""
    hostvars = listing.get("_meta", {}).get("hostvars", {})
    groups = {}
    for name, group in listing.items():
        if name == "_meta":
            continue
        entry = {}
        if group.get("hosts"):
            entry["hosts"] = {host: hostvars.get(host, {}) for host in group["hosts"]}
        if group.get("children"):
            entry["children"] = {child: {} for child in group["children"]}
        groups[name] = entry
    return groups


def enroll_inventory(base):
    """The inventory "hosts to enroll": two hosts of group nms_enroll, the fake agent standing in for NetBird's."""
    return {"nms_enroll": {
        "hosts": {"awx-web-1": {}, "awx-web-2": {}},
        "vars": {
            "ansible_connection": "local",
            "ansible_become": False,
            "ansible_python_interpreter": sys.executable,
            "enroll_install_agent": False,
            "enroll_agent_command": [sys.executable, "-m", "tests.emulator.agent"],
            "enroll_agent_args": ["--state-dir", os.path.join(str(base), "agents", "{{ inventory_hostname }}")],
            "enroll_agent_environment": {"PYTHONPATH": REPO_ROOT},
        },
    }}


def secrets_of(emulator):
    secrets = {emulator.token: "API token"}
    secrets.update((value, "setup key") for value, kind in emulator.known_secrets().items()
                   if kind == secrets_scan.SETUP_KEY)
    return secrets


def changed(runner):
    return sum((runner.stats or {}).get("changed", {}).values())


@pytest.fixture(scope="module")
def netbird(tmp_path_factory):
    with running_emulator("netbird", str(tmp_path_factory.mktemp("awx-emulator"))) as emu:
        yield emu


def test_job_templates_run_under_ansible_runner_with_the_credential_injected(netbird, tmp_path, collections_dir):
    netbird.reset()
    # the directory exposed to the jobs (docs/awx.md, "Keeping created setup keys"): outside the private data dir
    exposed = tmp_path / "exposed"
    exposed.mkdir(mode=0o700)
    job = Job(tmp_path / "job", {"api_url": netbird.url, "api_token": netbird.token}, collections_dir,
              controller_vars={"nms_awx_secrets_dir": str(exposed)})
    assert job.env["NMS_API_URL"] == netbird.url and job.env["NMS_API_CA_PATH"] == ""

    # build network, on the imported peers inventory (no peer yet)
    rc, listing, output = job.inventory_update("{{ nms_awx_inventory }}")
    assert rc == 0, output
    build = job.run_template("nms.overlay build network", static_inventory(listing))
    assert build.rc == 0 and build.status == "successful", job.stdout(build)
    assert changed(build) > 0
    names = {group["name"] for group in netbird.api("GET", "/groups")[1]}
    assert {"servers", "developers", "office"} <= names
    # the created setup key outlives the job's container: it is in the exposed directory, readable by its owner only
    kept = exposed / "created-secrets.json"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    [servers_key] = [key for key in netbird.api("GET", "/setup-keys")[1] if key["name"] == "servers"]
    stored = json.loads(kept.read_text(encoding="utf-8"))["setup_keys"]["servers"]
    assert stored["id"] == str(servers_key["id"]) and stored["key"] in secrets_of(netbird)

    # enroll hosts: setup keys are made, the hosts join; the inventory update then imports them
    enroll = job.run_template("nms.overlay enroll hosts", enroll_inventory(tmp_path / "job"))
    assert enroll.rc == 0 and enroll.status == "successful", job.stdout(enroll)
    rc, listing, output = job.inventory_update("{{ nms_awx_inventory }}")
    assert rc == 0, output
    hostvars = listing["_meta"]["hostvars"]
    enrolled = [host for host in hostvars if host.startswith("awx-web-")]
    assert len(enrolled) == 2, sorted(hostvars)
    for host in enrolled:  # clean values, not {"__ansible_unsafe": ...}: what AWX imports
        assert isinstance(hostvars[host]["ansible_host"], str) and hostvars[host]["ansible_host"].startswith("100.64.")
        assert "servers" in hostvars[host]["nms_groups"] or "servers" in json.dumps(hostvars[host]["nms_groups"])

    # the same job templates again: nothing changes, nothing is written
    netbird.clear_log()
    again = job.run_template("nms.overlay build network", static_inventory(listing))
    assert again.rc == 0 and changed(again) == 0, job.stdout(again)
    enroll_again = job.run_template("nms.overlay enroll hosts", enroll_inventory(tmp_path / "job"))
    assert enroll_again.rc == 0, job.stdout(enroll_again)
    assert netbird.writes() == []

    secrets = secrets_of(netbird)
    assert len(secrets) >= 2  # the token and at least one setup key the jobs created
    assert job.leaks(secrets) == []


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return tls.make_test_pki(str(tmp_path_factory.mktemp("awx-pki")))


@pytest.fixture(scope="module")
def https(pki, tmp_path_factory):
    with running_emulator("netbird", str(tmp_path_factory.mktemp("awx-https")),
                          extra_args=["--tls-cert", pki["server_cert"], "--tls-key", pki["server_key"]]) as emu:
        yield emu


def test_ca_certificate_input_reaches_the_inventory_plugin_and_the_modules(https, pki, tmp_path, collections_dir):
    with open(pki["ca_cert"], encoding="utf-8") as stream:
        ca_pem = stream.read()
    assert https.url.startswith("https://127.0.0.1:")

    # without the CA certificate the server's certificate is not trusted: the inventory update fails
    plain = Job(tmp_path / "no-ca", {"api_url": https.url, "api_token": https.token, "ca_cert": ""}, collections_dir)
    rc, _listing, output = plain.inventory_update("{{ nms_awx_inventory }}")
    assert rc != 0 and "certificate" in output.lower(), output

    job = Job(tmp_path / "ca", {"api_url": https.url, "api_token": https.token, "ca_cert": ca_pem}, collections_dir,
              controller_vars={"nms_awx_secrets_dir": str(tmp_path)})
    ca_file = job.env["NMS_API_CA_PATH"]
    assert os.path.dirname(ca_file) == os.path.join(job.dir, "env")
    assert oct(os.stat(ca_file).st_mode & 0o777) == "0o600"
    rc, listing, output = job.inventory_update("{{ nms_awx_inventory }}")
    assert rc == 0, output
    build = job.run_template("nms.overlay build network", static_inventory(listing))
    assert build.rc == 0 and build.status == "successful", job.stdout(build)
    assert changed(build) > 0
    assert job.leaks({https.token: "API token"}) == []


def test_a_created_key_is_in_no_job_event_at_any_verbosity(netbird, tmp_path, collections_dir):
    """Issue 28, point 1: the setup_key and token modules used directly in a job, launched with verbosity 4 (Debug):
    the values reach the play (register) and a file outside the job, never its events or stdout."""
    netbird.reset()
    job = Job(tmp_path / "job", {"api_url": netbird.url, "api_token": netbird.token}, collections_dir)
    used = tmp_path / "used.json"
    playbook = [{"name": "Create secrets", "hosts": "localhost", "connection": "local", "gather_facts": False,
                 "tasks": [
                     {"name": "key", "register": "made", "nms.overlay.setup_key": {"name": "job-key", "type": "one-off"}},
                     {"name": "token", "register": "pat", "nms.overlay.token": {
                         "user": "owner@example.com", "name": "job-token", "expires_in": 1}},
                     {"name": "use them", "no_log": True, "ansible.builtin.copy": {
                         "dest": str(used), "mode": "0600",
                         "content": "{{ [made.setup_key.key, pat.plain_token] | to_json }}"}}]}]
    with open(os.path.join(job.dir, "project", "secrets.yml"), "w", encoding="utf-8") as stream:
        yaml.safe_dump(playbook, stream)
    runner = ansible_runner.run(private_data_dir=job.dir, playbook="secrets.yml", envvars=job.env, verbosity=4,
                                ident="secrets", quiet=True, timeout=600)
    assert runner.rc == 0, job.stdout(runner)
    key, token = json.loads(used.read_text(encoding="utf-8"))
    assert len(key) == 36 and token.startswith("nbp_")
    events = [event for event in runner.events if event.get("event") == "runner_on_ok"]
    assert [event["event_data"]["res"].get("censored") is not None for event in events][:2] == [True, True]
    secrets = dict(secrets_of(netbird), **{token: "personal access token"})
    assert key in secrets
    assert job.leaks(secrets) == []
