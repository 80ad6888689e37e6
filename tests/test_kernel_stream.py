"""The compiled loops generate numpy's PCG64 words where they use them: the very numbers drawn words give."""

import numpy as np
import pytest

from deckstat.engines import _compiled, kernel

WORD = (1 << 64) - 1


@pytest.mark.parametrize("delta", [0, 1, 2, 7, 1000, 123_456_789, 2**40 + 3])
def test_advance_is_numpys(delta):
    bit_generator = np.random.PCG64(11)
    state = bit_generator.state["state"]
    high, low = _compiled.pcg_advance(np.uint64(state["state"] >> 64), np.uint64(state["state"] & WORD),
                                      np.uint64(state["inc"] >> 64), np.uint64(state["inc"] & WORD), delta)
    bit_generator.advance(delta)
    assert int(high) << 64 | int(low) == bit_generator.state["state"]["state"]


@pytest.mark.parametrize("counts", [[24, 36], [3, 5, 2], [1] * 9])
@pytest.mark.parametrize("length, n_trials", [(10, 1), (10, 2), (9, 257), (7, 513), (1, 300), (12, 1001)])
def test_generated_words_draw_what_drawn_words_do(counts, length, n_trials):
    counts = np.array(counts, dtype=np.int64)
    table = np.random.default_rng(1).integers(0, 2, (len(counts), 2)).astype(np.int16)
    drawn_rng, generated_rng = np.random.default_rng(42), np.random.default_rng(42)
    bits, scaled = kernel._random_bits(drawn_rng, int(counts.sum()), length, n_trials)
    expected = np.empty((length, n_trials), dtype=np.int8), np.zeros((2, length + 1, n_trials), dtype=np.int16)
    _compiled.draw(bits, scaled, counts, table, *expected)
    stream = kernel._stream(generated_rng, int(counts.sum()))
    got = np.empty((length, n_trials), dtype=np.int8), np.zeros((2, length + 1, n_trials), dtype=np.int16)
    _compiled.draw_from(kernel._NO_BITS, True, stream, length, n_trials, counts, table, *got)
    kernel._set_stream(generated_rng, stream)
    np.testing.assert_array_equal(got[0], expected[0])
    if len(counts) == 2:  # prefix counts come with the draw for two cells only
        np.testing.assert_array_equal(got[1], expected[1])
    # The generator moved past exactly the words drawn: what follows is the same.
    np.testing.assert_array_equal(generated_rng.integers(0, 2**62, 5), drawn_rng.integers(0, 2**62, 5))


def test_a_buffered_half_word_stays_with_the_generator():
    drawn_rng, generated_rng = np.random.default_rng(3), np.random.default_rng(3)
    for rng in (drawn_rng, generated_rng):
        rng.integers(0, 10, dtype=np.int32)  # leaves half a word in the generator's buffer
    kernel.draw_cells(np.array([24, 36]), 5, 10, generated_rng)
    kernel._random_bits(drawn_rng, 60, 10, 5)
    assert generated_rng.bit_generator.state == drawn_rng.bit_generator.state


@pytest.mark.parametrize("rule", ["london", "free", "pokemon", "vancouver"])
@pytest.mark.parametrize("n_trials", [1, 600, 1001])
def test_a_deal_is_the_same_whether_words_are_generated_or_drawn(monkeypatch, rule, n_trials):
    counts = np.array([6, 9, 5])
    table = np.array([[1, 0], [0, 1], [0, 0]], dtype=np.int8)

    def keep(counts):
        return (counts[0] >= 2) & (counts[1] >= 2)

    def dealt(rng):
        out = kernel.deal(counts, table, n_trials, hand_size=6, set_aside=1, max_draws=4, rng=rng, mulligan=rule,
                          mulligan_limit=3, keep=keep, needs=((0, 2), (1, 1)), resource=np.array([True, False, False]),
                          resource_target=0.3)
        return out, rng.integers(0, 2**62, 3)

    generated = dealt(np.random.default_rng(8))
    monkeypatch.setattr(kernel, "_stream", lambda rng, n_cards: None)
    drawn = dealt(np.random.default_rng(8))
    assert generated[0].keys() == drawn[0].keys()
    for zone in drawn[0]:
        np.testing.assert_array_equal(generated[0][zone], drawn[0][zone])
    np.testing.assert_array_equal(generated[1], drawn[1])


def test_other_bit_generators_draw_their_words_first():
    assert kernel._stream(np.random.Generator(np.random.Philox(1)), 60) is None
    assert kernel._stream(np.random.default_rng(1), 256) is None  # float uniforms past 255 cards
    assert kernel._stream(np.random.default_rng(1), 60) is not None


@pytest.mark.parametrize("zones", [("seen",), ("hand",), ("hand", "seen", "bottom")])
def test_a_first_hand_kept_without_mulligan_is_dealt_as_before(zones):
    # One compiled pass writes the zones (no prefix counts): the numbers of the prefix counts' path.
    counts = np.array([10, 18, 14, 8])
    table = np.array([[1, 0, 0], [0, 1, 1], [0, 1, 0], [0, 0, 0]], dtype=np.int8)
    dealt = kernel.deal(counts, table, 1001, hand_size=5, set_aside=1, max_draws=9, rng=np.random.default_rng(4),
                        zones=zones)
    before = kernel._deal_bottom(counts, table, 1001, 5, 1, 9, np.random.default_rng(4), 0, None, zones)
    assert dealt.keys() == before.keys()
    for zone in before:
        np.testing.assert_array_equal(dealt[zone], before[zone])
        assert dealt[zone].dtype == before[zone].dtype
