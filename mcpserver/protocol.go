package mcpserver

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// ModernVersion is the protocol revision of the stateless era (no
// initialize; every request names its version and the client's
// capabilities in params._meta), served beside the 2025 revisions.
const ModernVersion = "2026-07-28"

// unnamedVersion is the version of a request that names none (no claim in
// its _meta, no MCP-Protocol-Version header): as the 2026-07-28 revision
// allows, the 2025-03-26 revision, whose answers every 2025 revision shares
// for what this server serves.
const unnamedVersion = "2025-03-26"

// The _meta keys of the 2026-07-28 revision that this server reads or
// writes.
const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaLogLevel     = "io.modelcontextprotocol/logLevel"
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
)

// Cache hints of tools/list and server/discover at the 2026-07-28
// revision. The list is a function of the binary and of its document cap
// alone, the same for every caller: public. An hour bounds how long a
// client keeps a list after the server is upgraded or restarted with
// another cap; a stale list costs nothing worse than a call whose document
// the new version refuses with an error document.
const (
	cacheTTLMillis = 60 * 60 * 1000
	cacheScope     = "public"
)

// served reports whether v is one of [ProtocolVersions].
func served(v string) bool { return slices.Contains(ProtocolVersions, v) }

// legacyVersion returns the version an initialize answers: the client's
// when it is a 2025 revision served, else the newest of those.
func legacyVersion(v string) string {
	if v != ModernVersion && served(v) {
		return v
	}
	return ProtocolVersions[1]
}

// A claim is what a request's params._meta says of its protocol (the
// 2026-07-28 revision's per-request fields).
type claim struct {
	// named: _meta holds the protocol version key; version is its value
	// when that is a string (read).
	named, read bool
	version     string
	// problem is why the _meta of a request at ModernVersion is not one
	// (-32602), or "".
	problem string
}

// readClaim reads the claim of a params._meta value, given as its JSON text
// ("" when there is none).
func readClaim(meta string) claim {
	if meta == "" || meta[0] != '{' {
		return claim{}
	}
	d, err := parseTape(meta, jsontape.Options{MaxDepth: 2, MaxChildren: maxChildren})
	if err != nil {
		return claim{}
	}
	defer putTape(d)
	return claimOf(d, 0)
}

// claimOf reads the claim of the _meta value at node m of d (none when m
// is -1 or not an object). Where d did not record the members (a _meta
// deeper than its recorded levels, in a batch), it reads m's text.
func claimOf(d *jsontape.Doc, m int) (c claim) {
	if m < 0 || d.Nodes[m].Kind != jsontape.Object {
		return c
	}
	n := &d.Nodes[m]
	if n.Rec == 0 && n.Len > 0 {
		return readClaim(d.Src[n.Start:n.End])
	}
	if member(d, m, metaVersion) < 0 {
		return c
	}
	c.named = true
	f, problem := fields(d, m, metaVersion, metaCapabilities, metaClientInfo, metaLogLevel)
	switch {
	case problem != "":
		c.problem = "params._meta: " + strings.TrimPrefix(problem, "params: ")
	case n.Rec < n.Len:
		c.problem = "params._meta: too many members"
	case d.Nodes[f[0]].Kind != jsontape.String || !validStr(d, &d.Nodes[f[0]]):
		c.problem = "params._meta: " + quote(metaVersion) + " must be a string"
	default:
		c.version, c.read = str(d, f[0]), true
		c.problem = envelopeProblem(d, f[1], f[2], f[3])
	}
	return c
}

// envelopeProblem checks the other per-request fields of a _meta (d's
// root): clientCapabilities an object (required), clientInfo an
// Implementation (name and version strings) and logLevel a level, when
// present.
func envelopeProblem(d *jsontape.Doc, caps, info, level int) string {
	switch {
	case caps < 0:
		return "params._meta lacks " + quote(metaCapabilities)
	case d.Nodes[caps].Kind != jsontape.Object:
		return "params._meta: " + quote(metaCapabilities) + " must be an object"
	case info >= 0 && !implementation(d, info):
		return "params._meta: " + quote(metaClientInfo) + ` must be an object with string "name" and "version"`
	case level >= 0 && !slices.Contains(logLevels, str(d, level)):
		return "params._meta: " + quote(metaLogLevel) + " must be a log level (" + strings.Join(logLevels, ", ") + ")"
	}
	return ""
}

// logLevels are the levels of the logLevel field (RFC 5424's severities).
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// implementation reports whether node i of d is an Implementation: an
// object whose name and version are strings. Where d did not record its
// members, it reads i's text.
func implementation(d *jsontape.Doc, i int) bool {
	n := &d.Nodes[i]
	if n.Kind != jsontape.Object {
		return false
	}
	if n.Rec == 0 && n.Len > 0 {
		sub, err := parseTape(d.Src[n.Start:n.End], jsontape.Options{MaxDepth: 1, MaxChildren: maxChildren})
		if err != nil {
			return false
		}
		defer putTape(sub)
		return implementation(sub, 0)
	}
	f, problem := fields(d, i, "name", "version")
	return problem == "" && f[0] >= 0 && f[1] >= 0 && d.Nodes[f[0]].Kind == jsontape.String && d.Nodes[f[1]].Kind == jsontape.String
}

// str returns the value of string node i of d, or "" for another kind.
func str(d *jsontape.Doc, i int) string {
	if n := &d.Nodes[i]; n.Kind == jsontape.String {
		return d.Str(n)
	}
	return ""
}

// member returns the node index of the first member of object node obj
// named name, or -1.
func member(d *jsontape.Doc, obj int, name string) int {
	for c, m := obj+1, 0; m < d.Nodes[obj].Rec; c, m = d.Nodes[c].Skip, m+1 {
		if d.Name(&d.Nodes[c]) == name {
			return c
		}
	}
	return -1
}

