"""The exceptions of claimcheck_client: every one is a ClaimcheckError."""
from typing import Any, Dict, List, Optional

__all__ = [
    "ClaimcheckError",
    "DocumentError",
    "RequestError",
    "UnknownToolError",
    "GaveUpError",
    "ProtocolError",
]


class ClaimcheckError(Exception):
    """The base of this package's exceptions.

    status:   the HTTP status that ended the work, or None (a connection
              failure, a cut stream, a document refused before sending)
    error:    the server's error document, parsed ({"error": {...}}), or None
    answered: how many records, in input order, had their result given
              (yielded by iter_check) before this was raised
    results:  for check_many, those results (a list); else None
    """

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        error: Optional[Dict[str, Any]] = None,
        answered: int = 0,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.error = error
        self.answered = answered
        self.results: Optional[List[Any]] = None  # of Result

    @property
    def code(self) -> Optional[str]:
        """The error document's code (such as "unknown_tool"), if any."""
        if isinstance(self.error, dict):
            e = self.error.get("error")
            code = e.get("code") if isinstance(e, dict) else None
            if isinstance(code, str):
                return code
        return None

    def __str__(self) -> str:
        s = self.message
        if self.status is not None:
            s = "%s (HTTP %d)" % (s, self.status)
        return "%s; %d record(s) answered" % (s, self.answered)


class DocumentError(ClaimcheckError, ValueError):
    """A record the client refuses before sending it: a document that is
    not strict JSON (NaN, infinity, a type json cannot write), a raw text
    with a newline inside, a record that is not a (tool, document) pair.
    index is the record's position in the input (0-based)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


class RequestError(ClaimcheckError):
    """The server refused a request for a reason that retrying cannot fix
    (400 on the whole request, 404, 413, 415 and the other 4xx but 408 and
    429). Not retried."""


class UnknownToolError(RequestError):
    """The tool is not served: a 404 unknown_tool, or an id that GET
    /v1/tools does not list."""


class GaveUpError(ClaimcheckError):
    """A request kept failing (connection errors, cut streams, 408, 429,
    500, 502, 503, 504) more times in a row than the client's retries.
    cause is the last failure (also __cause__)."""

    def __init__(self, message: str, *, cause: Optional[BaseException] = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.cause = cause


class ProtocolError(ClaimcheckError):
    """The server's answer broke the batch route's contract (more answer
    lines than lines sent). Not retried."""
