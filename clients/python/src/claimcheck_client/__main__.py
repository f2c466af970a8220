"""claimcheck-client URL TOOL < in.jsonl > out.jsonl

Sends each line of standard input, as written, to URL's batch route for
TOOL (an id, for the newest version, or id@version) and writes the answer
lines to standard output in the same order: the bytes `claimcheck batch
TOOL` writes for the same input. Exits 1, after writing every answer it
had, with a message on standard error when it gives up; 2 on a usage error.
"""
import argparse
import collections
import os
import select
import sys
from typing import Callable, Deque, Iterator, List, Optional, Tuple

from . import __version__
from ._client import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, Client
from ._errors import ClaimcheckError


class _Lines:
    """The lines of a file descriptor, read in the calling thread; ready
    says whether a line is at hand without blocking longer than asked."""

    def __init__(self, fd: int, tool: str, on_idle: Callable[[], None]) -> None:
        self.fd = fd
        self.on_idle = on_idle  # called when the input has nothing at hand
        self.tool = tool
        self.rest = b""
        self.lines: Deque[bytes] = collections.deque()
        self.eof = False
        self.selectable = True

    def _fill(self) -> None:
        data = os.read(self.fd, 256 << 10)
        if not data:
            self.eof = True
            if self.rest:
                self.lines.append(self.rest)  # a last line without its "\n"
                self.rest = b""
            return
        parts = (self.rest + data).split(b"\n") if self.rest else data.split(b"\n")
        self.rest = parts.pop()
        self.lines.extend(parts)

    def ready(self, timeout: float) -> bool:
        if self.lines or self.eof:
            return True
        if self.selectable:
            try:
                r, _, _ = select.select([self.fd], [], [], timeout)
            except (OSError, ValueError):
                self.selectable = False
                return True
            if not r:
                # The producer is slow (or waits for answers): let the
                # answers written so far go.
                self.on_idle()
                return False
        self._fill()
        return bool(self.lines) or self.eof

    def __iter__(self) -> Iterator[Tuple[str, bytes]]:
        tool, lines = self.tool, self.lines
        while True:
            while not lines:
                if self.eof:
                    return
                self._fill()
            yield tool, lines.popleft()


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(
        prog="claimcheck-client",
        description="Check JSON Lines from standard input with claimcheck serve's batch route; "
        "the answers, line N for line N, go to standard output.",
    )
    p.add_argument("url", metavar="URL", help="the server, such as http://127.0.0.1:8080")
    p.add_argument("tool", metavar="TOOL", help="a tool id (its newest version) or id@version")
    p.add_argument("--max-in-flight", type=int, default=4, metavar="N", help="requests open at once (default 4)")
    p.add_argument("--retries", type=int, default=8, metavar="N", help="tries of a failing request after the first (default 8)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds for each connect, read or write (default 60)")
    p.add_argument("--max-lines", type=int, default=DEFAULT_MAX_LINES, metavar="N", help="lines per request (default %d)" % DEFAULT_MAX_LINES)
    p.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, metavar="N", help="bytes per request (default %d)" % DEFAULT_MAX_BYTES)
    p.add_argument("--version", action="version", version="%(prog)s " + __version__)
    a = p.parse_args(argv)
    try:
        client = Client(a.url, timeout=a.timeout, retries=a.retries, max_in_flight=a.max_in_flight,
                        max_lines=a.max_lines, max_bytes=a.max_bytes)
    except ValueError as e:
        p.error(str(e))
    out = sys.stdout.buffer
    src = _Lines(sys.stdin.fileno(), a.tool, out.flush)
    write = out.write
    code = 0
    try:
        try:
            for r in client._iter_ready(src, src.ready):
                write(r.raw + b"\n")
        finally:
            out.flush()
    except ClaimcheckError as e:
        sys.stderr.write("claimcheck-client: %s\n" % (e,))
        code = 1
    except BrokenPipeError:
        # Whoever read standard output went away: nothing to tell it.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 1
    except KeyboardInterrupt:
        code = 130
    finally:
        client.close()
    sys.exit(code)


if __name__ == "__main__":
    main()
