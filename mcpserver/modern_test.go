package mcpserver_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// modernMsg is a request at ModernVersion of method, params (a JSON object's
// members, "" for none) beside the _meta, with the headers it is sent with
// on HTTP.
func modernMsg(id, method, params string) ([]byte, []string) {
	if params != "" {
		params = "," + params
	}
	hdr := []string{"MCP-Protocol-Version: " + mcpserver.ModernVersion, "Mcp-Method: " + method}
	if method == "tools/call" {
		var p struct{ Name string }
		json.Unmarshal([]byte("{"+strings.TrimPrefix(params, ",")+"}"), &p)
		hdr = append(hdr, "Mcp-Name: "+p.Name)
	}
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + meta + params + `}}`), hdr
}

// TestModernResults: at ModernVersion every result carries resultType
// "complete" and the server's identity in _meta; server/discover and
// tools/list carry the cache hints; discover gives the served versions and
// the tools capability; tools/list the list the 2025 revisions get. The
// same on both transports.
func TestModernResults(t *testing.T) {
	for _, c := range both(t, mcpserver.Options{Version: "v9"}) {
		var res struct {
			ResultType        string   `json:"resultType"`
			TTLMs             *float64 `json:"ttlMs"`
			CacheScope        string   `json:"cacheScope"`
			SupportedVersions []string `json:"supportedVersions"`
			Capabilities      struct {
				Tools *struct{ ListChanged bool }
			}
			Tools []json.RawMessage
			Meta  struct {
				ServerInfo struct{ Name, Version string } `json:"io.modelcontextprotocol/serverInfo"`
			} `json:"_meta"`
		}
		get := func(method string) {
			msg, hdr := modernMsg("1", method, "")
			status, ans := c.send(t, msg, 1, hdr...)
			var r struct{ Result json.RawMessage }
			if err := json.Unmarshal(ans[0], &r); err != nil || r.Result == nil || c.name() == "http" && status != 200 {
				t.Fatalf("%s %s: %d %.300s", c.name(), method, status, ans[0])
			}
			res.Tools, res.SupportedVersions = nil, nil
			json.Unmarshal(r.Result, &res)
			if res.ResultType != "complete" || res.Meta.ServerInfo.Name != "claimcheck" || res.Meta.ServerInfo.Version != "v9" ||
				res.TTLMs == nil || *res.TTLMs < 0 || *res.TTLMs != float64(int64(*res.TTLMs)) || res.CacheScope != "public" {
				t.Errorf("%s %s: %.300s", c.name(), method, ans[0])
			}
		}
		get("server/discover")
		if !slices.Equal(res.SupportedVersions, mcpserver.ProtocolVersions) || res.Capabilities.Tools == nil {
			t.Errorf("%s server/discover: versions %v, capabilities %+v", c.name(), res.SupportedVersions, res.Capabilities)
		}
		get("tools/list")
		_, legacyAns := c.send(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), 1)
		var legacyList struct {
			Result struct{ Tools []json.RawMessage }
		}
		json.Unmarshal(legacyAns[0], &legacyList)
		if len(res.Tools) != len(schema.Tools()) || !slices.EqualFunc(res.Tools, legacyList.Result.Tools, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			t.Errorf("%s: tools/list at %s lists other tools than at 2025", c.name(), mcpserver.ModernVersion)
		}
		eq := schema.Tools()[0]
		checkCLI(t, c.name()+" tools/call", modern.callOne(t, c, 7, eq.ID, eq.Examples[0].Input), eq.Examples[0].Output, false)
	}
}

