"""A stand-in for ``deckstat.batch.spec`` and ``deckstat.batch.tasks`` in the batch runner's tests.

It reads the odds questions of the batch spec format (decks, defaults, sweeps) and runs them with
``deckstat.odds``, so the runner is tested on real questions. Kept apart from the test file, with few imports,
because the runner's worker processes import it to unpickle the tasks. Once the real modules exist,
:func:`install_stand_ins` does nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
import tomllib
import types
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

import deckstat
from deckstat._validate import parse_count
from deckstat.errors import DeckstatError

HAS_SPEC = (Path(deckstat.__file__).parent / "batch" / "spec.py").exists()


def _turns(text: str) -> list[int]:
    turns: list[int] = []
    for part in str(text).split(","):
        low, _, high = part.partition("-")
        turns.extend(range(int(low), int(high or low) + 1))
    return turns


@dataclass(frozen=True)
class StandInDeck:
    label: str
    path: Path
    pool: Path | None = None


@dataclass(frozen=True)
class StandInTask:
    question: str
    decks: tuple
    game: str
    params: tuple
    swept: tuple

    @property
    def identity(self) -> str:
        return json.dumps({"question": self.question, "decks": [d.label for d in self.decks], "game": self.game,
                           "params": dict(self.params)}, sort_keys=True)

    @property
    def task_id(self) -> str:
        return hashlib.sha256(self.identity.encode()).hexdigest()[:16]

    def seed(self, spec_seed: int) -> int:
        own = dict(self.params).get("seed")
        if own is not None:
            return int(own)
        digest = hashlib.sha256(f"{spec_seed}\0{self.identity}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def describe(self) -> str:
        params = dict(self.params)
        return f"{self.question} {self.decks[0].label} " + " ".join(f"{k}={params[k]}" for k in self.swept)


@dataclass(frozen=True)
class StandInSpec:
    name: str
    source: Path | None
    seed: int | None
    tasks: tuple
    digest: str
    parsed: dict

    def to_dict(self) -> dict:
        return self.parsed


def stand_in_load_spec(source, *, base_dir=None) -> StandInSpec:
    path = Path(source)
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    decks = {label: (StandInDeck(label, (path.parent / d["path"]).resolve()), d.get("game", raw.get("game")))
             for label, d in raw["decks"].items()}
    defaults = {k: raw[k] for k in ("trials", "method") if k in raw}
    tasks = []
    for question in raw["questions"]:
        fixed = {**defaults, **{k: v for k, v in question.items() if k not in ("question", "decks", "sweep")}}
        sweep = question.get("sweep", {})
        for label in question.get("decks", list(decks)):
            deck, game = decks[label]
            for values in itertools.product(*sweep.values()):
                params = {**fixed, **dict(zip(sweep, values))}
                tasks.append(StandInTask(question["question"], (deck,), game, tuple(sorted(params.items())),
                                         tuple(sweep)))
    digest = hashlib.sha256(json.dumps(raw, sort_keys=True).encode()
                            + b"".join(d.path.read_bytes() for d, _ in decks.values())).hexdigest()
    return StandInSpec(raw.get("name", path.stem), path, raw.get("seed"), tuple(tasks), digest, raw)


def stand_in_run_task(task: StandInTask, seed: int) -> pd.DataFrame:
    params = dict(task.params)
    kwargs = {k: v for k, v in params.items() if k not in ("event", "turns", "trials", "seed")}
    result = deckstat.odds(deckstat.load_deck(task.decks[0].path), task.game, params["event"],
                           turns=_turns(params.get("turns", "0-6")), rng=seed,
                           n_trials=parse_count(params["trials"], "n_trials") if "trials" in params else None,
                           **kwargs)
    table = result.table.drop(columns=["deck", "game"])
    front = {"task_id": task.task_id, "question": task.question, "deck": task.decks[0].label, "game": task.game,
             **{k: v for k, v in params.items() if k not in table.columns}, "seed": seed}
    return pd.concat([pd.DataFrame(front, index=table.index), table], axis=1)


def install_stand_ins() -> None:
    """Make ``deckstat.batch.spec.load_spec`` and ``deckstat.batch.tasks.run_task`` the stand-ins (no-op later)."""
    if HAS_SPEC:
        return
    spec_module = types.ModuleType("deckstat.batch.spec")
    spec_module.load_spec = stand_in_load_spec
    spec_module.SpecError = DeckstatError
    tasks_module = types.ModuleType("deckstat.batch.tasks")
    tasks_module.run_task = stand_in_run_task
    sys.modules["deckstat.batch.spec"] = spec_module
    sys.modules["deckstat.batch.tasks"] = tasks_module
