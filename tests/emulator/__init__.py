"""Stateful emulator of the management REST API, for tests and the demo.

Stdlib only; it never imports the collection's code so that a mistake in the
collection is not mirrored here. See README.md for usage.
"""
