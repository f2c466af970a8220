// The official TypeScript MCP SDK as a client of claimcheck, for the long
// run (cmd/claimcheck's TestBinary): list the tools, call every
// example and validate structuredContent against outputSchema with ajv,
// then send hostile but valid documents (deep nesting, over the cap) and
// check that the server answers each and goes on.
//
//   node sdk_client.mjs stdio BINARY MAX_DOC
//   node sdk_client.mjs http URL MAX_DOC
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";

const [mode, target, maxDocArg] = process.argv.slice(2);
const maxDoc = Number(maxDocArg);
const fail = (msg) => { console.error("FAIL " + msg); process.exit(1); };
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: ["mcp", "-max-document-bytes", String(maxDoc)] })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: "claimcheck-long-run", version: "0" });
await client.connect(transport);

const ajv = new Ajv({ strict: false, allErrors: true });
const { tools } = await client.listTools();
if (tools.length !== 3) fail(`${tools.length} tools`);
let calls = 0;
for (const tool of tools) {
  const validate = ajv.compile(tool.outputSchema);
  const examples = tool._meta["claimcheck/examples"];
  if (!examples?.length) fail(`${tool.name}: no examples in tools/list`);
  // A short description that says where the full rules are.
  if (tool.description.length > 600 || !tool.description.includes("claimcheck help " + tool.name)) fail(`${tool.name}: description ${tool.description}`);
  for (const name of [tool.name, tool.name + "@" + tool._meta["claimcheck/version"]]) {
    for (const ex of examples) {
      const res = await client.callTool({ name, arguments: ex.arguments });
      calls++;
      if (res.isError) fail(`${name}: example is a tool error: ${res.content[0].text}`);
      if (!validate(res.structuredContent)) fail(`${name}: structuredContent against outputSchema: ${ajv.errorsText(validate.errors)}`);
      if (JSON.stringify(res.structuredContent) !== JSON.stringify(ex.structuredContent)) fail(`${name}: ${JSON.stringify(res.structuredContent)}`);
      if (res.content[0].text !== JSON.stringify(ex.structuredContent)) fail(`${name}: text ${res.content[0].text}`);
    }
  }
}

// Hostile but valid documents: each is answered with the CLI's error
// document as a tool error, and the call after it is answered.
let deep = 1;
// As deep as JSON.stringify goes without overflowing its stack.
for (let i = 0; i < 3000; i++) deep = [deep];
const eq = "multiset-equality-check";
// The tool error over the cap names the flag that sets it.
const capFlag = `(set by ${mode === "http" ? "-max-body-bytes" : "-max-document-bytes"})`;
const hostile = [
  ["nesting 3,000 levels", { source: [deep], claim: [] }, '"path":"/source/0"'],
  ["just over the cap", { source: Array(Math.ceil(maxDoc / 2)).fill(1), claim: [] }, capFlag],
  // Twice the cap: over it and its 64 KiB envelope, within /mcp's hard cap
  // (2 × (cap + 64 KiB)), so a tool error on HTTP too.
  ["over the cap and its envelope", { source: Array(maxDoc).fill(1), claim: [] }, capFlag],
  // More than the sockets' buffers hold: the SDK writes it whole before it
  // reads, and met a reset ("fetch failed") when the server closed on it.
  ["5 MiB over the cap", { source: Array(5 << 19).fill(1), claim: [] }, '"limit":"max_document_bytes"'],
  ["an unknown member", { source: [], claim: [], extra: 1 }, '"path":"/extra"'],
];
for (const [why, args, want] of hostile) {
  let text;
  try {
    const res = await client.callTool({ name: eq, arguments: args });
    if (!res.isError) fail(`${why}: not a tool error`);
    text = res.content[0].text;
  } catch (e) {
    // HTTP refuses a body over its hard cap unread (413 with the
    // limit_exceeded document as the JSON-RPC error's data).
    if (mode !== "http" || why !== "5 MiB over the cap") fail(`${why}: ${e}`);
    text = String(e);
  }
  if (!text.includes(want)) fail(`${why}: ${text.slice(0, 300)}`);
  const after = await client.callTool({ name: eq, arguments: { source: [1], claim: [1] } });
  if (after.isError || after.structuredContent.valid !== true) fail(`${why}: the call after got ${JSON.stringify(after)}`);
  calls += 2;
}
try {
  await client.callTool({ name: "nope", arguments: {} });
  fail("an unknown tool succeeded");
} catch (e) {
  if (e.code !== -32602) fail(`unknown tool: ${e}`);
}
await client.close();
console.log(`ok ${mode}: ${tools.length} tools, ${calls} calls`);
