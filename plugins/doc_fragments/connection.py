# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """Connection options shared by every module of the collection."""

    DOCUMENTATION = r'''
options:
  api_url:
    description:
      - Base URL of the management API, for example C(https://nms.example.com) or C(https://nms.example.com/api).
      - A trailing C(/api) is optional.
      - If not set, the value of the E(NMS_API_URL) environment variable is used.
    type: str
    required: true
  api_token:
    description:
      - Personal access token of the user the module acts as.
      - Sent in the C(Authorization) header and never shown in output or error messages.
      - If not set, the value of the E(NMS_API_TOKEN) environment variable is used.
    type: str
    required: true
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
    type: path
  timeout:
    description:
      - Seconds to wait for each HTTP request before it counts as failed.
    type: float
    default: 30
  retries:
    description:
      - How many times a request is retried after a connection error or an HTTP 429, 502, 503 or 504 answer.
      - V(GET), V(PUT) and V(DELETE) are retried with exponential backoff (0.5 s, doubling, at most 10 s), or after
        the wait the server asks for in C(Retry-After) (seconds or an HTTP date, at most 60 s).
      - A V(POST) is repeated by the client only when the connection could not be made, so the server cannot have
        received it.
      - A create that failed with HTTP 429, 500, 502, 503, 504 or without an answer is sent again only after a fresh
        read shows that it was not made (if it was, that object is used), so an object is never created twice.
    type: int
    default: 3
notes:
  - Redirects are never followed, so the token is only ever sent to O(api_url).
  - Use C(module_defaults) with the action group C(group/nms.overlay.all) to set the connection options once per play.
'''
