// Send JSON Lines to claimcheck's batch route with fetch (Node 20) and write
// the answers as they come, line N answering line N. The request body is a
// stream (duplex: "half"), so the first answers arrive before it ends.
//
//   node batch.mjs http://127.0.0.1:8080 multiset-equality-check 1.0.0 < in.jsonl > out.jsonl
import { Readable } from "node:stream";

export async function* batch(base, tool, version, body) {
  const resp = await fetch(`${base}/v1/tools/${tool}/versions/${version}/batch`, {
    method: "POST",
    headers: { "Content-Type": "application/jsonl" },
    body,
    duplex: "half",
  });
  if (resp.status !== 200) {
    throw new Error(`${resp.status}: ${await resp.text()}`);
  }
  let pending = Buffer.alloc(0);
  for await (const chunk of resp.body) {
    pending = Buffer.concat([pending, chunk]);
    let nl;
    while ((nl = pending.indexOf(10)) >= 0) {
      yield pending.subarray(0, nl + 1);
      pending = pending.subarray(nl + 1);
    }
  }
  if (pending.length > 0) throw new Error("the answer ended inside a line");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, tool, version] = process.argv.slice(2);
  for await (const answer of batch(base, tool, version, Readable.toWeb(process.stdin))) {
    if (!process.stdout.write(answer)) await new Promise((r) => process.stdout.once("drain", r));
  }
}
