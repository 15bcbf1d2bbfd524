"""A built wheel runs with no checkout beside it: the config, lexicon and models travel inside it.

``make`` installs the checkout in editable mode; a scholar may instead ``pip install`` a wheel or
the source folder, and then ``configs/`` and ``models/`` are nowhere near the package. The build
(``setup.py``) copies them to ``pipeline/resources/`` and :func:`pipeline.config.shipped` reads
them from there. The wheel is built from a copy of the source, so the checkout gets no ``build/``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "pipeline" / "samples" / "004_cf709858d8eb2fe6.txt"  # 覲禮 run-on lines: layers, 斷句 and tuples all at work
SOURCE = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "pipeline", "configs", "models")


def _build_wheel(tmp: Path) -> Path:
    source = tmp / "src"
    for name in SOURCE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out)], check=True, capture_output=True, text=True)
    (wheel,) = out.glob("yili-*.whl")
    return wheel


def _process(python_path: Path | None, cwd: Path, out: Path) -> list[dict]:
    """``yili process SAMPLE`` with ``pipeline`` imported from ``python_path`` (the checkout if None)."""
    env = dict(os.environ)
    script = "import sys, pipeline; print(pipeline.__file__); from pipeline.cli import app; sys.argv[0] = 'yili'; app()"
    if python_path is not None:
        env["PYTHONPATH"] = str(python_path)
    done = subprocess.run([sys.executable, "-c", script, "process", str(SAMPLE), "-o", str(out), "-q", "--no-resume"],
                          cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    imported = Path(done.stdout.splitlines()[0]).resolve()
    assert imported.is_relative_to((python_path or ROOT).resolve()), imported
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_a_wheel_carries_the_config_lexicon_and_models(tmp_path):
    wheel = _build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("configs/default.cfg", "configs/lexicon/actors.txt", "models/layers/runtime.npz",
                   "models/punctuate/weights.npz", "models/jieba-lzh/dict.txt", "models/spans-crf/weights.npz"):
        assert f"pipeline/resources/{needed}" in names, needed

    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    elsewhere = tmp_path / "elsewhere"  # no configs/ or models/ in the working directory either
    elsewhere.mkdir()
    from_wheel = _process(installed, elsewhere, tmp_path / "wheel.jsonl")
    from_checkout = _process(None, ROOT, tmp_path / "checkout.jsonl")

    assert len(from_wheel) == len(from_checkout) == 1
    assert from_wheel[0]["actions"], "the sample gives tuples"
    for key in ("segments", "sentences", "spans", "actions"):
        assert from_wheel[0][key] == from_checkout[0][key], key
