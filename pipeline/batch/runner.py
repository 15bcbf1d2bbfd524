"""Run the pipeline over many documents: in process, in worker processes, or on a Dask cluster.

Order of output follows order of input whatever finishes first; finished documents are kept in a
:class:`~pipeline.batch.store.ResultStore` so that an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import gc
import multiprocessing
import shutil
import tempfile
import time
from collections import Counter, deque
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from pipeline.batch.passages import with_document_names
from pipeline.batch.schedule import largest_first
from pipeline.batch.store import ResultStore, config_fingerprint, dumps, record_key, write_jsonl_atomic
from pipeline.process import DocumentProcessor, Stats, stats_from_record
from pipeline.read.inputs import InputItem, iter_inputs

_WORKER: dict[str, DocumentProcessor] = {}


#: where the documents are processed: worker processes on this machine, or a Dask cluster
EXECUTORS: tuple[str, ...] = ("local", "dask")


class ExecutorUnavailable(RuntimeError):
    """The executor cannot start (a Dask scheduler that does not answer): no document was processed."""


def _worker_init(config: dict[str, Any]) -> None:
    if "proc" in _WORKER:  # forked from a parent that had loaded the models: share its pages
        return
    proc = DocumentProcessor(config)
    proc.preload()
    _WORKER["proc"] = proc


def _worker_process(item: InputItem, folder: Optional[Path] = None, key: Optional[str] = None):
    """Process one document in a worker. With ``folder`` a good result is written to the store by the
    worker itself and only its summary goes back: the parent would otherwise spend a core's worth of
    time unpickling and re-serialising big results while the workers compute."""
    out = _WORKER["proc"].process_item(item)
    if folder is not None and key is not None and "error" not in out:
        ResultStore(folder).put(key, out)
        return _Stored(stats_from_record(out))
    return out


@dataclass
class _Stored:
    """A worker's answer for a document it has written to the store itself."""

    stats: Stats


def _dask_process(item: InputItem, config: dict[str, Any]) -> dict[str, Any]:
    """Runs on a Dask worker: one processor per worker process, built on first use."""
    key = config_fingerprint(config)
    proc = _WORKER.get(key)
    if proc is None:
        proc = DocumentProcessor(config)
        proc.preload()
        _WORKER[key] = proc
    return proc.process_item(item)


@dataclass
class RunReport:
    by_index: dict[int, Stats] = field(default_factory=dict)
    failed: int = 0
    reused: int = 0
    chars: int = 0
    seconds: float = 0.0
    #: (JSONL file, document) -> how many of its records were read as that document's passages
    passages: Counter = field(default_factory=Counter)
    #: index -> where the input came from ("path" or "path:line" for a JSONL record), for the summary
    #: of records whose meta names no source
    origins: dict[int, str] = field(default_factory=dict)

    @property
    def rows(self) -> list[Stats]:
        return [self.by_index[i] for i in sorted(self.by_index)]

    @property
    def names(self) -> list[str]:
        """Each row's document as the summary shows it: its source's file name, else its origin's
        (``records.jsonl:12``); a failed input's origin, where the fault is to be mended."""
        names = []
        for i in sorted(self.by_index):
            st, origin = self.by_index[i], self.origins.get(i, "")
            names.append(Path(origin if (st.error and origin) or not st.source else st.source).name or "-")
        return names

    @property
    def chars_per_second(self) -> float:
        return self.chars / self.seconds if self.seconds else 0.0


