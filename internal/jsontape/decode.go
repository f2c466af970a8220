package jsontape

import "github.com/claimcheck/claimcheck/internal/jsonwire"

// Str returns the decoded value of a String node (see [jsonwire.Unescape]).
func (d *Doc) Str(n *Node) string {
	return decodeString(d.Src[n.Start+1:n.End-1], n.Flags)
}

// Name returns the decoded name of an object member.
func (d *Doc) Name(n *Node) string {
	return decodeString(d.Src[n.NameStart+1:n.NameEnd-1], n.NameFlags)
}

// Str returns the decoded value of a String element.
func (e *Elem) Str() string {
	return decodeString(e.Raw[1:len(e.Raw)-1], e.Flags)
}

// ArrayElems returns the recorded elements of the array at node i (parsed
// with Options.ArrayElems).
func (d *Doc) ArrayElems(i int) []Elem {
	n := &d.Nodes[i]
	return d.Elems[n.Elem0 : n.Elem0+n.Rec]
}

// decodeString decodes the contents of a recorded string, whose flags the
// reader set: without an escape they are the value.
func decodeString(s string, flags uint8) string {
	if flags&jsonwire.Escaped == 0 {
		return s
	}
	return jsonwire.Unescape(s)
}
