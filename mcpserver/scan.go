package mcpserver

import (
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// A scanner follows the structure of one message whose bytes are not all
// in memory (a line over the frame cap) or that is not JSON, to find what
// an answer needs: its id, its method, its tool name and how long its
// arguments are. It is fed the frame in chunks, in one pass, and keeps at
// most maxEnvelope bytes of it.
//
// It finds where the tokens of the message object and of its params
// object end (a [follower] finds where a name or a value ends); what a
// token is, is read by the project's readers: white space is
// [jsonwire.IsSpace]'s, a member name is read by [jsonwire.ScanString],
// and every member value but params.arguments by jsontape once it ends.
// So it checks:
//
//   - the punctuation of the message object and of its params object
//     (white space, '{', '}', ':' and ','), strictly;
//   - every member name, and every member value except params.arguments,
//     whole: these are the envelope;
//   - of params.arguments, only where it ends: strings and escapes are
//     followed, brackets are counted (not matched by kind), and the bytes
//     are counted, not kept. A document over the cap is not read further,
//     as the CLI does not read it: its answer is limit_exceeded whatever
//     its grammar.
//
// A batch (a frame starting with '[') is not followed: over the cap it is
// answered as a whole.
type scanner struct {
	room   int // envelope bytes that may still be kept
	st     scanState
	level  int    // 1: in the message object; 2: in its params object
	member string // the name of the member whose value is being read
	seen   [3]map[string]bool

	// The name or value being read.
	tok  follower
	keep bool   // keep its bytes (a name or an envelope value), or only count them
	buf  []byte // the bytes kept
	n    int64  // its bytes

	res scanResult
}

// scanResult is what a scanner found.
type scanResult struct {
	// ok: the frame is one message object, followed to its end with
	// nothing but white space after it.
	ok    bool
	batch bool
	// blank: the frame holds nothing but white space.
	blank bool
	// dup: a member name repeats in the message or in params; envOver:
	// the envelope (everything but the arguments) is over maxEnvelope.
	dup, envOver bool
	// id is the message's id as sent, when it is a string or a number.
	id []byte
	// method and name are the decoded method and params.name strings
	// (hasName: params.name is a string), meta the text of params._meta
	// when it is an object.
	method, name, meta string
	hasName, hasArgs   bool
	argsLen            int64
}

type scanState uint8

const (
	sRoot       scanState = iota // before the message
	sKeyOrEnd                    // after '{': a member name or '}'
	sKey                         // after ',': a member name
	sName                        // in a member name
	sColon                       // after a member name
	sValue                       // after ':': a value
	sIn                          // in a value
	sCommaOrEnd                  // after a value: ',' or '}'
	sTrail                       // after the message: white space only
	sFail                        // not a message this scanner can follow
)

func newScanner(maxEnvelope int) *scanner {
	return &scanner{room: maxEnvelope}
}

// feed reads the next bytes of the frame.
func (s *scanner) feed(p []byte) {
	src := view(p) // p is not modified while feed reads it
	for i := 0; i < len(src) && s.st != sFail; {
		if s.st == sName || s.st == sIn {
			i = s.read(src, i)
		} else if i = jsonwire.SkipSpace(src, i); i < len(src) && s.punct(src[i]) {
			i++
		}
	}
}

// punct reads c, the next byte after white space outside a name or value,
// and reports whether it was used: not when it is the first byte of a
// name or value, which read reads next.
func (s *scanner) punct(c byte) bool {
	switch s.st {
	case sRoot:
		if c == '{' {
			s.enter(1)
		} else {
			s.res.batch, s.st = c == '[', sFail
		}
	case sKeyOrEnd, sKey:
		switch {
		case c == '"':
			s.begin(sName, true, c)
			return false
		case c == '}' && s.st == sKeyOrEnd:
			s.close()
		default:
			s.st = sFail
		}
	case sColon:
		s.st = sFail
		if c == ':' {
			s.st = sValue
		}
	case sValue:
		if s.level == 1 && s.member == "params" && c == '{' {
			s.enter(2)
			return true
		}
		s.begin(sIn, s.level != 2 || s.member != "arguments", c)
		return false
	case sCommaOrEnd:
		switch c {
		case ',':
			s.st = sKey
		case '}':
			s.close()
		default:
			s.st = sFail
		}
	case sTrail:
		s.st = sFail
	}
	return true
}

// begin starts reading a name or value (st) whose first byte is c.
func (s *scanner) begin(st scanState, keep bool, c byte) {
	s.st, s.keep, s.buf, s.n = st, keep, s.buf[:0], 0
	s.tok.start(c)
}

// read reads the name or value from src[i:], up to its end or the end of
// src, and returns where it stopped.
func (s *scanner) read(src string, i int) int {
	j, done := s.tok.follow(src, i)
	if s.keep {
		if j-i > s.room {
			s.res.envOver, s.st = true, sFail
			return len(src)
		}
		s.room -= j - i
		s.buf = append(s.buf, src[i:j]...)
	}
	s.n += int64(j - i)
	switch {
	case !done:
	case s.st == sName:
		s.endName()
	default:
		s.endValue()
	}
	return j
}

// enter opens the object at level.
func (s *scanner) enter(level int) {
	s.level, s.st = level, sKeyOrEnd
	s.seen[level] = map[string]bool{}
}

// close closes the object at the current level.
func (s *scanner) close() {
	if s.level == 2 {
		s.level, s.st = 1, sCommaOrEnd
		return
	}
	s.st = sTrail
}

// endName reads the member name in s.buf, recording a repeat.
func (s *scanner) endName() {
	name := string(s.buf)
	end, flags, fault := jsonwire.ScanString(name, 0)
	if fault != jsonwire.OK || end != len(name) {
		s.st = sFail
		return
	}
	name = name[1 : end-1]
	if flags&jsonwire.Escaped != 0 {
		name = jsonwire.Unescape(name)
	}
	if s.seen[s.level][name] {
		s.res.dup = true
	}
	s.seen[s.level][name] = true
	s.member, s.st = name, sColon
}

// endValue ends the value being read and records what the answer needs.
func (s *scanner) endValue() {
	s.st = sCommaOrEnd
	if !s.keep {
		s.res.hasArgs, s.res.argsLen = true, s.n
		return
	}
	d, err := jsontape.Parse(string(s.buf), jsontape.Options{})
	if err != nil {
		s.st = sFail
		return
	}
	root := &d.Nodes[0]
	switch {
	case s.level == 1 && s.member == "id" && (root.Kind == jsontape.Number || root.Kind == jsontape.String && utf8.ValidString(d.Str(root))):
		s.res.id = append([]byte(nil), s.buf...)
	case s.level == 1 && s.member == "method" && root.Kind == jsontape.String:
		s.res.method = d.Str(root)
	case s.level == 2 && s.member == "name" && root.Kind == jsontape.String:
		s.res.name, s.res.hasName = d.Str(root), true
	case s.level == 2 && s.member == "_meta" && root.Kind == jsontape.Object && s.res.meta == "":
		s.res.meta = string(s.buf)
	}
}

// end reports the end of the frame and returns what was found.
func (s *scanner) end() scanResult {
	if s.st == sIn && s.tok.scalar {
		s.endValue() // a number or literal ends with the frame
	}
	s.res.ok = s.st == sTrail && !s.res.dup
	s.res.blank = s.st == sRoot
	return s.res
}

// A follower finds where a member name or a value ends in a text that
// comes in pieces, without reading it: the grammar is whoever reads the
// name or value's. A string ends at its first quote that no backslash
// escapes (a backslash and the byte after it are one step, as every escape
// begins); a container at the bracket that closes its first one (brackets
// are counted, not matched by kind, and the strings inside followed); any
// other value at the first white space, ',', '}' or ']'.
type follower struct {
	depth  int64 // brackets open
	str    bool  // in a string
	esc    bool  // in a string, right after a backslash
	scalar bool  // neither a string nor a container
}

// start starts following a name or value whose first byte is c.
func (f *follower) start(c byte) {
	*f = follower{scalar: c != '"' && c != '{' && c != '['}
}

// follow follows the name or value from s[i:] and returns where it
// stopped: just after its end (done), or at len(s) (more is due).
func (f *follower) follow(s string, i int) (end int, done bool) {
	if f.scalar {
		for i < len(s) && !jsonwire.IsSpace(s[i]) && s[i] != ',' && s[i] != '}' && s[i] != ']' {
			i++
		}
		return i, i < len(s)
	}
	for i < len(s) {
		if f.str {
			i = f.inString(s, i)
			if !f.str && f.depth == 0 {
				return i, true
			}
			continue
		}
		k := strings.IndexAny(s[i:], `"{[]}`)
		if k < 0 {
			return len(s), false
		}
		i += k + 1
		switch s[i-1] {
		case '"':
			f.str = true
		case '{', '[':
			f.depth++
		default:
			if f.depth--; f.depth == 0 {
				return i, true
			}
		}
	}
	return i, false
}

// inString follows a string from s[i:] to just after its closing quote,
// where the string ends, or to len(s).
func (f *follower) inString(s string, i int) int {
	for i < len(s) {
		if f.esc {
			f.esc = false
			i++ // the escaped byte
			continue
		}
		// A string's plain bytes (jsonwire's) are neither a quote nor a
		// backslash: skip them a word at a time.
		if i = jsonwire.PlainEnd(s, i); i == len(s) {
			break
		}
		switch s[i] {
		case '"':
			f.str = false
			return i + 1
		case '\\':
			f.esc = true
		}
		i++
	}
	return i
}
