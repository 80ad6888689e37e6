"""A task for the block runner's tests, in a module light enough for worker processes to import quickly."""

import numpy as np


def coin_task(p, rng, n_trials):
    """Hits of a p-coin and of a fair die showing 6, over ``n_trials`` trials."""
    return np.array([rng.binomial(n_trials, p), np.count_nonzero(rng.integers(1, 7, n_trials) == 6)])


def where_task(parent, rng, n_trials):
    """Hits of a fair coin, and whether process ``parent`` or another ran the block (slowly, as real blocks do)."""
    import os
    import time

    time.sleep(0.04)
    here = os.getpid() == parent
    return np.array([rng.binomial(n_trials, 0.5), int(here), int(not here)])


def compiling_task(parent, rng, n_trials):
    """1 and whether this block ran in process ``parent``, and whether its process would compile the kernel's loops."""
    import os
    import time

    from deckstat.engines import kernel

    time.sleep(0.04)
    return np.array([1, int(os.getpid() == parent), int(kernel.compiles_here)])


def copy_task(parent, rng, n_trials):
    """Hits of a fair coin, and whether a copy of process ``parent`` (its child) or another process ran the block."""
    import os
    import time

    time.sleep(0.04)
    copy = os.getppid() == parent
    return np.array([rng.binomial(n_trials, 0.5), int(copy), int(not copy and os.getpid() != parent)])
