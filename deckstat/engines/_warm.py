"""Imported by the worker processes' forkserver: the compiled loops' common signatures, loaded once for all.

Importing it starts numba's JIT and loads the signatures the kernel's common
deals use, so that every worker forked from the server starts with them: tiny
deals through :func:`deckstat.engines.kernel.deal` (int8 cells, numpy's PCG64,
every seed's generator) reach the very signatures real ones do. On an install
where they were never compiled it loads nothing (see
:func:`deckstat.engines.kernel.compiled_once`).
"""

import numpy as np

from deckstat.engines import kernel


def warm() -> None:
    """Deal a few tiny hands without mulligan, with Wankul's and with London's: each compiled signature once."""
    from deckstat.engines import _compiled  # noqa: F401  (loaded first: the kernel then uses the compiled loops)

    rng = np.random.default_rng(0)
    counts = np.array([3, 3, 4], dtype=np.int64)
    table = np.array([[1], [0], [0]], dtype=np.int16)
    for mulligan in ("none", "bottom", "london"):
        kernel.deal(counts, table, 3, hand_size=2, set_aside=0, max_draws=2, rng=rng, mulligan=mulligan,
                    mulligan_limit=1, keep=lambda hands: hands[0] >= 1, needs=[(0, 1)])


# Never compiled on this install: the workers draw with numpy, as this process does, rather than wait 10-15 s
# for a compile that a run this size would not win back (kernel.VECTORISED_WORK_UNCOMPILED).
if kernel.compiled_once():
    warm()
