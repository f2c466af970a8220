"""Fixtures: a built claimcheck binary, `claimcheck serve` processes on
127.0.0.1, the public corpus as request lines, and `claimcheck batch`'s
answers to compare with."""
import base64
import json
import os
import pathlib
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Tuple

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PKG = HERE.parent
REPO = PKG.parent.parent
try:
    import claimcheck_client  # installed (clients/python/ci.sh)
except ImportError:
    sys.path.insert(0, str(PKG / "src"))  # else the checkout's
    import claimcheck_client

# Where claimcheck_client comes from, for the subprocesses that run its CLI.
PKG_PATH = os.path.dirname(os.path.dirname(os.path.abspath(claimcheck_client.__file__)))

TOOLS = ["multiset-equality-check", "multiset-difference-check", "rational-expression-check"]
VERSION = "1.0.0"


def long_run() -> bool:
    return os.environ.get("CLAIMCHECK_LONG") == "1"


@pytest.fixture(scope="session")
def cc_bin(tmp_path_factory) -> str:
    """$CLAIMCHECK_BIN, else the command built from the checkout."""
    b = os.environ.get("CLAIMCHECK_BIN")
    if b:
        return b
    out = tmp_path_factory.mktemp("bin") / "claimcheck"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/claimcheck"], cwd=REPO, check=True)
    return str(out)


class Serve:
    """A `claimcheck serve` process on 127.0.0.1; kill and restart keep the
    port."""

    def __init__(self, bin: str, args: List[str], port: int = 0) -> None:
        self.bin = bin
        self.args = args
        self.port = port
        self.proc: Optional[subprocess.Popen] = None
        self.logf = tempfile.NamedTemporaryFile(prefix="serve-", suffix=".log", delete=False)
        self.start()

    def start(self) -> None:
        log = open(self.logf.name, "ab")
        start = log.tell()
        self.proc = subprocess.Popen(
            [self.bin, "serve", "-addr", "127.0.0.1:%d" % self.port] + self.args,
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
        )
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with open(self.logf.name, "rb") as f:
                f.seek(start)
                text = f.read().decode()
            if "memory bound" in text and "listening on " in text:
                url = text.split("listening on ", 1)[1].split()[0]
                self.url = url
                self.port = int(url.rsplit(":", 1)[1])
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise RuntimeError("serve did not start: %s" % open(self.logf.name).read())

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def restart(self) -> None:
        self.kill()
        deadline = time.monotonic() + 10
        while True:
            try:
                self.start()
                return
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def close(self) -> None:
        self.kill()
        os.unlink(self.logf.name)


@pytest.fixture
def serve_factory(cc_bin):
    started: List[Serve] = []

    def make(*args: str, port: int = 0) -> Serve:
        s = Serve(cc_bin, list(args), port)
        started.append(s)
        return s

    yield make
    for s in started:
        s.close()


@pytest.fixture(scope="module")
def server(cc_bin):
    s = Serve(cc_bin, [])
    yield s
    s.close()


def _corpus() -> Dict[str, List[bytes]]:
    out: Dict[str, List[bytes]] = {}
    for tool in TOOLS:
        lines: List[bytes] = []
        with open(REPO / "testdata" / "conformance" / (tool + ".jsonl"), encoding="utf-8") as f:
            for l in f:
                case = json.loads(l)
                if "input" in case:
                    b = case["input"].encode("utf-8", "surrogatepass")
                else:
                    b = base64.b64decode(case["input_base64"])
                # As the Go test does: a case with a newline is several lines.
                lines.extend(b.split(b"\n"))
        with open(REPO / "schema" / "descriptors" / (tool + ".json"), encoding="utf-8") as f:
            for ex in json.load(f)["examples"]:
                lines.append(json.dumps(ex["input"], separators=(",", ":")).encode())
        out[tool] = lines
    return out


@pytest.fixture(scope="session")
def corpus() -> Dict[str, List[bytes]]:
    """Each tool's request lines (bytes, no newline): the conformance
    inputs (a newline in one splits it) and the descriptors' examples."""
    return _corpus()


