"""The report's figures: drawn beside the page in a copy of the process when a second processor is free, the
same files as drawn one after the other; a copy that fails or is interrupted leaves nothing behind."""

from __future__ import annotations

import copy
import dataclasses
import io
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from helpers import children, only_here, sample_deck

import deckstat
from deckstat.errors import DeckstatError
from deckstat.i18n import language
from deckstat.present import plots
from deckstat.present import report as pages
from deckstat.present.plots.visuals import ProbabilityFormatter

#: What ``on_part`` was told while the module's report was computed: (name, part) in order.
ANNOUNCED: list[tuple[str, object]] = []


@pytest.fixture(scope="module")
def wankul_report():
    ANNOUNCED.clear()
    return deckstat.report(deckstat.load_deck(sample_deck("wankul")), "wankul", n_trials=2000, rng=1,
                           on_part=lambda name, part: ANNOUNCED.append((name, part)))


def _written(report, folder: Path, lang: str = "en", fmt: str = "markdown") -> dict[str, bytes]:
    with language(lang):
        pages.write_report(report, folder, fmt=fmt)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def in_turn(wankul_report, tmp_path_factory):
    """The module report's files drawn in this process, figure after figure, by language and format (each once)."""
    written: dict[tuple[str, str], dict[str, bytes]] = {}

    def files(lang: str = "en", fmt: str = "markdown") -> dict[str, bytes]:
        if (lang, fmt) not in written:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(pages, "_can_fork", lambda: False)
                written[lang, fmt] = _written(wankul_report, tmp_path_factory.mktemp("in_turn"), lang, fmt)
        return written[lang, fmt]

    return files


@pytest.fixture
def earlier_children() -> set[int]:
    """The processes this one had started before the test (the report's copy must not add to them)."""
    return set(children())


#: Judged as each test starts (a string condition), not at collection: a test file run before in this process may
#: have left threads running (Dask's cluster leaves one for good), and the report then draws in one process.
needs_fork = pytest.mark.skipif("not pages._can_fork()", reason="figures are drawn in one process here")


@needs_fork
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_figures_drawn_apart_are_the_files_drawn_in_turn(wankul_report, tmp_path, in_turn, lang):
    apart = _written(wankul_report, tmp_path / "apart", lang)
    assert in_turn(lang) == apart
    assert {"playability.png", "report.md"} <= set(apart)


@needs_fork
def test_the_html_page_is_the_same_either_way(wankul_report, tmp_path, in_turn):
    apart = _written(wankul_report, tmp_path / "apart", fmt="html")
    assert in_turn(fmt="html") == apart


@needs_fork
def test_a_figure_the_copy_fails_to_draw_is_drawn_here(wankul_report, tmp_path, monkeypatch, in_turn,
                                                       earlier_children):
    expected = in_turn()
    monkeypatch.setattr(plots, "plot_curve", only_here(plots.plot_curve))
    assert _written(wankul_report, tmp_path / "again") == expected
    assert set(children()) <= earlier_children  # e.g. a forkserver an earlier test in this process started


def test_an_error_in_a_figure_is_raised_and_leaves_the_old_report(wankul_report, tmp_path, monkeypatch,
                                                                   earlier_children):
    old = _written(wankul_report, tmp_path / "report")
    monkeypatch.setattr(plots, "plot_curve", lambda *args, **kwargs: (_ for _ in ()).throw(DeckstatError("boom")))
    with pytest.raises(DeckstatError, match="boom"):
        pages.write_report(wankul_report, tmp_path / "report")
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "report").iterdir())} == old
    assert set(children()) <= earlier_children  # e.g. a forkserver an earlier test in this process started


@needs_fork
def test_an_interrupt_ends_the_copy(wankul_report, tmp_path, monkeypatch, earlier_children):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(plots, "plot_odds", interrupted)  # drawn here while the copy draws the playability
    with pytest.raises(KeyboardInterrupt):
        pages.write_report(wankul_report, tmp_path / "report")
    assert not (tmp_path / "report").exists()
    assert set(children()) <= earlier_children  # e.g. a forkserver an earlier test in this process started


def test_each_part_is_announced_once_as_soon_as_it_is_computed(wankul_report):
    names = [name for name, _ in ANNOUNCED]
    assert names == ["by_turn", "hands", "mulligan", "playability", "ratio", "sensitivity", "deckout"]
    assert all(getattr(wankul_report, name) is part for name, part in ANNOUNCED)
    assert set(pages.FIGURE_PARTS.values()) <= set(names)
    with pytest.raises(DeckstatError, match="on_part"):
        deckstat.report(deckstat.load_deck(sample_deck("wankul")), "wankul", n_trials=10, on_part="figures")


