"""claimcheck_client: a streaming client of `claimcheck serve`'s batch route.

Standard library only. ::

    from claimcheck_client import Client, Raw

    with Client("http://127.0.0.1:8080") as c:
        r = c.check("multiset-equality-check", {"source": [1, 1], "claim": [1]})
        r.valid     # False
        r.document  # {"valid": false, "reason": "claim_mismatch", ...}
        r.raw       # the answer line's bytes, as `claimcheck batch` writes them

        for r in c.iter_check((("rational-expression-check@1.0.0", Raw(line)) for line in f)):
            ...

A record is a (tool, document) pair; tool is an id (the newest version
GET /v1/tools lists, looked up once) or id@version. A document is a Python
value (sent as strict, compact JSON) or raw JSON text: bytes, or Raw(bytes
or str), sent as written.
"""
from ._client import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, RETRYABLE_STATUSES, Client, Raw, Result, encode_document
from ._errors import (
    ClaimcheckError,
    DocumentError,
    GaveUpError,
    ProtocolError,
    RequestError,
    UnknownToolError,
)

__version__ = "0.1.0"

__all__ = [
    "Client",
    "Raw",
    "Result",
    "encode_document",
    "ClaimcheckError",
    "DocumentError",
    "RequestError",
    "UnknownToolError",
    "GaveUpError",
    "ProtocolError",
    "DEFAULT_MAX_LINES",
    "DEFAULT_MAX_BYTES",
    "RETRYABLE_STATUSES",
    "__version__",
]
