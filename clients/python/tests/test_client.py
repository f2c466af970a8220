"""claimcheck_client against a real `claimcheck serve` on 127.0.0.1."""
import json
import math
import os
import socket
import threading
import time

import pytest

import claimcheck_client
from claimcheck_client import (
    ClaimcheckError,
    Client,
    DocumentError,
    GaveUpError,
    Raw,
    RequestError,
    Result,
    UnknownToolError,
    encode_document,
)

from conftest import (
    TOOLS,
    VERSION,
    FakeServer,
    answer_and_drain,
    error_response,
    expected,
    free_port,
    long_run,
    mixed,
    relay,
)

EQ = "multiset-equality-check"
DIFF = "multiset-difference-check"
RAT = "rational-expression-check"


def no_threads_left(before):
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = [t for t in threading.enumerate() if t.name.startswith("claimcheck-") and t not in before]
        if not left:
            return True
        time.sleep(0.02)
    return False


def test_version_and_typed():
    assert claimcheck_client.__version__ == "0.1.0"
    import importlib.resources
    assert (importlib.resources.files("claimcheck_client") / "py.typed").is_file()


def test_check(server):
    with Client(server.url) as c:
        r = c.check(EQ, {"source": [1, None, 1], "claim": [None, 1, 1]})
        assert r.valid is True
        assert r.document["valid"] is True
        assert r.raw.startswith(b'{"valid":true,') and not r.raw.endswith(b"\n")
        assert r.error is None
        r = c.check(EQ + "@" + VERSION, {"source": [1, 1], "claim": [1]})
        assert r.valid is False
        assert r.document["reason"] == "claim_mismatch"
        assert r.document["discrepancy"] == {"path": "/source/0", "expected": "2", "actual": "1"}
        r = c.check(RAT, {"expression": "1/(2-2) + 1", "claimed_value": "1", "require_canonical": False})
        assert (r.valid, r.document["reason"]) == (False, "division_by_zero")
        r = c.check(DIFF, {"left": [1], "right": []})  # no claim: an error document
        assert r.valid is None
        assert r.error["code"] == "invalid_input"
        assert r.document == {"error": r.error}


def test_examples_match_descriptors(server):
    """Each descriptor example's output comes back, as a dict."""
    with Client(server.url) as c:
        for d in c.tools():
            for ex in d["examples"]:
                r = c.check(d["id"], ex["input"])
                assert r.document == ex["output"]


def test_check_many_mixed_order(server, corpus, batch):
    records = mixed(corpus, 3000, seed=7)
    want = expected(batch, records)
    # Small requests, so that many are open at once across the three tools.
    with Client(server.url, max_lines=50, max_in_flight=3) as c:
        seen = []
        got = c.check_many(records, on_progress=seen.append)
    assert [r.raw for r in got] == want
    assert seen and seen[-1] == len(records) and seen == sorted(seen)
    # The same records, with tools named by id@version and documents as Raw.
    with Client(server.url) as c:
        got = c.check_many([(t + "@" + VERSION, Raw(l)) for t, l in records])
    assert [r.raw for r in got] == want


def test_iter_check_lazy_and_bounded(server, corpus):
    """iter_check reads records only as requests have room: with 100,000
    records to give, a consumer that stops after 10 has had at most the
    window's worth read."""
    pulled = [0]
    line = corpus[EQ][0]

    def gen():
        for _ in range(100_000):
            pulled[0] += 1
            yield EQ, line

    before = set(threading.enumerate())
    with Client(server.url, max_lines=100, max_in_flight=2) as c:
        it = c.iter_check(gen())
        first = [next(it) for _ in range(10)]
        time.sleep(0.3)
        it.close()
    assert all(r.raw == first[0].raw for r in first)
    assert pulled[0] <= 2 * 2 * 100 + 600, pulled[0]
    assert no_threads_left(before)


def test_python_values_encoding(server, batch):
    doc = {"source": ["é", "\U0001f600", 1e300, -0.0, 10**30], "claim": [10**30, -0.0, 1e300, "\U0001f600", "é"]}
    line = encode_document(doc)
    assert line == '{"source":["é","\U0001f600",1e+300,-0.0,1000000000000000000000000000000],"claim":[1000000000000000000000000000000,-0.0,1e+300,"\U0001f600","é"]}\n'.encode()
    with Client(server.url) as c:
        r = c.check(EQ, doc)
    assert r.valid is True
    assert r.raw == batch(EQ, [line[:-1]])[0]
    # A newline in a string is escaped: one record stays one line.
    assert encode_document({"expression": "1\n+1"}) == b'{"expression":"1\\n+1"}\n'


