// Package mcpserver serves the claimcheck tools over the Model Context
// Protocol, on stdio ([Server.ServeStdio], what "claimcheck mcp" runs) and
// on streamable HTTP ([Server.HTTPHandler], the /mcp route of "claimcheck
// serve"). No message can stop or confuse either transport: every message
// gets a JSON-RPC response, a tool result or an error object, and the
// server goes on serving.
//
// # Transport layer
//
// The JSON-RPC 2.0 layer is this package's own, not an SDK's: one
// dispatcher ([Server.Answer]) answers the messages of both transports, so
// they answer alike. Messages are read with the project's strict reader
// (internal/jsontape): no recursion, so nesting of any depth is read, and
// nothing before or after the message (a byte order mark, trailing data).
// The arguments of a tools/call reach the tool as the bytes they are in
// the message, so its answer is the CLI's byte for byte: the same
// executor, the same strict rules (duplicate names, invalid UTF-8, numbers
// out of range, depth), the same limits. Notifications are never
// answered.
//
// # Protocol revisions
//
// Both transports serve [ProtocolVersions] without configuration, each
// request at the version it names: the stateless 2026-07-28 revision
// ([ModernVersion]: server/discover, tools/list and tools/call, the
// version and client capabilities in every request's params._meta, a
// resultType on every result, cache hints on the lists, no batches) and
// the 2025 revisions (initialize, which negotiates one of them, ping,
// tools/list and tools/call), whose answers are what they were before
// 2026-07-28 was served. [Server.Answer] gives the rules.
//
// # Choices
//
//   - Arguments that are not JSON make the message not JSON: -32700, as for
//     any other message that is not JSON, with the message's id when its
//     envelope can still be followed. The one exception is the size cap,
//     which (as on the CLI) comes before the grammar: arguments over
//     MaxDocumentBytes get the limit_exceeded tool error whatever they hold.
//   - A tool not served (tools/call of an unknown name or version) is
//     -32602, as MCP asks, with the unknown_tool error document that the
//     CLI and the HTTP API answer as the error's data; the same on both
//     transports.
//   - tools/list lists the newest version of each tool by its id alone
//     (letters, digits and '-', which every host accepts as a tool name),
//     and nothing else is advertised: no version is named to a model. A
//     call of "ID@VERSION", the CLI's name, is still answered.
//   - A batch (2025 revisions only) holds at most [MaxBatch] messages, and
//     a message at most MaxDocumentBytes + [EnvelopeBytes] bytes.
//   - At ModernVersion, server/discover lists every version served, the
//     2025 ones too (this endpoint answers them), and it and tools/list
//     are cacheable for an hour by anyone ("public"): the list changes
//     only with the binary and its document cap.
//   - Every tools/call, and every message over EnvelopeBytes, is read and
//     checked in a check slot (at most MaxConcurrent at once); a small
//     protocol message (ping, initialize, tools/list) never waits for one.
//
// tools/list gives each tool the descriptor's schemas in a portable form
// (no "type" arrays; every property typed and described: the values
// admitted are the descriptor's) and a description ([Description]) of at
// most [MaxDescription] bytes that says where the full semantics are
// ("claimcheck help ID", the descriptor at /v1/tools); the examples are
// data in _meta.
//
// This package imports only the standard library and this module's
// packages.
package mcpserver
