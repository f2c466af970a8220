package jsontext

import "unicode/utf8"

// Str returns the decoded value of a String node.
func (d *Doc) Str(n *Node) string {
	return decodeString(d.Src[n.Start+1:n.End-1], n.Flags)
}

// Name returns the decoded name of an object member.
func (d *Doc) Name(n *Node) string {
	return decodeString(d.Src[n.NameStart+1:n.NameEnd-1], n.NameFlags)
}

// Str returns the decoded value of a String element.
func (e *Elem) Str() string {
	if e.Flags&Escaped == 0 {
		return e.Raw[1 : len(e.Raw)-1]
	}
	return decodeString(e.Raw[1:len(e.Raw)-1], e.Flags)
}

// ArrayElems returns the recorded elements of the array at node i (parsed
// with Options.ArrayElems).
func (d *Doc) ArrayElems(i int) []Elem {
	n := &d.Nodes[i]
	return d.Elems[n.Elem0 : n.Elem0+n.Rec]
}

// decodeString decodes the contents of a grammatical JSON string (between
// its quotes). Escaped surrogate pairs become one code point; a lone
// surrogate escape becomes its three-byte generalized UTF-8 form (ED A0 80
// for \ud800), which is invalid UTF-8, so that it is refused, and counted as
// three bytes, wherever the value is checked. Raw bytes are kept as they are.
func decodeString(s string, flags uint8) string {
	if flags&Escaped == 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(s[i+2:])
			i += 6
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if r2 := hex4(s[i+2:]); r2 >= 0xDC00 && r2 < 0xE000 {
					b = utf8.AppendRune(b, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += 6
					continue
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			} else {
				b = utf8.AppendRune(b, r)
			}
			continue
		default: // '"', '\\', '/'
			b = append(b, s[i+1])
		}
		i += 2
	}
	return string(b)
}

func hex4(s string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