def test_lone_surrogate(server, batch):
    doc = {"source": ["\ud800"], "claim": ["\ud800"]}
    line = encode_document(doc)
    assert line == b'{"source":["\\ud800"],"claim":["\\ud800"]}\n'
    with Client(server.url) as c:
        r = c.check(EQ, doc)
    assert r.valid is None and r.error["code"] == "invalid_input"
    assert r.raw == batch(EQ, [line[:-1]])[0]
    # A lone surrogate in a key too, and a str tool doc that is raw text.
    assert encode_document({"\udfff": 1}) == b'{"\\udfff":1}\n'
    assert encode_document(Raw('{"source":["\ud800"]}')) == b'{"source":["\xed\xa0\x80"]}\n'


def test_strict_json_refused(server):
    with Client(server.url) as c:
        for bad in ({"source": [math.nan], "claim": []}, {"source": [math.inf]}, {"x": object()}, {"x": {1, 2}}):
            with pytest.raises(DocumentError) as ei:
                c.check(EQ, bad)
            assert isinstance(ei.value, ValueError) and ei.value.index == 0


def test_raw_broken_json(server, batch):
    lines = [b"{bad", b"", b"   ", b'{"source":[1],"claim":[1]', b"\xff\xfe", b'{"source":[1],"claim":[1]}\r', b"[1,2]", b"null"]
    records = [(EQ, l) for l in lines] + [(EQ, Raw(l.decode("latin-1"))) for l in lines[:3]]
    with Client(server.url) as c:
        got = c.check_many(records)
    want = batch(EQ, lines)
    assert [r.raw for r in got[: len(lines)]] == want
    assert [r.valid for r in got] == [None, None, None, None, None, True, None, None, None, None, None]
    assert got[0].error["code"] == "invalid_input"
    # One trailing newline is a line ending; one inside is refused.
    with Client(server.url) as c:
        assert c.check(EQ, b'{"source":[1],"claim":[1]}\n').valid is True
        assert c.check(EQ, b'{"source":[1],"claim":[1]}\r\n').valid is True
        with pytest.raises(DocumentError) as ei:
            c.check_many([(EQ, b'{"source":[],"claim":[]}')] * 3 + [(EQ, b'{"source":[],\n"claim":[]}')])
    e = ei.value
    assert e.index == 3 and e.answered == 3 and [x.valid for x in e.results] == [True] * 3


def test_unknown_tools(server):
    with Client(server.url, retries=0) as c:
        with pytest.raises(UnknownToolError) as ei:
            c.check("no-such-tool", {})
        assert ei.value.status is None and "no-such-tool" in str(ei.value)
        with pytest.raises(UnknownToolError) as ei:
            c.check_many([(EQ + "@9.9.9", {"source": [], "claim": []})] * 5)
        e = ei.value
        assert isinstance(e, RequestError) and isinstance(e, ClaimcheckError)
        assert e.status == 404 and e.code == "unknown_tool" and e.answered == 0 and e.results == []
        assert e.error["error"]["code"] == "unknown_tool"


def test_newest_version_cached(server):
    with Client(server.url) as c:
        c.check(EQ, {"source": [], "claim": []})
        assert c._paths[EQ].endswith("/multiset-equality-check/versions/1.0.0/batch")
        n = c._newest
        c.check(DIFF, {"left": [], "right": [], "claim": {"left_only": [], "right_only": []}})
        assert c._newest is n  # GET /v1/tools once


def test_kill_and_restart(serve_factory, corpus, batch):
    """The server killed mid-run and started again on its port: every
    result comes, each the bytes `claimcheck batch` writes."""
    s = serve_factory()
    records = mixed(corpus, 20_000, seed=3)
    want = expected(batch, records)
    got = []
    restarted = threading.Event()
    with Client(s.url, max_lines=500, max_in_flight=2, backoff=0.05, max_backoff=0.5, retries=20) as c:
        for i, r in enumerate(c.iter_check(records)):
            got.append(r.raw)
            if i == 5000:
                s.kill()

                def again():
                    time.sleep(0.3)
                    s.start()
                    restarted.set()

                threading.Thread(target=again).start()
        stats = dict(c.stats)
    assert restarted.wait(10)
    assert len(got) == len(records)
    assert got == want
    assert stats["retries"] >= 1, stats
    print("kill and restart:", stats)


