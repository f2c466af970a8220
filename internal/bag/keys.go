package bag

import (
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/errs"
	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/scalar"
)

// A Batch is the keys of a batch of elements, as the engine interns them:
// per element the key package scalar gives it, the text of a long string
// or an exact integer replaced by its ordinal (longID), and the key's hash. Every keyer of the
// engine writes element j's key with set, from scalar's keys, whatever
// form the element comes in.
type Batch struct {
	k [batch]key
	h hasher // the index's, so that set hashes as it keys
	// longs numbers the texts the check has keyed in order, of strings
	// longer than scalar.MaxShort bytes and of exact integers: the key
	// word of such a scalar is its text's number (a string and an integer
	// of the same text share it, told apart by their tags), so that every
	// key is compared in the table as two words and a tag.
	longs map[string]int32
}

type key struct {
	a, b, h uint64
	tag     uint32
}

// set sets key j to (a, b, tag), hashed.
func (kb *Batch) set(j int, a, b uint64, tag uint32) {
	k := &kb.k[uint(j)%batch]
	k.a, k.b, k.tag, k.h = a, b, tag, kb.h.hash(a, b, tag)
}

// setKey sets key j to the key (a, b, tag) package scalar gives the
// scalar whose text is s (scalar.Scalar.Text): a long string's or an
// exact integer's is its text's number.
func (kb *Batch) setKey(j int, a, b uint64, tag uint32, s string) {
	if tag >= scalar.TagBig {
		a = kb.longID(s)
	}
	kb.set(j, a, b, tag)
}

// longID returns the number of the text s, giving it the next one when
// the check has not keyed it before.
func (kb *Batch) longID(s string) uint64 {
	id, ok := kb.longs[s]
	if !ok {
		if kb.longs == nil {
			kb.longs = make(map[string]int32)
		}
		id = int32(len(kb.longs))
		kb.longs[s] = id
	}
	return uint64(id)
}

// setScalar sets key j to the key of s.
func (kb *Batch) setScalar(j int, s *canon.Scalar) {
	a, b, tag := rep(s).Key()
	kb.setKey(j, a, b, tag, rep(s).Text())
}

// setString sets key j to the key of the string s and returns true, or
// returns false when s is not valid UTF-8 (canon.StringScalar's error).
func (kb *Batch) setString(j int, s string) bool {
	a, b, tag, ok := scalar.StringKey(s)
	if ok {
		kb.setKey(j, a, b, tag, s)
	}
	return ok
}

// setNumber sets key j to the key of the number f and returns true, or
// returns false when f is not finite (canon.NumberScalar's error).
func (kb *Batch) setNumber(j int, f float64) bool {
	a, ok := scalar.NumWord(f)
	if ok {
		kb.set(j, a, 0, scalar.TagNum)
	}
	return ok
}

// setInt sets key j to the key of the integer x and returns true, or
// returns false when no double holds x exactly, for setExactInt.
func (kb *Batch) setInt(j int, x int64) bool {
	a, ok := scalar.IntWord(x)
	if ok {
		kb.set(j, a, 0, scalar.TagNum)
	}
	return ok
}

// setExactInt sets key j to the key of the integer x that no double holds
// (the Scalar canon.IntScalar makes has it): the path of an integer setInt
// declines. Its text is looked up without a string of its own, which only
// a distinct integer's first occurrence allocates.
func (kb *Batch) setExactInt(j int, x int64) {
	var buf [20]byte
	text := scalar.AppendIntText(buf[:0], x)
	id, ok := kb.longs[string(text)]
	if !ok {
		id = int32(kb.longID(string(text)))
	}
	kb.set(j, uint64(id), 0, scalar.TagBig)
}

// scalarKeys sets the first len(ss) keys of ix.kb to the keys of ss, with
// their hashes.
func (ix *index) scalarKeys(ss []canon.Scalar) { ix.scalarKeysAt(ss, 0) }

