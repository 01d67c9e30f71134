# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The floor of an unchanged task as a module process (`make bench` only): a module that does nothing but read the
same lists with ``requests``. No module of the collection can cost less than this and still use ``requests``. The
controller's floor (../action/requests_floor.py) makes the same reads with ``read_lists``."""

from __future__ import annotations

import os

import requests

from ansible.module_utils.basic import AnsibleModule


def read_lists(paths):
    """GET each path of the API of NMS_API_URL with NMS_API_TOKEN, as the modules read it; the length of each answer."""
    session = requests.Session()
    session.headers.update({'Accept': 'application/json', 'Authorization': 'Token ' + os.environ['NMS_API_TOKEN']})
    lengths = []
    for path in paths:
        response = session.get(os.environ['NMS_API_URL'].rstrip('/') + path, timeout=30)
        response.raise_for_status()
        lengths.append(len(response.json()))
    return lengths


def main():
    module = AnsibleModule(argument_spec={'paths': {'type': 'list', 'elements': 'str', 'required': True}},
                           supports_check_mode=True)
    module.exit_json(changed=False, lengths=read_lists(module.params['paths']))


if __name__ == '__main__':
    main()
