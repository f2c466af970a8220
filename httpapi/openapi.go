package httpapi

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/httpjson"
	"github.com/claimcheck/claimcheck/schema"
)

// OpenAPI returns the OpenAPI 3.1 document of the handler's routes, as
// indented JSON and a newline. It is built once, on first use, from the tool
// descriptors: every served tool has a descriptor path and an execute path,
// whose request body is the descriptor's input_schema and whose 200
// response is its output_schema, both embedded unchanged; every error
// response is an error document, with a schema per status that names the
// codes (and, for 413 and 422, the limits) it can carry. The caller may keep
// or modify the returned slice.
func OpenAPI() []byte { return bytes.Clone(openAPIDoc()) }

// OpenAPIAt returns the OpenAPI document of a handler mounted under
// basePath (see [Options.BasePath]): [OpenAPI] with a servers list of that
// one URL, so that a client resolves every path under the prefix. An empty
// basePath gives OpenAPI's bytes.
func OpenAPIAt(basePath string) []byte {
	if basePath = cleanBasePath(basePath); basePath == "" {
		return OpenAPI()
	}
	return buildOpenAPI(basePath)
}

var openAPIDoc = sync.OnceValue(func() []byte { return buildOpenAPI("") })

type obj = map[string]any

// ref returns a JSON reference to a component.
func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }

func jsonContent(schema any) obj { return obj{"application/json": obj{"schema": schema}} }

// errorSchema returns the schema of an error document whose code is one of
// codes, and whose limit, when limits is not nil, is present and one of
// them.
func errorSchema(codes []claimcheck.Code, limits []string) obj {
	limit := obj{"type": "string"}
	required := []string{"code", "path", "message"}
	if limits != nil {
		limit["enum"] = limits
		required = []string{"code", "path", "limit", "message"}
	}
	return obj{
		"type": "object", "additionalProperties": false, "required": []string{"error"},
		"properties": obj{"error": obj{
			"type": "object", "additionalProperties": false, "required": required,
			"properties": obj{
				"code":     obj{"type": "string", "enum": codes},
				"path":     obj{"type": "string", "description": "RFC 6901 JSON Pointer to the offending input value; \"\" for the whole document or request", "pattern": "^(/([^~]|~[01])*)*$"},
				"position": obj{"type": "integer", "minimum": 0, "description": "code point offset into the expression (rational tool only)"},
				"limit":    limit,
				"message":  obj{"type": "string"},
			},
		}},
	}
}

// errorResponse is a response whose body is an error document of schema.
func errorResponse(description string, schema obj) obj {
	return obj{"description": description, "content": jsonContent(schema)}
}