def _haproxy_cfg(port, backends):
    servers = "\n".join(
        "    server s%d 127.0.0.1:%d check inter 100ms fall 1 rise 1" % (i, p) for i, p in enumerate(backends)
    )
    return """global
    maxconn 256
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
    retry-on conn-failure empty-response
frontend fe
    bind 127.0.0.1:%d
    default_backend be
backend be
    balance roundrobin
    option httpchk GET /readyz
%s
""" % (port, servers)


def test_replica_killed_behind_haproxy(serve_factory, corpus, batch, tmp_path):
    import shutil
    import subprocess

    hap = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if hap is None:
        if os.environ.get("CI"):
            pytest.fail("haproxy is not installed: CI must install it (apt-get install haproxy)")
        pytest.skip("haproxy is not installed (apt-get install haproxy); CI installs it")
    a, b = serve_factory(), serve_factory()
    port = free_port()
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(_haproxy_cfg(port, [a.port, b.port]))
    p = subprocess.Popen([hap, "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 10
        while True:
            try:
                with Client(url, retries=0) as c:
                    c.tools()
                break
            except ClaimcheckError:
                if time.monotonic() > deadline or p.poll() is not None:
                    raise
                time.sleep(0.05)
        records = mixed(corpus, 20_000, seed=5)
        want = expected(batch, records)
        got = []
        with Client(url, max_lines=500, max_in_flight=4, backoff=0.05, max_backoff=0.5) as c:
            for i, r in enumerate(c.iter_check(records)):
                got.append(r.raw)
                if i == 4000:
                    a.kill()
            stats = dict(c.stats)
        assert got == want
        assert stats["retries"] >= 1, stats
        print("haproxy:", stats)
    finally:
        p.terminate()
        p.wait(5)


def test_503_retry_after(server, corpus, batch):
    """A 503 with Retry-After: 1 on the first try is waited out (a second,
    not the 0.2 s backoff), then the answers come."""
    refused = []

    def handler(c, head, n):
        if head.startswith(b"POST") and not refused:
            refused.append(time.monotonic())
            answer_and_drain(c, error_response(503, "Service Unavailable", "overloaded", "try again", "Retry-After: 1\r\n"))
        else:
            relay(c, head, server.port)

    f = FakeServer(handler)
    try:
        lines = corpus[EQ][:200]
        t0 = time.monotonic()
        with Client(f.url, backoff=0.2) as c:
            got = c.check_many([(EQ + "@" + VERSION, l) for l in lines])
        took = time.monotonic() - t0
        assert [r.raw for r in got] == batch(EQ, lines)
        assert refused and 1.0 <= took < 10, took
    finally:
        f.close()


def test_503_gives_up(server):
    def handler(c, head, n):
        answer_and_drain(c, error_response(503, "Service Unavailable", "overloaded", "full", "Retry-After: 0\r\n"))

    f = FakeServer(handler)
    before = set(threading.enumerate())
    try:
        with Client(f.url, retries=2, backoff=0.01) as c:
            with pytest.raises(GaveUpError) as ei:
                c.check_many([(EQ + "@1.0.0", {"source": [], "claim": []})] * 10)
        e = ei.value
        assert e.status == 503 and e.code == "overloaded" and e.answered == 0
        assert f.count == 3  # the first try and 2 retries
        assert no_threads_left(before)
    finally:
        f.close()


ANSWER = b'{"valid":true,"reference_version":"ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020"}'


def test_non_retryable_after_answers():
    """3 lines answered and the stream cut (overloaded), then a 415 on the
    retry: a RequestError with the status, the error document and the 3
    answered."""

    def handler(c, head, n):
        if n == 0:
            c.settimeout(0.2)  # the body's first lines (they may be in head already)
            try:
                c.recv(4096)
            except OSError:
                pass
            body = (ANSWER + b"\n") * 3
            c.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/jsonl\r\nTrailer: Claimcheck-Cut\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nClaimcheck-Cut: overloaded\r\n\r\n" % (len(body), body)
            )
            c.shutdown(socket.SHUT_WR)
            time.sleep(0.2)
        else:
            answer_and_drain(c, error_response(415, "Unsupported Media Type", "unsupported_media_type", "want JSON Lines"))

    f = FakeServer(handler)
    try:
        with Client(f.url, backoff=0.01) as c:
            with pytest.raises(RequestError) as ei:
                c.check_many([(EQ + "@1.0.0", {"source": [i], "claim": [i]}) for i in range(10)])
        e = ei.value
        assert not isinstance(e, UnknownToolError)
        assert e.status == 415 and e.code == "unsupported_media_type" and e.answered == 3
        assert [r.raw for r in e.results] == [ANSWER] * 3
        assert f.count == 2
    finally:
        f.close()


def test_connection_refused_gives_up():
    port = free_port()
    with Client("http://127.0.0.1:%d" % port, retries=2, backoff=0.01) as c:
        with pytest.raises(GaveUpError) as ei:
            c.check(EQ + "@1.0.0", {"source": [], "claim": []})
    e = ei.value
    assert e.status is None and e.answered == 0 and isinstance(e.cause, OSError)


def test_max_batch_lines_cut(serve_factory, corpus, batch):
    s = serve_factory("-max-batch-lines", "100")
    lines = (corpus[RAT] * 10)[:1000]
    with Client(s.url) as c:
        got = c.check_many([(RAT, l) for l in lines])
        assert c._cap == 100  # learnt from the Claimcheck-Cut trailer
        assert c.stats["cuts"] >= 1
    assert [r.raw for r in got] == batch(RAT, lines)


def test_slow_producer(serve_factory, corpus, batch):
    """20 records a second, against a server that ends a body idle for
    300 ms (a client that held lines back would get 408 or a cut): every
    answer, each within a second of its record."""
    s = serve_factory("-body-idle-timeout", "300ms")
    lines = corpus[EQ][:40]
    made = []

    def gen():
        for l in lines:
            time.sleep(0.05)
            made.append(time.monotonic())
            yield EQ, l

    lag = []
    with Client(s.url, retries=0) as c:
        got = []
        for i, r in enumerate(c.iter_check(gen())):
            lag.append(time.monotonic() - made[i])
            got.append(r.raw)
    assert got == batch(EQ, lines)
    assert max(lag) < 1.0, lag


def test_stalled_producer(serve_factory, corpus, batch):
    """A producer that stalls longer than -body-idle-timeout between
    records: the request is ended before the server would cut it."""
    s = serve_factory("-body-idle-timeout", "1500ms")
    lines = corpus[DIFF][:6]

    def gen():
        for i, l in enumerate(lines):
            if i == 3:
                time.sleep(2.0)
            yield DIFF, l

    with Client(s.url, retries=0) as c:
        got = [r.raw for r in c.iter_check(gen())]
    assert got == batch(DIFF, lines)


def test_mixed_20000(server, corpus, batch):
    records = mixed(corpus, 20_000, seed=11)
    with Client(server.url) as c:
        got = c.check_many(records)
    assert [r.raw for r in got] == expected(batch, records)


@pytest.mark.skipif(not long_run(), reason="the long run's (CLAIMCHECK_LONG=1)")
def test_mixed_1000000(server, corpus, cc_bin, tmp_path):
    """1,000,000 records of the three tools mixed, streamed (records made
    as they are read, answers compared as they come with `claimcheck
    batch`'s, tool by tool, read from its output files): the memory of
    neither side grows with the count."""
    import random
    import subprocess

    n = 1_000_000

    def records():
        rnd = random.Random(13)
        for _ in range(n):
            t = TOOLS[rnd.randrange(3)]
            lines = corpus[t]
            yield t, lines[rnd.randrange(len(lines))]

    files = {t: open(tmp_path / (t + ".in"), "wb") for t in TOOLS}
    for t, l in records():
        files[t].write(l + b"\n")
    want = {}
    for t, f in files.items():
        f.close()
        with open(tmp_path / (t + ".in"), "rb") as fin, open(tmp_path / (t + ".want"), "wb") as fout:
            subprocess.run([cc_bin, "batch", t + "@" + VERSION], stdin=fin, stdout=fout, check=False)
        want[t] = open(tmp_path / (t + ".want"), "rb")
    got = 0
    with Client(server.url) as c:
        for (t, _), r in zip(records(), c.iter_check(records())):
            assert r.raw + b"\n" == want[t].readline(), got
            got += 1
    assert got == n
    for f in want.values():
        assert f.read() == b""
        f.close()


def test_consumer_stops_early_and_errors_leave_no_threads(server, corpus):
    before = set(threading.enumerate())
    with Client(server.url, max_lines=10) as c:
        for i, _ in enumerate(c.iter_check(mixed(corpus, 5000))):
            if i == 100:
                break
        with pytest.raises(UnknownToolError):
            c.check_many(mixed(corpus, 500) + [("multiset-equality-check@0.0.1", b"{}")] + mixed(corpus, 500))
    assert no_threads_left(before)


def test_result_valid_fallback():
    assert Result(b'{"reason":null,"valid":true}').valid is True
    assert Result(b'{"error":{"code":"x"}}').valid is None
    assert Result(b' {"error":{"code":"x"}}').error == {"code": "x"}


def test_exit_with_a_suspended_generator(server):
    """A program that ends with an iter_check generator neither exhausted
    nor closed (held by a global) exits at once: the workers are stopped."""
    import subprocess
    import sys

    from conftest import PKG_PATH

    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from claimcheck_client import Client\n"
        "c = Client(%r, max_lines=5)\n"
        "it = c.iter_check(('multiset-equality-check', {'source': [i], 'claim': [i]}) for i in range(10**6))\n"
        "print(next(it).valid)\n"
    ) % (PKG_PATH, server.url)
    p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
    assert p.returncode == 0 and p.stdout == b"True\n", p.stderr
    assert b"Fatal" not in p.stderr and b"Traceback" not in p.stderr, p.stderr


