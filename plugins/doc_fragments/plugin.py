# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """The connection options of the collection's plugins that read the server in the controller (the lookup
    nms.overlay.nms, the inventory nms.overlay.peers): those of its modules, with the environment variables declared
    for ansible-core's configuration (a plugin's options come from it; a module reads them itself). ansible-test reads
    it as a literal."""

    DOCUMENTATION = r'''
options:
  api_url:
    description:
      - Base URL of the management API, for example C(https://nms.example.com) or C(https://nms.example.com/api).
      - A trailing C(/api) is optional.
    type: str
    env:
      - name: NMS_API_URL
  api_token:
    description:
      - Personal access token of the user the plugin reads as. Prefer the environment variable over writing it into
        a template or a file.
      - Sent in the C(Authorization) header and never shown in output or error messages.
    type: str
    env:
      - name: NMS_API_TOKEN
  validate_certs:
    description:
      - Whether to verify the server's TLS certificate.
      - Set to V(false) only for tests; the plugin then warns every time it reads from the server.
    type: bool
    default: true
  ca_path:
    description:
      - Path of a PEM file with the CA certificate(s) that signed the server certificate.
      - Use it for servers with a private CA instead of turning O(validate_certs) off.
      - If not set, the value of the E(NMS_API_CA_PATH) environment variable is used (an empty value counts as not
        set), as for the collection's modules. The AWX credential type of the collection sets it when its CA
        certificate field is filled in.
    type: path
  timeout:
    description:
      - Seconds one try of an HTTP request may take as a whole (connecting, the answer and all of its body), before it
        counts as failed and (see O(retries)) may be tried again.
    type: float
    default: 30
  retries:
    description:
      - How many times a request is retried after a connection error, a timeout or an HTTP 429, 502, 503 or 504
        answer, after a pause of 0.5 s doubling up to 10 s, or the wait the server asks for in C(Retry-After) (at
        most 60 s). Each retry and wait is shown as a warning.
      - One request takes at most O(timeout) x (O(retries) + 1) plus the pauses.
    type: int
    default: 3
'''
