# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 10, item 7 and issue 18: ten forks racing on one object end with what each of them asked for.

* ``test_ten_forks_one_group``: real ``ansible-playbook -f 10`` over ten local hosts, each ensuring
  the group ``race-group`` (netbird dialect: a duplicate name is answered 409). Every request is
  slowed by 0.3 s after its answer is computed, so that all ten lists see no group and all ten
  POST. Asserted: no host failed, exactly one group exists, and every 409 was reconciled.
* ``test_ten_forks_join_one_group`` (issue 18, point 3): ten forks each add their own peer to one group
  (``peer`` with ``groups_mode: add``, as the ``enroll`` role does), every request slowed so that they
  all read the member list before any of them writes it. Asserted, in both dialects: the group ends
  with all ten members, and no fork reported success while its peer was missing.
* ``test_create_answered_409_is_reconciled``: in-process and deterministic: the module's list is
  answered before someone else creates the group; its POST gets 409; the module reads back and
  reconciles (an update when its options differ), and does not fail.
* Issue 44, quiet and on a loaded machine (every core busy, tests/support/forks.py ``busy_machine``):
  ``test_ten_forks_one_network_in_network_state`` (ten network_state runs describing one network with a
  resource end with one network holding it, every fork ok) and ``test_ten_forks_bootstrap_the_agent_network_settings``
  (the 409s of all bootstraps but one reconciled; ``test_bootstrap_answered_409_is_reconciled`` in process).
* Issue 43, item 4: ``test_ten_forks_build_one_network_of_many_shared_names_in_network_state``: ten network_state runs
  building the same policies and setup keys, which converge once per kind, end with one live copy of each name;
  ``test_ten_forks_nest_and_name_only_what_survives_in_network_state``: what is nested in a converging network, and a
  policy naming its resource, name only the copy that survives.
"""

from __future__ import annotations

import threading
import time

import pytest

from tests.reliability.conftest import connection_of
from tests.reliability.harness import FIGURES, STRESS, seed_world
from tests.support.forks import (
    FORKS, LOADS, RACE_SETTINGS, all_ok, assert_one_bootstrap, busy_machine, changed_count, run_forks,
)
from tests.support.inprocess import assert_clean_end, describe, run_module

ROUNDS = 5 if STRESS else 1


def _groups_named(emu, name):
    status, groups = emu.api("GET", "/groups")
    assert status == 200, groups
    return [g for g in groups if g["name"] == name]


@pytest.mark.stress
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_ten_forks_one_group(emulator, tmp_path, round_):
    output, returncode, recap, elapsed = run_forks(
        emulator, tmp_path, "    - name: Ensure the race group\n      nms.overlay.group:\n        name: race-group\n", seed=round_)
    assert returncode == 0, output[-5000:]
    assert len(recap) == FORKS, output[-3000:]
    assert all(failed == "0" and unreachable == "0" for dummy, dummy2, unreachable, failed in recap), output[-3000:]
    changed = sum(int(c) for dummy, c, dummy2, dummy3 in recap)
    groups = _groups_named(emulator, "race-group")
    assert len(groups) == 1, "%d groups named race-group: %r" % (len(groups), groups)
    log = emulator.requests()
    posts = [r for r in log if r["method"] == "POST" and r["path"] == "/api/groups"]
    conflicts = [r for r in posts if r["status"] == 409]
    assert len([r for r in posts if r["status"] == 200]) == 1, posts
    assert changed == 1, "exactly the one host whose POST won reports a change (got %d)" % changed
    FIGURES.setdefault("concurrency", {})["round %d" % round_] = (
        "%d forks: 1 group, %d POSTs (%d answered 409, reconciled), %d changed, %.1fs" % (
            FORKS, len(posts), len(conflicts), changed, elapsed))


NAMED_ONCE = {
    # module -> (its arguments, the API path to list, a word the server's "already exists" answer has)
    "posture_check": ("        name: race-check\n        checks:\n          nb_version_check:\n"
                      "            min_version: 0.25.0\n", "/posture-checks", "unique"),
    "nameserver_group": ("        name: race-dns\n        nameservers: [{ip: 10.0.0.53}]\n        primary: true\n"
                         "        groups: [All]\n", "/dns/nameservers", "already exist"),
}


@pytest.mark.parametrize("name", list(NAMED_ONCE))
def test_ten_forks_one_named_object(any_emulator, tmp_path, name):
    """Issue 18, point 5: every kind whose names the server keeps unique answers a taken name in its own way
    (posture checks 412, nameserver groups 422 "already exists"); each is reconciled by reading back, like a
    group's 409: all ten forks succeed, one object exists, and only the fork whose create won reports a change."""
    emu = any_emulator
    args, path, words = NAMED_ONCE[name]
    # as module processes (current) the forks start further apart (ansible-core 2.16 on a busy machine: more than
    # 0.3 s), so every request is held longer for all of them to read before the first create lands
    output, returncode, recap, elapsed = run_forks(emu, tmp_path, "    - name: Ensure it\n      nms.overlay.%s:\n%s"
                                                   % (name, args), slow=1.5 if emu.dialect == "current" else 0.3)
    status, items = emu.api("GET", path)
    made = [item for item in items if item["name"].startswith("race-")]
    posts = [r for r in emu.requests() if r["method"] == "POST"]
    refused = [r for r in posts if r["status"] != 200]
    context = "%d made, POSTs answered %s\n%s" % (len(made), [r["status"] for r in posts], output[-4000:])
    assert len(made) == 1, context
    assert returncode == 0 and len(recap) == FORKS, context
    assert all(failed == "0" for dummy, dummy2, dummy3, failed in recap), context
    assert sum(int(changed) for dummy, changed, dummy2, dummy3 in recap) == 1, context
    assert refused, "no create met the server's 'already exists': the race did not happen: " + context
    FIGURES.setdefault("concurrency", {})["one %s %s" % (name, emu.dialect)] = (
        "%d forks: 1 object, %d POSTs (%d refused as existing, reconciled), %.1fs" % (FORKS, len(posts), len(refused), elapsed))


