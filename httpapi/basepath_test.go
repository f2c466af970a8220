package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// TestBasePath: with BasePath, the list and every descriptor advertise
// execute_url under it, and the OpenAPI document names it as its server;
// without it, every byte is as before (the served descriptors and
// OpenAPI()). The defect: mounted under /api, every advertised URL was a 404
// from the user's mux.
func TestBasePath(t *testing.T) {
	get := func(h *handler, path string) []byte {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		return rec.Body.Bytes()
	}
	for _, tc := range []struct {
		reason, base, prefix string
	}{
		{"no option: the descriptors as served", "", ""},
		{"a prefix", "/api", "/api"},
		{"a trailing slash is dropped", "/api/v2/", "/api/v2"},
	} {
		h := newHandler(Options{BasePath: tc.base}, nil)
		var list []struct {
			ExecuteURL string `json:"execute_url"`
		}
		if err := json.Unmarshal(get(h, "/v1/tools"), &list); err != nil {
			t.Fatal(err)
		}
		for i, tool := range schema.Tools() {
			if want := tc.prefix + tool.ExecuteURL; list[i].ExecuteURL != want {
				t.Errorf("%s: list execute_url %q, want %q", tc.reason, list[i].ExecuteURL, want)
			}
			d := get(h, "/v1/tools/"+tool.ID+"/versions/"+tool.Version)
			served, _ := json.Marshal(tool)
			if tc.base == "" && !bytes.Equal(d, append(served, '\n')) {
				t.Errorf("%s: descriptor of %s differs from the served one", tc.reason, tool.ID)
			}
			if !strings.Contains(string(d), `"execute_url":"`+tc.prefix+tool.ExecuteURL+`"`) {
				t.Errorf("%s: descriptor of %s lacks the prefixed execute_url: %.80s", tc.reason, tool.ID, d)
			}
		}
		oa := OpenAPIAt(tc.base)
		hasServers := bytes.Contains(oa, []byte(`"servers"`))
		switch {
		case tc.base == "" && !bytes.Equal(oa, OpenAPI()):
			t.Errorf("%s: OpenAPIAt(\"\") is not OpenAPI()", tc.reason)
		case tc.base != "" && (!hasServers || !bytes.Contains(oa, []byte(`"url": "`+tc.prefix+`"`))):
			t.Errorf("%s: OpenAPIAt(%q) has no server %q", tc.reason, tc.base, tc.prefix)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a BasePath without a leading / did not panic")
		}
	}()
	New(Options{BasePath: "api"})
}
