# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Hypothesis strategies: module argument sets derived from an Ansible argument_spec.

Each option is left out, given a plausible value of its type (names of seeded objects, numbers
near the usual limits, every choice), or given a hostile one (wrong type, out-of-range number,
unknown choice, strange string). Sometimes an unknown option is added. Connection options stay
pointed at the emulator, so that whatever is sent is logged there.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

CONNECTION = ("api_url", "api_token", "validate_certs", "ca_path", "timeout", "retries")

# names that exist in a fresh emulator account (so that some runs find, update or delete them)
KNOWN_NAMES = ["All", "Default", "owner@example.com", "owner-user", "servers", "web-1", "db-1", "developers"]

WEIRD_STRINGS = [
    "", " ", "  padded  ", "\t", "\n", "a\nb", "a\x00b", "\x7f", "\u200b", "\u00e9t\u00e9", "\u65e5\u672c",
    "\U0001f600", "x" * 300, "../../etc/passwd", "a/b", "a?b=c", "a#b", "%2F", "%00", "a b", "'; DROP TABLE x; --",
    "{{ lookup('env', 'HOME') }}", "None", "null", "true", "0", "-1", "1e309", "NaN", "*", "$(id)",
    "10.0.0.0/8", "300.1.1.1/33", "::1/200", "0.0.0.0/0", "example.com", "-leading.dash", "UPPER.Example.COM.",
]

BAD_TYPES = [
    {"nested": "dict"}, ["a", "list"], [1, 2], 3.5, -7, True, None, [{"x": 1}], {"": None}, 2 ** 70,
]

INTS = st.one_of(
    st.sampled_from([0, 1, -1, 2, 10, 53, 65535, 65536, 9999, 10000, 86400, 31536000, 31536001, 2 ** 31, 2 ** 63, -2 ** 63]),
    st.integers(min_value=-10 ** 6, max_value=10 ** 6),
)
FLOATS = st.one_of(st.sampled_from([0.0, -1.0, 0.5, 1.0, 5.0, 1e9]), st.floats(allow_nan=False, allow_infinity=False, width=32))
TEXT = st.one_of(
    st.sampled_from(KNOWN_NAMES),
    st.sampled_from(WEIRD_STRINGS),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40),
    st.from_regex(r"\A[a-z][a-z0-9-]{0,20}\Z"),
)


# Options whose values have a rule beyond their type (by the option's name, in every module and at any depth), with
# values each rule refuses (issue 44, point 8): an email, a port, a DNS name, a URL, a WireGuard key, a lifetime.
RULE_BAD_VALUES = (
    ("an email address", re.compile(r"^email$"), ["nobody", "@example.com", "a@"]),
    ("a port", re.compile(r"^(.+_)?port$"), [70000, -1]),
    ("a DNS name", re.compile(r"^(domain|dns_domain|target_cluster)$"), ["my domain.com", "a..example.com"]),
    ("DNS names", re.compile(r"^domains$"), [["my domain.com"]]),
    ("a URL", re.compile(r"^(issuer|upstream_url)$"), ["https://", "example.com", "https://a b.example.com"]),
    ("a WireGuard key", re.compile(r"^wg_pub_key$"), ["not-a-key", "!" * 43 + "=", "n0r3pL4c3h0ld3rK3yAAAAAAAAAAAAAAAAAAAAAAAA"]),
    ("a lifetime", re.compile(r"^expires_in$"), [-1]),
)
# what ansible-core would turn into a text silently: refused for every text option (issue 44, point 9)
NOT_TEXTS = [["a@example.com"], {"a": 1}]


def rule_of(name):
    """(the rule's name, bad values) of an option name with a rule (RULE_BAD_VALUES), else None."""
    for rule, pattern, values in RULE_BAD_VALUES:
        if pattern.match(name):
            return rule, values
    return None


def option_paths(argument_spec, prefix=()):
    """(path, spec) of every option and suboption: a path's steps are names, and 0 for a list's first element."""
    for name, spec in sorted(argument_spec.items()):
        path = prefix + (name,)
        yield path, spec
        if spec.get("options"):
            inner = path + (0,) if spec.get("type") == "list" else path
            yield from option_paths(spec["options"], inner)


def path_text(path):
    """('targets', 0, 'port') -> targets[0].port, as a failure names it."""
    text = ""
    for step in path:
        text += "[%d]" % step if isinstance(step, int) else ("." if text else "") + step
    return text


def _str_value(spec):
    return TEXT


def _scalar(type_name, spec):
    if type_name == "int":
        return st.one_of(INTS, st.sampled_from(["12", "x", "1.5", ""]))
    if type_name == "float":
        return st.one_of(FLOATS, INTS, st.sampled_from(["2.5", "x", "inf", "nan"]))
    if type_name == "bool":
        return st.one_of(st.booleans(), st.sampled_from(["yes", "no", "on", "maybe", 2, "", "True"]))
    if type_name in ("str", "path", "raw", None):
        return _str_value(spec)
    if type_name == "dict":
        return st.dictionaries(TEXT, st.one_of(TEXT, INTS, st.booleans()), max_size=3)
    if type_name == "list":
        return st.lists(TEXT, max_size=3)
    # jsonarg, bytes, bits and the like
    return TEXT


