"""``yili review``: a local web page to accept, reject or correct the tasks, one at a time.

The page (``page.html``, no outside scripts or fonts) shows a task's text one character per
token; spans are marked with the mouse (drag across characters; click a span to remove it) or the
keys (←/→ move, shift+←/→ extend, Enter marks with the current label, Delete removes; 1–5 choose
the label); the action tuples are a table whose fields are edited in place (a new VERB span adds
a tuple, removing it removes its tuple); a layer task shows the layer as a choice (J Z S O).
A accepts, X rejects, I (or space) ignores, U (or Backspace) undoes: the previous task comes back
as answered, to be answered again.

Each answer is saved to the store at once (``_annotator_id``, ``_session_id``, ``_timestamp``,
``_view_id`` added; the task's hashes kept, as Prodigy keeps them). Nothing is overwritten: an
undone answer stays in the store and the new answer, added after it, is the current one. Tasks the
annotator already answered in the dataset (same ``_task_hash``) are skipped, as in Prodigy.

The server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Optional

from pipeline.annotate.hashing import set_hashes
from pipeline.annotate.importer import default_annotator
from pipeline.annotate.jsonl import dumps, read_lines
from pipeline.annotate.rebuild import ConvertError, build_spans
from pipeline.annotate.relations import link_verbs, relations_from_actions
from pipeline.annotate.store import AnswerStore, NewAnswer, now_iso
from pipeline.annotate.validate import validate_record
from pipeline.labels import LAYERS, RELATION_LABELS, SPAN_LABELS

PAGE = Path(__file__).with_name("page.html")
VIEW_ID = "yili_review"


class ReviewError(ValueError):
    """An answer the page sent that cannot be stored; the message goes back to the page."""


@dataclass
class ReviewSession:
    """The queue of one review run and where the annotator is in it."""

    tasks: list[dict[str, Any]]
    store: AnswerStore
    dataset: str
    annotator: str
    session: str = field(default_factory=lambda: f"review-{uuid.uuid4().hex[:12]}")
    position: int = 0
    #: what was answered, in order: the answered record, for undo
    answered: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def current(self) -> Optional[dict[str, Any]]:
        return self.tasks[self.position] if self.position < len(self.tasks) else None

    def state(self) -> dict[str, Any]:
        task = self.current()
        links = None
        if task is not None and "actions" in task:
            links = link_verbs(task["text"], task.get("spans") or [], task["actions"])
        return {
            "task": task,
            "links": links,
            "progress": {"done": self.position, "total": len(self.tasks)},
            "annotator": self.annotator,
            "session": self.session,
            "dataset": self.dataset,
            "labels": list(SPAN_LABELS),
            "relation_labels": list(RELATION_LABELS),
            "layers": list(LAYERS),
            "can_undo": bool(self.answered),
        }

    def answer(self, edited: dict[str, Any], answer: str) -> dict[str, Any]:
        with self.lock:
            task = self.current()
            if task is None:
                raise ReviewError("no task is open")
            record = finish_answer(task, edited, answer, self.annotator, self.session)
            self.store.add(self.dataset, [NewAnswer(dumps(record), record, self.annotator, self.session, now_iso(), answer)])
            self.tasks[self.position] = record
            self.answered.append(record)
            self.position += 1
            return self.state()

    def undo(self) -> dict[str, Any]:
        with self.lock:
            if self.answered:
                self.answered.pop()
                self.position -= 1
            return self.state()


def finish_answer(task: dict[str, Any], edited: dict[str, Any], answer: str, annotator: str, session: str) -> dict[str, Any]:
    """The record to store: the task with the page's spans, tuples and layer, relations recomputed."""
    if answer not in ("accept", "reject", "ignore"):
        raise ReviewError(f"unknown answer {answer!r}")
    text = task["text"]
    record = {k: v for k, v in task.items() if k not in ("answer", "_annotator_id", "_session_id", "_timestamp", "_view_id")}
    if "spans" in task:
        triples = []
        for sp in edited.get("spans") or []:
            try:
                triples.append((int(sp["start"]), int(sp["end"]), str(sp["label"])))
            except (KeyError, TypeError, ValueError) as exc:
                raise ReviewError(f"a span the page sent is incomplete: {sp!r}") from exc
        try:
            record["spans"] = build_spans(text, triples, task.get("spans") or [])
        except ConvertError as exc:
            raise ReviewError(str(exc)) from exc
    if "actions" in task:
        actions = []
        for action in edited.get("actions") or []:
            clean = {k: v for k, v in action.items() if not k.startswith("_")}
            for key in ("actor", "object", "target", "location", "facing", "purpose"):
                if isinstance(clean.get(key), str) and not clean[key].strip():
                    clean[key] = None
            actions.append(clean)
        record["actions"] = actions
        record["relations"] = relations_from_actions(text, record["spans"], actions)
    if "label" in task and edited.get("label") is not None:
        record["label"] = edited["label"]
    set_hashes(record)  # a task without hashes gets them; existing ones are kept
    record.update({"answer": answer, "_annotator_id": annotator, "_session_id": session,
                   "_timestamp": int(time.time()), "_view_id": VIEW_ID})
    problems = validate_record(record)
    if problems:
        raise ReviewError("; ".join(problems))
    return record


