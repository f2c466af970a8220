#!/usr/bin/env python3
"""Send JSON Lines to claimcheck's batch route and print the answers as they come.

Standard library only. This is now the command line of the claimcheck_client
package beside it (src/claimcheck_client: the body streamed from a sender
thread while the answers are read as they come, keep-alive connections,
several requests in flight, retries from the first unanswered line), run from
the checkout without installing it; the package's own command is
`python3 -m claimcheck_client URL TOOL` (or `claimcheck-client`, installed).

    python3 claimcheck_batch.py http://127.0.0.1:8080 multiset-equality-check 1.0.0 < in.jsonl > out.jsonl
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from claimcheck_client.__main__ import main  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: claimcheck_batch.py URL TOOL_ID VERSION < in.jsonl > out.jsonl\n")
        sys.exit(2)
    main([sys.argv[1], "%s@%s" % (sys.argv[2], sys.argv[3])])
