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
figure to PNG or SVG and closes it.

This is the only module of deckstat that imports matplotlib, and the rest
of the package imports it only inside the functions that draw (the CLI's
``--plot``, reports): ``import deckstat`` does not load matplotlib.

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

import math
import textwrap
from collections.abc import Iterable
from pathlib import Path, PurePath

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import Formatter, MaxNLocator, MultipleLocator, PercentFormatter
from matplotlib.transforms import Bbox, ScaledTranslation

from deckstat.errors import DeckstatError
from deckstat.games.profiles import localized
from deckstat.i18n import N_, NBSP, french_typography, get_language, language, localise_number, number, tr, trn
from deckstat.present.files import atomic_write
from deckstat.present.format import BOTH_SEATS, format_probability, merge_alike_seats, ratio_where
from deckstat.present.markup import figure_text
from deckstat.results import (
    CompareResult,
    CurveResult,
    DeckoutResult,
    MulliganResult,
    OddsResult,
    RatioResult,
    WhenResult,
)
from deckstat.terms import MULLIGAN_NAMES, PLAY_POLICY_NAMES, name_of

__all__ = ["AXIS_NOTE", "PointsFormatter", "ProbabilityFormatter", "plot_batch", "plot_compare", "plot_curve",
           "plot_deckout", "plot_mulligan", "plot_odds", "plot_ratio", "plot_when", "save", "close"]

COLORS = tuple(matplotlib.colormaps["tab10"].colors)
SEAT_STYLES = {"first": ("-", "o"), "second": ("--", "s"), "both": ("-", "o")}
OTHER_STYLES = (("-.", "^"), (":", "D"), ("-", "v"))
#: A probability ``what`` and where its cards are, for each zone of an odds result.
ZONE_WORDS = {"seen": N_("{what} among the cards seen"), "hand": N_("{what} in the kept opening hand"),
              "set_aside": N_("{what} among the set-aside cards"),
              "bottom": N_("{what} among the cards put under the deck")}
SEAT_WORDS = {"first": N_("first player"), "second": N_("second player")}
INTERVAL_LABEL = N_("95% interval (simulated)")
TURN_LABEL = N_("Turn (0 = kept opening hand)")
#: What a probability axis's label adds when the axis does not start at 0 %.
AXIS_NOTE = N_("axis does not start at 0%")
SAVE_FORMATS = {".png": "png", ".svg": "svg"}
TITLE_WIDTH = 80
#: The narrowest range of probabilities an axis shows: flat lines are not magnified into noise.
MIN_SPAN = 0.05
#: Share of a deck-out's games on one turn above which the figure states that turn in words instead of a curve.
NEARLY_ONE_TURN = 0.99
#: Legends with more entries than this go below the axes rather than over them.
LEGEND_INSIDE_MAX = 5


# --- numbers on the axes --------------------------------------------------------------------------------------

def _percent(p: float) -> str:
    """A probability as :func:`~deckstat.present.format.format_probability` writes it, in the current language."""
    text = format_probability(p)
    # Only English text is localised, so that a format_probability that already writes French is not done twice.
    return text if NBSP in text or "," in text else localise_number(text)


class ProbabilityFormatter(PercentFormatter):
    r"""Ticks of a probability axis as percentages, in the language of the moment it was made (``87,5 %``).

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     formatter = ProbabilityFormatter()
    >>> formatter.format_pct(0.875, 0.1)
    '87,5\xa0%'
    """

    def __init__(self, decimals: int | None = None) -> None:
        super().__init__(xmax=1.0, decimals=decimals)
        self.language = get_language()

    def format_pct(self, x: float, display_range: float) -> str:
        """``x`` as :class:`~matplotlib.ticker.PercentFormatter` writes it, localised."""
        with language(self.language):
            return localise_number(super().format_pct(x, display_range))


class PointsFormatter(Formatter):
    """Ticks of a difference of probabilities, in signed percentage points (``+1.2 pp``, ``+1,2 pts``).

    The decimals follow the step between the ticks, so that neighbouring ticks never read the same.

    Examples
    --------
    >>> formatter = PointsFormatter()
    >>> formatter.set_locs([-0.02, -0.01, 0.0, 0.01, 0.02])
    >>> [formatter(x) for x in (-0.02, 0.0, 0.01)]
    ['−2 pp', '0 pp', '+1 pp']
    """

    def __init__(self) -> None:
        self.language = get_language()
        self.ticks = np.array([])

    def set_locs(self, locs) -> None:
        """Remember where the ticks are (their step decides the decimals)."""
        self.ticks = np.asarray(locs, dtype=float)

    def _decimals(self) -> int:
        locs = np.unique(np.round(self.ticks * 100, 9))
        return _step_decimals(float(np.min(np.diff(locs)))) if locs.size > 1 else 1

    def __call__(self, x: float, pos: int | None = None) -> str:
        """The tick label of ``x`` (a difference of probabilities)."""
        decimals = self._decimals()
        points = round(float(x) * 100, decimals)
        with language(self.language):
            text = number(abs(points), decimals if points else None)  # 0, not 0.0
            if points > 0:
                text = "+" + text
            elif points < 0:
                text = "\u2212" + text
            return tr("{value} pp", value=text)


def _step_decimals(step: float) -> int:
    """Decimals that write every multiple of ``step`` exactly: 0 for 2, 1 for 2.5 or 0.5, 2 for 0.25.

    Examples
    --------
    >>> [_step_decimals(step) for step in (20, 2, 2.5, 0.5, 0.25)]
    [0, 0, 1, 1, 2]
    """
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    while decimals < 8 and abs(round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6:
        decimals += 1
    return decimals


# --- shared helpers -------------------------------------------------------------------------------------------

def _axes(ax: Axes | None, figsize: tuple[float, float] = (8.0, 5.0)) -> Axes:
    """``ax``, or the Axes of a new figure."""
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    elif not isinstance(ax, Axes):
        raise DeckstatError(tr("ax must be a matplotlib Axes or None, got {kind}", kind=type(ax).__name__))
    return ax


def _check(frame: object, columns: Iterable[str], what: str) -> pd.DataFrame:
    """Refuse anything but a non-empty DataFrame with ``columns``, naming what is missing (``what``: a message)."""
    what = tr(what)
    if not isinstance(frame, pd.DataFrame):
        raise DeckstatError(tr("{what} must be a pandas DataFrame, got {kind}", what=what, kind=type(frame).__name__))
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DeckstatError(tr("{what} lacks the column(s) {missing}; it has {columns}", what=what,
                               missing=", ".join(missing), columns=", ".join(map(str, frame.columns))))
    if frame.empty:
        raise DeckstatError(tr("{what} has no rows: nothing to draw", what=what))
    return frame


def probability_limits(values: Iterable[float]) -> tuple[float, float, float]:
    """The bottom, top and tick step of a probability axis showing ``values``.

    The values (points and interval ends) get a margin of 6 % of their
    range, which is at least :data:`MIN_SPAN`; the axis starts at 0 (ends
    at 1) unless that would leave more than half the values' range empty
    below (above) them. The ends are whole numbers of steps, within [0, 1].
    A single value (every point the same) gets the whole axis.

    Examples
    --------
    >>> probability_limits([0.97, 0.99])
    (0.94, 1.0, 0.01)
    >>> probability_limits([0.3, 0.9])
    (0.0, 1.0, 0.2)
    >>> probability_limits([0.01, 0.02])
    (0.0, 0.06, 0.01)
    >>> probability_limits([1.0, 1.0])
    (0.0, 1.0, 0.2)
    """
    data = np.asarray(list(values), dtype=float).ravel()
    data = data[np.isfinite(data)].clip(0.0, 1.0)
    if data.size == 0:
        return 0.0, 1.0, 0.2
    low, high = float(data.min()), float(data.max())
    if high - low < 1e-12:  # one value: only its place on the whole axis says something
        return 0.0, 1.0, 0.2
    if high - low < MIN_SPAN:
        middle = (low + high) / 2
        low = min(max(middle - MIN_SPAN / 2, 0.0), 1.0 - MIN_SPAN)
        high = low + MIN_SPAN
    margin = 0.06 * (high - low)
    bottom, top = max(low - margin, 0.0), min(high + margin, 1.0)
    extent = top - bottom
    if bottom < extent / 2:
        bottom = 0.0
    if 1.0 - top < extent / 2:
        top = 1.0
    ticks = MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]).tick_values(bottom, top)
    step = float(np.round(ticks[1] - ticks[0], 12))
    bottom = max(0.0, round(math.floor(bottom / step + 1e-9) * step, 12))
    top = min(1.0, round(math.ceil(top / step - 1e-9) * step, 12))
    return bottom, top, step


def _probability_axis(ax: Axes, values: Iterable[float], label: str | None = None, *, whole: bool = False) -> None:
    """Y axis of probabilities fitted to ``values`` (see :func:`probability_limits`; ``whole``: 0-100 %)."""
    bottom, top, step = probability_limits([0.0, 1.0] if whole else values)
    ax.set_ylim(bottom, top)
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_formatter(ProbabilityFormatter(_step_decimals(step * 100)))
    label = tr("Probability") if label is None else label
    if bottom > 0:
        label += "\n(" + tr(AXIS_NOTE) + ")"
    ax.set_ylabel(figure_text(label))
    ax.grid(True, axis="y", alpha=0.3)