def test_graceful_restart(serve_factory, corpus, batch):
    """SIGTERM mid-run (serve answers Connection: close for its
    -shutdown-delay, finishes the requests in flight and exits 0), then a
    new serve on the port: every result, batch's bytes."""
    import signal

    s = serve_factory("-shutdown-delay", "300ms")
    records = mixed(corpus, 20_000, seed=17)
    want = expected(batch, records)
    got = []
    done = threading.Event()
    with Client(s.url, max_lines=300, max_in_flight=2, backoff=0.05, max_backoff=0.5, retries=30) as c:
        for i, r in enumerate(c.iter_check(records)):
            got.append(r.raw)
            if i == 3000:
                s.proc.send_signal(signal.SIGTERM)

                def again():
                    assert s.proc.wait(20) == 0
                    s.start()
                    done.set()

                threading.Thread(target=again).start()
        stats = dict(c.stats)
    assert done.wait(20)
    assert got == want
    print("graceful restart:", stats)


def test_connection_per_request(server):
    """serve closes an HTTP/1 connection after each batch answer (a cut
    request's body must never be read as a request): call after call is
    answered on a new connection, and the pool keeps no closed one."""
    with Client(server.url) as c:
        for i in range(20):
            assert c.check(EQ, {"source": [i], "claim": [i]}).valid is True
            assert all(conn.sock is not None for conn in c._pool)
        assert c.stats["retries"] == 0, c.stats