def _ahead(report, lang: str = "en") -> pages.FiguresAhead:
    """Figures drawn ahead from ``report``'s parts, as ``deckstat.report`` announces them."""
    ahead = pages.FiguresAhead()
    with language(lang):
        for name in pages.FIGURE_PARTS.values():
            ahead.part(name, getattr(report, name))
    return ahead


@needs_fork
@pytest.mark.parametrize("drawn_in, written_in", [("fr", "fr"), ("en", "fr")])
def test_figures_drawn_ahead_are_the_files_drawn_in_turn(wankul_report, tmp_path, in_turn, drawn_in, written_in,
                                                         earlier_children):
    with _ahead(wankul_report, drawn_in) as ahead:
        assert set(children()) - earlier_children  # drawing already
        with language(written_in):
            pages.write_report(wankul_report, tmp_path / "ahead", ahead=ahead)
    assert set(children()) <= earlier_children
    ahead_files = {p.name: p.read_bytes() for p in sorted((tmp_path / "ahead").iterdir())}
    assert in_turn(written_in) == ahead_files


@needs_fork
def test_a_figure_drawn_ahead_from_another_part_is_drawn_here_and_only_that_one(wankul_report, tmp_path, monkeypatch,
                                                                                in_turn):
    expected = in_turn()
    # The same report with its by-turn part a copy: its figure was drawn ahead from another object.
    copied = dataclasses.replace(wankul_report, by_turn=copy.deepcopy(wankul_report.by_turn))
    drawn_here = []
    with _ahead(wankul_report) as ahead:
        for name in ("plot_odds", "plot_mulligan", "plot_ratio", "plot_curve", "plot_deckout"):
            real = getattr(plots, name)
            monkeypatch.setattr(plots, name, lambda *a, real=real, name=name, **k: drawn_here.append(name)
                                or real(*a, **k))
        pages.write_report(copied, tmp_path / "again", ahead=ahead)
    assert drawn_here == ["plot_odds"]
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "again").iterdir())} == expected


@needs_fork
def test_leaving_the_figures_ahead_ends_their_copies(wankul_report, earlier_children):
    with pytest.raises(KeyboardInterrupt):
        with _ahead(wankul_report):
            assert set(children()) - earlier_children
            raise KeyboardInterrupt  # the report interrupted while its figures are drawn
    assert set(children()) <= earlier_children


def test_every_figure_the_page_shows_is_written_and_reads_as_an_image(wankul_report, tmp_path):
    written = _written(wankul_report, tmp_path / "r")
    shown = [line[line.index("](") + 2:-1] for line in written["report.md"].decode("utf-8").splitlines()
             if line.startswith("![")]
    assert set(shown) <= set(pages._figures(wankul_report)) == {name for name in written if name.endswith(".png")}
    for name in shown:
        image = matplotlib.image.imread(tmp_path / "r" / name)
        assert image.ndim == 3 and np.ptp(image) > 0


def test_tick_labels_written_once_read_the_same():
    with language("fr"):
        formatter = ProbabilityFormatter(1)
    first = [formatter.format_pct(x, 1.0) for x in (0.0, 0.125, 0.875, 1.0)]
    assert first == ["0,0\u00a0%", "12,5\u00a0%", "87,5\u00a0%", "100,0\u00a0%"]
    assert [formatter.format_pct(x, 1.0) for x in (0.0, 0.125, 0.875, 1.0)] == first
    formatter.decimals = 0  # what a label is written with is part of its key
    assert formatter.format_pct(0.125, 1.0) == "12\u00a0%"


@needs_fork
def test_on_a_terminal_the_figures_are_drawn_ahead_while_the_bar_waits(wankul_report, earlier_children):
    # The command line's bar runs a timer thread (and, once shown, a drawing thread): a copy is made with them
    # paused, and they go on after.
    from rich.console import Console

    from deckstat.cli.progress import bar_paused, showing
    from deckstat.engines import progress

    with showing(console=Console(file=io.StringIO(), force_terminal=True), delay=60):
        with progress.track("report", total=8, unit="parts"), pages.FiguresAhead() as ahead:
            assert not pages._can_fork()  # the timer runs
            bar_paused(ahead.part)("by_turn", wankul_report.by_turn)
            assert set(children()) - earlier_children  # drawing already
            assert progress._listener.get().timer.is_alive()
            assert set(ahead.take(wankul_report)) == {"odds.png"}
    assert set(children()) <= earlier_children
