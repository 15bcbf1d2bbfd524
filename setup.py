"""Build hook: a wheel carries the config, the lexicon and the shipped models inside the package.

``pip install -e .`` (what ``make`` does) reads ``configs/`` and ``models/`` from the checkout;
a wheel or ``pip install .`` has no checkout beside it, so the build copies them to
``pipeline/resources/`` (mirroring the checkout's layout), where :func:`pipeline.config.shipped`
finds them. Everything else is declared in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: What ``yili process`` and ``yili classify`` read at run time, relative to the checkout.
SHIPPED = ("configs/default.cfg", "configs/lexicon", "models")


class BuildWithModels(build_py):
    """``build_py`` that also copies :data:`SHIPPED` into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # the checkout itself is used: nothing to copy
            return
        target = Path(self.build_lib) / "pipeline" / "resources"
        for relative in SHIPPED:
            source = HERE / relative
            if not source.exists():
                raise FileNotFoundError(f"{source} is missing: a wheel without it cannot run `yili process`")
            destination = target / relative
            if source.is_dir():
                shutil.copytree(source, destination, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination)


setup(cmdclass={"build_py": BuildWithModels})
