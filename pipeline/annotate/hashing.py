"""``_input_hash`` and ``_task_hash`` the way Prodigy computes them, with relations counted.

Prodigy's ``set_hashes(task, input_keys, task_keys, ignore, overwrite)`` (``prodigy.util``):

- ``_input_hash``: a 32-bit signed MurmurHash3 (the ``murmurhash`` package that spaCy ships,
  seed 0) of the values of the *input keys* present in the task — Prodigy's defaults are
  ``("text", "image", "html", "input")`` — serialised as JSON with sorted keys;
- ``_task_hash``: the same over the *task keys* — Prodigy's defaults are
  ``("spans", "label", "options", "arcs")`` — prefixed by the input hash, so two questions about
  one text share the input hash and differ in the task hash;
- if none of the keys is present, the whole task is hashed minus the *ignore* keys
  (``score rank model source pattern priority path _view_id _session_id _annotator_id answer``);
- existing hashes are kept unless ``overwrite`` is set (``db-in`` keeps the hashes it is given).

What this module changes, on purpose: the task keys also hold ``"relations"`` and ``"actions"``,
so a task whose spans are the same but whose relations or tuples differ (a relation-only or
tuple-only edit) gets its own task hash and is not deduplicated away. Prodigy's own ``review``
recipe does the same (it adds ``relations`` to its task keys).

How far it matches: the key lists, the hash function (MurmurHash3 x86 32-bit, signed) and the
input-hash prefix follow Prodigy's documentation and its support answers; Prodigy's source is not
public, so the exact string it feeds the hash is not verified here, and a hash computed by
Prodigy itself may differ. Interoperability does not depend on it: Prodigy only ever compares
hashes with each other, and ``db-in`` / the loaders keep the hashes a record already carries.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import murmurhash
import srsly

INPUT_HASH_ATTR = "_input_hash"
TASK_HASH_ATTR = "_task_hash"

INPUT_KEYS: tuple[str, ...] = ("text", "image", "html", "input")
#: Prodigy's task keys plus ``relations`` and ``actions`` (see the module docstring).
TASK_KEYS: tuple[str, ...] = ("spans", "label", "options", "arcs", "relations", "actions")
IGNORE_KEYS: tuple[str, ...] = (
    "score", "rank", "model", "source", "pattern", "priority", "path",
    "_view_id", "_session_id", "_annotator_id", "answer",
)


def get_hash(task: Mapping[str, Any], keys: Iterable[str], ignore: Iterable[str] = IGNORE_KEYS, prefix: str = "") -> int:
    """MurmurHash3 (32-bit, signed) of ``prefix`` + the sorted-key JSON of the ``keys`` present."""
    present = {key: task[key] for key in keys if key in task}
    if not present:
        skip = set(ignore) | {INPUT_HASH_ATTR, TASK_HASH_ATTR}
        present = {key: value for key, value in task.items() if key not in skip}
    return murmurhash.hash(prefix + srsly.json_dumps(present, sort_keys=True))


def set_hashes(
    task: dict[str, Any],
    input_keys: Iterable[str] = INPUT_KEYS,
    task_keys: Iterable[str] = TASK_KEYS,
    ignore: Iterable[str] = IGNORE_KEYS,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Set ``_input_hash`` and ``_task_hash`` on ``task`` (in place; returned for chaining)."""
    if not overwrite and INPUT_HASH_ATTR in task and TASK_HASH_ATTR in task:
        return task
    input_hash = get_hash(task, input_keys, ignore)
    task[INPUT_HASH_ATTR] = input_hash
    task[TASK_HASH_ATTR] = get_hash(task, task_keys, ignore, prefix=str(input_hash))
    return task
