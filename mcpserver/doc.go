// Package mcpserver serves the claimcheck tools over the Model Context
// Protocol, with the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// [New] returns an *mcp.Server with one MCP tool per tool descriptor
// ([schema.Tools]): its name is the tool id, its description the
// descriptor's, and its inputSchema and outputSchema the descriptor's
// input_schema and output_schema exactly. A tools/call runs
// [schema.Tool.Execute] on the call's arguments, byte for byte as they
// arrived, so the tool's strict JSON rules apply as they do over HTTP:
//
//   - an output document (whatever its verdict) is the result's
//     structuredContent, and also its one text content, as JSON, for
//     clients without structured output;
//   - an error document (invalid_input, limit_exceeded) is a result with
//     isError true and the error document as its text content: a tool
//     error the model can read and correct, never a protocol error.
//
// Arguments over [Options.MaxDocumentBytes] are answered with
// limit_exceeded, path "", limit max_document_bytes, as the CLI and the HTTP
// API answer such a document. [NewHTTPHandler] serves the same tools over
// the streamable HTTP transport, statelessly.
//
// This package, and the SDK, are compiled only by programs that import it:
// the claimcheck library packages never do.
package mcpserver