SHARED_NAMES = {
    # module -> (its arguments, the API path to list, which listed objects count as live copies)
    "policy": ("        name: race-policy\n        rules:\n          - name: all\n            sources: [All]\n"
               "            destinations: [All]\n",
               "/policies", lambda item: item["name"] == "race-policy"),
    "setup_key": ("        name: race-key\n        type: reusable\n", "/setup-keys",
                  lambda item: item["name"] == "race-key" and not item["revoked"]),
    "user": ("        name: race-bot\n        is_service_user: true\n        role: user\n", "/users",
             lambda item: item["name"] == "race-bot"),
    "token": ("        user: owner@example.com\n        name: race-token\n        expires_in: 5\n",
              "/users/owner-user/tokens", lambda item: item["name"] == "race-token"),
}


@pytest.mark.parametrize("name", list(SHARED_NAMES))
def test_ten_forks_one_object_of_a_shared_name(any_emulator, tmp_path, name):
    """Issue 18, point 6: servers let several policies, setup keys, service users or tokens share a name, so ten
    forks ensuring one used to make ten, and every later run failed on the ambiguous name. After its create each
    fork lists again and all converge on the copy with the lowest id (the others delete their own, or revoke it
    where a v0.27 server cannot delete setup keys): one live object remains, no fork fails, and a re-run is unchanged."""
    emu = any_emulator
    args, path, live = SHARED_NAMES[name]
    task = "    - name: Ensure it\n      nms.overlay.%s:\n%s" % (name, args)
    # every answer 1 s late: the forks' reads all come before their writes even when a loaded machine starts the
    # ten forks over most of a second (0.3 s was not always enough, and then no race happened)
    output, returncode, recap, elapsed = run_forks(emu, tmp_path, task, slow=1.0)
    status, items = emu.api("GET", path)
    made = [item for item in items if live(item)]
    posts = [r for r in emu.requests() if r["method"] == "POST"]
    context = "%d live copies (ids %s) after %d POSTs\n%s" % (
        len(made), [item["id"] for item in made], len(posts), output[-4000:])
    assert len(posts) > 1, "the race did not happen: " + context
    assert len(made) == 1, context
    assert returncode == 0 and len(recap) == FORKS and all(failed == "0" for dummy, dummy2, dummy3, failed in recap), context
    output, returncode, recap, dummy = run_forks(emu, tmp_path, task, slow=0.0)
    assert returncode == 0 and all(changed == "0" for dummy, changed, dummy2, dummy3 in recap), (
        "a re-run failed or changed: " + output[-4000:])
    FIGURES.setdefault("concurrency", {})["one %s of a shared name %s" % (name, emu.dialect)] = (
        "%d forks: %d POSTs, 1 kept, %.1fs" % (FORKS, len(posts), elapsed))


