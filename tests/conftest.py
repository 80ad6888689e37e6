from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SHARED_CARDDATA = ROOT.parent / "shared" / "carddata"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)
