"""Presenting results: numbers as text, CSV and JSON (``format``), figures (``plots``), the deck report (``report``).

Layer rule: no statistics here. Modules read results and write text, files
and figures; they compute no probability and import nothing from
``deckstat.engines``. ``plots`` is the only module of deckstat that imports
matplotlib, and only :mod:`deckstat.cli` and ``report`` import ``plots``.
"""
