# -*- coding: utf-8 -*-
"""The JSON schemas of the event sources' arguments (extensions/eda/plugins/event_source/schemas/, as ansible.eda ships
its sources') and the Event-Driven Ansible controller credential type (extensions/eda/credential_type/).

A schema must say what the source says: every documented example (the plugins' EXAMPLES, docs/eda.md, the example
rulebooks rendered as ansible-rulebook renders them) validates, and for a table of good and bad arguments the schema
accepts exactly what the source's own check (Options) accepts. The credential type must be one EDA controller takes
(its rules for inputs and injectors) and its injectors, rendered as an activation renders them, must give the sources
what they read: NMS_API_URL, NMS_API_TOKEN, NMS_API_CA_PATH (the CA file written for the activation) and
validate_certs through the example rulebooks' arguments."""

from __future__ import annotations

import importlib.util
import json
import os
import re

import jinja2
import jinja2.nativetypes
import jsonschema
import pytest
import yaml

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EDA = os.path.join(REPO_ROOT, "extensions", "eda")
SOURCES = os.path.join(EDA, "plugins", "event_source")
RULEBOOKS = os.path.join(EDA, "rulebooks")
CREDENTIAL_TYPE = os.path.join(EDA, "credential_type")
TOKEN = "nbp_" + "s3cret" * 6
PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


