#!/usr/bin/env python3
"""Send JSON Lines to claimcheck's batch route and print the answers as they come.

Standard library only (http.client). The request body is streamed (chunked)
from a thread while the answers are read on the main thread, line N answering
line N; the connection is kept for the next call.

    python3 claimcheck_batch.py http://127.0.0.1:8080 multiset-equality-check 1.0.0 < in.jsonl > out.jsonl
"""
import http.client
import sys
import threading
import urllib.parse


def batch(conn, tool, version, lines):
    """Yield the answer (bytes, with its newline) to each line of lines (bytes, each ending in a newline)."""
    conn.putrequest("POST", f"/v1/tools/{tool}/versions/{version}/batch")
    conn.putheader("Content-Type", "application/jsonl")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    sent, failed = [0], []

    def send():
        try:
            buf = []
            size = 0
            for line in lines:
                buf.append(line)
                size += len(line)
                sent[0] += 1
                if size >= 1 << 16:
                    data = b"".join(buf)
                    conn.send(b"%x\r\n%s\r\n" % (len(data), data))
                    buf, size = [], 0
            data = b"".join(buf)
            if data:
                conn.send(b"%x\r\n%s\r\n" % (len(data), data))
            conn.send(b"0\r\n\r\n")
        except OSError as e:  # the server cut the stream; the answers say how far it got
            failed.append(e)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    resp = conn.getresponse()
    if resp.status != 200:
        raise RuntimeError(f"{resp.status}: {resp.read().decode()}")
    answered, pending = 0, b""
    while True:
        data = resp.read1(1 << 16)  # what has arrived, at most 64 KiB: answers as they come
        if not data:
            break
        lines = (pending + data).split(b"\n")
        pending = lines.pop()
        answered += len(lines)
        for answer in lines:
            yield answer + b"\n"
    if pending:
        raise RuntimeError("the answer ended inside a line")
    sender.join()
    if failed or answered != sent[0]:
        raise RuntimeError(f"the stream was cut after {answered} of {sent[0]} lines")


def main():
    base, tool, version = sys.argv[1:4]
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port or 80)
    out = sys.stdout.buffer
    for answer in batch(conn, tool, version, sys.stdin.buffer):
        out.write(answer)
    out.flush()
    conn.close()


if __name__ == "__main__":
    main()
