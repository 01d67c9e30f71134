#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r'''
module: location_info
short_description: List the countries and cities known to the geo-location feature
version_added: 1.0.0
description:
  - Without O(country), returns the countries the server knows, for example to write the
    C(geo_location_check) of a posture check.
  - With O(country), returns the cities of that country.
  - The server needs its geo-location database for both. A server without one answers HTTP 412, and the
    module fails saying so.
  - Servers answer in different shapes (countries as plain codes or as objects with a name; cities as a
    list or a single object). The module always returns the normalised lists described below.
options:
  country:
    description:
      - ISO 3166-1 alpha-2 code of the country whose cities to list, for example V(DE).
      - Two letters; lower case is accepted and upper-cased. An unknown code returns no cities.
    type: str
notes:
  - Only users with admin power (and no service user with the role C(user)) may read locations.
seealso:
  - module: nms.overlay.posture_check
extends_documentation_fragment: [nms.overlay.module, nms.overlay.module.info_module]
'''

EXAMPLES = r'''
- name: List the countries known to the server
  nms.overlay.location_info:
  register: geo

- name: Show the country codes
  ansible.builtin.debug:
    msg: "{{ geo.countries | map(attribute='country_code') | list }}"

- name: List the cities of Germany
  nms.overlay.location_info:
    country: de
  register: german

- name: Show the city names
  ansible.builtin.debug:
    msg: "{{ german.cities | map(attribute='city_name') | list }}"
'''

RETURN = r'''
countries:
  description:
    - The countries, each with C(country_code) (upper case) and, when the server sends it, C(country_name).
  returned: when O(country) is not set
  type: list
  elements: dict
  contains:
    country_code:
      description: ISO 3166-1 alpha-2 code.
      type: str
      sample: DE
    country_name:
      description: English name of the country (not sent by every server).
      type: str
      returned: when the server sends it
      sample: Germany
  sample: [{country_code: DE, country_name: Germany}, {country_code: FR, country_name: France}]
country:
  description: The country code whose cities were listed, upper case.
  returned: when O(country) is set
  type: str
  sample: DE
cities:
  description: The cities of O(country), each with C(geoname_id) and C(city_name); empty for an unknown country.
  returned: when O(country) is set
  type: list
  elements: dict
  contains:
    geoname_id:
      description: GeoNames id of the city.
      type: int
      sample: 2950159
    city_name:
      description: English name of the city.
      type: str
      sample: Berlin
  sample: [{geoname_id: 2950159, city_name: Berlin}]
'''

import re

from ansible_collections.nms.overlay.plugins.module_utils._bytecode import compile_once

compile_once()  # before the other imports of the collection: they load the code an earlier task compiled

from ansible_collections.nms.overlay.plugins.module_utils._client import NUMBER, TEXT, ApiError, describe_shape
from ansible_collections.nms.overlay.plugins.module_utils._compare import unwrap_items
from ansible_collections.nms.overlay.plugins.module_utils._errors import TaskError
from ansible_collections.nms.overlay.plugins.module_utils._task import NmsModule

COUNTRY_CODE = re.compile(r'^[A-Za-z]{2}$')


def normalise_countries(data):
    """Countries as [{country_code, country_name?}] from strings or objects."""
    result = []
    for item in unwrap_items(data) or []:
        if isinstance(item, dict):
            code = item.get('country_code')
            if not code:
                continue
            country = {'country_code': str(code).upper()}
            if item.get('country_name'):
                country['country_name'] = item['country_name']
            result.append(country)
        elif item:
            result.append({'country_code': str(item).upper()})
    return result


def normalise_cities(data):
    """Cities as [{geoname_id, city_name}] from a list or a single object."""
    data = unwrap_items(data)
    if isinstance(data, dict):
        data = [data] if data else []
    result = []
    for item in data or []:
        if not isinstance(item, dict) or not item.get('city_name'):
            continue
        geoname_id = item.get('geoname_id')
        try:
            geoname_id = int(geoname_id)
        except (TypeError, ValueError):
            pass
        result.append({'geoname_id': geoname_id, 'city_name': item['city_name']})
    return result


class LocationInfoModule(NmsModule):
    api_operations = ('GET /api/locations/countries', 'GET /api/locations/countries/{country}/cities')
    argument_spec = dict(country=dict(type='str'))
    answers = dict(country_code=TEXT, country_name=TEXT, city_name=TEXT, geoname_id=NUMBER)

    def get(self, path, shapes):
        """The answer at path, which must be null or one of shapes (after unwrapping {"items": ...})."""
        try:
            data = unwrap_items(self.client.get(path))
        except ApiError as exc:
            if exc.status == 412:
                raise TaskError('the server has no geo-location database, so it knows no countries or cities '
                                '(%s); install the database on the server or leave geo-location out' % exc) from None
            raise
        if data is not None and not isinstance(data, shapes):
            raise self.client.answer_error('GET', path, 'the answer is %s where a list was expected' % describe_shape(data))
        return data

    def run(self):
        country = self.params.get('country')
        if country is None:
            return {'changed': False, 'countries': normalise_countries(self.get('/locations/countries', list))}
        country = country.strip()
        if not COUNTRY_CODE.match(country):
            raise TaskError("country: '%s' is not a two-letter ISO 3166-1 alpha-2 code (for example DE)" % country)
        country = country.upper()
        try:
            cities = normalise_cities(self.get('/locations/countries/%s/cities' % country, (list, dict)))
        except ApiError as exc:
            if exc.status != 404:
                raise
            cities = []  # some servers answer 404 for a country without cities
        return {'changed': False, 'country': country, 'cities': cities}


if __name__ == '__main__':
    LocationInfoModule.main()
