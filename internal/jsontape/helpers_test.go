package jsontape

// Test helpers over the tape (the tools walk it directly).

// Raw returns the source text of a node.
func (d *Doc) Raw(n *Node) string { return d.Src[n.Start:n.End] }

// Children returns the indexes of the recorded children of container i.
func (d *Doc) Children(i int) []int {
	n := &d.Nodes[i]
	out := make([]int, 0, n.Rec)
	c := i + 1
	for k := 0; k < n.Rec; k++ {
		out = append(out, c)
		c = d.Nodes[c].Skip
	}
	return out
}