def value_for(spec, depth=0, name=None):
    """A plausible value for one option spec (four times in five) or a hostile one: a wrong type, and for an option
    with a rule by its ``name`` (RULE_BAD_VALUES) a value the rule refuses."""
    type_name = spec.get("type", "str")
    if callable(type_name):
        type_name = "raw"
    choices = spec.get("choices")
    plausible = []
    hostile = [st.sampled_from(BAD_TYPES)]
    if name is not None and rule_of(name):
        hostile.append(st.sampled_from(rule_of(name)[1]))
    if choices:
        plausible.append(st.sampled_from(list(choices)))
        hostile.append(st.sampled_from(["bogus", "", "PRESENT", " %s" % choices[0]] + WEIRD_STRINGS[:5]))
        if type_name == "list":
            plausible.append(st.lists(st.sampled_from(list(choices)), max_size=3))
            hostile.append(st.lists(st.sampled_from(list(choices) + ["bogus"]), min_size=1, max_size=4))
    elif type_name == "list":
        elements = spec.get("elements", "str")
        if elements == "dict" and spec.get("options") and depth < 3:
            element = suboptions_for(spec["options"], depth + 1)
        else:
            element = _scalar(elements, spec)
        plausible.append(st.lists(element, max_size=3))
        hostile.append(element)  # a single value where a list belongs (Ansible may split a str on commas)
        hostile.append(st.lists(st.sampled_from(BAD_TYPES), min_size=1, max_size=2))
    elif type_name == "dict" and spec.get("options") and depth < 3:
        plausible.append(suboptions_for(spec["options"], depth + 1))
    else:
        plausible.append(_scalar(type_name, spec))

    @st.composite
    def pick(draw):
        if draw(st.integers(0, 4)) == 0:
            return draw(st.one_of(hostile))
        return draw(st.one_of(plausible))
    return pick()


def suboptions_for(options, depth):
    """A dict for an option with suboptions (a policy rule, a nameserver, ...)."""
    names = sorted(options)

    @st.composite
    def build(draw):
        value = {}
        for name in names:
            sub = options[name]
            if sub.get("required") or draw(st.integers(0, 2)) == 0:
                if sub.get("required") and draw(st.integers(0, 9)) == 0:
                    continue  # now and then a required suboption is missing
                value[name] = draw(value_for(sub, depth, name))
        if draw(st.integers(0, 9)) == 0:
            value["unknown_suboption"] = draw(TEXT)
        return value
    return build()


@st.composite
def module_args(draw, captured, connection):
    """An argument set for a module: connection options from ``connection`` plus generated options.

    ``captured`` is what the module hands to AnsibleModule (argument_spec, required_one_of, ...):
    most sets respect its required_one_of and mutually_exclusive rules, some do not.
    """
    argument_spec = captured["argument_spec"]
    args = dict(connection)
    for name in sorted(argument_spec):
        spec = argument_spec[name]
        if name in ("api_url", "api_token"):
            continue
        if name in CONNECTION:
            # now and then a strange connection setting; mostly the fast defaults of ``connection``
            if draw(st.integers(0, 19)) == 0:
                if name == "timeout":
                    args[name] = draw(st.sampled_from([0, -1, 0.0001, "x", 1e9, None, [1]]))
                elif name == "retries":
                    args[name] = draw(st.sampled_from([-1, 0, 1, "x", 1.5, None]))
                elif name == "ca_path":
                    args[name] = draw(st.sampled_from(["/nonexistent/ca.pem", "", "/etc/hostname", None]))
                else:
                    args[name] = draw(value_for(spec))
            continue
        weight = 3 if spec.get("required") else 2
        if draw(st.integers(0, 4)) < weight:
            args[name] = draw(value_for(spec, name=name))
    if draw(st.integers(0, 9)) > 0:  # keep the rules, mostly
        for group in captured.get("mutually_exclusive") or ():
            present = [option for option in group if option in args]
            for option in present[1:]:
                del args[option]
        for group in captured.get("required_one_of") or ():
            if not any(option in args for option in group):
                option = draw(st.sampled_from(list(group)))
                args[option] = draw(value_for(argument_spec[option]))
    if draw(st.integers(0, 14)) == 0:
        args[draw(st.sampled_from(["bogus_option", "nmae", "State", "peers_ids", "api-token"]))] = draw(TEXT)
    return args


def spec_errors(captured, args):
    """The errors AnsibleModule's own validation finds in ``args`` (empty when it accepts them)."""
    from ansible.module_utils.common.arg_spec import ArgumentSpecValidator  # pylint: disable=import-outside-toplevel
    validator = ArgumentSpecValidator(
        captured["argument_spec"],
        mutually_exclusive=captured.get("mutually_exclusive"),
        required_together=captured.get("required_together"),
        required_one_of=captured.get("required_one_of"),
        required_if=captured.get("required_if"),
        required_by=captured.get("required_by"),
    )
    try:
        result = validator.validate(dict(args))
    except (TypeError, ValueError, AttributeError) as exc:  # ansible-core itself trips over some shapes
        return ["the argument spec validator raised %s: %s" % (type(exc).__name__, exc)]
    return [str(error) for error in result.errors]