def test_restart_between_calls(serve_factory):
    """The server restarted between two calls: the call goes through on a
    new connection even with retries=0."""
    s = serve_factory()
    with Client(s.url, retries=0) as c:
        assert c.check(EQ, {"source": [], "claim": []}).valid is True
        s.restart()
        assert c.check(EQ, {"source": [1], "claim": [1]}).valid is True


def test_server_that_never_answers():
    def handler(c, head, n):
        time.sleep(3)

    f = FakeServer(handler)
    try:
        t0 = time.monotonic()
        with Client(f.url, timeout=0.3, retries=1, backoff=0.01) as c:
            with pytest.raises(GaveUpError) as ei:
                c.check(EQ + "@1.0.0", {"source": [], "claim": []})
        assert isinstance(ei.value.cause, (socket.timeout, TimeoutError, OSError)), ei.value.cause
        assert time.monotonic() - t0 < 3
    finally:
        f.close()


def test_more_answers_than_lines():
    from claimcheck_client import ProtocolError

    def handler(c, head, n):
        c.settimeout(0.2)
        try:
            c.recv(4096)
        except OSError:
            pass
        body = (ANSWER + b"\n") * 5
        c.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        time.sleep(0.2)

    f = FakeServer(handler)
    try:
        with Client(f.url) as c:
            with pytest.raises(ProtocolError):
                c.check_many([(EQ + "@1.0.0", {"source": [], "claim": []})] * 2)
        assert f.count == 1
    finally:
        f.close()


