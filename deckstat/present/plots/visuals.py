"""What every figure shares: numbers on the axes, axes, titles, colours and line styles, legends and labels, saving.

The figure modules (``odds``, ``when``, ``curve``, ``ratio``, ``deckout``,
``compare``, ``mulligan``, ``batch``) draw with these; each shared convention
of :mod:`deckstat.present.plots` (percent ticks in the current language,
probability axes fitted to the values, legends and labels that cover no
point, the colour-blind-safe palette, seats told apart by line style) lives
here once.
"""

from __future__ import annotations

import io
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
from matplotlib.patches import Patch
from matplotlib.ticker import Formatter, MaxNLocator, MultipleLocator, PercentFormatter
from matplotlib.transforms import Bbox, ScaledTranslation

from deckstat.errors import DeckstatError
from deckstat.i18n import N_, NBSP, get_language, language, localise_number, number, tr, trn
from deckstat.present.files import atomic_write
from deckstat.present.format import BOTH_SEATS, format_probability, merge_alike_seats
from deckstat.present.markup import figure_text

COLORS = tuple(matplotlib.colormaps["tab10"].colors)
SEAT_STYLES = {"first": ("-", "o"), "second": ("--", "s"), "both": ("-", "o")}
OTHER_STYLES = (("-.", "^"), (":", "D"), ("-", "v"))
SEAT_WORDS = {"first": N_("first player"), "second": N_("second player")}
INTERVAL_LABEL = N_("95% interval (simulated)")
TURN_LABEL = N_("Turn (0 = kept opening hand)")
#: What a probability axis's label adds when the axis does not start at 0 %.
AXIS_NOTE = N_("axis does not start at 0%")
SAVE_FORMATS = {".png": "png", ".svg": "svg"}
TITLE_WIDTH = 80
#: The narrowest range of probabilities an axis shows: flat lines are not magnified into noise.
MIN_SPAN = 0.05
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
        self._written: dict[tuple, str] = {}

    def format_pct(self, x: float, display_range: float) -> str:
        """``x`` as :class:`~matplotlib.ticker.PercentFormatter` writes it, localised."""
        # A figure's layout and drawing ask for the same few ticks hundreds of times.
        key = (x, display_range, self.decimals, self.symbol, self.xmax)
        text = self._written.get(key)
        if text is None:
            with language(self.language):
                text = self._written[key] = localise_number(super().format_pct(x, display_range))
        return text


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


def _values(frame: pd.DataFrame, *columns: str) -> np.ndarray:
    """Every number of ``columns`` present in ``frame`` (the values a probability axis must show)."""
    present = [c for c in columns if c in frame.columns]
    return np.concatenate([_numbers(frame[c]) for c in present]) if present else np.array([])


# --- legends and labels that stay readable ---------------------------------------------------------------------

def _renderer(ax: Axes):
    """Lay the figure out (as a draw does) and return the renderer that measures its text."""
    figure = ax.figure.figure
    # Every artist placed and measured as a draw places it, without painting a pixel: only sizes are read here.
    figure.draw_without_rendering()
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


#: matplotlib backends that only write files: no window toolkit runs in a process that uses them.
_FILE_BACKENDS = frozenset({"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"})


def no_window_backend() -> bool:
    """Whether pyplot's backend, chosen or still to be chosen, has started no window toolkit in this process.

    Before matplotlib 3.10 this cannot be asked without choosing a backend: the answer is then no.
    """
    try:
        backend = matplotlib.get_backend(auto_select=False)  # None while pyplot has not chosen one
    except TypeError:
        return False
    return backend is None or backend.lower() in _FILE_BACKENDS


# --- saving -----------------------------------------------------------------------------------------------------

def close(figure_or_ax) -> None:
    """Close what a ``plot_*`` function returned without saving it (a command stopped before its figure)."""
    target = figure_or_ax.flat[0] if isinstance(figure_or_ax, np.ndarray) and figure_or_ax.size else figure_or_ax
    if isinstance(target, (Axes, Figure)):
        plt.close(target.figure.figure)


def _root_figure(figure_or_ax) -> Figure:
    """The root figure of what a ``plot_*`` function returned (also of an Axes in a subfigure)."""
    target = figure_or_ax
    if isinstance(target, np.ndarray) and target.size:
        target = target.flat[0]
    if not isinstance(target, (Axes, Figure)):
        raise DeckstatError(tr("figure_or_ax must be a matplotlib Figure or Axes, got {kind}",
                               kind=type(figure_or_ax).__name__))
    return target.figure.figure


def _savefig(figure: Figure, target, suffix: str) -> None:
    """Every figure is saved with these options, into a file or a buffer alike."""
    options = {"dpi": 150} if suffix == ".png" else {}
    figure.savefig(target, format=SAVE_FORMATS[suffix], bbox_inches="tight", **options)


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
    figure = _root_figure(figure_or_ax)
    try:
        # Under a temporary name, then renamed: an interrupted run leaves no half-written figure.
        atomic_write(path, lambda temporary: _savefig(figure, temporary, suffix))
    finally:
        plt.close(figure)
    return path


def png_bytes(figure_or_ax) -> bytes:
    """The PNG file :func:`save` would write for a figure, as bytes; the figure is closed.

    Parameters
    ----------
    figure_or_ax : matplotlib.figure.Figure, matplotlib.axes.Axes or array of Axes
        What a ``plot_*`` function returned, or its figure.

    Returns
    -------
    bytes
    """
    figure = _root_figure(figure_or_ax)
    buffer = io.BytesIO()
    try:
        _savefig(figure, buffer, ".png")
    finally:
        plt.close(figure)
    return buffer.getvalue()