@pytest.mark.stress
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_ten_forks_join_one_group(any_emulator, tmp_path, round_):
    emu = any_emulator
    emu.control("POST", "/_emulator/peers", {"peers": [{"hostname": "racer%d" % i, "os": "linux"} for i in range(FORKS)]})
    status, group = emu.api("POST", "/groups", {"name": "race-members", "peers": []})
    assert status == 200, group
    output, returncode, recap, elapsed = run_forks(emu, tmp_path, (
        "    - name: Join the race group\n      nms.overlay.peer:\n        hostname: '{{ inventory_hostname }}'\n"
        "        groups: [race-members]\n        groups_mode: add\n"), seed=round_)
    status, after = emu.api("GET", "/groups/%s" % group["id"])
    assert status == 200, after
    members = sorted(p["name"] for p in after["peers"] or [])
    puts = [r for r in emu.requests() if r["method"] == "PUT"]
    context = "members %s after %d PUTs\n%s" % (members, len(puts), output[-4000:])
    assert members == sorted("racer%d" % i for i in range(FORKS)), "lost updates: " + context
    assert returncode == 0 and len(recap) == FORKS, context
    assert all(changed == "1" and failed == "0" for dummy, changed, dummy2, failed in recap), context
    FIGURES.setdefault("concurrency", {})["join one group %s round %d" % (emu.dialect, round_)] = (
        "%d forks: %d members, %d PUTs, %.1fs" % (FORKS, len(members), len(puts), elapsed))


@pytest.mark.parametrize("peers", [[], ["web-1"]])
def test_create_answered_409_is_reconciled(emulator, peers):
    seed_world(emulator)
    # the list is answered at once (no group yet) and delivered 0.6 s later; meanwhile another
    # client creates the group, so that the module's POST meets a 409 "already exists"
    emulator.set_faults({"queue": [{"delay": 0.6, "method": "GET"}]})
    other = {}

    def create_elsewhere():
        # once the module's list has been answered (it is delivered later): not after a fixed sleep, which a
        # loaded machine outruns
        deadline = time.monotonic() + 30
        while not any(r["method"] == "GET" for r in emulator.requests()) and time.monotonic() < deadline:
            time.sleep(0.02)
        other["answer"] = emulator.api("POST", "/groups", {"name": "contested", "peers": []})

    thread = threading.Thread(target=create_elsewhere)
    thread.start()
    args = dict(connection_of(emulator), name="contested", peers=peers)
    result = run_module("group", args)
    thread.join()
    assert other["answer"][0] == 200, other
    assert_clean_end("group", args, result)
    log = emulator.requests()
    context = "%s\nrequests: %r" % (describe(result), log)
    module_posts = [r for r in log if r["method"] == "POST" and r["path"] == "/api/groups" and r["status"] == 409]
    assert module_posts, "the module's create did not meet the 409: " + context
    assert not result.get("failed"), "a create answered 409 failed instead of being reconciled: " + context
    groups = _groups_named(emulator, "contested")
    assert len(groups) == 1, groups
    assert result["group"]["id"] == groups[0]["id"], context
    puts = [r for r in log if r["method"] == "PUT"]
    if peers:
        assert result["changed"] and len(puts) == 1, "the differing peers are reconciled by one update: " + context
        assert [p["name"] for p in groups[0]["peers"]] == peers
    else:
        assert not result["changed"] and not puts, "an identical group needs no update: " + context
    FIGURES.setdefault("concurrency", {})["409 reconcile peers=%r" % peers] = "changed=%s, requests %s" % (
        result["changed"], ", ".join("%s %s %s" % (r["method"], r["path"], r["status"]) for r in log))