class BatchRunner:
    """``run(inputs, output)`` processes every input document and writes the output JSONL atomically."""

    def __init__(
        self,
        config: dict[str, Any],
        jobs: int = 1,
        executor: str = "local",
        scheduler: Optional[str] = None,
        resume: bool = True,
        on_result: Optional[Callable[[Stats], None]] = None,
        processor: Optional[DocumentProcessor] = None,
    ):
        if executor not in EXECUTORS:
            raise ValueError(f"unknown executor {executor!r}: use {' or '.join(map(repr, EXECUTORS))}")
        self.config = config
        self.jobs = max(1, int(jobs))
        self.executor = executor
        self.scheduler = scheduler
        self.resume = resume
        self.on_result = on_result
        self.fingerprint = config_fingerprint(config)
        #: a processor whose models are loaded already (the CLI loads them to fail early): reused
        #: in process, and inherited by forked workers instead of each loading its own copy
        self.processor = processor
        # set by _run for the local worker pool: where workers put results, and each document's key
        self._store_folder: Optional[Path] = None
        self._keys: dict[int, str] = {}
        self._own: Optional[DocumentProcessor] = None  # built here when no processor was given

    def _processor(self) -> DocumentProcessor:
        """The processor of this process: the one given, or one built once and kept."""
        if self.processor is not None:
            return self.processor
        if self._own is None:
            self._own = DocumentProcessor(self.config)
        return self._own

    def _items(self, inputs: Iterable[str], output: Optional[Path] = None) -> Iterator[InputItem]:
        """The input documents (never the ``output`` file, which a folder read may hold); with
        ``[actions] passages_as_document`` (default) the records that are passages of one document
        each carry the names the document gives (pipeline/batch/passages.py)."""
        items = iter_inputs(inputs, output)
        actions = self.config.get("actions") or {}
        if not actions.get("passages_as_document", True):
            return items
        return with_document_names(items, lambda records: self._processor().document_names(records),
                                   actions.get("layers") or ("JING",))

    # -- execution backends: each yields (index, output record) --------------------------------------
    def _local(self, todo: Iterable[tuple[int, InputItem]]) -> Iterator[tuple[int, dict[str, Any]]]:
        if self.jobs == 1:
            proc = self._processor()
            proc.preload()
            for index, item in todo:
                yield index, proc.process_item(item)
            return
        todo = largest_first(todo)  # big documents first: none left alone on one worker at the end
        window = self.jobs * 4
        context = None
        if "fork" in multiprocessing.get_all_start_methods():
            # workers forked from this process share the loaded models (copy-on-write pages)
            context = multiprocessing.get_context("fork")
            proc = self._processor()
            proc.preload()
            _WORKER["proc"] = proc
            # the models' objects move out of the collector's reach: its passes in the workers would
            # otherwise write to every shared page they visit and copy it into each worker
            gc.collect()
            gc.freeze()
        try:
            yield from self._pool(todo, window, context)
        finally:
            if context is not None:
                gc.unfreeze()
                if self.processor is None:
                    _WORKER.pop("proc", None)

    def _pool(self, todo, window: int, context) -> Iterator[tuple[int, dict[str, Any]]]:
        with ProcessPoolExecutor(self.jobs, mp_context=context, initializer=_worker_init, initargs=(self.config,)) as pool:
            pending: deque[tuple[int, Future]] = deque()
            for index, item in todo:
                pending.append((index, pool.submit(_worker_process, item, self._store_folder, self._keys.get(index))))
                while len(pending) >= window:
                    i, fut = pending.popleft()
                    yield i, fut.result()
            while pending:
                i, fut = pending.popleft()
                yield i, fut.result()

    def _dask(self, todo: Iterable[tuple[int, InputItem]]) -> Iterator[tuple[int, dict[str, Any]]]:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise ExecutorUnavailable("the Dask executor needs the extra: pip install 'yili[dask]'") from exc
        cluster = None
        if self.scheduler:
            try:
                client = Client(self.scheduler)
            except OSError as exc:  # refused, unreachable, timed out: not a problem of the output file
                raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from exc
        else:
            cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        try:
            window = max(8, len(client.scheduler_info().get("workers", {})) * 4)
            pending: deque = deque()
            for index, item in largest_first(todo):
                pending.append((index, client.submit(_dask_process, item, self.config, pure=False)))
                while len(pending) >= window:
                    i, fut = pending.popleft()
                    yield i, fut.result()
            while pending:
                i, fut = pending.popleft()
                yield i, fut.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    # -- the run --------------------------------------------------------------------------------------
    def run(self, inputs: Iterable[str], output: Path) -> RunReport:
        output = Path(output)
        spool: Optional[Path] = None
        if self.resume:
            store = ResultStore(output.with_name(output.name + ".d"))
        else:  # finished documents wait on disk, not in memory, until the output is written
            output.parent.mkdir(parents=True, exist_ok=True)
            spool = Path(tempfile.mkdtemp(prefix=f".{output.name}.", dir=output.parent))
            store = ResultStore(spool)
        try:
            return self._run(inputs, output, store)
        finally:
            if spool is not None:
                shutil.rmtree(spool, ignore_errors=True)

    def _run(self, inputs: Iterable[str], output: Path, store: ResultStore) -> RunReport:
        report = RunReport()
        started = time.perf_counter()
        # index -> ("key", key) for stored results, ("inline", record) for failures and uncached runs
        slots: list[tuple[str, Any]] = []
        todo_keys: dict[int, str] = {}

        def feed() -> Iterator[tuple[int, InputItem]]:
            for item in self._items(inputs, output):
                index = len(slots)
                report.origins[index] = item.origin
                if item.document is not None:
                    report.passages[(item.jsonl, item.document)] += 1
                if item.error is not None:  # nothing to compute: the error is the result
                    out = DocumentProcessor.error_record(item)
                    slots.append(("inline", out))
                    self._account(report, out, index)
                    continue
                # a passage read with its document's names is another computation than read alone
                key = record_key({**item.record, "\0names": list(item.names)} if item.names else item.record, self.fingerprint)
                cached = store.get(key) if self.resume else None
                if cached is not None:
                    slots.append(("key", key))
                    report.reused += 1
                    self._account(report, cached, index)
                    continue
                slots.append(("pending", None))
                todo_keys[index] = key
                yield index, item

        backend = self._dask if self.executor == "dask" else self._local
        self._store_folder, self._keys = store.folder, todo_keys
        try:
            for index, out in backend(feed()):
                key = todo_keys.pop(index)
                if isinstance(out, _Stored):  # a worker wrote it
                    slots[index] = ("key", key)
                    self._account(report, None, index, out.stats)
                    continue
                if "error" not in out:
                    store.put(key, out)
                    slots[index] = ("key", key)
                else:
                    slots[index] = ("inline", out)
                self._account(report, out, index)
        finally:
            self._store_folder, self._keys = None, {}

        def lines() -> Iterator[str]:
            for kind, value in slots:
                if kind == "key":
                    # written by dumps() in this run, or read and checked by store.get() when reused:
                    # copied as it is, not parsed and serialised again
                    line = store.line(value)
                    if line is None:  # the stored file vanished: say so rather than drop the document
                        yield dumps({"error": f"result file {store.path(value)} disappeared during the run"})
                    else:
                        yield line
                else:
                    yield dumps(value)

        write_jsonl_atomic(output, lines())
        report.seconds = time.perf_counter() - started
        return report

    def _account(self, report: RunReport, out: Optional[dict[str, Any]], index: int, stats: Optional[Stats] = None) -> None:
        stats = stats if stats is not None else stats_from_record(out)
        report.by_index[index] = stats
        report.chars += stats.chars
        if stats.error:
            report.failed += 1
        if self.on_result is not None:
            self.on_result(stats)
