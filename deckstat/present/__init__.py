"""Presenting results: numbers as text, CSV and JSON (``format``), figures (``plots``), the deck report (``report``).

Layer rule: no statistics here. Modules read results and write text, files
and figures; they compute no probability and import nothing from
``deckstat.engines``. ``plots`` (its ``visuals`` toolkit and one module per
figure family) is the only package of deckstat that imports matplotlib, and
only :mod:`deckstat.cli` and ``report`` import ``plots``.
"""