RACE_NETWORK = ("    - name: Ensure the race network\n      nms.overlay.network_state:\n        networks:\n"
                "          - name: race-net\n            resources: [{name: race-wiki, address: 10.9.0.1, groups: [All]}]\n")


@pytest.mark.parametrize("load", LOADS)
def test_ten_forks_one_network_in_network_state(current_emulator, tmp_path, load):
    """Issue 44, defect 6: servers let networks share a name, so ten forks running network_state with one network
    each create one, and all converge on the lowest id. What is nested in the network's entry (its resource) names
    the network: each fork failed on 'the name race-net matches 9 networks', the copies the others were discarding
    still in its list. Quiet and on a loaded machine: every fork ends ok, one network holds the one resource, each
    discarded copy was deleted once (by the fork that made it), and a re-run changes nothing."""
    emu = current_emulator
    with busy_machine(load):
        output, returncode, recap, elapsed = run_forks(emu, tmp_path, RACE_NETWORK, slow=1.0)
    status, networks = emu.api("GET", "/networks")
    made = [item for item in networks if item["name"] == "race-net"]
    log = emu.requests()
    posts = [r for r in log if r["method"] == "POST" and r["path"] == "/api/networks"]
    deleted = [r["path"].rsplit("/", 1)[1] for r in log if r["method"] == "DELETE"]
    context = "%d networks (ids %s) after %d POSTs, deleted %s\n%s" % (
        len(made), [item["id"] for item in made], len(posts), deleted, output[-4000:])
    assert len(posts) > 1, "the race did not happen: " + context
    assert len(made) == 1, context
    assert returncode == 0 and all_ok(recap), context
    kept = made[0]["id"]
    assert kept not in deleted and sorted(deleted) == sorted(set(deleted)) and len(deleted) == len(posts) - 1, context
    status, resources = emu.api("GET", "/networks/%s/resources" % kept)
    assert [item["name"] for item in resources] == ["race-wiki"], resources
    assert changed_count(recap) >= 1, context
    output, returncode, recap, dummy = run_forks(emu, tmp_path, RACE_NETWORK, slow=0.0)
    assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, "a re-run failed or changed: " + output[-4000:]
    FIGURES.setdefault("concurrency", {})["one network in network_state, %s" % load] = (
        "%d forks: %d POSTs, 1 kept, %d copies deleted, %.1fs" % (FORKS, len(posts), len(deleted), elapsed))


RACE_BUILD_POLICIES = ["race-p%d" % i for i in range(5)]
RACE_BUILD_KEYS = ["race-k%d" % i for i in range(3)]
RACE_BUILD = ("    - name: Build the race network\n      nms.overlay.network_state:\n"
              "        groups: [{name: race-a}, {name: race-b}]\n        policies:\n" + "".join(
                  "          - {name: %s, rules: [{name: r, sources: [race-a], destinations: [race-b]}]}\n" % name
                  for name in RACE_BUILD_POLICIES) + "        setup_keys:\n" + "".join(
                  "          - {name: %s, type: reusable, auto_groups: [race-b]}\n" % name for name in RACE_BUILD_KEYS))