def _turn_axis(ax: Axes, turns: np.ndarray, label: str | None = None, pad: float = 0.5) -> None:
    """X axis of whole turns (every turn ticked up to 20 of them) around ``turns``."""
    turns = turns[np.isfinite(turns)]
    if turns.size and turns.max() - turns.min() + 2 * pad <= 21:
        ax.xaxis.set_major_locator(MultipleLocator(1))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if turns.size:
        ax.set_xlim(turns.min() - pad, turns.max() + pad)
    ax.set_xlabel(figure_text(tr(TURN_LABEL) if label is None else label))


def _title(ax: Axes, main: str, detail: str | None = None) -> None:
    """A wrapped title, with a smaller second line of details; names in it are shown as written (no mathtext)."""
    text = "\n".join(textwrap.fill(line, TITLE_WIDTH) for line in main.split("\n"))
    if detail:
        text += "\n" + "\n".join(textwrap.fill(line, TITLE_WIDTH + 15) for line in detail.split("\n"))
    ax.set_title(figure_text(text), fontsize=11)


def _name(path: object) -> str:
    """The file name of a deck path (or the text itself)."""
    if path is None or (not isinstance(path, str) and pd.isna(path)):
        return "?"
    return PurePath(str(path)).name or str(path)


def _seat_style(seat: object, index: int) -> tuple[str, str]:
    """Line style and marker of a seat."""
    return SEAT_STYLES.get(str(seat), OTHER_STYLES[index % len(OTHER_STYLES)])


BOTH = BOTH_SEATS


def _seat_words(seat: object) -> str:
    if seat == BOTH:
        return tr("first and second player (same)")
    return tr(SEAT_WORDS[str(seat)]) if str(seat) in SEAT_WORDS else str(seat)


def _seat_title(seat: object) -> str:
    return tr("both players (same odds)") if seat == BOTH else _seat_words(seat)


#: Seats with the same results drawn as one line: the decision the tables of the command line take too.
_merge_identical_seats = merge_alike_seats


def _simulated(part: pd.DataFrame) -> bool:
    return "method" in part.columns and bool((part["method"] == "simulate").any())


def _numbers(values: pd.Series) -> np.ndarray:
    """Float array of a column (missing values as NaN)."""
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def _unique(frame: pd.DataFrame, column: str) -> list:
    return list(dict.fromkeys(frame[column])) if column in frame.columns else [None]


def _interval_proxy() -> Patch:
    return Patch(facecolor="0.5", alpha=0.25, label=tr(INTERVAL_LABEL))


def _seat_offsets(seats: list, width: float) -> dict:
    """Horizontal offset of each seat's bar in a group of side-by-side bars."""
    n = len(seats)
    return {seat: (i - (n - 1) / 2) * width for i, seat in enumerate(seats)}


def _method_words(frame: pd.DataFrame, n_trials: object = None) -> str:
    """``exact`` or ``simulated, N games``."""
    methods = _unique(frame, "method")
    if methods == ["exact"]:
        return tr("exact")
    if n_trials is None and "n_trials" in frame.columns:
        n_trials = pd.to_numeric(frame["n_trials"], errors="coerce").max()
    known = n_trials is not None and pd.notna(n_trials)
    if methods == ["simulate"]:
        return trn("simulated, {n} game", "simulated, {n} games", int(n_trials)) if known else tr("simulated")
    if known:
        return trn("exact and simulated, {n} game", "exact and simulated, {n} games", int(n_trials))
    return tr("exact and simulated")


