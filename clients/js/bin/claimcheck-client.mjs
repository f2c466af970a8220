#!/usr/bin/env node
// claimcheck-client URL TOOL < in.jsonl > out.jsonl
//
// Sends each line of stdin, as written, to claimcheck serve's batch route at
// URL for TOOL (id, the newest version, or id@version) and writes the
// answers to stdout, line N answering line N: the bytes `claimcheck batch
// TOOL` writes. Exits 1 with a message on stderr when it gives up (the
// answers to the lines before the failure are written first), 2 on a usage
// error.
import { Buffer } from "node:buffer";
import { pathToFileURL } from "node:url";
import { Client, Raw } from "../src/index.mjs";

const usage = `usage: claimcheck-client [-max-in-flight N] [-max-lines N] [-max-bytes N] [-retries N] [-timeout MS] URL TOOL < in.jsonl > out.jsonl
TOOL is a tool id (its newest version) or id@version.`;

const flags = {
  "max-in-flight": "maxInFlight",
  "max-lines": "maxLines",
  "max-bytes": "maxBytes",
  retries: "retries",
  timeout: "timeout",
};

// chunks yields the records of a byte stream's lines, an array per read:
// each line without its "\n" (a last line without one too), as claimcheck
// batch splits its input.
async function* chunks(tool, stream) {
  let rest = null;
  for await (const chunk of stream) {
    const recs = [];
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      let line = chunk.subarray(start, nl);
      if (rest !== null) {
        line = Buffer.concat([rest, line]);
        rest = null;
      }
      recs.push([tool, new Raw(line)]);
      start = nl + 1;
    }
    if (start < chunk.length) rest = rest === null ? Buffer.from(chunk.subarray(start)) : Buffer.concat([rest, chunk.subarray(start)]);
    if (recs.length > 0) yield recs;
  }
  if (rest !== null && rest.length > 0) yield [[tool, new Raw(rest)]];
}

export async function main(argv, { stdin = process.stdin, stdout = process.stdout, stderr = process.stderr } = {}) {
  const opts = {};
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m && (m[1] === "h" || m[1] === "help")) {
      stdout.write(usage + "\n");
      return 0;
    }
    if (m && m[1] in flags) {
      const v = m[2] ?? argv[++i];
      const n = Number(v);
      if (v === undefined || !Number.isSafeInteger(n) || n < 0) {
        stderr.write(`claimcheck-client: -${m[1]} wants a number, not ${v}\n${usage}\n`);
        return 2;
      }
      opts[flags[m[1]]] = n;
      continue;
    }
    if (m) {
      stderr.write(`claimcheck-client: unknown flag ${a}\n${usage}\n`);
      return 2;
    }
    args.push(a);
  }
  if (args.length !== 2) {
    stderr.write(usage + "\n");
    return 2;
  }
  const [url, tool] = args;
  let client;
  try {
    client = new Client(url, opts);
  } catch (e) {
    stderr.write(`claimcheck-client: ${e.message}\n`);
    return 2;
  }
  let out = "";
  let n = 0;
  const write = async (s) => {
    if (!stdout.write(s)) await new Promise((r) => stdout.once("drain", r));
  };
  try {
    for await (const batch of client.checkStreamBatched(chunks(tool, stdin))) {
      for (const r of batch) out += r.raw + "\n";
      n += batch.length;
      if (out.length >= 1 << 16) {
        const s = out;
        out = "";
        await write(s);
      }
    }
    if (out !== "") await write(out);
    return 0;
  } catch (e) {
    if (out !== "") await write(out);
    const where = typeof e.answered === "number" ? ` after ${e.answered} answers` : ` after ${n} answers`;
    stderr.write(`claimcheck-client: gave up${where}: ${e.message}\n`);
    return 1;
  } finally {
    client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // A reader that went away (| head): stop quietly, as a filter does.
  process.stdout.on("error", (e) => process.exit(e.code === "EPIPE" ? 0 : 1));
  process.exitCode = await main(process.argv.slice(2));
}
