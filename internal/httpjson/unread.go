package httpjson

import "net/http"

// The Connection header values of an HTTP/1 answer that leaves its
// request's body unread, whole or in part ([Unread]): the marks that
// package intake's Linger looks for, by identity, on the answer's
// header map (which net/http has copied for the wire by then, so the
// marks' slices are never sent as they are, only their "close"). The
// shared slices have no spare capacity, so an Add copies them.
var (
	unreadMark  = []string{"close"} // nothing of the body read yet
	partialMark = []string{"close"} // part of it read (and 100 Continue sent, if asked for)
	lingered    = []string{"close"} // Linger is done with it
)

// Unread readies h, the header of the answer to r, for an answer that
// leaves r's body unread: on HTTP/1, Connection: close, so that the
// server does not read on through what is left of the body, and the mark
// that has the rest of the body drained (with bounds) after the answer
// (package intake's Linger), so that a client that writes its whole body
// before it reads sees the answer instead of a reset. partial says that
// some of the body was read already. On HTTP/2 it does nothing: the
// stream is reset once answered, and the connection's other streams go
// on.
func Unread(h http.Header, r *http.Request, partial bool) {
	if r.ProtoMajor != 1 {
		return
	}
	if partial {
		h["Connection"] = partialMark
	} else {
		h["Connection"] = unreadMark
	}
}

// Marked reports whether h carries Unread's mark and it has not been
// lingered on yet, and if so whether the body was partly read.
func Marked(h http.Header) (marked, partial bool) {
	v := h["Connection"]
	if len(v) != 1 {
		return false, false
	}
	switch &v[0] {
	case &unreadMark[0]:
		return true, false
	case &partialMark[0]:
		return true, true
	}
	return false, false
}

// Lingered replaces Unread's mark on h, so that Marked reports false: the
// body has been drained as far as it is to be.
func Lingered(h http.Header) { h["Connection"] = lingered }