def _errors(p: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Error-bar lengths below and above ``p`` (never negative)."""
    return np.vstack([p - low, high - p]).clip(min=0)


def _joined(*parts: object) -> str:
    return " · ".join(str(p) for p in parts if p is not None and str(p) not in ("", "?"))


def _expect(value: object, kind: type, name: str, see: str, *, table: bool = False) -> None:
    """Refuse anything but a ``kind`` result (with ``table``, a DataFrame too), naming what was expected."""
    if isinstance(value, kind) or (table and isinstance(value, pd.DataFrame)):
        return
    fields = {"name": name, "kind": kind.__name__, "see": see, "got": type(value).__name__}
    vowel = kind.__name__[0] in "AEIOU"  # English needs "an OddsResult"
    if table:
        message = (N_("{name} must be an {kind} (see {see}) or a DataFrame shaped like its table, got {got}") if vowel
                   else N_("{name} must be a {kind} (see {see}) or a DataFrame shaped like its table, got {got}"))
    else:
        message = N_("{name} must be an {kind} (see {see}), got {got}") if vowel \
            else N_("{name} must be a {kind} (see {see}), got {got}")
    raise DeckstatError(tr(message, **fields))


def _distinct(frame: pd.DataFrame, keys: Iterable[str], what: str) -> None:
    """Refuse rows that share every identity column: one line would zigzag through both (``what``: a message)."""
    keys = [c for c in keys if c in frame.columns]
    repeated = frame[frame.duplicated(keys, keep=False)]
    if not repeated.empty:
        row = repeated.iloc[0]
        shown = ", ".join(f"{c} {row[c]!r}" for c in keys)
        raise DeckstatError(tr("{what} has several rows for {shown}: they cannot be told apart (two decks with the "
                               "same name, or results under different rules joined together?)", what=tr(what),
                               shown=shown))


def _present(value: object) -> object:
    """``value``, or None when it is missing (None, NaN, ``pd.NA``)."""
    if value is None or (np.ndim(value) == 0 and pd.isna(value)):
        return None
    return value


def _shared(frame: pd.DataFrame | None, column: str, fallback: object = None) -> object:
    """The value all rows share in ``column`` (None when they differ); ``fallback`` without that column."""
    if frame is None or column not in frame.columns or frame.empty:
        return _present(fallback)
    values = _unique(frame, column)
    return _present(values[0]) if len(values) == 1 else None


def _row(frame: pd.DataFrame | None, **where: object) -> dict:
    """The first row of ``frame`` matching ``where`` (columns that are absent are not matched), as a dict."""
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        return {}
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        if column in frame.columns:
            mask &= (frame[column] == value).to_numpy(dtype=bool, na_value=False)
    rows = frame[mask]
    return rows.iloc[0].to_dict() if not rows.empty else {}


def _is_false(value: object) -> bool:
    """Whether ``value`` is present and false (a missing value is neither true nor false)."""
    value = _present(value)
    return value is not None and not bool(value)


def _rules_text(rule: object, keep: object) -> str | None:
    """``keeping every first hand`` or ``<rule> mulligan, keep if <keep>`` (None when the rule is unknown)."""
    rule = _present(rule)
    if rule is None:
        return None
    if rule == "none":
        return tr("keeping every first hand")
    return tr("{mulligan}, keep if {keep}", mulligan=name_of(MULLIGAN_NAMES, rule), keep=_present(keep))


def _values(frame: pd.DataFrame, *columns: str) -> np.ndarray:
    """Every number of ``columns`` present in ``frame`` (the values a probability axis must show)."""
    present = [c for c in columns if c in frame.columns]
    return np.concatenate([_numbers(frame[c]) for c in present]) if present else np.array([])


# --- legends and labels that stay readable ---------------------------------------------------------------------

def _renderer(ax: Axes):
    """Draw the figure (its layout settles) and return the renderer that measures its text."""
    figure = ax.figure.figure
    figure.canvas.draw()
    return figure.canvas.get_renderer()


def _data_points(ax: Axes) -> np.ndarray:
    """Display positions of the points drawn in data coordinates (line vertices and midpoints, bar tops)."""
    points = []
    for line in ax.lines:
        if not line.get_visible() or line.get_transform().contains_branch_seperately(ax.transData) != (True, True):
            continue
        xy = np.asarray(line.get_xydata(), dtype=float)
        xy = xy[np.isfinite(xy).all(axis=1)]
        if len(xy) > 1:
            xy = np.vstack([xy, (xy[1:] + xy[:-1]) / 2])
        points.append(xy)
    for patch in ax.patches:
        if isinstance(patch, matplotlib.patches.Rectangle) \
                and patch.get_transform().contains_branch_seperately(ax.transData) == (True, True):
            points.append([(patch.get_x() + patch.get_width() / 2, patch.get_y() + patch.get_height())])
    if not points:
        return np.empty((0, 2))
    return ax.transData.transform(np.vstack(points))


def _covers(box: Bbox, points: np.ndarray, pad: float = 3.0) -> bool:
    """Whether ``box`` (display coordinates) covers any of ``points``."""
    if not len(points):
        return False
    x, y = points[:, 0], points[:, 1]
    return bool(np.any((x >= box.x0 - pad) & (x <= box.x1 + pad) & (y >= box.y0 - pad) & (y <= box.y1 + pad)))


def _legend(ax: Axes, handles: list | None = None, loc: str = "best", **kwargs) -> None:
    """A legend inside the axes if it is small and covers no point, else below the axes (beside, with ``kwargs``)."""
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    if not handles:
        return
    # Labels hold card, deck and event names: shown as written, never as mathtext.
    labels = [figure_text(handle.get_label()) for handle in handles]
    if kwargs:  # placed by the caller, outside the axes
        ax.legend(handles=handles, labels=labels, loc=loc, fontsize=9, framealpha=0.9, **kwargs)
        return
    if len(handles) <= LEGEND_INSIDE_MAX:
        legend = ax.legend(handles=handles, labels=labels, loc=loc, fontsize=9, framealpha=0.9)
        renderer = _renderer(ax)
        box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        small = box.width <= 0.55 * frame.width and box.height <= 0.4 * frame.height
        if small and not _covers(box, _data_points(ax), pad=6.0):
            return
        legend.remove()
    _legend_below(ax, handles)


def _legend_below(ax: Axes, handles: list) -> None:
    """The legend under the axes, clear of the tick labels and the axis label."""
    renderer = _renderer(ax)
    axes_box = ax.get_window_extent(renderer)
    below = [t.get_window_extent(renderer) for t in [ax.xaxis.label, *ax.get_xticklabels()]
             if t.get_visible() and t.get_text()]
    depth = max([axes_box.y0 - box.y0 for box in below] + [0.0]) + 6.0  # display pixels under the axes
    dpi = ax.figure.figure.dpi
    anchor = ax.transAxes + ScaledTranslation(0.0, -depth / dpi, ax.figure.figure.dpi_scale_trans)
    longest = max(len(h.get_label()) for h in handles)
    ax.legend(handles=handles, labels=[figure_text(h.get_label()) for h in handles], loc="upper center",
              bbox_to_anchor=(0.5, 0.0), bbox_transform=anchor, fontsize=9, framealpha=0.9,
              ncols=2 if longest <= 45 and len(handles) > 2 else 1)


def _place_labels(ax: Axes, labels: list[tuple[float, float, str, object]], avoid_y: Iterable[float] = (),
                  fontsize: float = 8.0) -> list:
    """Write each value next to its point where it overlaps no other label, point, legend or line at ``avoid_y``.

    ``labels`` holds ``(x, y, text, colour)``. Places are tried below, above,
    right and left of the point, then further away; a label without a free
    place is not written (its point and the legend still say it).
    """
    renderer = _renderer(ax)
    frame = ax.get_window_extent(renderer)
    points = _data_points(ax)
    taken = []
    legend = ax.get_legend()
    if legend is not None:
        taken.append(legend.get_window_extent(renderer))
    for y in avoid_y:
        height = ax.transData.transform((0.0, float(y)))[1]
        taken.append(Bbox([[frame.x0, height - 2.0], [frame.x1, height + 2.0]]))
    radius = 4.5 * ax.figure.figure.dpi / 72  # half a marker
    tries = ((0, -9, "center", "top"), (0, 9, "center", "bottom"), (9, 0, "left", "center"),
             (-9, 0, "right", "center"), (0, -22, "center", "top"), (0, 22, "center", "bottom"))
    written = []
    for x, y, text, color in labels:
        if not (np.isfinite(x) and np.isfinite(y)):
            continue
        centre = ax.transData.transform((x, y))
        others = points[np.hypot(*(points - centre).T) > radius] if len(points) else points
        for dx, dy, ha, va in tries:
            note = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy), ha=ha, va=va,
                               fontsize=fontsize, color=color, zorder=6, annotation_clip=False,
                               bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                     "alpha": 0.85})
            box = note.get_window_extent(renderer)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
            if inside and not _covers(box, others, pad=radius) and not any(box.overlaps(b) for b in taken):
                taken.append(box)
                written.append(note)
                break
            note.remove()
    return written


def _data_lines_unclipped(ax: Axes) -> None:
    """Markers on the frame (0 % or 100 %) drawn whole: the axes never cut a data line."""
    for line in ax.lines:
        if line.get_transform().contains_branch_seperately(ax.transData) == (True, True):
            line.set_clip_on(False)


# --- figures --------------------------------------------------------------------------------------------------

def plot_odds(result_or_table: OddsResult | pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Draw P(event) by turn: one line per event and seat (and deck).

    Parameters
    ----------
    result_or_table : OddsResult or pandas.DataFrame
        A :func:`deckstat.odds` result, or a DataFrame shaped like its
        ``table`` (columns ``turn``, ``seat``, ``event``, ``p``, ``ci_low``,
        ``ci_high``, ``method``; ``deck``, ``game`` and ``zone`` when
        present), e.g. several results' tables joined with ``pd.concat``:
        one line per ``event`` and ``seat``, and per ``deck`` (and ``game``)
        when the table holds several. The mulligan rule and keep rule named in
        the title come from the result's ``provenance`` (a bare table's
        ``attrs``).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        One colour per event (and deck), or per seat when there is a single
        event and deck; one line style and marker per seat; seats with
        identical results share one line. Simulated lines carry a shaded 95%
        interval band. A result with a single turn (zones ``hand`` and
        ``set_aside``) has its values written next to the points.
    """
    _expect(result_or_table, OddsResult, "result_or_table", "deckstat.odds", table=True)
    if isinstance(result_or_table, OddsResult):
        frame, provenance = result_or_table.table, result_or_table.provenance
    else:
        frame, provenance = result_or_table, result_or_table.attrs
    # Odds with known cards asked by cards drawn have no turn: the cards drawn are the x axis.
    by_draws = "draws" in frame.columns and "turn" in frame.columns and frame["turn"].isna().all()
    if by_draws:
        frame = frame.assign(turn=frame["draws"])
    frame = _check(frame, ["turn", "seat", "event", "p", "ci_low", "ci_high", "method"], N_("odds table"))
    _distinct(frame, ["deck", "game", "event", "seat", "zone", "turn"], N_("odds table"))
    ax = _axes(ax)
    decks, games, events = _unique(frame, "deck"), _unique(frame, "game"), _unique(frame, "event")
    series = [c for c, values in (("deck", decks), ("game", games)) if c in frame.columns and len(values) > 1]
    series.append("event")
    zones = _unique(frame, "zone")
    drawn = _merge_identical_seats(frame, ["p", "ci_low", "ci_high"], by=series)
    seats = _unique(drawn, "seat")
    any_simulated = False
    groups = drawn.groupby(series, sort=False, dropna=False)
    single_turn = frame["turn"].nunique() == 1
    values = []
    labels = []
    for i, (key, group) in enumerate(groups):
        names = dict(zip(series, key if isinstance(key, tuple) else (key,)))
        for seat, part in group.groupby("seat", sort=False):
            part = part.sort_values("turn")
            # One colour per event and deck; with a single one, the seats get the colours.
            color = COLORS[(i if groups.ngroups > 1 else seats.index(seat)) % len(COLORS)]
            linestyle, marker = _seat_style(seat, seats.index(seat))
            words = []
            if len(decks) > 1:
                words.append(_name(names["deck"]))
            if len(games) > 1:
                words.append(str(names["game"]))
            if len(events) > 1:
                words.append(str(names["event"]))
            if len(seats) > 1:
                words.append(_seat_words(seat))
            turns, p = _numbers(part["turn"]), _numbers(part["p"])
            ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color,
                    label=", ".join(words) or str(names["event"]))
            values.append(p)
            if single_turn:
                labels += [(x, y, _percent(y), color) for x, y in zip(turns, p)]
            if _simulated(part):
                any_simulated = True
                low, high = _numbers(part["ci_low"]), _numbers(part["ci_high"])
                ax.fill_between(turns, low, high, color=color, alpha=0.2, linewidth=0)
                values += [low, high]
    # A single turn: lone points, each labelled with its value, read best against the whole axis.
    _probability_axis(ax, np.concatenate(values), whole=single_turn)
    _turn_axis(ax, _numbers(frame["turn"]), tr("Cards drawn from now") if by_draws else None)
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    if len(zones) == 1 and zones[0] is not None:
        zone = str(zones[0])
        what = tr(ZONE_WORDS[zone], what=what) if zone in ZONE_WORDS else tr("{what} in zone {zone}", what=what,
                                                                              zone=zone)
    if not single_turn:
        what = tr("{what} by cards drawn", what=what) if by_draws else tr("{what} by turn", what=what)
    main = what + (f", {_seat_title(seats[0])}" if len(seats) == 1 else "")
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    rules = _rules_text(provenance.get("mulligan_rule"), provenance.get("keep"))
    _title(ax, main, _joined(_name(deck) if deck is not None else None, game, rules, _method_words(frame)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    if labels:
        _place_labels(ax, labels, fontsize=9)
    return ax


def plot_when(result: WhenResult, ax: Axes | None = None) -> Axes:
    """Draw on which turn an event first holds: bars of the first turn, line of "by this turn".

    Parameters
    ----------
    result : WhenResult
        A :func:`deckstat.when` result. Its ``table`` (``event``, ``seat``,
        ``turn``, ``p``, ``ci_low``, ``ci_high``, ``cdf``, ``cdf_low``,
        ``cdf_high``, ``method``) is drawn; its ``summary`` (``p_never`` and
        ``max_turn`` per event and seat) is named in the title.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Bars: P(first holds on that turn), side by side per event and seat.
        Lines: P(holds by that turn). With one event the seats get the
        colours; with several, each event has its colour and the seats are
        told apart by line style, marker and bar hatching. Seats with
        identical results share one set of bars and one line. Simulated
        results carry 95% error bars and bands. The title gives, per event
        and seat, the probability that the event has not held by the last
        turn.
    """
    _expect(result, WhenResult, "result", "deckstat.when")
    frame = _check(result.table, ["seat", "turn", "p", "cdf", "ci_low", "ci_high", "cdf_low", "cdf_high", "method"],
                   N_("when result's table"))
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else None
    ax = _axes(ax)
    has_event = "event" in frame.columns
    events = _unique(frame, "event")
    drawn = _merge_identical_seats(frame, ["p", "cdf", "ci_low", "ci_high", "cdf_low", "cdf_high"],
                                   by=["event"] if has_event else None)
    seats = _unique(drawn, "seat")
    series = list(drawn[["event", "seat"]].drop_duplicates().itertuples(index=False, name=None)) if has_event \
        else [(None, seat) for seat in seats]
    width = 0.8 / len(series)
    offsets = _seat_offsets(series, width)
    hatches = ("", "//", "..", "xx")
    any_simulated = False
    for key in series:
        event, seat = key
        part = drawn[drawn["seat"] == seat]
        if has_event:
            part = part[part["event"] == event]
        part = part.sort_values("turn")
        seat_index = seats.index(seat)
        # One event: a colour per seat; several: a colour per event, the seats told apart by style.
        color = COLORS[(events.index(event) if len(events) > 1 else seat_index) % len(COLORS)]
        hatch = hatches[seat_index % len(hatches)] if len(events) > 1 else ""
        linestyle, marker = _seat_style(seat, seat_index)
        turns = _numbers(part["turn"])
        pmf = _numbers(part["p"])
        simulated = _simulated(part)
        any_simulated |= simulated
        errors = _errors(pmf, _numbers(part["ci_low"]), _numbers(part["ci_high"])) if simulated else None
        who = f"{event}, {_seat_words(seat)}" if len(events) > 1 else _seat_words(seat)
        ax.bar(turns + offsets[key], pmf, width=width, color=color, alpha=0.5, edgecolor=color, hatch=hatch,
               yerr=errors, error_kw={"ecolor": "0.2", "capsize": 2, "linewidth": 1},
               label=tr("{who}: holds for the first time on this turn", who=who))
        ax.plot(turns, _numbers(part["cdf"]), linestyle=linestyle, marker=marker, color=color,
                label=tr("{who}: has held by this turn", who=who))
        if simulated:
            ax.fill_between(turns, _numbers(part["cdf_low"]), _numbers(part["cdf_high"]), color=color, alpha=0.2,
                            linewidth=0)
    # The bars start at 0: so does the axis.
    _probability_axis(ax, np.concatenate([[0.0], _values(frame, "p", "cdf", "ci_high", "cdf_low", "cdf_high")]))
    _turn_axis(ax, _numbers(frame["turn"]))
    max_turn = _present(summary["max_turn"].dropna().max()) if summary is not None and "max_turn" in summary else None
    if max_turn is None:
        max_turn = np.nanmax(_numbers(frame["turn"]))
    never_text = _never_text(summary, events, int(max_turn))
    deck = _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _shared(frame, "game", result.provenance.get("game"))
    if len(events) == 1 and events[0] is not None:
        main = tr("When does {event} first hold among the cards seen?", event=events[0])
    else:
        main = tr("When does each event first hold among the cards seen?")
    _title(ax, main, _joined(never_text, _name(deck) if deck is not None else None, game, _method_words(frame)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles)
    return ax


def _never_text(summary: pd.DataFrame | None, events: list, max_turn: int) -> str | None:
    """``P(not by turn N) = …`` from a when summary: per event, one value for both seats or one per seat."""
    if summary is None or "p_never" not in summary.columns or "seat" not in summary.columns:
        return None
    pieces = []
    for event in events:
        rows = summary[summary["event"] == event] if "event" in summary.columns and event is not None else summary
        never = {seat: p for seat, p in zip(rows["seat"], rows["p_never"]) if _present(p) is not None}
        if not never:
            continue
        shown = {_percent(p) for p in never.values()}
        if len(never) > 1 and len(shown) == 1:
            pieces.append((event, True, tr("{p} for both players", p=shown.pop())))
        else:
            pieces.append((event, False, ", ".join(f"{_seat_words(seat)} {_percent(p)}"
                                                    for seat, p in never.items())))
    if not pieces:
        return None
    turn = number(max_turn)
    if len(events) == 1:
        _, same, text = pieces[0]
        return tr("P(not by turn {turn}) = {text}", turn=turn, text=text) if same \
            else tr("P(not by turn {turn}): {text}", turn=turn, text=text)
    return tr("P(not by turn {turn}): {text}", turn=turn,
              text=_semicolon().join(f"{event} {text}" for event, _, text in pieces))


def _semicolon() -> str:
    """The separator of a list of clauses, with French's space before the semicolon."""
    return french_typography("; ") if get_language() == "fr" else "; "


#: Lines in one column of a legend beside the axes (:func:`plot_curve`).
_LEGEND_ROWS = 30
#: Size of one panel of :func:`plot_curve`'s small multiples, in inches, and characters of its title's lines.
_PANEL_SIZE = (2.6, 2.1)
_PANEL_TITLE_WIDTH = 28


def plot_curve(result: CurveResult, ax: Axes | None = None) -> Axes | np.ndarray:
    """Draw playability by turn: P(playable on or before turn t), for each card or group and seat.

    Parameters
    ----------
    result : CurveResult
        A :func:`deckstat.curve` result; its ``table`` (``target``, ``seat``,
        ``turn``, ``p``, ``ci_low``, ``ci_high``, ``method``) is drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw every line (default: a new figure, with one panel per
        target when there are several).

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        Without ``ax`` and with several targets: small multiples, one panel
        per target in the table's order, titled with its name, on shared
        axes; each panel draws its target in colour over the others' lines in
        light grey, so that a reader matches every curve to its card and still
        compares it with the rest (curves that differ by a point would hide
        one another as lines of one plot). The Axes of the panels are
        returned. Otherwise one Axes: a colour per target, a line style per
        seat, the legend beside the axes when there are more than six lines.
        Seats with identical results share one line; 95% bands where
        simulated.
    """
    _expect(result, CurveResult, "result", "deckstat.curve")
    frame = _check(result.table, ["target", "seat", "turn", "p", "ci_low", "ci_high", "method"],
                   N_("curve result's table"))
    drawn = _merge_identical_seats(frame, ["p", "ci_low", "ci_high"], by=["target"])
    targets = _unique(drawn, "target")
    seats = _unique(drawn, "seat")
    if ax is None and len(targets) > 1:
        return _curve_panels(frame, drawn, targets, seats)
    series = list(drawn[["target", "seat"]].drop_duplicates().itertuples(index=False, name=None))
    # A legend beside the axes holds at most _LEGEND_ROWS lines a column, and the figure grows to hold it: taller
    # than the figure, it would leave the axes no room at all (a whole deck of targets).
    columns = math.ceil((len(series) + 1) / _LEGEND_ROWS)
    height = max(5.0, 1.5 + 0.25 * min(len(series) + 1, _LEGEND_ROWS))
    ax = _axes(ax, figsize=(9.0 + 3.0 * (columns - 1), height) if len(series) > 6 else (8.0, 5.0))
    palette = COLORS if len(targets) <= len(COLORS) else tuple(matplotlib.colormaps["tab20"].colors)
    any_simulated = False
    for target, seat in series:
        part = drawn[(drawn["target"] == target) & (drawn["seat"] == seat)].sort_values("turn")
        color = palette[targets.index(target) % len(palette)]
        linestyle, marker = _seat_style(seat, seats.index(seat))
        turns = _numbers(part["turn"])
        label = str(target) if len(seats) == 1 else f"{target}, {_seat_words(seat)}"
        ax.plot(turns, _numbers(part["p"]), color=color, linestyle=linestyle, marker=marker, markersize=4,
                label=label)
        if _simulated(part):
            any_simulated = True
            ax.fill_between(turns, _numbers(part["ci_low"]), _numbers(part["ci_high"]), color=color, alpha=0.2,
                            linewidth=0)
    simulated_rows = frame[frame["method"] == "simulate"] if "method" in frame.columns else frame.iloc[0:0]
    _probability_axis(ax, np.concatenate([_numbers(frame["p"]), _values(simulated_rows, "ci_low", "ci_high")]),
                      tr("P(playable on or before this turn)"))
    _turn_axis(ax, _numbers(frame["turn"]), label=tr("Turn"))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    if len(series) > 6:
        _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, ncol=columns)
    else:
        _legend(ax, handles, loc="lower right")
    policy = _shared(frame, "policy")
    detail = _joined(_method_words(frame), tr("policy {policy}", policy=name_of(PLAY_POLICY_NAMES, policy))
                     if policy is not None else None)
    _title(ax, tr("When can it be played?"), detail)
    return ax


def _curve_panels(frame: pd.DataFrame, drawn: pd.DataFrame, targets: list, seats: list) -> np.ndarray:
    """Small multiples of :func:`plot_curve`: one panel per target on shared axes, the others in grey behind."""
    n = len(targets)
    columns = 3 if n in (5, 6, 9) else min(n, 4)
    rows = math.ceil(n / columns)
    width, height = _PANEL_SIZE
    size = (max(8.0, width * columns + 0.8), height * rows + 1.6)  # room for the titles and the legend
    figure, grid = plt.subplots(rows, columns, figsize=size, sharex=True, sharey=True, squeeze=False,
                                layout="constrained")
    panels = grid.ravel()
    simulated_rows = frame[frame["method"] == "simulate"] if "method" in frame.columns else frame.iloc[0:0]
    values = np.concatenate([_numbers(frame["p"]), _values(simulated_rows, "ci_low", "ci_high")])
    lines = {(target, seat): part.sort_values("turn") for (target, seat), part in
             drawn.groupby(["target", "seat"], sort=False)}
    # Cards alike in play have the same curve: each distinct curve is drawn once in grey behind a panel (a deck of
    # 20 names has a handful), which draws the same figure at a fraction of the cost.
    curves: dict[tuple, list] = {}
    for (other, _), part in lines.items():
        points = (tuple(_numbers(part["turn"])), tuple(_numbers(part["p"])))
        curves.setdefault(points, []).append(other)
    any_simulated = False
    handles: dict[str, object] = {}
    for panel, target in zip(panels, targets):
        for (turns, probabilities), owners in curves.items():
            if any(other != target for other in owners):
                line, = panel.plot(turns, probabilities, color="0.8", linewidth=0.9, zorder=1)
                handles.setdefault("others", line)
        for (other, seat), part in lines.items():
            if other != target:
                continue
            index = seats.index(seat)
            linestyle, marker = _seat_style(seat, index)
            color = COLORS[index % len(COLORS)]
            turns = _numbers(part["turn"])
            line, = panel.plot(turns, _numbers(part["p"]), color=color, linestyle=linestyle, marker=marker,
                               markersize=3.5, linewidth=1.6, zorder=3)
            handles.setdefault(f"seat {seat}", line)
            line.set_label(tr("the card named above the panel") if len(seats) == 1
                           else tr("the card named above the panel, {seat}", seat=_seat_words(seat)))
            if _simulated(part):
                any_simulated = True
                panel.fill_between(turns, _numbers(part["ci_low"]), _numbers(part["ci_high"]), color=color,
                                   alpha=0.25, linewidth=0, zorder=2)
        panel.set_title(figure_text(textwrap.fill(str(target), _PANEL_TITLE_WIDTH)), fontsize=9.5)
        _probability_axis(panel, values, label="")
        _turn_axis(panel, _numbers(frame["turn"]), label="")
        panel.tick_params(labelsize=8)
        _data_lines_unclipped(panel)
    for panel in panels[n:]:
        panel.set_visible(False)
    # The shared axes are labelled once, on the figure; tick labels only on the outer panels.
    for panel in panels[:n]:
        panel.label_outer()
    for panel in panels[max(0, n - columns):n]:  # the bottom panel of each column keeps its turn labels
        panel.xaxis.set_tick_params(labelbottom=True)
        panel.set_xlabel(tr("Turn"), fontsize=9)
    label = tr("P(playable on or before this turn)")
    if panels[0].get_ylim()[0] > 0:
        label += "\n(" + tr(AXIS_NOTE) + ")"
    figure.supylabel(figure_text(label), fontsize=10)
    for panel in panels[:n]:
        panel.set_ylabel("")
    legend = [handles[key] for key in handles if key.startswith("seat ")]
    if "others" in handles:
        handles["others"].set_label(tr("the other cards"))
        legend.append(handles["others"])
    if any_simulated:
        legend.append(_interval_proxy())
    figure.legend(handles=legend, labels=[figure_text(h.get_label()) for h in legend], loc="outside lower center",
                  ncols=min(len(legend), 3), fontsize=9, frameon=False)
    policy = _shared(frame, "policy")
    detail = _joined(_method_words(frame), tr("policy {policy}", policy=name_of(PLAY_POLICY_NAMES, policy))
                     if policy is not None else None)
    figure.suptitle(figure_text(tr("When can each card be played?") + "\n" + detail), fontsize=11)
    return panels[:n]


def plot_ratio(result: RatioResult, ax: Axes | None = None) -> Axes:
    """Draw P(event at the target turn) against the number of resource cards.

    Parameters
    ----------
    result : RatioResult
        A :func:`deckstat.ratio` result. Its ``table`` (one row per resource
        count, event and turn: ``resource_count``, ``turn``, ``seat``,
        ``event``, ``p``, ``ci_low``, ``ci_high``, ``method``, ``legal``,
        ``target_status``, ``is_current``) is drawn at the target turn; its
        ``summary`` (one row per event: ``group``, ``current_count``,
        ``target``, ``target_turn``, ``recommended``, ``smallest_reaching``,
        ``smallest_reaching_legal``) gives the deck's own count, the target
        and the recommendations; the deck size comes from the ``provenance``.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Legal decks are filled markers, decks that break a construction rule
        hollow grey ones, each labelled with its probability (one event;
        labels that would overlap another label, a point or the target line
        are left out); simulated points carry 95% error bars. A horizontal
        line marks the target, a dashed vertical one each event's
        recommended count (always a legal deck) and a dash-dotted one the
        smaller count that would reach the target but is illegal, if any;
        under the curve objective a dotted one marks the best count
        (``summary["best"]``); a grey band marks the deck's own count. With
        several events each event's lines take its colour.
    """
    _expect(result, RatioResult, "result", "deckstat.ratio")
    frame = _check(result.table, ["resource_count", "turn", "seat", "event", "p", "ci_low", "ci_high", "method",
                                  "legal"], N_("ratio result's table"))
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else pd.DataFrame()
    provenance = result.provenance
    ax = _axes(ax)
    first = _row(summary)
    target_turn = _present(first.get("target_turn"))
    if target_turn is None:
        # deckstat.ratio's default: the kept opening hand.
        target_turn = 0 if (frame["turn"] == 0).any() else frame["turn"].max()
    at_turn = frame[frame["turn"] == target_turn]
    if at_turn.empty:
        raise DeckstatError(tr("ratio result has no row at target turn {turn!r}; turns: {turns}", turn=target_turn,
                               turns=", ".join(map(str, sorted(set(frame["turn"]))))))
    group = _present(first.get("group")) or provenance.get("group") or tr("resource")
    events, seats = _unique(at_turn, "event"), _unique(at_turn, "seat")
    n_series = len(events) * len(seats)
    handles = []
    colors = {}
    labels = []
    for i, ((event, seat), part) in enumerate(at_turn.groupby(["event", "seat"], sort=False)):
        part = part.sort_values("resource_count")
        color = colors[event, seat] = COLORS[i % len(COLORS)]
        linestyle, marker = _seat_style(seat, seats.index(seat))
        x, p = _numbers(part["resource_count"]), _numbers(part["p"])
        legal = part["legal"].astype(bool).to_numpy()
        suffix = _series_suffix(event, seat, events, seats)
        ax.plot(x, p, linestyle=linestyle, color=color, alpha=0.5, linewidth=1.2, zorder=2)
        if _simulated(part):
            ax.errorbar(x, p, yerr=_errors(p, _numbers(part["ci_low"]), _numbers(part["ci_high"])), fmt="none",
                        ecolor="0.25", capsize=3, linewidth=1, zorder=5)
        ax.plot(x[legal], p[legal], linestyle="none", marker=marker, markersize=7, color=color, zorder=4)
        ax.plot(x[~legal], p[~legal], linestyle="none", marker=marker, markersize=7, markerfacecolor="white",
                markeredgecolor="0.45", markeredgewidth=1.5, zorder=4)
        if n_series == 1 and len(x) <= 16:
            labels += [(xi, pi, _percent(pi), "0.2") for xi, pi in zip(x, p)]
        if legal.any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, color=color,
                                  label=tr("legal deck") + suffix))
        if (~legal).any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, markerfacecolor="white",
                                  markeredgecolor="0.45", markeredgewidth=1.5,
                                  label=tr("illegal deck: breaks a construction rule") + suffix))
    if _simulated(at_turn):
        handles.append(Line2D([], [], color="0.25", marker="_", markersize=10, linestyle="none",
                              label=tr(INTERVAL_LABEL)))
    target = _present(first.get("target"))
    if target is not None:
        handles.append(ax.axhline(float(target), color="0.2", linestyle=":", linewidth=1.5,
                                  label=tr("target: {p}", p=_percent(float(target)))))
    several = len(colors) > 1
    for event, seat in colors:
        info = _row(summary, event=event, seat=seat)
        # One series: the usual green and purple; several: each series' own colour.
        color = colors[event, seat] if several else COLORS[2]
        legal_color = colors[event, seat] if several else COLORS[4]
        suffix = _series_suffix(event, seat, events, seats)
        recommended = _present(info.get("recommended"))
        if recommended is not None:
            text = trn("recommended: {n} {group} card, the smallest legal count reaching the target",
                       "recommended: {n} {group} cards, the smallest legal count reaching the target",
                       int(recommended), group=group)
            handles.append(ax.axvline(float(recommended), color=color, linestyle="--", linewidth=1.5,
                                      label=text + suffix))
        elif target is not None:
            rows = frame[(frame["event"] == event) & (frame["seat"] == seat)]
            handles.append(Line2D([], [], linestyle="none", label=tr("no recommendation: {why}",
                                                                     why=_no_recommendation(rows, group)) + suffix))
        best = _present(info.get("best"))
        if best is not None:
            if info.get("best_decision") == "decided":
                text = trn("best: {n} {group} card, the highest among legal counts",
                           "best: {n} {group} cards, the highest among legal counts", int(best), group=group)
            else:
                text = trn("best estimate (not told apart): {n} {group} card, the highest among legal counts",
                           "best estimate (not told apart): {n} {group} cards, the highest among legal counts",
                           int(best), group=group)
            handles.append(ax.axvline(float(best), color=color, linestyle=(0, (1, 1)), linewidth=2.0,
                                      label=text + suffix))
        smallest = _present(info.get("smallest_reaching"))
        if smallest is not None and _is_false(info.get("smallest_reaching_legal")):
            text = trn("{n} {group} card would reach the target but is illegal",
                       "{n} {group} cards would reach the target but is illegal", int(smallest), group=group)
            handles.append(ax.axvline(float(smallest), color=legal_color, linestyle="-.", linewidth=1.5,
                                      label=text + suffix))
    current = _present(first.get("current_count"))
    if current is None and "is_current" in frame.columns:
        own = frame.loc[frame["is_current"].astype(bool), "resource_count"]
        current = own.iloc[0] if len(own) else None
    if current is not None:
        # The deck as the player built it: a band behind the points, so every marker stays readable.
        handles.append(ax.axvspan(float(current) - 0.4, float(current) + 0.4, color="0.88", zorder=0,
                                  label=trn("your deck: {n} {group} card", "your deck: {n} {group} cards",
                                            int(current), group=group)))
    simulated_rows = at_turn[at_turn["method"] == "simulate"]
    _probability_axis(ax, np.concatenate([_numbers(at_turn["p"]), _values(simulated_rows, "ci_low", "ci_high"),
                                          [] if target is None else [float(target)]]))
    _turn_axis(ax, _numbers(at_turn["resource_count"]), tr("Number of {group} cards in the deck", group=group))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    seat_text = f", {_seat_title(seats[0])}" if len(seats) == 1 else ""
    turn_text = ratio_where(_present(first.get("zone")) or provenance.get("zone", "seen"), int(target_turn),
                            localized(provenance.get("set_aside_name") or tr("set-aside cards")))
    size = provenance.get("deck_size")
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    _title(ax, tr("{what} {where}{seat}, by number of {group} cards", what=what, where=turn_text,
                  seat=seat_text, group=group),
           _joined(_name(deck) if deck is not None else None, trn("{n} card", "{n} cards", size) if size else None,
                   game, _method_words(at_turn)))
    _data_lines_unclipped(ax)
    _legend(ax, handles, loc="lower right")
    if labels:
        _place_labels(ax, labels, avoid_y=[] if target is None else [float(target)], fontsize=7.5)
    return ax