// scalarKeysAt is scalarKeys for the keys off, ..., off+len(ss)-1: the
// one-word keys without a call (scalar's Word, inlined), the others with
// one.
func (ix *index) scalarKeysAt(ss []canon.Scalar, off int) {
	kb := ix.kb.k[off : off+len(ss)]
	h := ix.h // the keys in registers: the stores below could alias them
	for i := range kb {
		s := rep(&ss[i])
		p, m, ok := s.Span()
		if !ok {
			ix.kb.setScalar(off+i, &ss[i])
			continue
		}
		a, tag := s.Word(p, m)
		k := &kb[i]
		k.a, k.b, k.tag, k.h = a, 0, tag, h.hash(a, 0, tag)
	}
}

// scalarKeysAhead is scalarKeys for a large table (see countFirstScalars):
// as each chunk of keys is made, the slots of its probes are prefetched,
// so that the probes of the batch's first chunk find theirs on the way
// too, the rest of the batch's keys being made meanwhile.
func (ix *index) scalarKeysAhead(ss []canon.Scalar) {
	for c := 0; c < len(ss); c += chunk {
		e := min(c+chunk, len(ss))
		ix.scalarKeysAt(ss[c:e], c)
		ix.touchSlots(c, e)
	}
}

// elemKeys sets the first n keys of ix.kb to the keys of the document
// elements i, ..., i+n-1, with fill's errors. An element the reader's tape
// vouches for is keyed from the tape (scalar.ElemKey), without a Scalar;
// the others are converted in full (into ix.buf) and keyed from their
// Scalars.
func (a *Array) elemKeys(ix *index, i, n int) error {
	es := a.Elems[i : i+n]
	for j := range es {
		x, y, tag := scalar.ElemKey(&es[j])
		if tag == 0 {
			if err := a.elemAt(i+j, &es[j], &ix.buf[j]); err != nil {
				return err
			}
			ix.kb.setScalar(j, &ix.buf[j])
			continue
		}
		var s string
		if tag == scalar.TagLong {
			s = es[j].Raw[1 : len(es[j].Raw)-1] // plain: its text is its value
		}
		ix.kb.setKey(j, x, y, tag, s)
	}
	return nil
}

// GoSlice is an input array given as a Go slice of one of the commonest
// element types, which the engine keys itself, a batch at a time, without
// a canon.Scalar per element and without a closure per array (which would
// be an allocation per check): at most one field is set. Each element is
// keyed as the Scalar canon's constructor for its type makes, and refused
// with the same error at the same path.
type GoSlice struct {
	Any     []any
	Strings []string
	Floats  []float64
	Ints    []int
	Int64s  []int64
}

// keys sets the first n keys of kb to the keys of the elements i, ...,
// i+n-1 of g, and reports whether g holds a slice; it returns the first
// element's error, at path: the error of its conversion (fill), where the
// key declined it.
func (g *GoSlice) keys(kb *Batch, path string, i, n int) (bool, error) {
	k := 0 // the first element not keyed
	switch {
	case g.Any != nil:
		return true, anyKeys(kb, path, g.Any[i:i+n], i)
	case g.Strings != nil:
		for xs := g.Strings[i : i+n]; k < n && kb.setString(k, xs[k]); k++ {
		}
	case g.Floats != nil:
		for xs := g.Floats[i : i+n]; k < n && kb.setNumber(k, xs[k]); k++ {
		}
	case g.Ints != nil:
		// An integer no double holds takes a call, outside the loop of
		// the others.
		for xs := g.Ints[i : i+n]; ; k++ {
			for ; k < n && kb.setInt(k, int64(xs[k])); k++ {
			}
			if k == n {
				return true, nil
			}
			kb.setExactInt(k, int64(xs[k]))
		}
	case g.Int64s != nil:
		for xs := g.Int64s[i : i+n]; ; k++ {
			for ; k < n && kb.setInt(k, xs[k]); k++ {
			}
			if k == n {
				return true, nil
			}
			kb.setExactInt(k, xs[k])
		}
	default:
		return false, nil
	}
	if k == n {
		return true, nil
	}
	var s [1]canon.Scalar
	_, err := g.fill(path, i+k, s[:])
	return true, err
}