def test_producer_raises(server):
    before = set(threading.enumerate())

    def gen():
        for i in range(2000):
            yield EQ, {"source": [i], "claim": [i]}
        raise KeyError("producer")

    with Client(server.url) as c:
        got = []
        with pytest.raises(KeyError):
            for r in c.iter_check(gen()):
                got.append(r)
    assert no_threads_left(before)


def test_threads_share_a_client(server, corpus, batch):
    recs = [mixed(corpus, 2000, seed=s) for s in range(4)]
    wants = [expected(batch, r) for r in recs]
    outs = [None] * 4
    with Client(server.url, max_lines=200) as c:
        ts = [threading.Thread(target=lambda i=i: outs.__setitem__(i, [r.raw for r in c.check_many(recs[i])])) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    assert outs == wants


def test_slow_mixed_producer_one_worker(server, corpus, batch):
    """Three tools at 20 records a second through one worker: a request
    open for one tool gives the worker up for the others, so every answer
    comes within about a second of its record."""
    records = mixed(corpus, 30, seed=23)
    made = []

    def gen():
        for r in records:
            time.sleep(0.05)
            made.append(time.monotonic())
            yield r

    lag = []
    got = []
    with Client(server.url, max_in_flight=1, retries=0) as c:
        for i, r in enumerate(c.iter_check(gen())):
            lag.append(time.monotonic() - made[i])
            got.append(r.raw)
    assert got == expected(batch, records)
    assert max(lag) < 2.0, lag


def test_through_nginx(serve_factory, corpus, batch, tmp_path):
    """Through nginx as it is configured by default for a proxy: it reads
    the whole request body before it passes it on (no full duplex) and
    drops the trailers; the client counts lines, so nothing changes."""
    import shutil
    import subprocess

    ngx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if ngx is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    s = serve_factory()
    port = free_port()
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        """daemon off;
master_process off;
pid %(d)s/nginx.pid;
error_log %(d)s/logs/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %(d)s/body;
    proxy_temp_path %(d)s/proxy;
    fastcgi_temp_path %(d)s/fastcgi;
    uwsgi_temp_path %(d)s/uwsgi;
    scgi_temp_path %(d)s/scgi;
    client_max_body_size 0;
    upstream cc { server 127.0.0.1:%(up)d; keepalive 8; }
    server {
        listen 127.0.0.1:%(port)d;
        location / {
            proxy_pass http://cc;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host 127.0.0.1;
        }
    }
}
""" % {"d": tmp_path, "up": s.port, "port": port}
    )
    p = subprocess.Popen([ngx, "-p", str(tmp_path), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 10
        while True:
            try:
                with Client(url, retries=0) as c:
                    c.tools()
                break
            except ClaimcheckError:
                if time.monotonic() > deadline or p.poll() is not None:
                    raise AssertionError("nginx did not start: %s" % (p.stderr.read() if p.poll() is not None else ""))
                time.sleep(0.05)
        records = mixed(corpus, 20_000, seed=29)
        with Client(url, max_lines=2000) as c:
            got = [r.raw for r in c.check_many(records)]
            stats = dict(c.stats)
        assert got == expected(batch, records)
        assert stats["retries"] == 0, stats
    finally:
        p.terminate()
        p.wait(5)


def test_503_from_serve(serve_factory, batch):
    """serve with a budget of 2 MiB: four requests in flight, each holding
    lines of 300 KB, do not all fit, so some are answered 503 overloaded
    (Retry-After: 1) or cut with overloaded; the client waits, resends from
    the first unanswered line, and the results are batch's."""
    # The budget is at least -max-body-bytes + 1: a small body cap first.
    s = serve_factory("-max-body-bytes", str(1 << 20), "-max-buffered-bytes", str(2 << 20))
    big = lambda i: json.dumps({"source": list(range(i, i + 40000)), "claim": list(range(i, i + 40000))[::-1]}).encode()
    records = [(EQ, big(i)) for i in range(24)]
    t0 = time.monotonic()
    with Client(s.url, max_lines=3, max_in_flight=4, retries=30) as c:
        got = [r.raw for r in c.check_many(records)]
        stats = dict(c.stats)
    assert got == expected(batch, records)
    assert stats["retries"] >= 1, stats
    assert time.monotonic() - t0 >= 1.0  # a Retry-After was waited out
    print("503 from serve:", stats)