def _series_suffix(event: object, seat: object, events: list, seats: list) -> str:
    """`` (event, seat)`` naming what tells a series apart, or nothing with a single series."""
    words = [str(event)] if len(events) > 1 else []
    words += [_seat_words(seat)] if len(seats) > 1 else []
    return f" ({', '.join(words)})" if words else ""


def _no_recommendation(rows: pd.DataFrame, group: str) -> str:
    """Why a sweep recommends no count, from the ``target_status`` of its legal resource counts."""
    if "legal" in rows.columns:
        rows = rows[rows["legal"].astype(bool)]
        if rows.empty:
            return tr("no count swept gives a legal deck")
    statuses = {}
    if "target_status" in rows.columns:
        for count, status in zip(rows["resource_count"], rows["target_status"]):
            if _present(status) is not None:
                statuses.setdefault(count, status)
    unsure = [str(k) for k in sorted(statuses) if statuses[k] == "undecided"]
    if unsure:
        return tr("undecided at {counts} {group} (the 95% interval contains the target)", counts=", ".join(unsure),
                  group=group)
    if statuses and all(status == "not reached" for status in statuses.values()):
        return tr("no legal count swept reaches the target")
    return tr("the sweep gives no reason")


def plot_deckout(result: DeckoutResult, ax: Axes | None = None) -> Axes:
    """Draw on which turn each seat's deck runs out.

    Parameters
    ----------
    result : DeckoutResult
        A :func:`deckstat.deckout` result. Its ``table`` (``seat``, ``turn``,
        ``p``, ``ci_low``, ``ci_high``, ``cdf``, ``cdf_low``, ``cdf_high``,
        ``method``) is drawn; its ``summary`` gives each seat's median and
        mean turn and, in the row of seat ``first``, P(the first player runs
        out first) with its interval and P(same moment); ``deck`` and
        ``opponent`` name the decks and the ``provenance`` tells whether the
        drought rule applied.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        When a seat's deck runs out on several turns: P(the deck has run out
        by turn t) for each seat (``cdf``; without that column, the running
        sum of ``p``), from 0 the turn before the earliest one, with 95%
        bands when simulated. When every seat's deck runs out on one turn in
        at least :data:`NEARLY_ONE_TURN` of the games, a curve would be a
        wall: the figure says it in words instead ("The first player's deck
        always runs out on turn 31"), with the share of games and the other
        turns when it is not all of them. The title gives P(the first player
        runs out first).
    """
    _expect(result, DeckoutResult, "result", "deckstat.deckout")
    frame = _check(result.table, ["seat", "turn", "p", "ci_low", "ci_high", "method"], N_("deckout result's table"))
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else None
    provenance = result.provenance
    ax = _axes(ax)
    seats = _unique(frame, "seat")
    parts = {seat: frame[frame["seat"] == seat].sort_values("turn") for seat in seats}
    # The turn holding most of each seat's games, and its share.
    peaks = {}
    for seat, part in parts.items():
        p = _numbers(part["p"])
        top = int(np.nanargmax(p))
        peaks[seat] = (int(_numbers(part["turn"])[top]), float(p[top]))
    first = _row(summary, seat="first")
    p_first = _present(first.get("p_runs_out_first"))
    race = None
    if p_first is not None:
        race = tr("P(first player's deck runs out first) = {p}", p=_percent(p_first))
        low, high = _present(first.get("ci_low")), _present(first.get("ci_high"))
        if _simulated(frame) and low is not None and high is not None and low != high:
            race += tr(" (95% interval {low} to {high})", low=_percent(low), high=_percent(high))
        same = _present(first.get("p_same_moment"))
        if same:
            race += tr("; at the same moment: {p}", p=_percent(same))
    if all(share >= NEARLY_ONE_TURN for _, share in peaks.values()):
        _deckout_in_words(ax, parts, peaks)
    else:
        _deckout_curves(ax, parts, summary)
    names = _row(frame, seat="first") or _row(frame)
    game = _shared(frame, "game", provenance.get("game"))
    deck = _name(first.get("deck", names.get("deck", provenance.get("deck_source"))))
    opponent = _name(first.get("opponent", names.get("opponent", provenance.get("opponent_source"))))
    decks = deck if opponent in ("?", deck) else tr("{deck} vs {opponent}", deck=deck, opponent=opponent)
    main = tr("When does each deck run out ({game})?", game=game) if game else tr("When does each deck run out?")
    if race:
        main += "\n" + race
    drought = tr("with the drought rule") if provenance.get("drought") else None
    _title(ax, main, _joined(decks, drought, _method_words(frame)))
    return ax


