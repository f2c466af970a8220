package connlimit

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// errAmbiguous fails the read of a request head whose framing is
// ambiguous; net/http answers a head it cannot read 400 and closes the
// connection.
var errAmbiguous = errors.New("connlimit: a request with both Content-Length and Transfer-Encoding (or Transfer-Encoding in HTTP/1.0)")

// The states of a framing.
const (
	stRequest   uint8 = iota // in a request line (the zero value: a connection starts with one)
	stHeader                 // at the start of a header line
	stLine                   // in a header line of no interest, to its end
	stName                   // in a header line's name
	stLength                 // in the value of a Content-Length line
	stBody                   // in a body of known length
	stChunk                  // in a chunk's size line
	stChunkExt               // in a chunk's size line, past its size
	stData                   // in a chunk's data
	stDataEnd                // in the CRLF after a chunk's data
	stTrailer                // at the start of a trailer line (or the body's end)
	stTrailLine              // in a trailer line
	stOff                    // not followed: not HTTP/1, or framing it could not follow
)

// A framing follows the HTTP/1 requests of one connection, byte by byte as
// they are read, as net/http frames them (RFC 9112): a head's lines up to
// an empty one, then a body of Content-Length bytes, or chunked when
// Transfer-Encoding is set (net/http serves only chunked; any other coding
// is refused and the connection closed), or none. Lines end in LF, with or
// without CR before it, as net/http reads them; chunk lines need CRLF, and
// anything net/http refuses, the framing stops following (net/http closes
// the connection then anyway). At the end of a head with both
// Content-Length and Transfer-Encoding, or Transfer-Encoding in HTTP/1.0,
// it keeps that head's last byte from net/http and fails the reads from
// then on (errAmbiguous).
type framing struct {
	state uint8
	h2    bool // the connection began with the HTTP/2 preface
	// In a request line: its last 8 bytes (the version), CR dropped.
	tail uint64
	// In a head: its version is 1.0; Content-Length and
	// Transfer-Encoding were seen; the declared length.
	v10, cl, te bool
	length      int64
	// In a name: the bytes of the line so far (lower case), and how many.
	name [len("transfer-encoding")]byte
	nlen int
	// In a Content-Length value: digits seen, and OWS after them; in a
	// chunk line: hex digits seen, and the last byte was CR; after a
	// chunk's data: its CR seen.
	digits, junk bool
	n            int64 // body or chunk bytes left; a chunk size being read
	err          error // errAmbiguous, once found
}

// The names of interest, and the colon after them, as a line begins with
// them (in any case).
var (
	contentLength    = newName("content-length:")
	transferEncoding = newName("transfer-encoding:")
)

// A name is a header name and its colon (lower case, letters, '-' and ':',
// 8 to 24 bytes) as hasName compares it: in words of 8 bytes, the last
// overlapping the ones before.
type name struct {
	len   int
	words [3]uint64
}

func newName(s string) name {
	n := name{len: len(s)}
	for i, k := 0, 0; i < len(s); i, k = i+8, k+1 {
		n.words[k] = binary.LittleEndian.Uint64([]byte(s[min(i, len(s)-8):]))
	}
	return n
}

// hasName reports whether line begins with n in any case: each byte of
// line with its 0x20 bit set (which lowers a letter and leaves '-' and ':'
// as they are) is n's. A line that matches only so (a control byte where
// n has '-', say) is one net/http refuses anyway.
func hasName(line []byte, n name) bool {
	if len(line) < n.len {
		return false
	}
	for i, k := 0, 0; i < n.len; i, k = i+8, k+1 {
		if binary.LittleEndian.Uint64(line[min(i, n.len-8):])|0x2020202020202020 != n.words[k] {
			return false
		}
	}
	return true
}

// version strings as the tail holds them.
var (
	http1  = tailOf("HTTP/1")
	http20 = tailOf("HTTP/2.0")
)

func tailOf(s string) (t uint64) {
	for i := range len(s) {
		t = t<<8 | uint64(s[i])
	}
	return t
}

// skip passes over up to avail bytes of the f.n a body or a chunk has
// left and says how many it passed.
func (f *framing) skip(avail int) int {
	k := min(int64(avail), f.n)
	f.n -= k
	return int(k)
}