// fill converts the elements i, ..., i+len(dst)-1 of g into dst, as
// their keys are made, and reports whether g holds a slice; it returns the
// first element's error, at path.
func (g *GoSlice) fill(path string, i int, dst []canon.Scalar) (bool, error) {
	switch {
	case g.Any != nil:
		return true, convert(path, g.Any[i:i+len(dst)], i, dst, canon.Of)
	case g.Strings != nil:
		return true, convert(path, g.Strings[i:i+len(dst)], i, dst, canon.StringScalar)
	case g.Floats != nil:
		return true, convert(path, g.Floats[i:i+len(dst)], i, dst, canon.NumberScalar)
	case g.Ints != nil:
		return true, convert(path, g.Ints[i:i+len(dst)], i, dst, intScalar)
	case g.Int64s != nil:
		return true, convert(path, g.Int64s[i:i+len(dst)], i, dst, canon.IntScalar)
	}
	return false, nil
}

func intScalar(x int) (canon.Scalar, error) { return canon.IntScalar(int64(x)) }

func convert[E any](path string, xs []E, i int, dst []canon.Scalar, conv func(E) (canon.Scalar, error)) error {
	for k, x := range xs {
		s, err := conv(x)
		if err != nil {
			return at(err, path, i+k)
		}
		dst[k] = s
	}
	return nil
}

func at(err error, path string, i int) error {
	return errs.At(err, errs.Index(path, i))
}

// anyKeys keys a batch of a []any: the commonest elements in anyKeysRun,
// without a call, the other common ones by scalar.AnyKey, and every other
// through canon.Of, the conversion of a []any's element, with its error.
func anyKeys(kb *Batch, path string, xs []any, i int) error {
	for k := 0; ; k++ {
		if k = anyKeysRun(kb, xs, k); k == len(xs) {
			return nil
		}
		if a, b, tag, ok := scalar.AnyKey(xs[k]); ok {
			s, _ := xs[k].(string) // a long string's key is its text
			kb.setKey(k, a, b, tag, s)
			continue
		}
		s, err := canon.Of(xs[k])
		if err != nil {
			return at(err, path, i+k)
		}
		kb.setScalar(k, &s)
	}
}

// anyKeysRun keys xs from k up to the first element whose key is not one
// word that an inlined call of package scalar makes (a finite float64, an
// int a double holds, nil, a boolean, an ASCII string of at most 8 bytes),
// or the end, and returns where it stopped. Its switch picks, for each Go
// type, the function of scalar that keys it, as scalar.AnyKey's cases do:
// no switch over these types fits the inliner's budget. With a call per
// element (scalar's own switch) a check of 100 mixed values took 1.6 times
// as long; keying a run in scalar and hashing it here took 1.4 times as
// long to key a batch.
func anyKeysRun(kb *Batch, xs []any, k int) int {
	h := kb.h
	for ; k < len(xs); k++ {
		var a uint64
		var tag uint32
		switch x := xs[k].(type) {
		case float64:
			w, ok := scalar.NumWord(x)
			if !ok {
				return k
			}
			a, tag = w, scalar.TagNum
		case string:
			if a, tag = scalar.StrWord(x); tag == 0 {
				if a, tag = scalar.TinyWord(x); tag == 0 {
					return k
				}
			}
		case nil:
			tag = scalar.TagNull
		case bool:
			a, tag = scalar.BoolWord(x), scalar.TagBool
		case int:
			w, ok := scalar.IntWord(int64(x))
			if !ok {
				return k
			}
			a, tag = w, scalar.TagNum
		default:
			return k
		}
		kb.k[uint(k)%batch] = key{a: a, tag: tag, h: h.hash(a, 0, tag)}
	}
	return k
}

// ElemScalar converts element i of the document array at path; an element
// that is an array or object, whatever it holds, is refused at its own
// path.
func ElemScalar(path string, i int, e *jsontape.Elem) (canon.Scalar, error) {
	s, err := scalar.Elem(e)
	if err != nil {
		return canon.Scalar{}, errs.At(err, errs.Index(path, i))
	}
	return canon.Scalar(s), nil
}