// TestModernRefusals: the protocol errors of the 2026-07-28 revision, each
// with its code, its HTTP status, its request's id whenever the body gave
// one (and no id member, the revision's schema having no null id, when it
// did not), on each transport that can carry the fault.
func TestModernRefusals(t *testing.T) {
	eq := schema.MultisetEquality
	v := "MCP-Protocol-Version: " + mcpserver.ModernVersion
	type row struct {
		reason   string
		msg      string
		hdr      []string // nil: modernMsg's
		httpOnly bool
		code     int
		status   int
		id       string // "": the answer has no id member
		data     string // a part of the error's data
	}
	m := func(id, method, params string) string { b, _ := modernMsg(id, method, params); return string(b) }
	rows := []row{
		{reason: "a request without _meta, the header naming 2026-07-28", msg: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, hdr: []string{v, "Mcp-Method: tools/list"}, httpOnly: true, code: -32602, status: 400, id: "1"},
		{reason: "_meta without the protocol version, the header naming 2026-07-28", msg: `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, hdr: []string{v, "Mcp-Method: tools/list"}, httpOnly: true, code: -32602, status: 400, id: "2"},
		{reason: "_meta without the client capabilities", msg: `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, code: -32602, status: 400, id: "3"},
		{reason: "client capabilities not an object", msg: `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}}`, code: -32602, status: 400, id: "4"},
		{reason: "client info not an Implementation", msg: `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"x"}}}}`, code: -32602, status: 400, id: "5"},
		{reason: "a log level that is none", msg: `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}`, code: -32602, status: 400, id: "6"},
		{reason: "the protocol version not a string", msg: `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}}`, code: -32602, status: 400, id: "7"},
		{reason: "a repeated _meta member", msg: `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientCapabilities":{}}}}`, code: -32602, status: 400, id: "8"},
		{reason: "initialize: removed", msg: m(`"i"`, "initialize", `"protocolVersion":"2025-11-25"`), code: -32601, status: 404, id: `"i"`},
		{reason: "ping: removed", msg: m("9", "ping", ""), code: -32601, status: 404, id: "9"},
		{reason: "logging/setLevel: removed", msg: m("10", "logging/setLevel", `"level":"info"`), code: -32601, status: 404, id: "10"},
		{reason: "resources/subscribe: removed", msg: m("11", "resources/subscribe", `"uri":"x:y"`), code: -32601, status: 404, id: "11"},
		{reason: "a method not served", msg: m("12", "prompts/list", ""), code: -32601, status: 404, id: "12"},
		{reason: "a version not served, named in _meta", msg: `{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}`, hdr: []string{"MCP-Protocol-Version: v999.0.0", "Mcp-Method: tools/list"}, code: -32022, status: 400, id: "13", data: `{"supported":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"v999.0.0"}`},
		{reason: "a version not served, named by the header", msg: `{"jsonrpc":"2.0","id":14,"method":"tools/list"}`, hdr: []string{"MCP-Protocol-Version: 2030-01-01"}, httpOnly: true, code: -32022, status: 400, id: "14", data: `"requested":"2030-01-01"`},
		{reason: "the header and _meta disagree", msg: m("15", "tools/list", ""), hdr: []string{"MCP-Protocol-Version: 2025-06-18", "Mcp-Method: tools/list"}, httpOnly: true, code: -32020, status: 400, id: "15"},
		{reason: "the version header missing", msg: m("16", "tools/list", ""), hdr: []string{"Mcp-Method: tools/list"}, httpOnly: true, code: -32020, status: 400, id: "16"},
		{reason: "Mcp-Method missing", msg: m("17", "tools/list", ""), hdr: []string{v}, httpOnly: true, code: -32020, status: 400, id: "17"},
		{reason: "Mcp-Method another method", msg: m("18", "tools/list", ""), hdr: []string{v, "Mcp-Method: prompts/list"}, httpOnly: true, code: -32020, status: 400, id: "18"},
		{reason: "Mcp-Method of another case: values are case-sensitive", msg: m("19", "tools/list", ""), hdr: []string{v, "Mcp-Method: Tools/List"}, httpOnly: true, code: -32020, status: 400, id: "19"},
		{reason: "Mcp-Name missing", msg: m("20", "tools/call", `"name":"`+eq+`","arguments":{}`), hdr: []string{v, "Mcp-Method: tools/call"}, httpOnly: true, code: -32020, status: 400, id: "20"},
		{reason: "Mcp-Name another tool", msg: m("21", "tools/call", `"name":"`+eq+`","arguments":{}`), hdr: []string{v, "Mcp-Method: tools/call", "Mcp-Name: rational-expression-check"}, httpOnly: true, code: -32020, status: 400, id: "21"},
		{reason: "Mcp-Name Base64 that does not decode", msg: m("22", "tools/call", `"name":"`+eq+`","arguments":{}`), hdr: []string{v, "Mcp-Method: tools/call", "Mcp-Name: =?base64?bXVsd!==?="}, httpOnly: true, code: -32020, status: 400, id: "22"},
		{reason: "a tool not served: the method's own error, in the answer", msg: m("23", "tools/call", `"name":"nope","arguments":{}`), code: -32602, status: 200, id: "23"},
		{reason: "a cursor: the method's own error, in the answer", msg: m("24", "tools/list", `"cursor":"x"`), code: -32602, status: 200, id: "24"},
		{reason: "a batch with a request at 2026-07-28", msg: "[" + m("25", "tools/list", "") + "]", code: -32600, status: 400},
		{reason: "a batch sent with the 2026-07-28 header", msg: `[{"jsonrpc":"2.0","id":26,"method":"ping"}]`, hdr: []string{v}, httpOnly: true, code: -32600, status: 400},
		{reason: "id null", msg: `{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{` + meta + `}}`, code: -32600, status: 400},
		{reason: "an unknown envelope member: the id is given", msg: `{"jsonrpc":"2.0","id":27,"method":"tools/list","x":1,"params":{` + meta + `}}`, code: -32600, status: 400, id: "27"},
		{reason: "not JSON, the envelope followed: the id is given", msg: m("28", "tools/call", `"name":"`+eq+`","arguments":{"source":[1,]}`), code: -32700, status: 400, id: "28"},
		{reason: "not JSON at all, the header naming 2026-07-28", msg: `{"jsonrpc":`, hdr: []string{v, "Mcp-Method: tools/list"}, httpOnly: true, code: -32700, status: 400},
	}
	for _, c := range both(t, mcpserver.Options{}) {
		testutil.Run(t, rows, func(t *testing.T, r row) {
			if r.httpOnly && c.name() != "http" {
				return
			}
			hdr := r.hdr
			if hdr == nil {
				var msg struct{ Method string }
				json.Unmarshal([]byte(r.msg), &msg)
				_, hdr = modernMsg("0", msg.Method, `"name":"`+nameOf(r.msg)+`"`)
				if msg.Method != "tools/call" {
					hdr = hdr[:2]
				}
			}
			status, ans := c.send(t, []byte(r.msg), 1, hdr...)
			var got struct {
				Error *struct {
					Code int
					Data json.RawMessage
				}
			}
			var members map[string]json.RawMessage // the id member, null or absent
			if err := json.Unmarshal(ans[0], &got); err != nil || got.Error == nil || got.Error.Code != r.code {
				t.Fatalf("%s: %.300s, want error %d", c.name(), ans[0], r.code)
			}
			json.Unmarshal(ans[0], &members)
			id, hasID := members["id"]
			switch {
			case r.id == "" && hasID:
				t.Errorf("%s: id %s, want no id member", c.name(), id)
			case r.id != "" && string(id) != r.id:
				t.Errorf("%s: %.200s, want id %s", c.name(), ans[0], r.id)
			case c.name() == "http" && status != r.status:
				t.Errorf("http: status %d, want %d", status, r.status)
			case !strings.Contains(string(got.Error.Data), r.data):
				t.Errorf("%s: data %s, want %s in it", c.name(), got.Error.Data, r.data)
			}
		})
	}
}

// nameOf returns the params.name of a tools/call msg, or "".
func nameOf(msg string) string {
	var m struct{ Params struct{ Name string } }
	json.Unmarshal([]byte(msg), &m)
	return m.Params.Name
}
