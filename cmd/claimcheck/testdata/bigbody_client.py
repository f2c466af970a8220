"""Send bodies over the cap to a claimcheck serve, whole before reading.

python3 bigbody_client.py BASE_URL PATH SIZE TRIES

Each try is a fresh http.client connection that sends a POST of SIZE bytes
(a JSON document padded with spaces) to PATH and only then reads the
answer. It prints one line per outcome kind, "ok N" for the answers that
are the limit_exceeded (max_document_bytes) error, and exits 1 unless every
try was one.
"""
import http.client
import json
import sys
import urllib.parse


def main():
    base, path, size, tries = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    u = urllib.parse.urlsplit(base)
    if path.endswith("/mcp"):
        head = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":{"source":[1],"claim":[1]}}}'
    else:
        head = b'{"source":[1],"claim":[1]}'
    body = head + b" " * (size - len(head))
    outcomes = {}
    for _ in range(tries):
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        try:
            # request() sends the headers and the whole body, then returns.
            c.request("POST", path, body=body, headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            })
            r = c.getresponse()
            doc = json.loads(r.read())
            err = doc.get("error", {})
            data = err.get("data", err)  # /mcp: the error document is the data
            inner = data.get("error", data)
            # /mcp reads a body up to twice its cap to its end, and answers
            # a message over the cap in JSON-RPC (200, or 400 with no id);
            # past that, and on /v1, the answer is 413.
            status_ok = r.status == 413 or (path.endswith("/mcp") and r.status in (200, 400))
            ok = status_ok and inner.get("code") == "limit_exceeded" and inner.get("limit") == "max_document_bytes"
            kind = "ok" if ok else "answer %d %s" % (r.status, json.dumps(doc)[:200])
        except Exception as e:  # a reset, a broken pipe: the defect
            kind = type(e).__name__ + ": " + str(e)
        finally:
            c.close()
        outcomes[kind] = outcomes.get(kind, 0) + 1
    for kind in sorted(outcomes):
        print(kind, outcomes[kind])
    sys.exit(0 if outcomes.get("ok") == tries else 1)


main()
