"""The client of claimcheck serve's batch route.

POST /v1/tools/{id}/versions/{version}/batch takes JSON Lines and answers
JSON Lines, line N answering line N, each answer line exactly the bytes
`claimcheck batch` writes for it. Client.iter_check streams records
through it: it groups them by tool, sends each group as chunked request
bodies of bounded size while it reads the answers (full duplex: one
sender thread beside each reading worker, one keep-alive connection per
worker), keeps up to max_in_flight requests open at once, retries a failed
or cut request from its first unanswered line, and yields one Result per
record, in input order.
"""
import collections
import http.client
import json
import random
import re
import socket
import ssl
import threading
import time
import urllib.parse
import weakref
from typing import (
    Any,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Tuple,
    Union,
)

from ._errors import (
    ClaimcheckError,
    DocumentError,
    GaveUpError,
    ProtocolError,
    RequestError,
    UnknownToolError,
)

__all__ = ["Client", "Raw", "Result", "DEFAULT_MAX_LINES", "DEFAULT_MAX_BYTES", "RETRYABLE_STATUSES"]

DEFAULT_MAX_LINES = 10_000
"""Lines of one request at most (the server's -max-batch-lines is 1,000,000
by default; a smaller one is learnt from its Claimcheck-Cut trailer)."""

DEFAULT_MAX_BYTES = 8 << 20
"""Bytes of the lines of one request at most (a single longer line is sent
alone)."""

RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""Statuses after which a request is sent again (from its first unanswered
line), after a backoff that honours Retry-After."""

# A request whose body has had no new line for this long is ended (its
# answers then complete and its connection is free), so a stalled producer
# never meets the server's -body-idle-timeout (10 s by default).
_IDLE_END = 1.0
# A request whose body is still open gives its worker up after this long
# when another group of records waits for a worker.
_SHARE = 0.25
# Bytes of one HTTP chunk of a request body at most.
_MAX_SEND = 256 << 10
# The records the consumer thread takes from its iterator before it looks
# for answers to yield, at most (and at most _PULL_TIME seconds' worth).
_PULL_BATCH = 512
_PULL_TIME = 0.005
_MAX_RETRY_AFTER = 120.0


class Raw:
    """A document given as JSON text, sent exactly as written (a broken one
    comes back as an error document). data is bytes, or str (encoded as
    UTF-8; a lone surrogate is written as its 3 bytes, which the server
    answers as invalid UTF-8). One trailing "\\n" is dropped; any other
    "\\n" is refused with DocumentError, so that one record is always one
    line. A plain bytes, bytearray or memoryview document is the same as
    Raw of it; a str document is a Python value (a JSON string)."""

    __slots__ = ("data",)

    def __init__(self, data: Union[bytes, bytearray, memoryview, str]) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        elif isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        elif not isinstance(data, bytes):
            raise TypeError("Raw takes bytes or str, not %s" % type(data).__name__)
        self.data = data

    def __repr__(self) -> str:
        return "Raw(%r)" % (self.data,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Raw) and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)


_UNSET = object()


class Result:
    """The answer to one record.

    raw:      the answer line's bytes exactly as the server wrote them (the
              bytes `claimcheck batch` writes), without the newline
    document: raw parsed (a dict: an output document, or an error document
              {"error": {...}})
    valid:    True or False for an output document, None for an error
              document
    error:    the error document's "error" object, or None
    """

    __slots__ = ("raw", "_doc")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self._doc: Any = _UNSET

    @property
    def document(self) -> Dict[str, Any]:
        if self._doc is _UNSET:
            self._doc = json.loads(self.raw)
        return self._doc  # type: ignore[no-any-return]

    @property
    def valid(self) -> Optional[bool]:
        r = self.raw
        if r.startswith(b'{"valid":true'):
            return True
        if r.startswith(b'{"valid":false'):
            return False
        if r.startswith(b'{"error":'):
            return None
        d = self.document
        v = d.get("valid") if isinstance(d, dict) else None
        return v if isinstance(v, bool) and "error" not in d else None

    @property
    def error(self) -> Optional[Dict[str, Any]]:
        if self.valid is not None:
            return None
        d = self.document
        e = d.get("error") if isinstance(d, dict) else None
        return e if isinstance(e, dict) else None

    def __repr__(self) -> str:
        return "Result(%r)" % (self.raw,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)


Record = Tuple[str, Any]


def encode_document(doc: Any, index: int = 0) -> bytes:
    """The request line (with its "\\n") of a document: raw text as it is
    (see Raw), any other value as strict, compact JSON (no NaN or infinity,
    a lone surrogate escaped as \\udXXX, non-ASCII as UTF-8)."""
    return _line(doc, index) + b"\n"


def _line(doc: Any, index: int) -> bytes:
    # encode_document without the newline.
    if type(doc) is bytes or isinstance(doc, (bytes, bytearray, memoryview, Raw)):
        b = doc.data if isinstance(doc, Raw) else bytes(doc)
        if b.endswith(b"\n"):
            b = b[:-1]
        if b"\n" in b:
            raise DocumentError(
                "record %d: a raw document has a newline inside: one record must be one line" % index, index
            )
        return b
    try:
        s = json.dumps(doc, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise DocumentError("record %d: not strict JSON: %s" % (index, e), index) from e
    # json escapes every control character, so the line has no raw newline;
    # backslashreplace writes a lone surrogate (the one character UTF-8
    # cannot encode) as \\udXXX, a JSON escape, inside its string.
    return s.encode("utf-8", "backslashreplace")


def _version_key(v: str) -> Tuple[Any, ...]:
    core, _, pre = v.partition("-")
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+]", core))
    # A pre-release (1.0.0-rc1) comes before its release.
    return parts + ((1,) if not pre else (0, pre))


class _Retry(Exception):
    """A request that failed in a way worth another try."""

    def __init__(
        self,
        reason: str,
        *,
        status: Optional[int] = None,
        error: Optional[Dict[str, Any]] = None,
        retry_after: Optional[float] = None,
        cut: Optional[str] = None,
        answered: bool = False,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.error = error
        self.retry_after = retry_after
        self.cut = cut
        self.answered = answered  # the server sent a status line


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, min(float(value), _MAX_RETRY_AFTER))
    except ValueError:
        pass
    try:
        import email.utils

        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, min(when.timestamp() - time.time(), _MAX_RETRY_AFTER))
    except (TypeError, ValueError, OverflowError):
        return None


def _parse_error(body: bytes) -> Optional[Dict[str, Any]]:
    try:
        d = json.loads(body)
    except ValueError:
        return None
    return d if isinstance(d, dict) else None


def _error_text(status: Optional[int], error: Optional[Dict[str, Any]], fallback: str = "") -> str:
    if isinstance(error, dict) and isinstance(error.get("error"), dict):
        e = error["error"]
        return "%s: %s" % (e.get("code"), e.get("message"))
    return fallback or ("HTTP %s" % status)


class _Conn(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _TLSConn(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Client:
    """A client of one claimcheck serve (or of a load balancer in front of
    several), safe to share between threads.

    base_url:      such as "http://127.0.0.1:8080" (a path prefix, as with
                   serve -base-path /api, is kept)
    timeout:       seconds for connecting and for each read or write on a
                   connection
    retries:       tries after the first of a request that fails without
                   answering a line (a try that answers lines starts the
                   count again); then GaveUpError
    max_in_flight: requests open at once (each on its own worker thread and
                   keep-alive connection)
    max_lines, max_bytes: the size of one request (DEFAULT_MAX_LINES,
                   DEFAULT_MAX_BYTES)
    backoff, max_backoff: the first wait before a retry, doubled each try
                   up to max_backoff (with jitter); a Retry-After longer
                   than the wait is waited instead
    """

    def __init__(
        self,
        base_url: str,
        timeout: float = 60.0,
        retries: int = 8,
        max_in_flight: int = 4,
        *,
        max_lines: int = DEFAULT_MAX_LINES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        backoff: float = 0.2,
        max_backoff: float = 10.0,
        ssl_context: Optional[ssl.SSLContext] = None,
    ) -> None:
        u = urllib.parse.urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("base_url must be http://HOST[:PORT][/prefix] or https://...: %r" % base_url)
        if max_in_flight < 1 or max_lines < 1 or max_bytes < 1 or retries < 0:
            raise ValueError("max_in_flight, max_lines and max_bytes must be positive, retries not negative")
        self.base_url = base_url
        self._tls = u.scheme == "https"
        self._host = u.hostname
        self._port = u.port or (443 if self._tls else 80)
        self._prefix = u.path.rstrip("/")
        self._ssl_context = ssl_context
        self.timeout = timeout
        self.retries = retries
        self.max_in_flight = max_in_flight
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._lock = threading.Lock()
        self._pool: List[http.client.HTTPConnection] = []
        self._paths: Dict[str, str] = {}
        self._newest: Optional[Dict[str, str]] = None
        self._cap = max_lines  # lines per request, lowered by a max_batch_lines cut
        self.stats: Dict[str, int] = {"requests": 0, "retries": 0, "cuts": 0}
        """Counts since the client was made: batch requests sent, retries
        (requests sent again after a failure), and of those failures the
        streams that ended before every line sent was answered."""

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1

    # -- connections ---------------------------------------------------

    def _connection(self) -> Tuple[http.client.HTTPConnection, bool]:
        """A connection and whether it is new (not reused from the pool)."""
        with self._lock:
            if self._pool:
                return self._pool.pop(), False
        if self._tls:
            return _TLSConn(self._host, self._port, timeout=self.timeout, context=self._ssl_context), True
        return _Conn(self._host, self._port, timeout=self.timeout), True

    def _release(self, conn: Optional[http.client.HTTPConnection], healthy: bool) -> None:
        if conn is None:
            return
        if healthy and conn.sock is not None:
            with self._lock:
                if len(self._pool) < self.max_in_flight:
                    self._pool.append(conn)
                    return
        conn.close()

    def close(self) -> None:
        """Close the idle keep-alive connections."""
        with self._lock:
            pool, self._pool = self._pool, []
        for c in pool:
            c.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _delay(self, attempt: int, retry_after: Optional[float]) -> float:
        d = min(self.max_backoff, self.backoff * 2.0 ** (attempt - 1))
        d = d * (0.5 + random.random() / 2)
        if retry_after is not None and retry_after > d:
            d = retry_after
        return d

    # -- tools -----------------------------------------------------------

    def tools(self) -> List[Dict[str, Any]]:
        """The descriptors of the tools served (GET /v1/tools), retried as a
        batch request is."""
        attempt = 0
        while True:
            conn, _ = self._connection()
            ok = False
            try:
                conn.request("GET", self._prefix + "/v1/tools", headers={"Accept": "application/json"})
                resp = conn.getresponse()
                body = resp.read()
                ok = not resp.will_close
                if resp.status == 200:
                    d = json.loads(body)
                    if not isinstance(d, list):
                        raise ProtocolError("GET /v1/tools: not a JSON array", status=200)
                    return d
                err = _parse_error(body)
                if resp.status not in RETRYABLE_STATUSES:
                    raise RequestError("GET /v1/tools: " + _error_text(resp.status, err), status=resp.status, error=err)
                failure = _Retry("GET /v1/tools", status=resp.status, error=err,
                                 retry_after=_retry_after(resp.getheader("Retry-After")))
            except (OSError, http.client.HTTPException, ValueError) as e:
                ok = False
                failure = _Retry("GET /v1/tools: %s" % (e,))
                failure.__cause__ = e
            finally:
                self._release(conn, ok)
            attempt += 1
            if attempt > self.retries:
                raise GaveUpError(
                    "gave up on GET /v1/tools after %d tries: %s" % (attempt, _error_text(failure.status, failure.error, failure.reason)),
                    status=failure.status, error=failure.error, cause=failure.__cause__ or failure,
                ) from (failure.__cause__ or failure)
            time.sleep(self._delay(attempt, failure.retry_after))

    def _path(self, tool: str) -> str:
        p = self._paths.get(tool)
        if p is not None:
            return p
        if not isinstance(tool, str) or not tool:
            raise TypeError("a tool is a str, id or id@version, not %r" % (tool,))
        tid, at, version = tool.partition("@")
        if not at:
            with self._lock:
                newest = self._newest
            if newest is None:
                newest = {}
                for d in self.tools():
                    i, v = d.get("id"), d.get("version")
                    if isinstance(i, str) and isinstance(v, str):
                        if i not in newest or _version_key(v) > _version_key(newest[i]):
                            newest[i] = v
                with self._lock:
                    self._newest = newest
            if tid not in newest:
                raise UnknownToolError(
                    "unknown tool %r: the server lists %s" % (tid, ", ".join(sorted(newest)) or "none")
                )
            version = newest[tid]
        q = urllib.parse.quote
        p = "%s/v1/tools/%s/versions/%s/batch" % (self._prefix, q(tid, safe=""), q(version, safe=""))
        with self._lock:
            self._paths[tool] = p
        return p

    # -- checking --------------------------------------------------------

    def check(self, tool: str, document: Any) -> Result:
        """The result of one document (sent through the batch route, so the
        answer is the line `claimcheck batch` writes for it)."""
        return self.check_many([(tool, document)])[0]

    def check_many(
        self, records: Iterable[Record], on_progress: Optional[Callable[[int], None]] = None
    ) -> List[Result]:
        """list(iter_check(records)); a ClaimcheckError raised carries the
        results given before it in .results."""
        results: List[Result] = []
        try:
            for r in self.iter_check(records, on_progress=on_progress):
                results.append(r)
        except ClaimcheckError as e:
            e.results = results
            raise
        return results

    def iter_check(
        self, records: Iterable[Record], on_progress: Optional[Callable[[int], None]] = None
    ) -> Iterator[Result]:
        """Yield the Result of each (tool, document) record, in input order.

        records is read lazily, in the calling thread, as requests have
        room: whatever the number of records, at most about
        2 x max_in_flight x max_lines records (and 2 x max_in_flight x
        max_bytes of their lines) are held between being read and their
        result being yielded. on_progress(n) is called in the calling
        thread with the number of results yielded so far, at most every
        0.1 s and once at the end. Raises a ClaimcheckError (after yielding
        every result before the record it is about) when it gives up.
        """
        return _Run(self, on_progress).results(records)

    def _iter_ready(self, records: Iterable[Record], ready: Callable[[float], bool]) -> Iterator[Result]:
        # For the command line: ready(timeout) says whether records has a
        # record at hand, waiting up to timeout; answers are yielded while
        # it has none, so a producer that waits for them is not stalled.
        return _Run(self, None, ready).results(records)


class _Chunk:
    """The records of one tool sent as one group of requests: lines are
    appended by the consumer thread until it is sealed, answers by the
    worker that serves it."""

    __slots__ = ("path", "lines", "nbytes", "answers", "sealed", "cv", "last", "waiting", "serving")

    def __init__(self, path: str, cv: threading.Condition) -> None:
        self.path = path
        self.lines: List[bytes] = []
        self.nbytes = 0
        self.answers: List[bytes] = []
        self.sealed = False
        self.cv = cv
        self.last = time.monotonic()
        self.waiting = False
        self.serving = False  # taken by a worker


class _Req:
    __slots__ = ("stop", "sent", "finished", "error", "t0")

    def __init__(self) -> None:
        self.stop = False
        self.sent = 0
        self.finished = False
        self.error: Optional[BaseException] = None
        self.t0 = time.monotonic()


# The runs whose workers are alive. A generator left suspended at exit
# (never exhausted nor closed) would keep its workers, which are not daemon
# threads, waiting for work: the interpreter joins such threads at exit,
# after the callbacks of threading._register_atexit (the hook
# concurrent.futures uses), so one stops them there.
_live_runs: "weakref.WeakSet[_Run]" = weakref.WeakSet()
_live_lock = threading.Lock()


def _stop_live_runs() -> None:
    with _live_lock:
        runs = list(_live_runs)
    for r in runs:
        r._stop()


_register = getattr(threading, "_register_atexit", None)
if _register is not None:
    _register(_stop_live_runs)


class _Run:
    """One iter_check: the consumer thread's loop and the workers."""

    def __init__(
        self,
        client: Client,
        on_progress: Optional[Callable[[int], None]],
        ready: Optional[Callable[[float], bool]] = None,
    ) -> None:
        self.c = client
        self.on_progress = on_progress
        self.ready = ready
        self.lock = threading.Lock()
        self.main_cv = threading.Condition(self.lock)
        self.work_cv = threading.Condition(self.lock)
        self.queue: Deque[_Chunk] = collections.deque()
        self.open: Dict[str, _Chunk] = {}
        self.order: Deque[Tuple[_Chunk, int]] = collections.deque()
        self.workers: List[threading.Thread] = []
        self.free = 0
        self.socks: Dict[int, socket.socket] = {}
        self.stopping = False
        self.stop_event = threading.Event()
        self.error: Optional[BaseException] = None
        self.pending_lines = 0
        self.pending_bytes = 0
        self.window_lines = 2 * client.max_in_flight * client.max_lines
        self.window_bytes = 2 * client.max_in_flight * client.max_bytes

    # -- the consumer thread --------------------------------------------

    def results(self, records: Iterable[Record]) -> Iterator[Result]:
        finished = False
        try:
            yield from self._loop(records)
            finished = True
        finally:
            self._close(finished)

    def _take_ready(self, out: List[bytes], limit: int = 4096) -> None:
        # Under the lock: the answers at the head of the input order.
        order = self.order
        while order and len(out) < limit:
            ch, pos = order[0]
            if pos >= len(ch.answers):
                break
            out.append(ch.answers[pos])
            order.popleft()
            self.pending_lines -= 1
            self.pending_bytes -= len(ch.lines[pos]) + 1

    def _seal_all(self) -> None:
        # Under the lock.
        for ch in self.open.values():
            if not ch.sealed:
                ch.sealed = True
                ch.cv.notify_all()
        self.open.clear()

    def _loop(self, records: Iterable[Record]) -> Iterator[Result]:
        c = self.c
        it = iter(records)
        lock = self.lock
        ready = self.ready
        paths = c._paths
        done = 0
        index = 0
        eof = False
        later: Optional[ClaimcheckError] = None  # raised once the records before it are answered
        progress_at = time.monotonic()
        out: List[bytes] = []
        while True:
            with lock:
                self._take_ready(out)
                err = self.error
                head_waits = not out and bool(self.order)
            if out:
                for raw in out:
                    done += 1
                    yield Result(raw)
                out.clear()
                if self.on_progress is not None and time.monotonic() - progress_at >= 0.1:
                    progress_at = time.monotonic()
                    self.on_progress(done)
                continue
            if err is not None:
                if isinstance(err, ClaimcheckError):
                    err.answered = done
                    raise err
                raise err
            if eof:
                if not self.order:
                    break
                with lock:
                    if self.error is None and self.order and len(self.order[0][0].answers) <= self.order[0][1]:
                        self.main_cv.wait(0.2)
                continue
            if self.pending_lines >= self.window_lines or self.pending_bytes >= self.window_bytes:
                with lock:
                    if self.order and not self.order[0][0].serving:
                        # The next result waits for a worker while the open
                        # requests wait for lines: end them.
                        for ch in list(self.open.values()):
                            if ch.serving and not ch.sealed:
                                ch.sealed = True
                                ch.cv.notify_all()
                                del self.open[ch.path]
                    if self.error is None and head_waits:
                        self.main_cv.wait(0.2)
                continue
            if ready is not None and not ready(0):
                if head_waits:
                    with lock:
                        if self.error is None:
                            self.main_cv.wait(0.005)
                else:
                    ready(0.01)
                continue
            t0 = time.monotonic()
            batch: List[Tuple[str, bytes]] = []
            room = min(_PULL_BATCH, self.window_lines - self.pending_lines)
            nbytes = self.window_bytes - self.pending_bytes
            while room > 0 and nbytes > 0:
                try:
                    rec = next(it)
                except StopIteration:
                    eof = True
                    break
                try:
                    try:
                        tool, doc = rec
                    except (TypeError, ValueError):
                        raise DocumentError(
                            "record %d: a record is a (tool, document) pair, not %s" % (index, type(rec).__name__), index
                        ) from None
                    path = paths.get(tool) if type(tool) is str else None
                    if path is None:
                        path = c._path(tool)
                    if type(doc) is bytes and b"\n" not in doc:
                        line = doc
                    else:
                        line = _line(doc, index)
                except ClaimcheckError as e:
                    later = e
                    eof = True
                    break
                except TypeError as e:
                    later = DocumentError("record %d: %s" % (index, e), index)
                    eof = True
                    break
                index += 1
                batch.append((path, line))
                room -= 1
                nbytes -= len(line) + 1
                if ready is not None and not ready(0):
                    break
                if time.monotonic() - t0 >= _PULL_TIME:
                    break
            if batch:
                self._append(batch)
            if eof:
                with lock:
                    self._seal_all()
        if self.on_progress is not None:
            self.on_progress(done)
        if later is not None:
            later.answered = done
            raise later

    def _append(self, batch: List[Tuple[str, bytes]]) -> None:
        """Add records (path, line without its newline) to their tools'
        open chunks, under one hold of the lock."""
        c = self.c
        max_lines, max_bytes = c.max_lines, c.max_bytes
        order = self.order
        touched = set()
        total = 0
        with self.lock:
            open_ = self.open
            ch: Optional[_Chunk] = None
            for path, line in batch:
                n = len(line) + 1
                total += n
                if ch is None or ch.path != path:
                    ch = open_.get(path)
                if ch is None or ch.sealed or len(ch.lines) >= max_lines or (ch.nbytes + n > max_bytes and ch.lines):
                    if ch is not None and not ch.sealed:
                        ch.sealed = True
                        ch.cv.notify_all()
                    ch = _Chunk(path, threading.Condition(self.lock))
                    open_[path] = ch
                    self.queue.append(ch)
                    if len(self.queue) > self.free and len(self.workers) < c.max_in_flight:
                        self._spawn()
                    else:
                        self.work_cv.notify()
                lines = ch.lines
                lines.append(line)
                ch.nbytes += n
                order.append((ch, len(lines) - 1))
                touched.add(ch)
            now = time.monotonic()
            for ch in touched:
                ch.last = now
                if ch.waiting:
                    ch.cv.notify()
            self.pending_lines += len(batch)
            self.pending_bytes += total

    def _spawn(self) -> None:
        # Under the lock.
        if not self.workers:
            with _live_lock:
                _live_runs.add(self)
        t = threading.Thread(target=self._worker, name="claimcheck-worker-%d" % len(self.workers))
        self.free += 1
        self.workers.append(t)
        t.start()

    def _fail(self, e: BaseException) -> None:
        with self.lock:
            if self.error is None and not self.stopping:
                self.error = e
            self.stopping = True
            self._wake_all()
        self.stop_event.set()

    def _wake_all(self) -> None:
        # Under the lock.
        self.main_cv.notify_all()
        self.work_cv.notify_all()
        for ch in self.open.values():
            ch.cv.notify_all()

    def _stop(self, interrupt: bool = True) -> None:
        """End the workers' work: they return as soon as they notice, at
        once if interrupt (the requests in flight are cut)."""
        with self.lock:
            self.stopping = True
            self._seal_all()
            self._wake_all()
            socks = list(self.socks.values()) if interrupt else []
        self.stop_event.set()
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _close(self, finished: bool) -> None:
        # Every record answered: the requests still in flight are reading
        # the ends of their answers, and their connections are worth
        # keeping; else (an error, the consumer closed the generator) they
        # are cut.
        self._stop(interrupt=not finished)
        if finished:
            deadline = time.monotonic() + self.c.timeout
            for t in self.workers:
                t.join(max(0.0, deadline - time.monotonic()))
            self._stop()
        for t in self.workers:
            t.join()
        with _live_lock:
            _live_runs.discard(self)

    # -- workers ---------------------------------------------------------

    def _worker(self) -> None:
        conn: Optional[http.client.HTTPConnection] = None
        fresh = True
        try:
            while True:
                with self.lock:
                    while not self.queue and not self.stopping:
                        self.work_cv.wait()
                    if self.stopping:
                        return
                    ch = self.queue.popleft()
                    ch.serving = True
                    self.free -= 1
                # conn is None while _serve runs: what it returns is a
                # connection between requests (kept for the next, and for the
                # client's pool at the end), or None.
                idle, conn = conn, None
                conn, fresh = self._serve(ch, idle, fresh)
                with self.lock:
                    self.free += 1
        except BaseException as e:  # a bug: say it rather than hang
            self._fail(e)
        finally:
            self.c._release(conn, True)

    def _serve(
        self, ch: _Chunk, conn: Optional[http.client.HTTPConnection], fresh: bool
    ) -> Tuple[Optional[http.client.HTTPConnection], bool]:
        c = self.c
        attempt = 0
        failed = False
        last: Optional[_Retry] = None
        while True:
            with self.lock:
                if self.stopping:
                    return conn, fresh
                start = len(ch.answers)
                if ch.sealed and start == len(ch.lines):
                    return conn, fresh
            if conn is None:
                conn, fresh = c._connection()
            c._count("requests")
            if failed:
                c._count("retries")
            try:
                keep = self._request(conn, ch, start)
                failure: Optional[_Retry] = None
            except _Retry as r:
                keep, failure = False, r
            except ClaimcheckError as e:
                conn.close()
                self._fail(e)
                return None, True
            progressed = len(ch.answers) - start
            was_fresh, fresh = fresh, False
            if not keep:
                conn.close()
                conn, fresh = None, True
            failed = failure is not None
            if failure is None:
                attempt = 0
                continue
            if self.stopping:
                return conn, fresh
            if failure.status == 200:
                c._count("cuts")
            if progressed:
                attempt = 0
                if failure.cut == "max_batch_lines":
                    with c._lock:
                        c._cap = max(1, min(c._cap, progressed))
                    continue
            elif not was_fresh and not failure.answered:
                # A keep-alive connection the server had closed: try again at
                # once on a new one, without counting.
                continue
            last = failure
            attempt += 1
            if attempt > c.retries:
                cause = failure.__cause__ or failure
                gave = GaveUpError(
                    "gave up after %d tries of a request: %s" % (attempt, _error_text(last.status, last.error, last.reason)),
                    status=last.status,
                    error=last.error,
                    cause=cause,
                )
                gave.__cause__ = cause
                self._fail(gave)
                return conn, fresh
            if self.stop_event.wait(c._delay(attempt, failure.retry_after)):
                return conn, fresh

    def _request(self, conn: http.client.HTTPConnection, ch: _Chunk, start: int) -> bool:
        """One POST of ch's lines from start on; True if the connection can
        be kept. Raises _Retry for a failure worth retrying (answers read
        before it are in ch.answers) and ClaimcheckError for one that is
        not."""
        c = self.c
        with c._lock:
            limit = c._cap
        req = _Req()
        sender: Optional[threading.Thread] = None
        sock: Optional[socket.socket] = None
        try:
            try:
                conn.putrequest("POST", ch.path, skip_accept_encoding=True)
                conn.putheader("Content-Type", "application/jsonl")
                conn.putheader("Transfer-Encoding", "chunked")
                conn.endheaders()
                sock = conn.sock
                assert sock is not None
                with self.lock:
                    if self.stopping:
                        raise _Retry("stopping")
                    self.socks[id(req)] = sock
                sender = threading.Thread(target=self._send, args=(sock, ch, start, limit, req), name="claimcheck-sender")
                sender.start()
                resp = conn.getresponse()
            except (OSError, http.client.HTTPException) as e:
                raise _Retry("%s: %s" % (type(e).__name__, e)) from e
            if resp.status != 200:
                try:
                    body = resp.read()
                except (OSError, http.client.HTTPException):
                    body = b""
                err = _parse_error(body)
                text = _error_text(resp.status, err, body[:200].decode("utf-8", "replace"))
                if resp.status in RETRYABLE_STATUSES:
                    raise _Retry(
                        text, status=resp.status, error=err,
                        retry_after=_retry_after(resp.getheader("Retry-After")), answered=True,
                    )
                cls = UnknownToolError if resp.status == 404 else RequestError
                raise cls("%s: %s" % (ch.path, text), status=resp.status, error=err)
            try:
                trailers = self._read_answers(resp, ch, start)
            except (OSError, http.client.HTTPException, ValueError) as e:
                raise _Retry("the answer broke off: %s: %s" % (type(e).__name__, e), answered=True) from e
            keep = not resp.will_close
            resp.close()
            cut = trailers.get("claimcheck-cut")
            self._stop_sender(sender, sock, req, ch, force=bool(cut))
            sender = None
            answered = len(ch.answers) - start
            if answered > req.sent:
                raise ProtocolError(
                    "%s: %d answer lines to %d lines sent" % (ch.path, answered, req.sent), status=200
                )
            if cut or not req.finished or answered < req.sent:
                raise _Retry(
                    "the stream was cut after %d of %d lines%s" % (answered, req.sent, " (%s)" % cut if cut else ""),
                    status=200, cut=cut, answered=True,
                )
            return keep
        finally:
            if sender is not None:
                self._stop_sender(sender, sock, req, ch, force=True)
            with self.lock:
                self.socks.pop(id(req), None)

    def _stop_sender(
        self, sender: threading.Thread, sock: Optional[socket.socket], req: _Req, ch: _Chunk, force: bool = False
    ) -> None:
        with self.lock:
            req.stop = True
            ch.cv.notify_all()
        if not force:
            sender.join(0.5)
        if sender.is_alive() and sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        sender.join()

    def _read_answers(self, resp: http.client.HTTPResponse, ch: _Chunk, start: int) -> Dict[str, str]:
        """Read the answer lines into ch.answers as they come; the trailers."""
        trailers: Dict[str, str] = {}
        pending = b""
        lock = self.lock
        answers = ch.answers
        nlines = len(ch.lines)
        for data in self._body(resp, trailers):
            if pending:
                data = pending + data
            parts = data.split(b"\n")
            pending = parts.pop()
            if parts:
                with lock:
                    nlines = len(ch.lines)
                    if len(answers) + len(parts) > nlines:
                        raise ProtocolError("%s: more answer lines than lines sent" % ch.path, status=200)
                    answers.extend(parts)
                    self.main_cv.notify()
        if pending:
            raise ValueError("the answer ended inside a line")
        return trailers

    @staticmethod
    def _body(resp: http.client.HTTPResponse, trailers: Dict[str, str]) -> Iterator[bytes]:
        if not resp.chunked:
            while True:
                data = resp.read1(1 << 16) if hasattr(resp, "read1") else resp.read(1 << 16)
                if not data:
                    return
                yield data
        # Chunked: decoded here rather than by http.client, which drops
        # the trailers (Claimcheck-Cut).
        fp = resp.fp
        while True:
            line = fp.readline(1026)
            if not line.endswith(b"\n"):
                raise http.client.IncompleteRead(line)
            size = int(line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                while True:
                    t = fp.readline(65538)
                    if not t.endswith(b"\n"):
                        raise http.client.IncompleteRead(t)
                    if t in (b"\r\n", b"\n"):
                        return
                    name, _, value = t.decode("latin-1").partition(":")
                    trailers[name.strip().lower()] = value.strip()
            data = fp.read(size)
            if len(data) < size:
                raise http.client.IncompleteRead(data, size - len(data))
            if fp.read(2) != b"\r\n":
                raise ValueError("bad chunked encoding")
            yield data

    def _send(self, sock: socket.socket, ch: _Chunk, start: int, limit: int, req: _Req) -> None:
        """The sender thread of one request: the lines of ch from start on,
        at most limit of them, each chunk sent as soon as it has lines."""
        lock = self.lock
        i = start
        end = start + limit
        try:
            while True:
                with lock:
                    while True:
                        if req.stop or self.stopping:
                            return
                        n = len(ch.lines)
                        if i < n or ch.sealed or i >= end:
                            break
                        now = time.monotonic()
                        wait = ch.last + _IDLE_END - now
                        if self.queue:
                            wait = min(wait, req.t0 + _SHARE - now)
                        if wait <= 0:
                            # Idle, or another group waits for a worker: end
                            # this group here; its next records start another.
                            ch.sealed = True
                            if self.open.get(ch.path) is ch:
                                del self.open[ch.path]
                            break
                        ch.waiting = True
                        ch.cv.wait(wait)
                        ch.waiting = False
                    stop = min(n, end)
                    batch = ch.lines[i:stop]
                    final = stop >= end or (ch.sealed and stop >= len(ch.lines))
                j = 0
                while j < len(batch):
                    size = 0
                    k = j
                    while k < len(batch) and (size == 0 or size + len(batch[k]) < _MAX_SEND):
                        size += len(batch[k]) + 1
                        k += 1
                    data = b"\n".join(batch[j:k]) + b"\n"
                    # Counted before it goes: the server may answer the
                    # lines of a chunk that breaks off.
                    req.sent = i + k - start
                    sock.sendall(b"%x\r\n%s\r\n" % (len(data), data))
                    j = k
                i = stop
                if final:
                    sock.sendall(b"0\r\n\r\n")
                    req.finished = True
                    return
        except OSError as e:  # the server ended the stream: the answers say how far it got
            req.error = e