@pytest.mark.parametrize("load", LOADS)
def test_ten_forks_build_one_network_of_many_shared_names_in_network_state(emulator, tmp_path, load):
    """Issue 43, item 4: network_state converges the creates of a kind whose names servers let repeat all at once, after
    the kind's last create (one wait, one list), not one by one. Ten forks building the same five policies and three
    setup keys at once, every answer 1 s late (all read before any writes), quiet and on a loaded machine: every fork
    ends ok with one live copy of each name, each discarded policy deleted (a v0.27 server revokes setup keys) by the
    fork that made it, and a re-run changes nothing."""
    emu = emulator
    with busy_machine(load):
        output, returncode, recap, elapsed = run_forks(emu, tmp_path, RACE_BUILD, slow=1.0)
    log = emu.requests()
    posts = [r for r in log if r["method"] == "POST" and r["path"] in ("/api/policies", "/api/setup-keys")]
    policies = [p for p in emu.api("GET", "/policies")[1] if p["name"].startswith("race-")]
    keys = [k for k in emu.api("GET", "/setup-keys")[1] if k["name"].startswith("race-") and not k["revoked"]]
    context = "policies %s, live keys %s after %d POSTs\n%s" % (
        sorted((p["name"], p["id"]) for p in policies), sorted((k["name"], k["id"]) for k in keys), len(posts), output[-4000:])
    assert len(posts) > len(RACE_BUILD_POLICIES) + len(RACE_BUILD_KEYS), "the race did not happen: " + context
    assert sorted(p["name"] for p in policies) == RACE_BUILD_POLICIES, context
    assert sorted(k["name"] for k in keys) == RACE_BUILD_KEYS, context
    assert returncode == 0 and all_ok(recap), context
    deleted = [r["path"] for r in log if r["method"] == "DELETE"]
    assert len(deleted) == len(set(deleted)) == len([r for r in posts if r["path"] == "/api/policies"]) - len(policies), context
    output, returncode, recap, dummy = run_forks(emu, tmp_path, RACE_BUILD, slow=0.0)
    assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, "a re-run failed or changed: " + output[-4000:]
    FIGURES.setdefault("concurrency", {})["a network of shared names in network_state, %s" % load] = (
        "%d forks: %d POSTs of policies and keys, one of each name kept, %d policies deleted, %.1fs" % (
            FORKS, len(posts), len(deleted), elapsed))


RACE_NESTED = ("    - name: Build the race network with what names it\n      nms.overlay.network_state:\n"
               "        groups: [{name: race-gw}, {name: race-users}]\n        networks:\n"
               "          - name: race-net\n            resources: [{name: race-wiki, address: 10.9.0.1, groups: [race-users]}]\n"
               "            routers: [{peer_groups: [race-gw], metric: 100, masquerade: true}]\n        policies:\n"
               "          - {name: race-to-wiki, rules: [{name: r, sources: [race-users], destination_resource: race-wiki}]}\n")


def test_ten_forks_nest_and_name_only_what_survives_in_network_state(current_emulator, tmp_path):
    """Issue 43, item 4 (one settle window per run): a kind that names a converging one waits until it converged. Ten
    forks build one network (servers let networks share a name) with a resource and a router nested in it, and a
    policy (a shared name too) whose rule names the resource: every answer 1 s late, so that every fork creates its own
    copy of each. Every fork ends ok; one network is left, holding the one resource and the one router; one policy is
    left, and its rule names the surviving resource, never one of a discarded copy's; a re-run changes nothing."""
    emu = current_emulator
    output, returncode, recap, elapsed = run_forks(emu, tmp_path, RACE_NESTED, slow=1.0)
    log = emu.requests()
    networks = [n for n in emu.api("GET", "/networks")[1] if n["name"] == "race-net"]
    policies = [p for p in emu.api("GET", "/policies")[1] if p["name"] == "race-to-wiki"]
    posts = [r for r in log if r["method"] == "POST" and r["path"] in ("/api/networks", "/api/policies")]
    failures = [line for line in output.splitlines() if line.startswith("fatal:")]
    context = "networks %s, policies %s after %d POSTs, failures:\n%s\n%s" % (
        [n["id"] for n in networks], [p["id"] for p in policies], len(posts), "\n".join(failures), output[-4000:])
    assert len(posts) > 2, "the race did not happen: " + context
    assert returncode == 0 and all_ok(recap), context
    assert len(networks) == 1 and len(policies) == 1, context
    kept = networks[0]["id"]
    resources = emu.api("GET", "/networks/%s/resources" % kept)[1]
    routers = emu.api("GET", "/networks/%s/routers" % kept)[1]
    assert [r["name"] for r in resources] == ["race-wiki"] and len(routers) == 1, (resources, routers, context)
    destination = policies[0]["rules"][0].get("destinationResource") or {}
    assert destination.get("id") == resources[0]["id"], (policies[0]["rules"][0], resources, context)
    output, returncode, recap, dummy = run_forks(emu, tmp_path, RACE_NESTED, slow=0.0)
    assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, "a re-run failed or changed: " + output[-4000:]
    FIGURES.setdefault("concurrency", {})["nested and named kinds in network_state"] = (
        "%d forks: %d POSTs of networks and policies, one of each kept, the rule names the kept resource, %.1fs" % (
            FORKS, len(posts), elapsed))