def load_tasks(path: str | Path, store: AnswerStore, dataset: str, annotator: str, include_answered: bool = False,
               refused: Optional[list[str]] = None) -> list[dict[str, Any]]:
    """The tasks of ``path`` this annotator has not answered yet (all with ``include_answered``). A
    line that is no task (not JSON, not UTF-8, no text) is named in ``refused`` ("file:line: why")
    and left out; with ``refused`` None it raises :class:`ReviewError`. A file that cannot be read
    is a :class:`ReviewError` naming it."""
    tasks = []
    try:
        for line in read_lines(path):
            why = line.error or (None if isinstance(line.record, dict) and isinstance(line.record.get("text"), str)
                                 and line.record["text"] else "no text to review")
            if why:
                if refused is None:
                    raise ReviewError(f"{line.source}:{line.number}: {why}")
                refused.append(f"{line.source}:{line.number}: {why}")
                continue
            tasks.append(set_hashes(line.record))
    except OSError as exc:
        raise ReviewError(f"cannot read the tasks {path}: {exc.strerror or exc}") from exc
    if include_answered:
        return tasks
    done = store.task_hashes(dataset, annotator)
    return [t for t in tasks if t["_task_hash"] not in done]


class _Handler(BaseHTTPRequestHandler):
    server: "ReviewServer"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the page is the log
        pass

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def do_GET(self) -> None:
        if not self._local():
            self._json(403, {"error": "only the local page is served"})
            return
        if self.path in ("/", "/index.html"):
            self._send(200, PAGE.read_bytes(), "text/html; charset=utf-8")
        elif self.path == "/api/task":
            self._json(200, self.server.review.state())
        else:
            self._json(404, {"error": "not found"})

    def _local(self) -> bool:
        """Requests from this machine's page only: the Host must be the loopback address (no DNS
        rebinding) and a POST must be JSON (a cross-site form cannot send it without a preflight,
        which this server never grants)."""
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host in ("127.0.0.1", "localhost")

    def do_POST(self) -> None:
        if not self._local() or not (self.headers.get("Content-Type") or "").startswith("application/json"):
            self._json(403, {"error": "only JSON requests from the local page are answered"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path == "/api/answer":
                self._json(200, self.server.review.answer(body.get("task") or {}, body.get("answer")))
            elif self.path == "/api/undo":
                self._json(200, self.server.review.undo())
            else:
                self._json(404, {"error": "not found"})
        except (ReviewError, json.JSONDecodeError) as exc:
            self._json(400, {"error": str(exc)})


class ReviewServer(ThreadingHTTPServer):
    """The review page's HTTP server on 127.0.0.1 (port 0: any free port)."""

    daemon_threads = True

    def __init__(self, review: ReviewSession, port: int = 8080):
        super().__init__(("127.0.0.1", port), _Handler)
        self.review = review
        self._thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self) -> "ReviewServer":
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def review_command(tasks: str | Path, dataset: str = "yili", db: Optional[str] = None, annotator: Optional[str] = None,
                   port: int = 8080, include_answered: bool = False, refused: Optional[list[str]] = None) -> None:
    """``yili review TASKS.jsonl [--dataset NAME] [--db URL] [--annotator NAME] [--port 8080] [--all]``.

    Serves until interrupted (Ctrl+C). Lines of the tasks file that are no task are named in
    ``refused`` (and on stderr) and the others are served; a tasks file that cannot be read or a
    port that is taken is a :class:`ReviewError` before anything is served."""
    refused = refused if refused is not None else []
    store = AnswerStore(db)
    try:
        annotator = annotator or default_annotator()
        queue = load_tasks(tasks, store, dataset, annotator, include_answered, refused)
        for why in refused:
            print(f"refused {why}", file=sys.stderr)
        try:
            server = ReviewServer(ReviewSession(queue, store, dataset, annotator), port)
        except OSError as exc:
            raise ReviewError(f"cannot serve the page on 127.0.0.1:{port}: {exc.strerror or exc}; "
                              "choose another --port (0: any free one)") from exc
        print(f"yili review: {len(queue)} task(s) for {annotator} in dataset {dataset!r} → {server.url}  (Ctrl+C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    finally:
        store.close()
