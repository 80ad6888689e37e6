"""A task for the block runner's tests, in a module light enough for worker processes to import quickly."""

import numpy as np


def coin_task(p, rng, n_trials):
    """Hits of a p-coin and of a fair die showing 6, over ``n_trials`` trials."""
    return np.array([rng.binomial(n_trials, p), np.count_nonzero(rng.integers(1, 7, n_trials) == 6)])