def batch_answers(bin: str, tool: str, lines: List[bytes]) -> List[bytes]:
    """`claimcheck batch`'s answer lines (no newline) to lines."""
    p = subprocess.run(
        [bin, "batch", "%s@%s" % (tool, VERSION)], input=b"".join(l + b"\n" for l in lines),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False,
    )
    assert p.returncode in (0, 1, 4), p.stderr  # 1: some line got an error document
    out = p.stdout.split(b"\n")
    assert out.pop() == b""
    assert len(out) == len(lines)
    return out


@pytest.fixture(scope="session")
def batch(cc_bin):
    return lambda tool, lines: batch_answers(cc_bin, tool, lines)


def mixed(corpus: Dict[str, List[bytes]], n: int, seed: int = 1) -> List[Tuple[str, bytes]]:
    """n (tool, line) records drawn from the corpus, tools mixed."""
    rnd = random.Random(seed)
    pools = [(t, corpus[t]) for t in TOOLS]
    out = []
    for _ in range(n):
        t, lines = pools[rnd.randrange(3)]
        out.append((t, lines[rnd.randrange(len(lines))]))
    return out


def expected(batch, records: List[Tuple[str, bytes]]) -> List[bytes]:
    """The answer to each record, from `claimcheck batch` run tool by tool."""
    by_tool: Dict[str, List[int]] = {}
    for i, (t, _) in enumerate(records):
        by_tool.setdefault(t.split("@")[0], []).append(i)
    out: List[Optional[bytes]] = [None] * len(records)
    for t, idx in by_tool.items():
        ans = batch(t, [records[i][1] for i in idx])
        for i, a in zip(idx, ans):
            out[i] = a
    return out  # type: ignore[return-value]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class FakeServer:
    """A scripted HTTP/1.1 server on 127.0.0.1 at the socket level: each
    connection is handed to handler(conn, head, n), n counting connections
    from 0; head is the request head's bytes (the body, if any, is left
    unread). Helpers relay a connection to a real server."""

    def __init__(self, handler) -> None:
        self.handler = handler
        self.ls = socket.socket()
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(64)
        self.port = self.ls.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.count = 0
        self.closed = False
        self.threads: List[threading.Thread] = []
        self.t = threading.Thread(target=self._accept, daemon=True)
        self.t.start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                c, _ = self.ls.accept()
            except OSError:
                return
            n, self.count = self.count, self.count + 1
            t = threading.Thread(target=self._one, args=(c, n), daemon=True)
            self.threads.append(t)
            t.start()

    def _one(self, c: socket.socket, n: int) -> None:
        try:
            c.settimeout(20)
            head = b""
            while b"\r\n\r\n" not in head:
                d = c.recv(65536)
                if not d:
                    return
                head += d
            self.handler(c, head, n)
        except OSError:
            pass
        finally:
            c.close()

    def close(self) -> None:
        self.closed = True
        self.ls.close()


def answer_and_drain(c: socket.socket, response: bytes) -> None:
    """Send response, end the writing side, and read what the client still
    sends for a moment (so that closing does not reset the answer away)."""
    c.sendall(response)
    c.shutdown(socket.SHUT_WR)
    c.settimeout(1)
    try:
        while c.recv(65536):
            pass
    except OSError:
        pass


def relay(c: socket.socket, head: bytes, port: int) -> None:
    """Pipe the connection, head first, to 127.0.0.1:port both ways."""
    u = socket.create_connection(("127.0.0.1", port))
    u.sendall(head)

    def pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                b.sendall(d)
        except OSError:
            pass
        try:
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    t = threading.Thread(target=pipe, args=(u, c), daemon=True)
    t.start()
    pipe(c, u)
    t.join()
    u.close()


def error_response(status: int, reason: str, code: str, message: str, extra: str = "") -> bytes:
    body = json.dumps({"error": {"code": code, "path": "", "message": message}}).encode()
    return (
        "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n%s\r\n"
        % (status, reason, len(body), extra)
    ).encode() + body