def _deckout_curves(ax: Axes, parts: dict, summary: pd.DataFrame | None) -> None:
    """P(the deck has run out by turn t) per seat."""
    start = min(np.nanmin(_numbers(part["turn"])) for part in parts.values()) - 1
    any_simulated = False
    for i, (seat, part) in enumerate(parts.items()):
        color = COLORS[i % len(COLORS)]
        linestyle, marker = _seat_style(seat, i)
        turns = np.concatenate([[start], _numbers(part["turn"])])
        cumulative = _numbers(part["cdf"]) if "cdf" in part.columns else np.nancumsum(_numbers(part["p"]))
        label = _seat_words(seat)
        info = _row(summary, seat=seat)
        median, mean = _present(info.get("median_turn")), _present(info.get("mean_turn"))
        if median is not None:
            earliest = _present(info.get("earliest_turn"))
            if earliest is not None and earliest == _present(info.get("latest_turn")):
                label = tr("{who}: always on turn {turn}", who=label, turn=number(median))
            elif mean is not None:
                label = tr("{who}: median turn {turn}, mean {mean}", who=label, turn=number(median),
                           mean=number(mean, 1))
            else:
                label = tr("{who}: median turn {turn}", who=label, turn=number(median))
        ax.plot(turns, np.concatenate([[0.0], cumulative]), linestyle=linestyle, marker=marker, markersize=4,
                color=color, label=label)
        if _simulated(part) and {"cdf_low", "cdf_high"} <= set(part.columns):
            any_simulated = True
            ax.fill_between(turns[1:], _numbers(part["cdf_low"]), _numbers(part["cdf_high"]), color=color,
                            alpha=0.2, linewidth=0)
    _probability_axis(ax, [0.0, 1.0], tr("P(deck has run out by turn t)"))
    every = np.concatenate([[start]] + [_numbers(part["turn"]) for part in parts.values()])
    _turn_axis(ax, every, tr("Turn (the player's own turn number)"))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")


