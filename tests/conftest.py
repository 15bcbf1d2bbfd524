"""Shared fixtures: the shared corpus beside the repo, the bundled samples, one processor for all tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("YILI_SHARED", REPO.parent / "shared"))
SEEDS = sorted((REPO / "pipeline" / "samples").glob("*.txt"))
CORPUS = SHARED / "corpus"


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        raise RuntimeError(f"the shared corpus is missing: expected {CORPUS} (set YILI_SHARED)")
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md")


@pytest.fixture(scope="session")
def processor():
    from pipeline.process import DocumentProcessor

    proc = DocumentProcessor()
    proc.preload()
    return proc


@pytest.fixture(scope="session")
def processed_seeds(processor):
    """name -> output record of every seed, processed once for the whole session."""
    from pipeline.read.inputs import read_file

    out = {}
    for path in SEEDS:
        record = processor.process_item(read_file(path))
        out[path.name[:3]] = record
    return out
