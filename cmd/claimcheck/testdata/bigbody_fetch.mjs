// Send bodies over the cap to a claimcheck serve with Node's fetch, the
// transport of the TypeScript MCP SDK:
//
//	node bigbody_fetch.mjs BASE_URL PATH SIZE TRIES
//
// Each try posts SIZE bytes (a JSON document padded with spaces, a Buffer
// body) to PATH. It prints one line per outcome kind, "ok N" for the
// answers that are the limit_exceeded (max_document_bytes) error, and exits
// 1 unless every try was one.
const [base, path, sizeArg, triesArg] = process.argv.slice(2);
const size = Number(sizeArg), tries = Number(triesArg);
const head = path.endsWith("/mcp")
  ? '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":{"source":[1],"claim":[1]}}}'
  : '{"source":[1],"claim":[1]}';
const body = Buffer.alloc(size, " ");
body.write(head);
const outcomes = new Map();
for (let i = 0; i < tries; i++) {
  let kind;
  try {
    const res = await fetch(base + path, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    });
    const doc = await res.json();
    const err = doc.error ?? {};
    const inner = (err.data ?? err).error ?? err.data ?? err;
    // /mcp reads a body up to twice its cap to its end, and answers a
    // message over the cap in JSON-RPC (200, or 400 with no id); past
    // that, and on /v1, the answer is 413.
    const statusOk = res.status === 413 || (path.endsWith("/mcp") && (res.status === 200 || res.status === 400));
    kind = statusOk && inner.code === "limit_exceeded" && inner.limit === "max_document_bytes"
      ? "ok" : `answer ${res.status} ${JSON.stringify(doc).slice(0, 200)}`;
  } catch (e) {
    kind = `${e.name}: ${e.message}${e.cause ? " (" + e.cause.code + ")" : ""}`;
  }
  outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
}
for (const kind of [...outcomes.keys()].sort()) console.log(kind, outcomes.get(kind));
process.exit(outcomes.get("ok") === tries ? 0 : 1);
