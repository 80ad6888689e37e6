"""Figures of deckstat results, for players.

Every function here only draws: it receives a result made by the API
(:class:`~deckstat.results.OddsResult`, :class:`~deckstat.results.WhenResult`,
:class:`~deckstat.results.RatioResult`, :class:`~deckstat.results.DeckoutResult`,
:class:`~deckstat.results.CompareResult` or
:class:`~deckstat.results.MulliganResult`; odds and comparisons also as a bare
table, e.g. several results' tables joined with ``pd.concat``), computes
nothing statistical, and returns the matplotlib Axes it drew on. Names, rules
and counts come from the tables' columns and the result's ``provenance``; a
bare table's ``attrs`` stand in for the provenance. Pass ``ax`` to draw into
an existing figure; without it a new figure is created. :func:`save` writes a
figure to PNG or SVG and closes it; :func:`png_bytes` gives the same PNG as bytes.

This is the only package of deckstat that imports matplotlib, and the rest
of deckstat imports it only inside the functions that draw (the CLI's
``--plot``, reports): ``import deckstat`` does not load matplotlib.

``visuals`` holds what the figures share (numbers on the axes, axes, titles,
colours and line styles, legends and labels, :func:`save`); each figure
family has its module: ``odds``, ``when``, ``curve``, ``ratio``,
``deckout``, ``compare``, ``mulligan`` and ``batch``.

Conventions shared by every figure:

- Text is written in the current language (:mod:`deckstat.i18n`), tick labels
  included (``87,5 %`` in French).
- A probability axis fits the values drawn and their intervals, with a
  margin, within 0–100 %, ticked at steps of 1, 2, 2.5 or 5 times a power of
  ten. It starts at 0 % unless the values leave more than a third of it
  empty below them; when it does not start at 0 %, its label says so.
  Differences of probabilities are in percentage points (``+1.2 pp``).
- Values written next to points never overlap one another, the points or a
  target line: a value that finds no free place is left out.
- A legend that would cover a point, or take too much of the axes, goes below them.
- Turns are whole numbers; colours come from the colour-blind-safe ``tab10``
  palette; the first and second player are told apart by line style and
  marker as well as colour, and drawn as one line when their results are
  identical, so that neither hides the other. Shaded bands and error bars are
  95% intervals of simulated results; exact results have none.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import deckstat
>>> from deckstat.present import plots
>>> deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
>>> ax = plots.plot_odds(deckstat.odds(deck, "wankul", "Terrain>=1"))
>>> print(ax.get_title())
P(Terrain>=1) among the cards seen by turn, both players (same odds)
sample_deck.csv · wankul · bottom mulligan, keep if Terrain>=1 · exact
>>> print(ax.get_ylabel())
Probability
(axis does not start at 0%)
>>> with tempfile.TemporaryDirectory() as folder:
...     print(plots.save(ax, Path(folder) / "terrain.png").name)
terrain.png
"""

from __future__ import annotations

from deckstat.present.plots.batch import BATCH_CURVES, plot_batch
from deckstat.present.plots.compare import plot_compare
from deckstat.present.plots.curve import plot_curve
from deckstat.present.plots.deckout import plot_deckout
from deckstat.present.plots.mulligan import plot_mulligan
from deckstat.present.plots.odds import plot_odds
from deckstat.present.plots.ratio import plot_ratio
from deckstat.present.plots.visuals import (
    AXIS_NOTE,
    PointsFormatter,
    ProbabilityFormatter,
    _merge_identical_seats,  # noqa: F401  (the name earlier code reads)
    close,
    png_bytes,
    probability_limits,
    save,
)
from deckstat.present.plots.when import plot_when

__all__ = ["AXIS_NOTE", "BATCH_CURVES", "PointsFormatter", "ProbabilityFormatter", "close", "plot_batch",
           "plot_compare", "plot_curve", "plot_deckout", "plot_mulligan", "plot_odds", "plot_ratio", "plot_when",
           "png_bytes", "probability_limits", "save"]