// metaNode returns the node index of params._meta of the message whose
// params are node params of d, or -1.
func metaNode(d *jsontape.Doc, params int) int {
	if params < 0 || d.Nodes[params].Kind != jsontape.Object {
		return -1
	}
	return member(d, params, "_meta")
}

// headers are the MCP request headers of an HTTP POST, their optional
// white space trimmed, as the 2026-07-28 revision names them.
type headers struct {
	version, method, name string
	hasVersion, hasMethod bool
	hasName               bool
	repeated              string // the first of them given more than once
}

// read reads h from the request headers hdr.
func (h *headers) read(hdr http.Header) {
	one := func(key string, v *string, has *bool) {
		vs := hdr[key]
		if len(vs) > 1 && h.repeated == "" {
			h.repeated = key
		}
		if len(vs) > 0 {
			*v, *has = trimOWS(vs[0]), true
		}
	}
	one("Mcp-Protocol-Version", &h.version, &h.hasVersion)
	one("Mcp-Method", &h.method, &h.hasMethod)
	one("Mcp-Name", &h.name, &h.hasName)
}

// trimOWS trims the optional white space (spaces, tabs) around a header
// value, as RFC 9110 section 5.5 says a field value is read.
func trimOWS(v string) string {
	for v != "" && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for v != "" && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// modern reports whether the MCP-Protocol-Version header names
// ModernVersion (false on stdio, which has no headers).
func (h *headers) modern() bool { return h != nil && h.version == ModernVersion }

// A refusal is the protocol error a request gets before its method is
// called: -32602 (its _meta), -32020 (its headers) or -32022 (its
// version). On HTTP each is sent with 400 Bad Request.
type refusal struct {
	code int
	msg  string
	data []byte
}

// negotiate decides the protocol of a request with claim c and headers h
// (nil on stdio): modern reports whether it is served at ModernVersion;
// a refusal, when not nil, is its answer.
//
// The version is the claim's, else the MCP-Protocol-Version header's, else
// the 2025 revisions'. A claim and a header that disagree are -32020; a
// version not served is -32022 with the served versions as data. At
// ModernVersion the claim is required and must be whole (-32602), and on
// HTTP so is the header (-32020).
func negotiate(c claim, h *headers) (modern bool, r *refusal) {
	v := unnamedVersion
	switch {
	case c.named && !c.read:
		return true, &refusal{code: CodeInvalidParams, msg: c.problem}
	case c.named && h != nil && h.hasVersion && h.version != c.version:
		return true, &refusal{code: CodeHeaderMismatch, msg: "the MCP-Protocol-Version header names " + quote(h.version) +
			", params._meta " + quote(c.version)}
	case c.named:
		v = c.version
	case h != nil && h.hasVersion:
		v = h.version
	}
	switch {
	case !served(v):
		return true, &refusal{code: CodeUnsupportedVersion, msg: "protocol version " + quote(v) + " not served; served: " +
			strings.Join(ProtocolVersions, ", "), data: unsupportedData(v)}
	case v != ModernVersion:
		return false, nil
	case !c.named:
		return true, &refusal{code: CodeInvalidParams, msg: "a request at " + ModernVersion + " names its protocol version and " +
			"client capabilities in params._meta (" + quote(metaVersion) + ", " + quote(metaCapabilities) + ")"}
	case c.problem != "":
		return true, &refusal{code: CodeInvalidParams, msg: c.problem}
	case h != nil && !h.hasVersion:
		return true, &refusal{code: CodeHeaderMismatch, msg: "the MCP-Protocol-Version header is missing"}
	}
	return true, nil
}

// unsupportedData is the data of the -32022 error for version v.
func unsupportedData(v string) []byte {
	b := []byte(`{"supported":[`)
	for i, s := range ProtocolVersions {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, s)
	}
	b = append(b, `],"requested":`...)
	b = jsonwire.AppendString(b, v)
	return append(b, '}')
}

// check compares the Mcp-Method and Mcp-Name headers of a request at
// ModernVersion with its method and, for tools/call, its tool name (name,
// when hasName: params.name is a string): each is required and must match
// (-32020). Mcp-Name may carry its value as "=?base64?…?=".
func (h *headers) check(method, name string, hasName bool) *refusal {
	mismatch := func(msg string) *refusal { return &refusal{code: CodeHeaderMismatch, msg: msg} }
	switch {
	case h == nil:
		return nil
	case h.repeated != "":
		return mismatch("the " + h.repeated + " header is given more than once")
	case !h.hasMethod:
		return mismatch("the Mcp-Method header is missing")
	case h.method != method:
		return mismatch("the Mcp-Method header names " + quote(h.method) + ", the body " + quote(method))
	case method != "tools/call" || !hasName:
		return nil
	case !h.hasName:
		return mismatch("the Mcp-Name header is missing")
	}
	v, ok := headerValue(h.name)
	switch {
	case !ok:
		return mismatch("the Mcp-Name header is not a header value or not valid Base64: " + quote(h.name))
	case v != name:
		return mismatch("the Mcp-Name header names " + quote(v) + ", params.name " + quote(name))
	}
	return nil
}

// headerValue decodes a header value of the 2026-07-28 revision: its
// visible ASCII (and spaces, tabs) as it is, or "=?base64?B?=" as the
// UTF-8 of B (standard Base64 with padding). ok is false for any other
// byte, or a Base64 sentinel that does not decode.
func headerValue(v string) (string, bool) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", false
		}
	}
	b64, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	b64, ok = strings.CutSuffix(b64, "?=")
	if !ok {
		return v, true
	}
	b, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}
