# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """What every module of the collection documents alike. A module names this fragment (the connection options and the
    attributes of every module), one variant of RESOURCE or INFO_MODULE, and the variants of the engine behaviours it
    has: BY_ID_OR_NAME, CONVERGE, CURRENT_SERVERS (tests/unit/test_doc_fragment.py derives which from the engine).
    ansible-test reads each as a literal."""

    DOCUMENTATION = r'''
author:
  - nms.overlay contributors (@nms-overlay)
options:
  api_url:
    description:
      - Base URL of the management API, for example C(https://nms.example.com) or C(https://nms.example.com/api).
      - A trailing C(/api) is optional.
      - If not set, the value of the E(NMS_API_URL) environment variable is used. One of them must be set; a task
        without either fails, naming both.
    type: str
  api_token:
    description:
      - Personal access token of the user the module acts as.
      - Sent in the C(Authorization) header and never shown in output or error messages.
      - If not set, the value of the E(NMS_API_TOKEN) environment variable is used. One of them must be set; a task
        without either fails, naming both.
    type: str
  validate_certs:
    description:
      - Whether to verify the server's TLS certificate.
      - Set to V(false) only for tests; the module then warns on every run.
    type: bool
    default: true
  ca_path:
    description:
      - Path of a PEM file with the CA certificate(s) that signed the server certificate.
      - Use it for servers with a private CA instead of turning O(validate_certs) off.
      - If not set, the value of the E(NMS_API_CA_PATH) environment variable is used (an empty value counts as not
        set). The AWX credential type of the collection sets it when its CA certificate field is filled in.
      - A relative path is taken in the directory C(ansible-playbook) (or C(ansible)) runs in when the module runs on
        the controller, whether in the controller's process or as a module process there (which ansible-core starts in
        the playbook's directory); on another host, in that host's working directory. A relative E(NMS_API_CA_PATH)
        is taken the same way.
    type: path
  timeout:
    description:
      - Seconds one try of an HTTP request may take as a whole, before it counts as failed and (see O(retries)) may
        be tried again. It bounds everything from connecting to the last byte of the answer, so a server that
        sends its answer slowly cannot hold the task longer.
      - "With retries, one request takes at most O(timeout) x (O(retries) + 1) plus the pauses between the tries:
        with the defaults 4 x 30 s + 3.5 s of backoff, or up to 4 x 30 s + 3 x 60 s when the server asks for
        the longest C(Retry-After) waits. A task may send several requests."
    type: float
    default: 30
  retries:
    description:
      - An HTTP 429 (a rate limit) is waited out without counting as a retry, for at most 600 s in all for one
        request; see the collection's rate limits guide (docs/rate-limits.md).
      - V(GET), V(PUT) and V(DELETE) are retried with exponential backoff (0.5 s, doubling, at most 10 s), or after
        the wait the server asks for in C(Retry-After) (seconds or an HTTP date, at most 60 s).
      - A V(POST) is repeated by the client only when the connection could not be made, so the server cannot have
        received it.
      - A create that failed with HTTP 429, 500, 502, 503, 504 or without an answer is sent again only after a fresh
        read shows that it was not made (if it was, that object is used), so an object is never created twice.
      - Every retry and every wait shows as a warning naming the failure and the wait, so that a long
        C(Retry-After) wait is not mistaken for a hang. When the last try fails too, the error counts the tries.
      - A failure, retry line or warning that quotes the server's answer never shows a value the task sends that
        is not shown (O(api_token), any option marked as not logged, such as a client secret or an API key). It is
        masked as C(********), also where the answer quotes the request body JSON-escaped.
    type: int
    default: 3
notes:
  - Redirects are never followed, so the token is only ever sent to O(api_url).
  - A proxy is used as C(requests) uses one, from the environment (the task's C(environment) included)
    E(HTTPS_PROXY) or E(HTTP_PROXY), unless E(NO_PROXY) names the server. With O(validate_certs) and no O(ca_path),
    a CA bundle named by E(REQUESTS_CA_BUNDLE) or E(CURL_CA_BUNDLE) is used. A C(~/.netrc) file is never read, so
    its login is never sent in place of the token.
  - A failed request names the method, the full URL (scheme, host, port and path, never the token) and the HTTP
    status. An HTTP 404 that does not come from the API (no JSON message) means that O(api_url) points at
    something else, and the message says so.
  - Use C(module_defaults) with the action group C(group/nms.overlay.all) to set the connection options once per play.
attributes:
  action:
    description: >-
      Has an action plugin. When the task runs on the controller with the controller's own Python
      (C(hosts: localhost) or C(delegate_to: localhost)), the module runs inside the controller's task
      worker instead of a new process, which saves most of a task's cost. Set the variable
      C(nms_overlay_in_process) to C(false) to always run it as a process.
    support: full
    details: >-
      Another connection or interpreter, C(become), C(async) and C(ANSIBLE_KEEP_REMOTE_FILES) run the
      module as a process, as usual.
  action_group:
    description: Use C(group/nms.overlay.all) in C(module_defaults) to set the connection options.
    support: full
    membership:
      - nms.overlay.all
'''

    # Resource modules: full check mode and diff.
    RESOURCE = r'''
attributes:
  check_mode:
    description: Can run in check mode and return the changes it would make, without sending any write.
    support: full
  diff_mode:
    description: Returns the managed fields before and after the change when run with C(--diff).
    support: full
'''

    # Info modules: read only.
    INFO_MODULE = r'''
attributes:
  check_mode:
    description: Reads only, so it runs the same in check mode.
    support: full
    details: This is an information module; it never changes anything.
  diff_mode:
    description: Nothing changes, so there is no diff.
    support: N/A
'''

    # Info modules whose filters are the default pair: id, or the name.
    BY_ID_OR_NAME = r'''
options:
  id:
    description:
      - Return only the one with this id. An unknown id returns an empty list.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Return only those with this name.
      - Mutually exclusive with O(id).
    type: str
'''

    # Kinds whose natural key the server does not keep unique (the engine's converge).
    CONVERGE = r'''
options: {}
notes:
  - Where the server lets several objects share what this module finds them by, tasks on many hosts that create
    the same one at once (a task without C(run_once)) each list again after their create, and all converge on the
    copy with the lowest id; the others remove their own copy and warn. See "Many hosts, one resource" in the
    getting started guide.
'''

    # Kinds only servers after v0.27 have (the kind's requires).
    CURRENT_SERVERS = r'''
options: {}
notes:
  - Only servers after v0.27 have what this module manages, from the NetBird release that brought it
    (C(docs/compatibility.md), Releases, names it for each module). An older server makes the task fail after one request
    (C(GET /api/instance/version)), before any other, naming that release. A server before v0.64.2 has no such
    request and counts as v0.27.
'''

    # Kinds whose value the server shows once, in the answer to the create (setup keys, tokens; network_state).
    CREATED_SECRETS = r'''
options:
  return_created_secrets:
    description:
      - Whether the value of a setup key, token or invite link this task creates (the owner's token of the instance's
        setup too) is in its result.
      - A result that holds a created value is hidden from Ansible's output, as the result of a task with
        C(no_log) is, at any verbosity and in AWX job events, both when the module runs in the controller and as a
        module process. The task shows as C(changed) with the rest of its result hidden (its warnings are still
        shown). C(register) gets the whole result, value included, for later tasks to use.
      - C(async) is refused for a task that may create a value (any C(state) but V(absent)), before any request,
        because ansible-core shows an async task's result to every callback and keeps it in the job's file.
      - With V(false), the value is left out of the result, which is then shown as usual; give
        O(created_secrets_file) to keep it. With V(false) and no O(created_secrets_file), a created value is lost
        (the task warns).
    type: bool
    default: true
  created_secrets_file:
    description:
      - A JSON file into which each value this task creates is written as soon as it is created, readable by
        its owner only (mode C(0600)). Setup keys go under C(setup_keys.<name>), tokens under
        C(tokens.<user>/<name>), invite links under C(user_invites.<email>), as an object with C(id), C(key) and
        C(server) (the API URL that created it, without C(/api)). Entries already in the file are kept. A file
        that holds values of another server is refused before the first request, since one of the same name would
        replace that value, which no server shows again. Use one file per server.
      - A relative path is taken in the directory C(ansible-playbook) (or C(ansible)) runs in, whether the module
        runs in the controller or as a module process there; never next to the playbook, which may be an installed
        collection or a checkout that gets committed. A module that runs on another host needs an absolute path
        (the task fails before any request otherwise).
      - The file is checked before the task's first request, in check mode too. A missing directory, a symbolic
        link, something other than a regular file, or content that is not such a JSON object fail the task before
        anything is created, and the file is left as it is.
      - Each value is added under an exclusive lock of the file's directory (no lock file is left), so tasks on many
        hosts (forks) and parallel runs writing into one file keep every value. The new content is written to a
        new file that replaces the old one, so a reader never sees half a file. Nothing is written in check mode.
    type: path
notes:
  - "Keeping a created value: register the result and use it in the same play (hand it to the host it enrolls,
    store it in a vault), or set O(created_secrets_file). Under AWX or Automation Controller a job's files are
    thrown away with its container: see the collection's AWX guide (docs/awx.md, \"Keeping created setup keys\")."
'''
