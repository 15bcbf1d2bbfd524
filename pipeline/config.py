"""Pipeline settings: ``configs/default.cfg`` read with confection, overridable per run."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Optional

from confection import Config

ROOT = Path(__file__).resolve().parents[1]
#: Where a built wheel carries the checkout's ``configs/`` and ``models/`` (``setup.py`` copies them).
PACKAGED = Path(__file__).resolve().parent / "resources"


def shipped(relative: str | Path) -> Path:
    """A file or folder the project ships (``configs/default.cfg``, ``models/layers`` …): the
    checkout's, else the copy inside an installed wheel, else the checkout's path (for the error)."""
    for base in (ROOT, PACKAGED):
        if (base / relative).exists():
            return base / relative
    return ROOT / relative


def default_config_path() -> Path:
    path = shipped("configs/default.cfg")
    if not path.is_file():
        raise FileNotFoundError("configs/default.cfg not found beside the package")
    return path


#: settings yili reads that ``configs/default.cfg`` leaves out: the annotation store (SQLite file or
#: PostgreSQL URL) of the annotation commands
OPTIONAL_SETTINGS: dict[str, tuple[str, ...]] = {"annotate": ("db",)}


def unknown_settings(own: dict[str, Any], default: dict[str, Any]) -> list[str]:
    """What a user's config sets that yili does not read (a section or key misspelt: ``[action]``,
    ``model_name``), each with the nearest setting there is: such a setting had been ignored in
    silence, and the run went on with the default."""
    known = {name: set(section) for name, section in default.items() if isinstance(section, dict)}
    for name, keys in OPTIONAL_SETTINGS.items():
        known.setdefault(name, set()).update(keys)
    out: list[str] = []
    for name, section in own.items():
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known), 1)
            out.append(f"[{name}] is no section yili reads" + (f" (did you mean [{near[0]}]?)" if near else ""))
            continue
        for key in section if isinstance(section, dict) else ():
            if key not in known[name]:
                near = difflib.get_close_matches(key, sorted(known[name]), 1)
                out.append(f"[{name}] {key} is no setting yili reads" + (f" (did you mean {near[0]}?)" if near else ""))
    return out


def load_config(path: Optional[Path] = None, overrides: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """The default config, updated by the sections of ``path`` (a partial .cfg is fine) and ``overrides``.
    A setting of ``path`` that yili does not read is an error naming it (:func:`unknown_settings`)."""
    config = Config().from_disk(default_config_path())
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"config file not found: {path}")
        try:
            own = Config().from_disk(path)
        except Exception as exc:  # confection names the text '<string>', not the file: name it
            lines = [x.strip() for x in str(exc).replace("'<string>'", str(path)).splitlines() if x.strip()]
            lines = [x for x in lines if x not in ("Config validation error",)
                     and not x.startswith("Make sure the sections and values")]
            raise ValueError(f"config {path} cannot be read: {' / '.join(lines) or type(exc).__name__}") from None
        unknown = unknown_settings(own, config)
        if unknown:
            raise ValueError(f"config {path}: {'; '.join(unknown)} — the settings are those of {default_config_path()}")
        config = config.merge(own)
    if overrides:
        config = Config(config).merge(Config(overrides))
    return dict(config)


def models_dir() -> Path:
    return ROOT / "models"


def model_path(value: str | Path) -> Path:
    """A model folder named in a config: absolute as written; relative from the working directory
    when it is there, else from the checkout (where ``models/`` is) or an installed wheel's copy
    (:func:`shipped`), so ``models/spans`` works from anywhere and a user's own ``my-models/x``
    works from the folder they run in. The one rule for every model path (span model, 斷句 model,
    stanza model)."""
    path = Path(str(value)).expanduser()
    if path.is_absolute() or path.exists():
        return path.absolute()
    return shipped(path)