def _deckout_in_words(ax: Axes, parts: dict, peaks: dict) -> None:
    """Each seat's one turn, written on the figure: a bar filling the whole height would tell nothing more."""
    lines = []
    for seat, part in parts.items():
        turn, share = peaks[seat]
        who = _seat_words(seat)
        if share >= 1.0:
            if _simulated(part):
                lines.append(tr("{who}: the deck runs out on turn {turn} in every game simulated", who=who,
                                turn=number(turn)))
            else:
                lines.append(tr("{who}: the deck always runs out on turn {turn}", who=who, turn=number(turn)))
            continue
        turns, p = _numbers(part["turn"]), _numbers(part["p"])
        others = sorted(int(t) for t, q in zip(turns, p) if t != turn and q > 0)
        if len(others) == 1:
            otherwise = tr("otherwise on turn {turn}", turn=number(others[0]))
        else:
            otherwise = tr("otherwise on turns {low} to {high}", low=number(others[0]), high=number(others[-1]))
        lines.append(tr("{who}: the deck runs out on turn {turn} in {p} of games ({otherwise})", who=who,
                        turn=number(turn), p=_percent(share), otherwise=otherwise))
    text = "\n\n".join(textwrap.fill(line, 60) for line in lines)
    ax.set_axis_off()
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=13, linespacing=1.4)


