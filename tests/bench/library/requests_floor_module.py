# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The floors of an unchanged task as a module process (`make bench` only): a module that does nothing but read the
same lists with ``requests``, and with ``options_model: true`` first validates its options with the smallest pydantic
model. No module of the collection can cost less than the first and still use ``requests``, nor less than the second
and still validate its options with pydantic. The controller's floors (../action/requests_floor.py and
pydantic_floor.py) do the same with ``read_lists`` and ``options_model``."""

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


def options_model():
    """The least a kind that validates its options with pydantic imports and builds: a model of one option with one
    rule. Imported only when asked for, so that the requests floor does not pay for it."""
    # pylint: disable-next=import-outside-toplevel
    from pydantic import BaseModel, field_validator

    class PathsOptions(BaseModel):
        paths: list

        @field_validator('paths')
        @classmethod
        def _absolute(cls, value):
            if not all(path.startswith('/') for path in value):
                raise ValueError('every path starts with /')
            return value

    return PathsOptions


def main():
    module = AnsibleModule(argument_spec={'paths': {'type': 'list', 'elements': 'str', 'required': True},
                                          'options_model': {'type': 'bool', 'default': False}},
                           supports_check_mode=True)
    if module.params['options_model']:
        options_model().model_validate({'paths': module.params['paths']})
    module.exit_json(changed=False, lengths=read_lists(module.params['paths']))


if __name__ == '__main__':
    main()
