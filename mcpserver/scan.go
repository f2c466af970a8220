package mcpserver

import (
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/jsontape"
)

// A scanner follows the structure of one message whose bytes are not all
// in memory (a line over the frame cap) or that is not JSON, to find what
// an answer needs: its id, its method, its tool name and how long its
// arguments are. It is fed the frame in chunks, in one pass, and keeps at
// most maxEnvelope bytes of it.
//
// What it checks, and what it does not:
//
//   - the punctuation of the message object and of its params object
//     (whitespace, '{', '}', ':' and ','), strictly;
//   - every member name, and every member value except params.arguments,
//     whole, with the project's reader (package jsontape) once the value
//     has been read: these are the envelope;
//   - of params.arguments, only where it ends: strings and escapes are
//     followed, brackets are counted (not matched by kind), and the bytes
//     are counted, not kept. A document over the cap is not read further,
//     as the CLI does not read it: its answer is limit_exceeded whatever
//     its grammar.
//
// A batch (a frame starting with '[') is not followed: over the cap it is
// answered as a whole.
type scanner struct {
	maxEnvelope int

	st     scanState
	level  int    // 1: in the message object; 2: in its params object
	member string // the name of the member whose value is being read
	seen   [3]map[string]bool

	// The value being read.
	capture  bool   // keep its bytes (an envelope value) or only count them
	buf      []byte // the bytes kept: a name or an envelope value
	inString bool
	escape   bool
	depth    int64 // of brackets inside the value
	scalar   bool  // a literal, ended by the first delimiter
	n        int64 // bytes of the value

	res scanResult
}

// scanResult is what a scanner found.
type scanResult struct {
	// ok: the frame is one message object, followed to its end with
	// nothing but whitespace after it.
	ok    bool
	batch bool
	// blank: the frame holds nothing but whitespace.
	blank bool
	// dup: a member name repeats in the message or in params; envOver:
	// the envelope (everything but the arguments) is over maxEnvelope.
	dup, envOver bool
	// id is the message's id as sent, when it is a string or a number.
	id []byte
	// method and name are the decoded method and params.name strings.
	method, name string
	hasArgs      bool
	argsLen      int64
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
	sTrail                       // after the message: whitespace only
	sFail                        // not a message this scanner can follow
)

func newScanner(maxEnvelope int) *scanner {
	return &scanner{maxEnvelope: maxEnvelope}
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// feed reads the next bytes of the frame.
func (s *scanner) feed(p []byte) {
	for i := 0; i < len(p) && s.st != sFail; {
		c := p[i]
		switch s.st {
		case sRoot:
			switch {
			case isWS(c):
			case c == '{':
				s.enter(1)
			case c == '[':
				s.res.batch = true
				s.st = sFail
			default:
				s.st = sFail
			}
		case sKeyOrEnd, sKey:
			switch {
			case isWS(c):
			case c == '"':
				s.st, s.buf, s.escape = sName, append(s.buf[:0], c), false
			case c == '}' && s.st == sKeyOrEnd:
				s.close()
			default:
				s.st = sFail
			}
		case sName:
			if !s.keep(c) {
				return
			}
			if s.escape {
				s.escape = false
			} else if c == '\\' {
				s.escape = true
			} else if c == '"' {
				s.member = s.decodeName()
				if s.st != sFail {
					s.st = sColon
				}
			}
		case sColon:
			switch {
			case isWS(c):
			case c == ':':
				s.st = sValue
			default:
				s.st = sFail
			}
		case sValue:
			switch {
			case isWS(c):
			case s.level == 1 && s.member == "params" && c == '{':
				s.enter(2)
			default:
				s.capture = !(s.level == 2 && s.member == "arguments")
				s.buf, s.inString, s.escape, s.depth, s.n = s.buf[:0], false, false, 0, 0
				s.scalar = c != '"' && c != '{' && c != '['
				s.st = sIn
				continue // the value's first byte is read in sIn
			}
		case sIn:
			if s.scalar && (isWS(c) || c == ',' || c == '}' || c == ']') {
				s.endValue()
				continue // the delimiter belongs to what follows
			}
			if s.capture {
				if !s.keep(c) {
					return
				}
			} else if !s.inString && !s.scalar && c != '"' && c != '{' && c != '[' && c != '}' && c != ']' {
				// Between a container's strings and brackets: count the run.
				j := i + 1
				for j < len(p) && p[j] != '"' && p[j] != '{' && p[j] != '[' && p[j] != '}' && p[j] != ']' {
					j++
				}
				s.n += int64(j - i)
				i = j
				continue
			} else if s.inString && !s.escape && c != '"' && c != '\\' {
				j := i + 1
				for j < len(p) && p[j] != '"' && p[j] != '\\' {
					j++
				}
				s.n += int64(j - i)
				i = j
				continue
			}
			s.n++
			s.step(c)
		case sCommaOrEnd:
			switch {
			case isWS(c):
			case c == ',':
				s.st = sKey
			case c == '}':
				s.close()
			default:
				s.st = sFail
			}
		case sTrail:
			if !isWS(c) {
				s.st = sFail
			}
		}
		i++
	}
}

// step advances the value reader past c (already counted).
func (s *scanner) step(c byte) {
	switch {
	case s.scalar:
	case s.inString:
		if s.escape {
			s.escape = false
		} else if c == '\\' {
			s.escape = true
		} else if c == '"' {
			s.inString = false
			if s.depth == 0 {
				s.endValue()
			}
		}
	case c == '"':
		s.inString = true
	case c == '{' || c == '[':
		s.depth++
	case c == '}' || c == ']':
		s.depth--
		if s.depth < 0 {
			s.st = sFail
		} else if s.depth == 0 {
			s.endValue()
		}
	}
}

// keep appends c to the kept bytes, within the envelope allowance: over
// it, the envelope is too large and the scan ends.
func (s *scanner) keep(c byte) bool {
	if s.maxEnvelope <= 0 {
		s.res.envOver, s.st = true, sFail
		return false
	}
	s.maxEnvelope--
	s.buf = append(s.buf, c)
	return true
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

// decodeName reads the member name in s.buf, recording a repeat.
func (s *scanner) decodeName() string {
	d, err := jsontape.Parse(string(s.buf), jsontape.Options{})
	if err != nil {
		s.st = sFail
		return ""
	}
	name := d.Str(&d.Nodes[0])
	if s.seen[s.level][name] {
		s.res.dup = true
	}
	s.seen[s.level][name] = true
	return name
}

// endValue ends the value being read and records what the answer needs.
func (s *scanner) endValue() {
	s.st = sCommaOrEnd
	if !s.capture {
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
		s.res.name = d.Str(root)
	}
}

// end reports the end of the frame and returns what was found.
func (s *scanner) end() scanResult {
	if s.st == sIn && s.scalar {
		s.endValue()
	}
	s.res.ok = s.st == sTrail
	s.res.blank = s.st == sRoot
	if s.res.dup {
		s.res.ok = false
	}
	return s.res
}