// scan follows p, the bytes just read, and returns how many of them may be
// handed to net/http: all of them, but for a head found ambiguous, whose
// last byte and anything after it are withheld (f.err is then set).
func (f *framing) scan(p []byte) int {
	for i := 0; i < len(p); {
		b := p[i]
		switch f.state {
		case stRequest:
			if f.tail == 0 {
				if b == '\r' || b == '\n' {
					// net/http skips up to 4 of these after a POST, and
					// refuses a request line they begin otherwise.
					i++
					continue
				}
				if !isToken(b) {
					// Not an HTTP/1 request line (a TLS handshake, say):
					// net/http or crypto/tls deal with it.
					f.state = stOff
					return len(p)
				}
			}
			j := bytes.IndexByte(p[i:], '\n')
			end := len(p)
			if j >= 0 {
				end = i + j
			}
			// Only the last 8 bytes stay in the tail (and a CR before the
			// LF, which is dropped).
			for _, c := range p[max(i, end-9):end] {
				if c != '\r' {
					f.tail = f.tail<<8 | uint64(c)
				}
			}
			if j < 0 {
				return len(p)
			}
			switch {
			case f.tail>>16 == http1 && byte(f.tail>>8) == '.' && byte(f.tail) >= '0' && byte(f.tail) <= '9':
				// HTTP/1.x, as net/http reads any x: 1.0 ignores
				// Transfer-Encoding, the others honour it.
				f.v10 = byte(f.tail) == '0'
			case f.tail == http20: // "PRI * HTTP/2.0": the preface of HTTP/2 with prior knowledge
				f.h2, f.state = true, stOff
				return len(p)
			default:
				f.state = stOff // net/http refuses it and closes the connection
				return len(p)
			}
			f.state, i = stHeader, end+1
		case stHeader:
			switch {
			case b == '\n' || b == '\r' && i+1 < len(p) && p[i+1] == '\n':
				if b == '\r' {
					i++
				}
				if f.te && (f.cl || f.v10) {
					f.err, f.state = errAmbiguous, stOff
					return i
				}
				switch {
				case f.te:
					f.state, f.n, f.digits, f.junk = stChunk, 0, false, false
				case f.length > 0:
					f.state, f.n = stBody, f.length
				default:
					f.state = stRequest
				}
				f.tail, f.v10, f.cl, f.te, f.length = 0, false, false, false, 0
				i++
			case b == '\r': // a CR at the end of what was read: its LF follows
				i++
			default:
				j := bytes.IndexByte(p[i:], '\n')
				if j < 0 { // the line goes on past what was read: byte by byte
					f.state, f.nlen = stLine, 0
					if b|0x20 == 'c' || b|0x20 == 't' {
						f.state = stName
					}
					break
				}
				// The whole line is here, as it mostly is: at once.
				switch line := p[i : i+j]; {
				case b|0x20 == 'c' && hasName(line, contentLength):
					if !f.cl { // net/http takes repeats of one value; follow the first
						f.cl, f.state, f.digits, f.junk = true, stLength, false, false
						i += contentLength.len
						continue
					}
				case b|0x20 == 't' && hasName(line, transferEncoding):
					f.te = true
				}
				i += j + 1
			}
		case stName:
			for ; i < len(p) && f.state == stName; i++ {
				b := p[i]
				if b == ':' {
					f.state = stLine
					switch string(f.name[:f.nlen]) {
					case "content-length":
						if !f.cl { // net/http takes repeats of one value; follow the first
							f.cl, f.state, f.digits, f.junk = true, stLength, false, false
						}
					case "transfer-encoding":
						f.te = true
					}
					continue
				}
				if b == '\n' || f.nlen == len(f.name) {
					f.state = stLine // no name of interest; stLine ends the line
					i--
					continue
				}
				f.name[f.nlen] = b | 0x20 // lower case, for letters and '-'
				f.nlen++
			}
		case stLine:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return len(p)
			}
			f.state, i = stHeader, i+j+1
		case stLength:
			switch {
			case b >= '0' && b <= '9' && !f.junk:
				if f.length > (1<<62)/10 {
					f.state = stOff // net/http refuses a length over int64
					return len(p)
				}
				f.length, f.digits = f.length*10+int64(b-'0'), true
			case b == ' ' || b == '\t' || b == '\r':
				f.junk = f.junk || f.digits && b != '\r'
			case b == '\n':
				if !f.digits {
					f.state = stOff // refused by net/http
					return len(p)
				}
				f.state = stHeader
			default:
				f.state = stOff // refused by net/http
				return len(p)
			}
			i++
		case stBody:
			i += f.skip(len(p) - i)
			if f.n == 0 {
				f.state = stRequest
			}
		case stChunk, stChunkExt:
			switch v := hexVal(b); {
			case f.state == stChunk && v >= 0:
				if f.n > (1<<59)-1 {
					f.state = stOff // net/http refuses over 16 hex digits
					return len(p)
				}
				f.n, f.digits = f.n<<4|int64(v), true
			case b == '\n':
				if !f.digits || !f.junk {
					f.state = stOff // net/http wants a size, and CRLF
					return len(p)
				}
				if f.n == 0 {
					f.state = stTrailer
				} else {
					f.state = stData
				}
			default:
				f.state = stChunkExt
			}
			f.junk = b == '\r' // in a chunk line: the last byte was CR
			i++
		case stData:
			i += f.skip(len(p) - i)
			if f.n == 0 {
				f.state, f.digits = stDataEnd, false
			}
		case stDataEnd:
			// CRLF; f.digits records the CR.
			switch {
			case b == '\r' && !f.digits:
				f.digits = true
			case b == '\n' && f.digits:
				f.state, f.n, f.digits, f.junk = stChunk, 0, false, false
			default:
				f.state = stOff // net/http refuses the body
				return len(p)
			}
			i++
		case stTrailer:
			switch {
			case b == '\n':
				f.state = stRequest
			case b == '\r':
			default:
				f.state = stTrailLine
			}
			i++
		case stTrailLine:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return len(p)
			}
			f.state, i = stTrailer, i+j+1
		default: // stOff
			return len(p)
		}
	}
	return len(p)
}

// isToken reports whether c may begin a request line: a method is a
// token.
func isToken(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c > ' ' && c < 0x7f && bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0
}

// hexVal returns the value of a hex digit, or -1.
func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