@pytest.mark.parametrize("load", LOADS)
def test_ten_forks_bootstrap_the_agent_network_settings(current_emulator, tmp_path, load):
    """Issue 44, defect 7: ten forks bootstrapping the Agent Network settings: all but one POST meet the server's
    409 'already bootstrapped' (as a real v0.77.1 answers), and each reads the settings again and converges on
    them instead of failing. Quiet and on a loaded machine; a re-run changes nothing."""
    emu = current_emulator
    with busy_machine(load):
        output, returncode, recap, elapsed = run_forks(emu, tmp_path, RACE_SETTINGS, slow=1.0)
    posts, refused = assert_one_bootstrap(emu, output, returncode, recap)
    output, returncode, recap, dummy = run_forks(emu, tmp_path, RACE_SETTINGS, slow=0.0)
    assert returncode == 0 and all_ok(recap) and changed_count(recap) == 0, "a re-run failed or changed: " + output[-4000:]
    FIGURES.setdefault("concurrency", {})["Agent Network bootstrap, %s" % load] = (
        "%d forks: %d POSTs (%d answered 409, reconciled), 1 changed, %.1fs" % (FORKS, len(posts), len(refused), elapsed))


@pytest.mark.parametrize("days", [7, 14])
def test_bootstrap_answered_409_is_reconciled(current_emulator, days):
    """In process and deterministic: the module reads the settings before another client bootstraps them; its
    bootstrap meets the 409; it reads them again and reconciles: an update when its options differ (the retention),
    none when they are the same. The addresses were set by the other bootstrap and stay."""
    emu = current_emulator
    # the version probe passes; the settings are answered at once and delivered 3 s later (the other bootstrap, made when
    # the read is seen in the log, has that long: a wide margin on a loaded machine)
    emu.set_faults({"queue": [{"delay": 0.0, "method": "GET"}, {"delay": 3.0, "method": "GET"}]})
    other = {}

    def bootstrap_elsewhere():
        deadline = time.monotonic() + 30
        while not any(r["method"] == "GET" and r["path"] == "/api/agent-network/settings" for r in emu.requests()) and (
                time.monotonic() < deadline):
            time.sleep(0.02)
        body = {"proxy_address": "eu.proxy.example.com", "access_log_retention_days": 7}
        other["answer"] = emu.api("POST", "/agent-network/settings", body)

    thread = threading.Thread(target=bootstrap_elsewhere)
    thread.start()
    args = dict(connection_of(emu), proxy_address="eu.proxy.example.com", access_log_retention_days=days)
    result = run_module("agent_network_settings", args, diff=True)
    thread.join()
    assert other["answer"][0] == 200, other
    log = emu.requests()
    context = "%s\nrequests: %s" % (describe(result), ["%s %s %s" % (r["method"], r["path"], r["status"]) for r in log])
    mine = [r["status"] for r in log if r["method"] == "POST"]
    assert sorted(mine) == [200, 409], "the module's bootstrap did not meet the 409: " + context
    assert not result.get("failed"), "a bootstrap answered 409 failed instead of being reconciled: " + context
    assert_clean_end("agent_network_settings", args, result)
    puts = [r for r in log if r["method"] == "PUT"]
    settings = emu.api("GET", "/agent-network/settings")[1]
    assert settings["endpoint"] == other["answer"][1]["endpoint"] and settings["access_log_retention_days"] == days
    assert result["agent_network_settings"]["access_log_retention_days"] == days, context
    if days != 7:
        assert result["changed"] and len(puts) == 1, "the differing retention is reconciled by one update: " + context
        assert result["diff"] == {"before": {"access_log_retention_days": 7}, "after": {"access_log_retention_days": days}}
    else:
        assert not result["changed"] and not puts, "identical settings need no update: " + context
