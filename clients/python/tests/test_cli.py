"""The command line: python -m claimcheck_client URL TOOL, claimcheck-client,
and the old clients/python/claimcheck_batch.py."""
import os
import pathlib
import select
import subprocess
import sys
import time

import pytest

from conftest import PKG, PKG_PATH, TOOLS, VERSION, free_port

EQ = "multiset-equality-check"


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = PKG_PATH + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def cli(*args, input=b"", timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "claimcheck_client"] + list(args), input=input,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(), timeout=timeout,
    )


def batch_bytes(bin, tool, data):
    return subprocess.run([bin, "batch", tool], input=data, stdout=subprocess.PIPE, check=False).stdout


@pytest.mark.parametrize("tool", TOOLS)
def test_cli_corpus_bytes(server, corpus, cc_bin, tool):
    data = b"".join(l + b"\n" for l in corpus[tool])
    want = batch_bytes(cc_bin, tool + "@" + VERSION, data)
    for name in (tool, tool + "@" + VERSION):
        p = cli(server.url, name, input=data)
        assert p.returncode == 0, p.stderr
        assert p.stderr == b""
        assert p.stdout == want


def test_cli_line_endings(server, cc_bin):
    # CRLF lines, a blank line, a last line without its newline (also one
    # ending in a lone CR): the same lines `claimcheck batch` sees.
    for data in (
        b'{"source":[1],"claim":[1]}\r\n\r\n{"source":[1],"claim":[2]}',
        b'{"source":[1],"claim":[1]}\n{"source":[],"claim":[]}\r',
        b"",
        b"\n",
        b"{bad\n\n   \n",
    ):
        p = cli(server.url, EQ, input=data)
        assert p.returncode == 0, p.stderr
        assert p.stdout == batch_bytes(cc_bin, EQ, data), data


def test_cli_answers_while_input_is_open(server):
    """A producer that waits for each answer before it writes the next line
    gets it: the CLI yields and flushes while its input has nothing."""
    p = subprocess.Popen(
        [sys.executable, "-m", "claimcheck_client", server.url, EQ], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
    )
    try:
        for i in range(5):
            p.stdin.write(b'{"source":[%d],"claim":[%d]}\n' % (i, i))
            p.stdin.flush()
            r, _, _ = select.select([p.stdout], [], [], 10)
            assert r, "no answer to line %d while the input is open" % i
            line = p.stdout.readline()
            assert line.startswith(b'{"valid":true'), line
        p.stdin.close()
        assert p.stdout.read() == b""
        assert p.wait(10) == 0
    finally:
        p.kill()
        p.wait()


def test_cli_gives_up(cc_bin):
    port = free_port()
    t0 = time.monotonic()
    p = cli("http://127.0.0.1:%d" % port, EQ + "@1.0.0", "--retries", "1", input=b"{}\n" * 3)
    assert p.returncode == 1
    err = p.stderr.decode()
    assert err.startswith("claimcheck-client: gave up after 2 tries") and "0 record(s) answered" in err, err
    assert "Traceback" not in err and "Fatal Python error" not in err
    assert p.stdout == b""
    assert time.monotonic() - t0 < 30


def test_cli_unknown_tool(server):
    p = cli(server.url, "no-such-tool", input=b"{}\n")
    assert p.returncode == 1 and b"unknown tool 'no-such-tool'" in p.stderr and b"Traceback" not in p.stderr
    p = cli(server.url, EQ + "@2.0.0", input=b"{}\n")
    assert p.returncode == 1 and b"unknown_tool" in p.stderr and b"(HTTP 404)" in p.stderr, p.stderr


def test_cli_error_with_stdin_open(server):
    """Giving up while standard input is still open (a terminal, a pipe
    nobody closes) exits at once, without a fatal error: no thread is left
    reading it."""
    p = subprocess.Popen(
        [sys.executable, "-m", "claimcheck_client", server.url, EQ + "@3.0.0"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
    )
    try:
        p.stdin.write(b"{}\n")
        p.stdin.flush()
        assert p.wait(20) == 1
        err = p.stderr.read()
        assert b"unknown_tool" in err and b"Fatal" not in err and b"Traceback" not in err, err
    finally:
        p.kill()
        p.wait()


def test_cli_usage():
    p = cli()
    assert p.returncode == 2 and b"usage: claimcheck-client" in p.stderr
    p = cli("ftp://x", EQ)
    assert p.returncode == 2
    p = cli("--version")
    assert p.returncode == 0 and p.stdout.strip() == b"claimcheck-client 0.1.0"


def test_cli_stdout_closed(server, corpus):
    """A reader that goes away ends the command quietly."""
    data = b"".join(l + b"\n" for l in corpus[EQ]) * 200
    p = subprocess.Popen(
        [sys.executable, "-m", "claimcheck_client", server.url, EQ], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env(),
    )
    p.stdout.close()
    try:
        p.stdin.write(data)
        p.stdin.close()
    except BrokenPipeError:
        pass
    assert p.wait(30) == 1
    err = p.stderr.read()
    assert b"Traceback" not in err and b"Exception ignored" not in err, err


def test_console_script(server, cc_bin):
    exe = pathlib.Path(sys.executable).parent / "claimcheck-client"
    if not exe.exists():
        if os.environ.get("CLAIMCHECK_CLIENT_INSTALLED"):
            pytest.fail("%s is not installed" % exe)
        pytest.skip("the package is not installed in this Python (clients/python/ci.sh installs it)")
    data = b'{"source":[1],"claim":[1]}\n{bad\n'
    p = subprocess.run([str(exe), server.url, EQ], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr
    assert p.stdout == batch_bytes(cc_bin, EQ, data)


def test_old_script(server, corpus, cc_bin):
    data = b"".join(l + b"\n" for l in corpus[EQ])
    p = subprocess.run(
        [sys.executable, str(PKG / "claimcheck_batch.py"), server.url, EQ, VERSION], input=data,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout == batch_bytes(cc_bin, EQ + "@" + VERSION, data)


def test_installed_package_is_tested():
    """Under ci.sh the tests run the installed package, not src/."""
    import claimcheck_client

    if not os.environ.get("CLAIMCHECK_CLIENT_INSTALLED"):
        pytest.skip("not under clients/python/ci.sh")
    assert "site-packages" in claimcheck_client.__file__, claimcheck_client.__file__
