"""How simulated numbers are written: never fewer digits than their interval, lopsided intervals by their ends."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckstat.engines.runner import wilson_interval
from deckstat.present.format import format_difference, format_estimate, format_percent, interval_decimals


@pytest.mark.parametrize(("hits", "n_trials", "expected"), [
    # Wilson intervals computed by scipy; the expected text by hand from the rule in format_estimate.
    (500_000, 1_000_000, "50.00% ± 0.10%"),  # half-width 0.098 points: 2 decimals
    (873_400, 1_000_000, "87.34% ± 0.07%"),
    (100_000, 200_000, "50.0% ± 0.2%"),  # 0.22 points: 1 decimal
    (180_000, 200_000, "90.00% ± 0.13%"),  # a leading 1 keeps a second digit
    (5, 10, "50% ± 26%"),
    (999, 1_000, "99.9% [99.4%, 99.98%]"),  # lopsided; 99.982% is not written 100.0%
    (9_995, 10_000, "99.95% [99.88%, 99.98%]"),
    (1_000, 1_000, "100% [99.62%, 100%]"),  # every trial: the upper end is exactly 1
    (0, 1_000, "0% [0%, 0.38%]"),
    (1, 1_000, "0.1% [0.02%, 0.6%]"),
    (199_990, 200_000, "99.995% [99.991%, 99.997%]"),
])
def test_hand_picked_estimates(hits, n_trials, expected):
    low, high = wilson_interval(hits, n_trials)
    assert format_estimate(hits / n_trials, low, high, "simulate") == expected


def test_exact_numbers_keep_their_format():
    assert format_estimate(0.8734, 0.8734, 0.8734, "exact") == "87.3%"
    assert format_estimate(0.99996, 0.99996, 0.99996, "exact") == "99.996%"


@pytest.mark.parametrize(("low", "high", "decimals"), [
    (0.4, 0.6, 0),  # half-width 10 points: a leading 1 gets its second digit, 10
    (0.45, 0.55, 0),  # 5 points
    (0.49, 0.51, 1),  # 1 point: 1.0
    (0.47, 0.53, 0),  # 3 points
    (0.499, 0.501, 2),  # 0.1 point: 0.10
    (0.4995, 0.5005, 2),  # 0.05 point
])
def test_interval_decimals(low, high, decimals):
    assert interval_decimals(low, high) == decimals


@pytest.mark.parametrize(("p", "decimals", "text"), [
    (0.0, 3, "0%"), (1.0, 0, "100%"), (0.5, 0, "50%"), (0.99951, 1, "99.95%"), (0.00049, 1, "0.05%"),
    (0.123456, 2, "12.35%"),
])
def test_format_percent(p, decimals, text):
    assert format_percent(p, decimals) == text


def test_difference_decimals_follow_the_interval():
    assert format_difference(0.05, 0.05, 0.05, "exact") == "+5.00 pp"
    assert format_difference(0.001234, 0.001, 0.00147, "simulate") == "+0.12 pp [+0.10, +0.15]"  # half 0.02
    assert format_difference(0.001234, 0.0012, 0.00126, "simulate") == "+0.123 pp [+0.120, +0.126]"


def _number(text: str) -> float:
    return float(text.rstrip("%"))


@given(st.integers(1, 10**7), st.data())
def test_estimates_are_honest(n_trials, data):
    hits = data.draw(st.integers(0, n_trials))
    low, high = wilson_interval(hits, n_trials)
    p = hits / n_trials
    text = format_estimate(p, low, high, "simulate")
    numbers = re.findall(r"\d+(?:\.\d+)?%", text)
    shown = numbers[0]
    decimals = len(shown.rstrip("%").partition(".")[2])
    assert decimals >= interval_decimals(low, high) or shown in ("0%", "100%")
    if "±" in text:
        centre, half = _number(numbers[0]), _number(numbers[1])
        assert 0 <= centre - half and centre + half <= 100
    else:
        low_shown, high_shown = _number(numbers[1]), _number(numbers[2])
        assert low_shown <= _number(shown) <= high_shown
        # 0% and 100% only for ends that are exactly 0 or 1.
        assert (low_shown == 0) == (low == 0) and (high_shown == 100) == (high == 1)
