// The official TypeScript MCP SDK v2 client (npm @modelcontextprotocol/client)
// pinned to the 2026-07-28 revision, for the long run (cmd/claimcheck's
// TestBinary): the connection must be modern (server/discover, then every
// request with its _meta), the tools listed, every example of every tool
// called and its structuredContent the example's, a document the tool
// refuses answered with its error document, an unknown tool refused.
//
//   node sdk_v2_client.mjs stdio BINARY
//   node sdk_v2_client.mjs http URL
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [mode, target] = process.argv.slice(2);
const fail = (msg) => { console.error("FAIL " + msg); process.exit(1); };
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: ["mcp"] })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: "claimcheck-long-run", version: "0" },
  { versionNegotiation: { mode: { pin: "2026-07-28" } } });
await client.connect(transport);
if (client.getProtocolEra() !== "modern" || client.getNegotiatedProtocolVersion() !== "2026-07-28") {
  fail(`era ${client.getProtocolEra()}, version ${client.getNegotiatedProtocolVersion()}`);
}

const { tools } = await client.listTools();
if (tools.length !== 3) fail(`${tools.length} tools`);
let calls = 0;
for (const tool of tools) {
  const examples = tool._meta["claimcheck/examples"];
  if (!examples?.length) fail(`${tool.name}: no examples in tools/list`);
  for (const ex of examples) {
    const res = await client.callTool({ name: tool.name, arguments: ex.arguments });
    calls++;
    if (res.isError) fail(`${tool.name}: example is a tool error: ${res.content[0].text}`);
    if (JSON.stringify(res.structuredContent) !== JSON.stringify(ex.structuredContent)) fail(`${tool.name}: ${JSON.stringify(res.structuredContent)}`);
    if (res.content[0].text !== JSON.stringify(ex.structuredContent)) fail(`${tool.name}: text ${res.content[0].text}`);
  }
}

// A document the tool refuses: its error document, as a tool error.
const bad = await client.callTool({ name: "multiset-equality-check", arguments: { source: [1], claim: [[1]] } });
calls++;
const want = '{"error":{"code":"invalid_input","path":"/claim/0","message":"element is an array, not a scalar"}}';
if (!bad.isError || bad.content[0].text !== want) fail(`a bad document: ${JSON.stringify(bad)}`);

try {
  await client.callTool({ name: "nope", arguments: {} });
  fail("an unknown tool succeeded");
} catch (e) {
  if (e.code !== -32602) fail(`unknown tool: ${e}`);
}
const version = client.getNegotiatedProtocolVersion();
await client.close();
console.log(`ok ${mode} ${version}: ${tools.length} tools, ${calls} calls`);
