package schema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// TestToolsAreCopies: what Tools and Lookup return is the caller's own:
// changing every field of it changes neither what Execute enforces nor the
// next caller's descriptors. The defect: they returned shared *Tools, and
// tools[0].Limits[0].Value = 3 made every Execute refuse a 4-item source.
func TestToolsAreCopies(t *testing.T) {
	before, _ := json.Marshal(schema.Tools())
	for _, get := range []func() *schema.Tool{
		func() *schema.Tool { return schema.Tools()[0] },
		func() *schema.Tool { tool, _ := schema.Lookup(schema.MultisetEquality, ""); return tool },
	} {
		tool := get()
		tool.Limits[0].Value = 3
		tool.Limits = append(tool.Limits[:0], schema.Limit{Name: "max_items", Value: 1})
		tool.Semantics[0] = "changed"
		tool.SupportedOperations[0] = "changed"
		tool.InputSchema[0] = ' '
		tool.Examples[0].Output[0] = ' '
		tool.ExecuteURL = "/elsewhere"
		out, err := tool.Execute([]byte(`{"source":[1,2,3,4],"claim":[4,3,2,1]}`))
		if err != nil || !out.Valid {
			t.Errorf("a changed copy's Execute: %v, %v; want valid under the served limits", out, err)
		}
		out, err = schema.Execute(schema.MultisetEquality, "", []byte(`{"source":[1,2,3,4],"claim":[4,3,2,1]}`))
		if err != nil || !out.Valid {
			t.Errorf("Execute after a copy changed: %v, %v", out, err)
		}
	}
	if after, _ := json.Marshal(schema.Tools()); !bytes.Equal(before, after) {
		t.Error("changing returned Tools changed the served descriptors")
	}
}

// TestMarshalToolByValue: json.Marshal of a Tool and of a *Tool both give
// the descriptor document (the defect: with a pointer receiver, a Tool
// value gave Go field names, {"ID":...}); a changed copy marshals its
// changes; a Tool made by hand executes as the served tool of its id.
func TestMarshalToolByValue(t *testing.T) {
	for _, tool := range schema.Tools() {
		byValue, err1 := json.Marshal(*tool)
		byPointer, err2 := json.Marshal(tool)
		if err1 != nil || err2 != nil || !bytes.Equal(byValue, byPointer) || !bytes.HasPrefix(byValue, []byte(`{"id":"`+tool.ID+`"`)) {
			t.Errorf("%s: by value %.40s (%v), by pointer %.40s (%v)", tool.ID, byValue, err1, byPointer, err2)
		}
		inList, _ := json.Marshal([]schema.Tool{*tool})
		if !bytes.Equal(inList, append(append([]byte("["), byValue...), ']')) {
			t.Errorf("%s: a Tool in a []Tool marshals as %.40s", tool.ID, inList)
		}
		c := *tool
		c.Description = "changed"
		var doc struct{ Description string }
		changed, _ := json.Marshal(c)
		if json.Unmarshal(changed, &doc); doc.Description != "changed" {
			t.Errorf("%s: a changed copy marshals description %q", tool.ID, doc.Description)
		}
		byHand := schema.Tool{ID: tool.ID, Version: tool.Version}
		if _, err := byHand.Execute(tool.Examples[0].Input); err != nil {
			t.Errorf("%s: a Tool made by hand: %v", tool.ID, err)
		}
	}
	if _, err := (&schema.Tool{ID: "nope", Version: "1"}).Execute([]byte(`{}`)); err == nil {
		t.Error("a Tool made by hand for no served tool executed")
	}
}