def plot_compare(result_or_table: CompareResult | pd.DataFrame, ax: Axes | None = None) -> Axes | np.ndarray:
    """Draw how decks compare by turn.

    Parameters
    ----------
    result_or_table : CompareResult or pandas.DataFrame
        A :func:`deckstat.compare` result, or its ``table``: columns
        ``turn``, ``seat``, ``event``, ``deck_a``, ``deck_b``, ``p_a``,
        ``p_b``, ``diff`` (``p_b - p_a``), ``diff_ci_low``, ``diff_ci_high``,
        ``method``. Several ``deck_b`` values (each compared with the same
        deck A) give one line each.
    ax : matplotlib.axes.Axes, optional
        Where to draw the difference. Without it a new figure with two panels
        is made.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        With ``ax``: that Axes, showing the difference P(deck B) − P(deck A)
        by turn in percentage points (``+1.2 pp``; ``+1,2 pts`` in French),
        on an axis centred on 0, with its 95% interval band when simulated,
        and a zero line; lines are labelled "deck B − deck A" with the decks'
        names. Without ``ax``: an array of two Axes, the top one with the
        decks' probabilities by turn (deck A blue, hollow markers for the
        others), the bottom one with the difference.
    """
    _expect(result_or_table, CompareResult, "result_or_table", "deckstat.compare", table=True)
    table = result_or_table.table if isinstance(result_or_table, CompareResult) else result_or_table
    frame = _check(table, ["turn", "seat", "event", "deck_a", "deck_b", "p_a", "p_b", "diff", "diff_ci_low",
                           "diff_ci_high", "method"], N_("comparison table"))
    _distinct(frame, ["deck_a", "deck_b", "game", "event", "seat", "zone", "turn"], N_("comparison table"))
    name_a = _name(frame["deck_a"].iloc[0])
    if ax is not None:
        _draw_difference(frame, _axes(ax), name_a, alone=True)
        return ax
    _, axes = plt.subplots(2, 1, figsize=(8.0, 8.0), sharex=True, height_ratios=(3, 2), layout="constrained")
    top, bottom = axes
    events, decks_b = _unique(frame, "event"), _unique(frame, "deck_b")
    letters = {deck: chr(ord("B") + k) if k < 24 else str(k + 2) for k, deck in enumerate(decks_b)}
    drawn = _merge_identical_seats(frame, ["p_a", "p_b"], by=["deck_b", "event"])
    seats = _unique(drawn, "seat")
    event_styles = ("-", "--", ":", "-.")
    for (deck_b, event, seat), part in drawn.groupby(["deck_b", "event", "seat"], sort=False):
        part = part.sort_values("turn")
        linestyle, marker = _seat_style(seat, seats.index(seat))
        if len(events) > 1 and len(seats) == 1:
            linestyle = event_styles[events.index(event) % len(event_styles)]
        words = [str(event)] if len(events) > 1 else []
        words += [_seat_words(seat)] if len(seats) > 1 else []
        suffix = f" ({', '.join(words)})" if words else ""
        turns = _numbers(part["turn"])
        if deck_b == decks_b[0]:  # deck A is the same in every pair: drawn once
            # Thin and on top, so that a deck with the same odds shows around it instead of hiding it.
            top.plot(turns, _numbers(part["p_a"]), linestyle=linestyle, marker=marker, color=COLORS[0],
                     markersize=5, linewidth=1.5, zorder=3, label=tr("deck A: {name}", name=name_a) + suffix)
        k = decks_b.index(deck_b)
        top.plot(turns, _numbers(part["p_b"]), linestyle=linestyle, marker=marker, color=COLORS[(1 + k) % 10],
                 markerfacecolor="white", markersize=9, linewidth=2.5, alpha=0.8, zorder=2,
                 label=tr("deck {letter}: {name}", letter=letters[deck_b], name=_name(deck_b)) + suffix)
    _probability_axis(top, _values(frame, "p_a", "p_b"))
    top.tick_params(labelbottom=True)
    top.set_xlabel(tr("Turn"))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    others = [tr("{letter}: {name}", letter=letters[d], name=_name(d)) for d in decks_b]
    if len(decks_b) == 1:
        main = tr("{what} by turn: deck A vs deck B", what=what)
    else:
        main = tr("{what} by turn: deck A vs decks {letters}", what=what,
                  letters=", ".join(letters[d] for d in decks_b))
    _title(top, main,
           _joined(tr("{letter}: {name}", letter="A", name=name_a), *others, seat_text, _method_words(frame)))
    _data_lines_unclipped(top)
    _legend(top)
    _draw_difference(frame, bottom, name_a, alone=False)
    return axes


def _draw_difference(frame: pd.DataFrame, ax: Axes, name_a: str, *, alone: bool) -> None:
    """The difference panel of :func:`plot_compare`."""
    events, decks_b = _unique(frame, "event"), _unique(frame, "deck_b")
    drawn = _merge_identical_seats(frame, ["diff", "diff_ci_low", "diff_ci_high"], by=["deck_b", "event"])
    seats = _unique(drawn, "seat")
    palette = ("0.15", COLORS[4], COLORS[5], COLORS[6], COLORS[8], COLORS[9])
    any_simulated = False
    values = [_numbers(frame["diff"])]
    groups = drawn.groupby(["deck_b", "event", "seat"], sort=False)
    for i, ((deck_b, event, seat), part) in enumerate(groups):
        part = part.sort_values("turn")
        linestyle, marker = _seat_style(seat, seats.index(seat))
        # Several decks B: each keeps its top-panel colour; one deck B: one colour per event and seat.
        color = COLORS[(1 + decks_b.index(deck_b)) % 10] if len(decks_b) > 1 else palette[i % len(palette)]
        words = [str(event)] if len(events) > 1 else []
        words += [_seat_words(seat)] if len(seats) > 1 else []
        turns = _numbers(part["turn"])
        label = f"{_name(deck_b)} − {name_a}" + (f" ({', '.join(words)})" if words else "")
        ax.plot(turns, _numbers(part["diff"]), linestyle=linestyle, marker=marker, color=color, label=label)
        if _simulated(part):
            any_simulated = True
            low, high = _numbers(part["diff_ci_low"]), _numbers(part["diff_ci_high"])
            ax.fill_between(turns, low, high, color=color, alpha=0.15, linewidth=0)
            values += [low, high]
    ax.axhline(0.0, color="0.4", linewidth=1, zorder=1)
    _points_axis(ax, np.concatenate(values))
    b_words = tr("P(deck B) − P(deck A)") if len(decks_b) == 1 else tr("P(other deck) − P(deck A)")
    ax.set_ylabel(b_words + "\n" + tr("(percentage points)"))
    _turn_axis(ax, _numbers(frame["turn"]))
    minus = tr("deck B − deck A") if len(decks_b) == 1 else tr("each deck − deck A")
    above = tr("above 0: more likely than with deck A ({name})", name=name_a)
    if alone:
        what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
        seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
        names = [tr("{letter}: {name}", letter="B", name=_name(decks_b[0]))] if len(decks_b) == 1 else []
        _title(ax, tr("Difference in {what} by turn: {minus}", what=what, minus=minus),
               _joined(*names, tr("{letter}: {name}", letter="A", name=name_a),
                       seat_text, _method_words(frame)) + "\n" + above)
    else:
        _title(ax, tr("Difference: {minus}", minus=minus), above)
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles)


def _points_axis(ax: Axes, values: np.ndarray) -> None:
    """Y axis of differences of probabilities, centred on 0, in percentage points."""
    values = values[np.isfinite(values)]
    reach = float(np.max(np.abs(values))) * 1.08 if values.size else 0.0
    reach = min(max(reach, 0.005), 1.0)
    step = float(MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(0.0, reach)[1])
    reach = min(math.ceil(reach / step - 1e-9) * step, 1.0)
    ax.set_ylim(-reach, reach)
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_formatter(PointsFormatter())
    ax.grid(True, axis="y", alpha=0.3)


