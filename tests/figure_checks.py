"""What code can check of a figure's readability: data inside the axes, text that does not collide or spill out.

:func:`check_figure` draws the figure and raises AssertionError naming every problem found:

- a data point (line vertex, marker, bar, error bar, band) outside its axes' limits;
- two texts overlapping (titles, axis labels, tick labels, annotations, legend entries, figure texts);
- a text outside the figure;
- a probability axis (one with deckstat's percent ticks) reaching below 0 % or above 100 %, or not starting at
  0 % without its label saying so;
- a legend inside the axes covering a data point.
"""

from __future__ import annotations

import itertools

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from deckstat.i18n import tr
from deckstat.present import plots

#: Pixels two texts may share (anti-aliasing, rounding) before they count as overlapping.
OVERLAP = 1.0
#: Relative tolerance of "inside the limits".
EDGE = 1e-9


def _within(values: np.ndarray, limits: tuple[float, float]) -> bool:
    low, high = sorted(limits)
    values = values[np.isfinite(values)]
    slack = EDGE * max(1.0, high - low)
    return bool(np.all((values >= low - slack) & (values <= high + slack)))


def _data_problems(ax: Axes) -> list[str]:
    """Data drawn in data coordinates that lies outside the axes' limits."""
    problems = []
    xlim, ylim = ax.get_xlim(), ax.get_ylim()

    def check(kind: str, label: str, x: np.ndarray | None, y: np.ndarray | None) -> None:
        if x is not None and not _within(np.asarray(x, dtype=float), xlim):
            problems.append(f"{kind} {label!r}: x outside {xlim}")
        if y is not None and not _within(np.asarray(y, dtype=float), ylim):
            problems.append(f"{kind} {label!r}: y outside {ylim}")

    for line in ax.lines:
        if not line.get_visible():
            continue
        x_data, y_data = line.get_transform().contains_branch_seperately(ax.transData)
        xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
        check("line", line.get_label(), xy[:, 0] if x_data else None, xy[:, 1] if y_data else None)
    for patch in ax.patches:
        if not isinstance(patch, Rectangle) or not patch.get_visible():
            continue
        x_data, y_data = patch.get_transform().contains_branch_seperately(ax.transData)
        x = np.array([patch.get_x(), patch.get_x() + patch.get_width()])
        y = np.array([patch.get_y(), patch.get_y() + patch.get_height()])
        check("bar", patch.get_label(), x if x_data else None, y if y_data else None)
    for collection in ax.collections:
        if not isinstance(collection, Collection) or not collection.get_visible():
            continue
        if collection.get_transform().contains_branch_seperately(ax.transData) != (True, True):
            continue
        vertices = [path.vertices for path in collection.get_paths() if len(path.vertices)]
        if vertices:
            xy = np.vstack(vertices)
            check("band or error bar", collection.get_label(), xy[:, 0], xy[:, 1])
    return problems


def _texts(figure: Figure) -> list[Text]:
    """Every text a reader sees: titles, axis labels, tick labels within the limits, annotations, legends."""
    texts = list(figure.texts)
    # The figure's own titles, when this matplotlib does not list them among its texts.
    texts += [t for t in (figure._suptitle, figure._supxlabel, figure._supylabel) if t is not None and t not in texts]
    for legend in figure.legends:  # legends of the whole figure (small multiples)
        texts += list(legend.get_texts()) + [legend.get_title()]
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title]
        texts += list(ax.texts)
        if ax.axison:
            for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
                texts.append(axis.label)
                texts.append(axis.get_offset_text())
                low, high = sorted(limits)
                for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                    if low - EDGE <= tick.get_loc() <= high + EDGE:
                        texts += [tick.label1, tick.label2]
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            texts += list(legend.get_texts()) + [legend.get_title()]
    return [t for t in texts if isinstance(t, Text) and t.get_visible() and t.get_text().strip()]


def _legend_problems(ax: Axes, renderer) -> list[str]:
    """A legend inside the axes that covers a point of a data line."""
    legend = ax.get_legend()
    if legend is None or not legend.get_visible():
        return []
    box = legend.get_window_extent(renderer)
    if not ax.get_window_extent(renderer).contains(box.x0 + box.width / 2, box.y0 + box.height / 2):
        return []  # outside the axes: below or beside them
    problems = []
    for line in ax.lines:
        if line.get_transform().contains_branch_seperately(ax.transData) != (True, True) or not line.get_visible():
            continue
        xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
        xy = xy[np.isfinite(xy).all(axis=1)]
        if not len(xy) or line.get_marker() in (None, "None", "", " "):
            continue
        points = ax.transData.transform(xy)
        inside = [box.contains(x, y) for x, y in points]
        if any(inside):
            problems.append(f"the legend covers a point of {line.get_label()!r}")
    return problems


def _probability_problems(ax: Axes) -> list[str]:
    if not isinstance(ax.yaxis.get_major_formatter(), plots.ProbabilityFormatter):
        return []
    bottom, top = ax.get_ylim()
    problems = []
    if bottom < -EDGE or top > 1 + EDGE:
        problems.append(f"probability axis from {bottom} to {top}, outside [0, 1]")
    # Panels sharing their axes are labelled once, on the figure.
    shared = ax.figure.figure._supylabel
    label = ax.get_ylabel() or (shared.get_text() if shared is not None else "")
    if bottom > EDGE and tr(plots.AXIS_NOTE) not in label:
        problems.append(f"probability axis starts at {bottom} without saying so: {label!r}")
    return problems


def figure_problems(figure: Figure) -> list[str]:
    """Every readability problem :func:`check_figure` looks for, in words."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    problems = []
    for ax in figure.axes:
        problems += _data_problems(ax) + _probability_problems(ax) + _legend_problems(ax, renderer)
    texts = _texts(figure)
    boxes = [t.get_window_extent(renderer) for t in texts]
    frame = figure.bbox
    for text, box in zip(texts, boxes):
        if box.x0 < frame.x0 - OVERLAP or box.x1 > frame.x1 + OVERLAP or box.y0 < frame.y0 - OVERLAP \
                or box.y1 > frame.y1 + OVERLAP:
            problems.append(f"text {text.get_text()!r} outside the figure")
    for (a, box_a), (b, box_b) in itertools.combinations(zip(texts, boxes), 2):
        width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if width > OVERLAP and height > OVERLAP:
            problems.append(f"texts overlap: {a.get_text()!r} and {b.get_text()!r}")
    return problems


def check_figure(figure_or_axes) -> Figure:
    """Raise AssertionError listing the readability problems of a figure (or of the figure of Axes); return it."""
    target = figure_or_axes
    if isinstance(target, np.ndarray):
        target = target.flat[0]
    figure = target if isinstance(target, Figure) else target.figure.figure
    problems = figure_problems(figure)
    assert not problems, "\n".join(problems)
    return figure
