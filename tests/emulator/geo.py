"""A small built-in geo-location data set (stands in for the GeoNames database)."""

from __future__ import annotations

# code -> (English name, [(geoname_id, city name)]), cities sorted by name
COUNTRIES: dict[str, tuple[str, list[tuple[int, str]]]] = {
    "DE": ("Germany", [(2950159, "Berlin"), (2925533, "Frankfurt am Main"), (2867714, "Munich")]),
    "FR": ("France", [(2996944, "Lyon"), (2988507, "Paris")]),
    "GB": ("United Kingdom", [(2643743, "London"), (2643123, "Manchester")]),
    "NL": ("Netherlands", [(2759794, "Amsterdam"), (2747891, "Rotterdam")]),
    "US": ("United States", [(5128581, "New York"), (5391959, "San Francisco"), (5809844, "Seattle")]),
}


def countries_by_name() -> list[tuple[str, str]]:
    """(code, name) sorted by country name, like the reference's GROUP BY country_name."""
    return sorted(((code, value[0]) for code, value in COUNTRIES.items()), key=lambda item: item[1])