def plot_mulligan(result: MulliganResult, ax: Axes | None = None) -> Axes:
    """Draw P(event) by turn with the mulligan rule and keeping every first hand.

    Parameters
    ----------
    result : MulliganResult
        A :func:`deckstat.mulligan` result. Its ``by_turn`` table (``turn``,
        ``seat``, ``event``, ``mulligan_rule``, ``p``, ``ci_low``,
        ``ci_high``, ``method``: rows of the rule, and rows ``"none"`` keeping
        every first hand) is drawn; its ``summary`` (rule, keep rule,
        P(keep the first hand)) is named in the title.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        With the mulligan: filled markers; keeping every first hand: hollow
        markers. With one event, blue is the rule and orange keeping every
        hand; with several, each event has its colour. One line style per
        seat (seats with identical results share a line), with 95% bands
        when simulated. The method in the title is the rule's.
    """
    _expect(result, MulliganResult, "result", "deckstat.mulligan")
    frame = _check(result.by_turn, ["turn", "seat", "event", "mulligan_rule", "p", "ci_low", "ci_high", "method"],
                   N_("mulligan result's by_turn"))
    ax = _axes(ax)
    info = _row(result.summary)
    rules = [rule for rule in _unique(frame, "mulligan_rule") if rule != "none"]
    rule = _present(info.get("mulligan_rule")) or result.provenance.get("mulligan_rule") or next(iter(rules), None)
    keep = _present(info.get("keep")) or result.provenance.get("keep")
    keys = [c for c in ("deck", "game", "event", "seat", "turn") if c in frame.columns]
    is_none = (frame["mulligan_rule"] == "none").to_numpy(dtype=bool, na_value=False)
    sides = {}
    for side, rows in (("with", frame[~is_none]), ("without", frame[is_none])):
        sides[side] = rows[keys + ["p", "ci_low", "ci_high", "method"]].rename(
            columns={"p": f"p_{side}", "ci_low": f"p_{side}_low", "ci_high": f"p_{side}_high",
                     "method": f"method_{side}"})
    wide = sides["with"].merge(sides["without"], on=keys, how="outer", sort=False)
    drawn = _merge_identical_seats(wide, ["p_with", "p_with_low", "p_with_high", "p_without", "p_without_low",
                                          "p_without_high"], by=["event"])
    events, seats = _unique(drawn, "event"), _unique(drawn, "seat")
    simulated = _simulated(frame)
    with_words = tr("with the {mulligan}", mulligan=name_of(MULLIGAN_NAMES, rule)) if rule else tr("with the mulligan")
    if keep:
        with_words += tr(" (keep if {keep})", keep=keep)
    values = [_numbers(frame["p"])]
    for e, event in enumerate(events):
        for i, seat in enumerate(seats):
            part = drawn[(drawn["event"] == event) & (drawn["seat"] == seat)].sort_values("turn")
            if part.empty:
                continue
            linestyle, marker = _seat_style(seat, i)
            words = ([str(event)] if len(events) > 1 else []) + ([_seat_words(seat)] if len(seats) > 1 else [])
            prefix = f"{', '.join(words)}, " if words else ""
            turns = _numbers(part["turn"])
            # One event: a colour per side; several: a colour per event, hollow markers keeping every hand.
            for side, color, side_words, face in (("with", COLORS[0], with_words, None),
                                                  ("without", COLORS[1], tr("keeping every first hand"), "white")):
                color = COLORS[e % len(COLORS)] if len(events) > 1 else color
                ax.plot(turns, _numbers(part[f"p_{side}"]), linestyle=linestyle, marker=marker, color=color,
                        markerfacecolor=face or color, label=f"{prefix}{side_words}")
                if (part[f"method_{side}"] == "simulate").any():
                    low, high = _numbers(part[f"p_{side}_low"]), _numbers(part[f"p_{side}_high"])
                    ax.fill_between(turns, low, high, color=color, alpha=0.2, linewidth=0)
                    values += [low, high]
    _probability_axis(ax, np.concatenate(values))
    _turn_axis(ax, _numbers(frame["turn"]))
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    kept = None
    if _present(info.get("p_keep_first")) is not None:
        kept = tr("first hand kept {p} of the time", p=_percent(info["p_keep_first"]))
    deck = _present(info.get("deck")) or _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _present(info.get("game")) or _shared(frame, "game", result.provenance.get("game"))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    _title(ax, tr("{what} among the cards seen by turn: mulligan or keep every hand?", what=what),
           _joined(seat_text, kept, _name(deck) if deck is not None else None, game,
                   _method_words(frame[~is_none] if (~is_none).any() else frame, _present(info.get("n_trials")))))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    return ax


#: Columns of a batch table that hold answers or bookkeeping, never a setting that tells two lines apart.
_BATCH_VALUE_COLUMNS = frozenset({"task_id", "question", "seed", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low",
                                  "cdf_high", "n_trials", "method", "zone_size", "deck_file", "event"})
#: What a batch plot draws for each question: the probability column and the words of its axis.
BATCH_CURVES = {"odds": ("p", N_("P(event) by turn")), "when": ("cdf", N_("P(event has held) by turn"))}


def _setting(value: object) -> str:
    """A setting as written in a spec: 1000, not the 1000.0 a column with gaps holds."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _setting_words(column: str, value: object) -> str:
    """A batch line's setting in the language: a seat or a rule in words, a deck as named, else ``key=value``.

    Other keys stay as the spec writes them (``turns=0-6``): the spec's keys are the same in every language.
    """
    if column == "seat":
        return _seat_words(value)
    if column == "mulligan_rule":
        return name_of(MULLIGAN_NAMES, value) if value != "none" else tr("keeping every first hand")
    if column == "trials":
        return trn("{n} trial", "{n} trials", int(float(value)))
    if column == "deck":
        return str(value)
    return f"{column}={_setting(value)}"


def plot_batch(table: pd.DataFrame, question: str = "odds", event: str | None = None,
               ax: Axes | None = None) -> Axes:
    """Draw one event of a batch's results by turn: one line per task and seat.

    Parameters
    ----------
    table : pandas.DataFrame
        A batch table (:func:`deckstat.batch`'s ``table``, or its
        ``results.csv`` read back).
    question : {"odds", "when"}
        Whose rows to draw: ``p`` of ``odds``, ``cdf`` (held by turn t) of ``when``.
    event : str, optional
        The event to draw (default: the first one of that question).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Each line is labelled with the settings that differ between the
        lines drawn (deck, swept parameters, seat); simulated lines carry
        their 95% interval band. Batches compare close settings: the
        probability axis fits the values, so that their differences show.
    """
    if question not in BATCH_CURVES:
        raise DeckstatError(tr("question must be one of {choices}, got {question!r}", choices=", ".join(BATCH_CURVES),
                               question=question))
    frame = _check(table, ["task_id", "question", "event", "seat", "turn"], N_("batch table"))
    frame = frame[frame["question"] == question]
    if frame.empty:
        raise DeckstatError(tr("the batch table has no {question} rows: nothing to draw", question=question))
    events = _unique(frame, "event")
    event = events[0] if event is None else event
    if event not in events:
        raise DeckstatError(tr("the batch's {question} rows have no event {event!r}; they have {events}",
                               question=question, event=event, events=", ".join(map(str, events))))
    column, words = BATCH_CURVES[question]
    frame = frame[frame["event"] == event]
    low, high = ("ci_low", "ci_high") if column == "p" else ("cdf_low", "cdf_high")
    # The settings that tell the lines apart: those that differ between the rows at one turn.
    settings = [c for c in frame.columns if c not in _BATCH_VALUE_COLUMNS
                and frame[c].astype(str).nunique() > 1]
    ax = _axes(ax, figsize=(11.0, 5.5))  # room for the legend beside the axes
    any_simulated = False
    single_turn = frame["turn"].nunique() == 1
    lines = frame.groupby(["task_id", "seat"], sort=False, dropna=False)
    values = [_numbers(frame[column])]
    labels = []
    for i, (_, part) in enumerate(lines):
        part = part.sort_values("turn")
        first = part.iloc[0]
        label = ", ".join(_setting_words(c, first[c]) for c in settings if not pd.isna(first[c])) \
            or str(first["deck"])
        linestyle, marker = _seat_style(first["seat"], i)
        color = COLORS[i % len(COLORS)]
        turns, p = _numbers(part["turn"]), _numbers(part[column])
        ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color, label=label)
        if single_turn:  # a lone point says little without its value
            labels += [(x, y, _percent(y), color) for x, y in zip(turns, p)]
        if _simulated(part) and {low, high} <= set(part.columns):
            any_simulated = True
            ax.fill_between(turns, _numbers(part[low]), _numbers(part[high]), color=color, alpha=0.2, linewidth=0)
            values += [_numbers(part[low]), _numbers(part[high])]
    _probability_axis(ax, np.concatenate(values), whole=single_turn)
    _turn_axis(ax, _numbers(frame["turn"]))
    shared = [str(frame[c].iloc[0]) for c in ("deck", "game") if c in frame.columns and c not in settings]
    _title(ax, tr("{what}: {event}", what=tr(words), event=event),
           _joined(*shared, trn("{n} line", "{n} lines", lines.ngroups)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    if labels:
        _place_labels(ax, labels, fontsize=9)
    return ax


def close(figure_or_ax) -> None:
    """Close what a ``plot_*`` function returned without saving it (a command stopped before its figure)."""
    target = figure_or_ax.flat[0] if isinstance(figure_or_ax, np.ndarray) and figure_or_ax.size else figure_or_ax
    if isinstance(target, (Axes, Figure)):
        plt.close(target.figure.figure)


def save(figure_or_ax, path: str | Path) -> Path:
    """Save a figure as PNG (150 dpi) or SVG, chosen by the file extension, and close it.

    Parameters
    ----------
    figure_or_ax : matplotlib.figure.Figure, matplotlib.axes.Axes or array of Axes
        What a ``plot_*`` function returned, or its figure.
    path : str or pathlib.Path
        Output file ending in ``.png`` or ``.svg`` (any case).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    DeckstatError
        For another extension, something that is not a figure, or a file that cannot be written (its
        folder missing or read-only, the disk full): the file then keeps its old content.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SAVE_FORMATS:
        shown = tr("extension {suffix!r}", suffix=path.suffix) if path.suffix else tr("a file name without extension")
        raise DeckstatError(tr("cannot save a figure with {shown}; use a .png or .svg file name", shown=shown),
                            source=str(path))
    target = figure_or_ax
    if isinstance(target, np.ndarray) and target.size:
        target = target.flat[0]
    if not isinstance(target, (Axes, Figure)):
        raise DeckstatError(tr("figure_or_ax must be a matplotlib Figure or Axes, got {kind}",
                               kind=type(figure_or_ax).__name__))
    figure = target.figure.figure  # the root figure, also for an Axes in a subfigure
    options = {"dpi": 150} if suffix == ".png" else {}
    try:
        # Under a temporary name, then renamed: an interrupted run leaves no half-written figure.
        atomic_write(path, lambda temporary: figure.savefig(temporary, format=SAVE_FORMATS[suffix],
                                                            bbox_inches="tight", **options))
    finally:
        plt.close(figure)
    return path