def _load(name):
    spec = importlib.util.spec_from_file_location("nms_overlay_%s_schemas" % name, os.path.join(SOURCES, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PLUGINS = {name: _load(name) for name in ("audit_events", "peer_status")}


def schema(name):
    with open(os.path.join(SOURCES, "schemas", name + ".json"), encoding="utf-8") as handle:
        return json.load(handle)


def validator(name):
    return jsonschema.Draft202012Validator(schema(name))


def render(value, variables):
    """A source's arguments as ansible-rulebook renders them (jinja2's native types, undefined is an error)."""
    if isinstance(value, str):
        if "{{" not in value:
            return value
        return jinja2.nativetypes.NativeEnvironment(undefined=jinja2.StrictUndefined).from_string(value).render(variables)
    if isinstance(value, dict):
        return {key: render(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [render(item, variables) for item in value]
    return value


def sources_of(document):
    """(source name, arguments) of every nms.overlay source of a list of rulesets."""
    found = []
    for ruleset in document if isinstance(document, list) else []:
        for item in ruleset.get("sources", []) if isinstance(ruleset, dict) else []:
            for key, args in item.items():
                if key.startswith("nms.overlay."):
                    found.append((key.split(".")[-1], args or {}))
    return found


def accepted_by_options(name, args):
    try:
        PLUGINS[name].Options(dict(args), environ={"NMS_API_URL": "https://nms.example.com", "NMS_API_TOKEN": TOKEN})
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_the_schema_is_valid_and_names_each_argument_with_its_default(name):
    document = schema(name)
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema" and document["title"] == "nms.overlay." + name
    assert set(document["properties"]) == set(PLUGINS[name].ARGS)
    assert document["additionalProperties"] is False
    options = yaml.safe_load(PLUGINS[name].DOCUMENTATION)["options"]
    for key, prop in document["properties"].items():
        assert prop.get("default") == options[key].get("default"), key
        assert prop.get("title") and prop.get("description"), key


def test_the_connection_arguments_are_described_alike_in_both_schemas():
    audit, peers = schema("audit_events")["properties"], schema("peer_status")["properties"]
    for key in PLUGINS["audit_events"].CONNECTION_ARGS:
        assert audit[key] == peers[key], key


def documented_examples():
    """(where, source, arguments) of every documented use of a source: the plugins' EXAMPLES, docs/eda.md's YAML
    blocks, the example rulebooks (rendered with their defaults and the credential type's variable)."""
    found = []
    for name, plugin in PLUGINS.items():
        found += [("%s EXAMPLES" % name, source, render(args, {"NMS_API_TOKEN": TOKEN}))  # -E NMS_API_TOKEN
                  for source, args in sources_of(yaml.safe_load(plugin.EXAMPLES))]
    with open(os.path.join(REPO_ROOT, "docs", "eda.md"), encoding="utf-8") as handle:
        blocks = re.findall(r"```yaml\n(.*?)```", handle.read(), re.S)
    found += [("docs/eda.md", source, args) for block in blocks for source, args in sources_of(yaml.safe_load(block))]
    for file_name in sorted(os.listdir(RULEBOOKS)):
        with open(os.path.join(RULEBOOKS, file_name), encoding="utf-8") as handle:
            rulesets = yaml.safe_load(handle)
        for variables in ({}, {"nms_api_validate_certs": False, "nms_eda_interval": 30, "nms_eda_state_file": "/tmp/s.json"}):
            found += [(file_name, source, render(args, variables)) for source, args in sources_of(rulesets)]
    return found


def test_every_documented_example_validates():
    examples = documented_examples()
    assert {source for dummy, source, dummy2 in examples} == set(PLUGINS)
    with open(os.path.join(REPO_ROOT, "docs", "eda.md"), encoding="utf-8") as handle:
        uses = len(re.findall(r"^\s*- nms\.overlay\.\w+:", "".join(re.findall(r"```yaml\n(.*?)```", handle.read(), re.S)),
                              re.M))
    assert uses >= 2 and len([where for where, dummy, dummy2 in examples if where == "docs/eda.md"]) == uses
    for where, source, args in examples:
        errors = [error.message for error in validator(source).iter_errors(args)]
        assert not errors, (where, source, args, errors)
        assert accepted_by_options(source, {k: v for k, v in args.items() if k != "state_file"}), (where, args)


# (arguments, valid): the schema and the source's own check must agree on each
CASES = {
    "audit_events": [
        ({}, True), ({"api_url": "https://nms.example.com/api", "api_token": TOKEN}, True),
        ({"api_url": "http://127.0.0.1:8080"}, True), ({"api_url": "ftp://nms.example.com"}, False),
        ({"api_url": "https://user:pw@nms.example.com"}, False), ({"api_url": "https://nms.example.com/?a=1"}, False),
        ({"api_token": "has space"}, False), ({"api_token": "nbp_\u00e9"}, False),
        ({"validate_certs": False}, True), ({"validate_certs": "no"}, True), ({"validate_certs": "maybe"}, False),
        ({"interval": 15}, True), ({"interval": 0.5}, True), ({"interval": "2m"}, True), ({"interval": "30"}, True),
        ({"interval": 0}, False), ({"interval": -1}, False), ({"interval": "soon"}, False), ({"interval": True}, False),
        ({"timeout": 40 * 86400}, False), ({"start": "now"}, True), ({"start": "-1h"}, True),
        ({"start": "2026-01-10T08:00:00Z"}, True), ({"start": "2026-01-10T08:00:00.123456789+02:00"}, True),
        ({"start": "yesterday"}, False), ({"start": 5}, False),
        ({"activity_code": "peer.*"}, True), ({"activity_code": ["peer.*", "group.add"]}, True),
        ({"activity_code": [1]}, False), ({"activity_code": {"a": 1}}, False),
        ({"initiator_id": "u1", "initiator_email": "a@example.com"}, False), ({"initiator_email": "a@example.com"}, True),
        ({"target_id": ["x"]}, False), ({"overlap": 60}, False), ({"activity_codes": ["x"]}, False),
        ({"eda_source_name": "x"}, True), ({"state_file": None, "interval": None}, True),
    ],
    "peer_status": [
        ({}, True), ({"changes": "connected"}, True), ({"changes": ["connected", "disconnected"]}, True),
        ({"changes": ["online"]}, False), ({"changes": []}, False), ({"changes": [True]}, False),
        ({"report_initial": True}, True), ({"report_initial": "yes"}, True), ({"report_initial": "often"}, False),
        ({"interval": "1m30s"}, True), ({"interval": 0}, False), ({"start": "now"}, False),
        ({"activity_code": ["peer.*"]}, False), ({"api_url": "nms.example.com"}, False),
    ],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_schema_accepts_what_the_source_accepts_and_rejects_the_rest(name):
    check = validator(name)
    disagree = []
    for args, valid in CASES[name]:
        if check.is_valid(args) != valid or accepted_by_options(name, args) != valid:
            disagree.append((args, valid, check.is_valid(args), accepted_by_options(name, args)))
    assert not disagree, disagree


# --- the credential type ------------------------------------------------------------------------------------------
def credential_type():
    loaded = []
    for part in ("inputs", "injectors"):
        with open(os.path.join(CREDENTIAL_TYPE, part + ".yml"), encoding="utf-8") as handle:
            loaded.append(yaml.safe_load(handle))
    return loaded


def test_the_credential_type_follows_eda_controller_s_rules():
    """What EDA controller checks when a credential type is created: fields with a string id (letters, digits,
    underscores, not EDA_...) and label, of type string or boolean; required fields that exist; injectors of env,
    extra_vars and file only, file keys template.<name>, no extra var named eda or ansible, and every template
    rendering (undefined is an error) from the fields' defaults and the files' names."""
    inputs, injectors = credential_type()
    ids = [field["id"] for field in inputs["fields"]]
    assert len(ids) == len(set(ids))
    for field in inputs["fields"]:
        assert re.fullmatch(r"\w+", field["id"]) and not field["id"].upper().startswith("EDA_"), field
        assert isinstance(field["label"], str) and field.get("type", "string") in ("string", "boolean"), field
        assert all(isinstance(field.get(flag, False), bool) for flag in ("secret", "multiline")), field
    assert set(inputs["required"]) <= set(ids)
    fields = {field["id"]: field for field in inputs["fields"]}
    assert fields["api_token"]["secret"] is True and fields["ca_cert"]["multiline"] is True
    assert set(injectors) <= {"env", "extra_vars", "file"}
    assert all(re.fullmatch(r"template\.\w+", key) for key in injectors["file"])
    assert not set(injectors["extra_vars"]) & {"eda", "ansible"}
    context = {key: (True if field.get("type") == "boolean" else "") for key, field in fields.items()}
    context["eda"] = {"filename": {key.split(".", 1)[1]: "" for key in injectors["file"]}}
    for kind in ("env", "extra_vars", "file"):
        for key, template in injectors[kind].items():
            render(template, context)  # raises on an undefined name
    # the token is never an extra var (those can be shown with the activation)
    assert not any("api_token" in value for value in injectors["extra_vars"].values())


def test_the_fields_are_those_of_the_awx_credential_type():
    """One set of connection fields for both controllers: the AWX type's fields are the EDA type's (its own has the
    TLS verification switch too), with the same ids."""
    with open(os.path.join(REPO_ROOT, "awx", "credential_type", "inputs.yml"), encoding="utf-8") as handle:
        awx = yaml.safe_load(handle)
    inputs, dummy = credential_type()
    assert {field["id"] for field in awx["fields"]} <= {field["id"] for field in inputs["fields"]}
    assert awx["required"] == inputs["required"]


def activation(tmp_path, credential):
    """What EDA controller and ansible-rulebook make of the injectors for an activation with this credential: the
    files written (eda.filename.<name>), then the environment and the extra vars rendered."""
    inputs, injectors = credential_type()
    values = {field["id"]: field.get("default", False if field.get("type") == "boolean" else "")
              for field in inputs["fields"]}
    values.update(credential)
    names = {}
    for key, template in injectors["file"].items():
        path = tmp_path / key.split(".", 1)[1]
        path.write_text(str(render(template, values)), encoding="utf-8")
        names[key.split(".", 1)[1]] = str(path)
    context = dict(values, eda={"filename": names})
    env = {key: str(render(template, context)) for key, template in injectors["env"].items()}
    extra_vars = {key: render(template, context) for key, template in injectors["extra_vars"].items()}
    return env, extra_vars, names


@pytest.mark.parametrize("with_ca", [True, False], ids=["private CA", "public CA"])
def test_the_injectors_give_each_example_rulebook_s_source_its_connection(tmp_path, with_ca):
    credential = {"api_url": "https://nms.example.com", "api_token": TOKEN, "validate_certs": not with_ca}
    if with_ca:
        credential.update(ca_cert=PEM, validate_certs=True)
    env, extra_vars, files = activation(tmp_path, credential)
    assert env["NMS_API_URL"] == "https://nms.example.com" and env["NMS_API_TOKEN"] == TOKEN
    assert env["NMS_API_CA_PATH"] == (files["ca_cert"] if with_ca else "")
    if with_ca:
        assert open(files["ca_cert"], encoding="utf-8").read() == PEM
    count = 0
    for file_name in sorted(os.listdir(RULEBOOKS)):
        with open(os.path.join(RULEBOOKS, file_name), encoding="utf-8") as handle:
            rulesets = yaml.safe_load(handle)
        for source, args in sources_of(rulesets):
            rendered = render(args, extra_vars)
            assert validator(source).is_valid(rendered), (file_name, rendered)
            options = PLUGINS[source].Options(rendered, environ=env)
            assert (options.api_url, options.api_token) == ("https://nms.example.com", TOKEN), file_name
            assert options.ca_path == (files["ca_cert"] if with_ca else None), file_name
            assert options.validate_certs is credential["validate_certs"], file_name
            count += 1
    assert count == 6
