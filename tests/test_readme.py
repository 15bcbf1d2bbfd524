"""The README's examples run as printed: the "From Python" block and the output it shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"### {title}\n")
    end = text.find("\n### ", start + 1)
    return text[start:end]


def test_the_from_python_block_prints_what_the_readme_says():
    part = section("From Python")
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", part, flags=re.S)[:2]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md (From Python)", "exec"), {"__name__": "readme"})
    assert out.getvalue() == shown