// operationName turns "multiset-equality-check", "1.0.0" into
// "MultisetEqualityCheckV1_0_0".
func operationName(id, version string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(id, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	b.WriteString("V" + strings.NewReplacer(".", "_", "-", "_", "+", "_").Replace(version))
	return b.String()
}

var descriptorSchema = obj{
	"type":     "object",
	"required": []string{"id", "version", "description", "supported_operations", "unsupported_operations", "semantics", "limits", "input_schema", "output_schema", "examples", "execute_url"},
	"properties": obj{
		"id":                     obj{"type": "string"},
		"version":                obj{"type": "string"},
		"description":            obj{"type": "string"},
		"supported_operations":   obj{"type": "array", "items": obj{"type": "string"}},
		"unsupported_operations": obj{"type": "array", "items": obj{"type": "string"}},
		"semantics":              obj{"type": "array", "items": obj{"type": "string"}},
		"limits":                 obj{"type": "object", "additionalProperties": obj{"type": "integer"}},
		"pricing":                obj{"type": "object"},
		"input_schema":           obj{"type": "object", "description": "JSON Schema of the input document"},
		"output_schema":          obj{"type": "object", "description": "JSON Schema of the output document"},
		"examples": obj{"type": "array", "items": obj{
			"type": "object", "required": []string{"input", "output"},
			"properties": obj{"input": obj{}, "output": obj{}},
		}},
		"execute_url": obj{"type": "string", "description": "the path of the tool's execute route"},
	},
}

func buildOpenAPI(basePath string) []byte {
	schemas := obj{
		"Descriptor":                descriptorSchema,
		"Error":                     errorSchema(append([]claimcheck.Code{claimcheck.InvalidInput, claimcheck.LimitExceeded, claimcheck.UnknownTool}, httpjson.Codes()...), nil),
		"ErrorInvalidInput":         errorSchema([]claimcheck.Code{claimcheck.InvalidInput}, nil),
		"ErrorNotFound":             errorSchema([]claimcheck.Code{claimcheck.UnknownTool, NotFound}, nil),
		"ErrorMethodNotAllowed":     errorSchema([]claimcheck.Code{MethodNotAllowed}, nil),
		"ErrorRequestTimeout":       errorSchema([]claimcheck.Code{RequestTimeout}, nil),
		"ErrorDocumentTooLarge":     errorSchema([]claimcheck.Code{claimcheck.LimitExceeded}, []string{"max_document_bytes"}),
		"ErrorUnsupportedMediaType": errorSchema([]claimcheck.Code{UnsupportedMediaType}, nil),
		"ErrorInternal":             errorSchema([]claimcheck.Code{InternalError}, nil),
		"ErrorOverloaded":           errorSchema([]claimcheck.Code{Overloaded}, nil),
	}
	responses := obj{
		"InvalidInput": errorResponse("invalid_input: the tool refuses the document (malformed JSON included)", ref("schemas", "ErrorInvalidInput")),
		"NotFound": errorResponse("unknown_tool: a tool id or version this server does not serve (or, for any path outside /v1/tools, not_found)",
			ref("schemas", "ErrorNotFound")),
		"MethodNotAllowed": obj{
			"description": "method_not_allowed: any method this path does not serve; the Allow header lists those it does",
			"headers":     obj{"Allow": obj{"required": true, "schema": obj{"type": "string"}}},
			"content":     jsonContent(ref("schemas", "ErrorMethodNotAllowed")),
		},
		"RequestTimeout":       errorResponse("request_timeout: the body did not arrive in time, or stalled; the connection is closed", ref("schemas", "ErrorRequestTimeout")),
		"DocumentTooLarge":     errorResponse("limit_exceeded, path \"\", limit max_document_bytes: the body is over the server's cap", ref("schemas", "ErrorDocumentTooLarge")),
		"UnsupportedMediaType": errorResponse("unsupported_media_type: a Content-Type that is sent and is not application/json (a charset must be utf-8)", ref("schemas", "ErrorUnsupportedMediaType")),
		"InternalError":        errorResponse("internal_error: a bug; the server logged it", ref("schemas", "ErrorInternal")),
		"Overloaded": obj{
			"description": "overloaded: the body could not be buffered in time because the server holds too many; try again after Retry-After seconds",
			"headers":     obj{"Retry-After": obj{"required": true, "schema": obj{"type": "string"}}},
			"content":     jsonContent(ref("schemas", "ErrorOverloaded")),
		},
	}
	paths := obj{
		RouteTools: obj{"get": obj{
			"operationId": "listTools",
			"summary":     "The tool descriptors, in a fixed order",
			"responses": obj{
				"200": obj{"description": "every served tool's descriptor", "content": jsonContent(obj{"type": "array", "items": ref("schemas", "Descriptor")})},
				"405": ref("responses", "MethodNotAllowed"),
				"500": ref("responses", "InternalError"),
			},
		}},
	}
	for _, t := range schema.Tools() {
		name := t.ID + "-" + t.Version
		schemas[name+"-input"] = json.RawMessage(t.InputSchema)
		schemas[name+"-output"] = json.RawMessage(t.OutputSchema)
		var limits []string
		for _, l := range t.Limits {
			limits = append(limits, l.Name)
		}
		schemas[name+"-error-limit"] = errorSchema([]claimcheck.Code{claimcheck.LimitExceeded}, limits)
		op := operationName(t.ID, t.Version)
		paths["/v1/tools/"+t.ID+"/versions/"+t.Version] = obj{"get": obj{
			"operationId": "get" + op,
			"summary":     "The descriptor of " + t.ID + "@" + t.Version,
			"responses": obj{
				"200": obj{"description": "the descriptor", "content": jsonContent(ref("schemas", "Descriptor"))},
				"404": ref("responses", "NotFound"),
				"405": ref("responses", "MethodNotAllowed"),
				"500": ref("responses", "InternalError"),
			},
		}}
		paths[t.ExecuteURL] = obj{"post": obj{
			"operationId": "execute" + op,
			"summary":     "Run " + t.ID + "@" + t.Version + " on one input document",
			"description": t.Description,
			"requestBody": obj{"required": true, "content": jsonContent(ref("schemas", name+"-input"))},
			"responses": obj{
				"200": obj{"description": "the output document, whatever its verdict", "content": jsonContent(ref("schemas", name+"-output"))},
				"400": ref("responses", "InvalidInput"),
				"404": ref("responses", "NotFound"),
				"405": ref("responses", "MethodNotAllowed"),
				"408": ref("responses", "RequestTimeout"),
				"413": ref("responses", "DocumentTooLarge"),
				"415": ref("responses", "UnsupportedMediaType"),
				"422": errorResponse("limit_exceeded: the document is over one of the tool's limits", ref("schemas", name+"-error-limit")),
				"500": ref("responses", "InternalError"),
				"503": ref("responses", "Overloaded"),
			},
		}}
	}
	for _, t := range schema.Tools() {
		name := t.ID + "-" + t.Version
		trailer := func(d string) obj {
			return obj{"description": d, "schema": obj{"type": "string", "pattern": "^[0-9]+$"}}
		}
		lines := obj{"schema": obj{"type": "string", "description": "one answer a line, line N answering line N: the output document of " +
			name + "-output, or an error document (Error), each the bytes claimcheck batch writes"}}
		paths["/v1/tools/"+t.ID+"/versions/"+t.Version+"/batch"] = obj{"post": obj{
			"operationId": "batch" + operationName(t.ID, t.Version),
			"summary":     "Run " + t.ID + "@" + t.Version + " on every line of a JSON Lines body, streaming the answers",
			"description": "The body is JSON Lines, one input document a line (" + name + "-input); the answer is JSON Lines in the same order, " +
				"written while the body arrives. A line over the document cap gets its limit_exceeded error document and the stream goes on. " +
				"What the status line cannot say once the answers have started is in the trailers, declared in the Trailer header: " +
				TrailerLines + ", " + TrailerValid + ", " + TrailerInvalid + ", " + TrailerErrors + " (decimal counts) and, when the server " +
				"ended the stream before the end of the body, " + TrailerCut + " (max_batch_lines, overloaded, request_timeout or invalid_input).",
			"requestBody": obj{"required": true, "content": obj{
				httpjson.JSONLines: obj{"schema": obj{"type": "string"}},
				httpjson.NDJSON:    obj{"schema": obj{"type": "string"}},
			}},
			"responses": obj{
				"200": obj{
					"description": "the answers, one a line; the trailers count them",
					"headers": obj{
						"Trailer":      obj{"required": true, "description": "the trailers the answer ends with", "schema": obj{"type": "string"}},
						TrailerLines:   trailer("trailer: the lines answered"),
						TrailerValid:   trailer("trailer: of them, output documents with \"valid\":true"),
						TrailerInvalid: trailer("trailer: output documents with \"valid\":false"),
						TrailerErrors:  trailer("trailer: error documents"),
						TrailerCut: obj{"description": "trailer, present when the server ended the stream early: why",
							"schema": obj{"type": "string", "enum": []string{CutMaxBatchLines, string(Overloaded), string(RequestTimeout), string(claimcheck.InvalidInput)}}},
					},
					"content": obj{httpjson.JSONLines: lines, httpjson.NDJSON: lines},
				},
				"400": ref("responses", "InvalidInput"),
				"404": ref("responses", "NotFound"),
				"405": ref("responses", "MethodNotAllowed"),
				"408": ref("responses", "RequestTimeout"),
				"415": ref("responses", "UnsupportedMediaType"),
				"500": ref("responses", "InternalError"),
				"503": ref("responses", "Overloaded"),
			},
		}}
	}
	var servers []obj
	if basePath != "" {
		servers = []obj{{"url": basePath, "description": "the prefix the service is mounted under"}}
	}
	doc := struct {
		OpenAPI    string `json:"openapi"`
		Info       obj    `json:"info"`
		Servers    []obj  `json:"servers,omitempty"`
		Paths      obj    `json:"paths"`
		Components obj    `json:"components"`
	}{
		OpenAPI: "3.1.0",
		Info: obj{
			"title":   "claimcheck",
			"version": "1",
			"description": "Exact checks of claimed results. Every response of these routes is JSON: an output document, " +
				"a descriptor, or an error document {\"error\":{\"code\",\"path\",\"message\"}} with position and limit " +
				"where they apply. GET routes also answer HEAD.",
		},
		Servers:    servers,
		Paths:      paths,
		Components: obj{"schemas": schemas, "responses": responses},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("httpapi: encoding the OpenAPI document: " + err.Error())
	}
	return append(b, '\n')
}
