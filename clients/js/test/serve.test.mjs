// Against real claimcheck serve processes: a cut at -max-batch-lines, a
// server killed mid-run and restarted on the same port, the CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Client, Raw } from "../src/index.mjs";
import { startServe, startServeOn, batch, corpusLines, corpusInput, splitLines, tools, cli } from "./helpers.mjs";

const t = tools.find((d) => d.id === "multiset-equality-check");
const name = `${t.id}@${t.version}`;
const base = corpusLines(t.id);

function input(n) {
  const lines = Array.from({ length: n }, (_, i) => base[i % base.length]);
  return { lines, want: splitLines(batch(name, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])))) };
}

// Repeated: a cut request's connection must not go back to the pool (the
// server may keep it with the rest of the body unread, which then answered
// the next request with a 431, about one run in fifteen).
test("serve -max-batch-lines 100: 1,000 records complete, in order (10 times)", async () => {
  const srv = await startServe(["-max-batch-lines", "100"]);
  try {
    const { lines, want } = input(1000);
    for (let k = 0; k < 10; k++) {
      const c = new Client(srv.url, { maxInFlight: 2 });
      const got = await c.checkMany(lines.map((l) => [name, new Raw(l)]));
      c.close();
      assert.ok(c.stats.retries >= 1 && c.stats.requests >= 10, JSON.stringify(c.stats));
      assert.equal(c.options.maxLines, 10_000);
      assert.deepEqual(got.map((r) => r.raw), want);
    }
  } finally {
    await srv.kill();
  }
});

test("a server killed mid-run and restarted on the same port: complete, the bytes of claimcheck batch", async () => {
  let srv = await startServe();
  const addr = `127.0.0.1:${srv.port}`;
  try {
    const { lines, want } = input(60_000);
    const c = new Client(srv.url, { maxLines: 2000, retryDelay: 100, retries: 10 });
    let n = 0, killed = false;
    // A producer a little slower than the server, so that the kill lands mid-run.
    async function* records() {
      for (let i = 0; i < lines.length; i++) {
        if (i % 500 === 0) await new Promise((r) => setImmediate(r));
        yield [name, new Raw(lines[i])];
      }
    }
    const got = [];
    for await (const r of c.checkStream(records())) {
      got.push(r.raw);
      if (++n === 20_000 && !killed) {
        killed = true;
        await srv.kill("SIGKILL");
        setTimeout(async () => {
          srv = await startServeOn(addr);
        }, 300);
      }
    }
    c.close();
    assert.ok(killed);
    assert.ok(c.stats.retries > 0, `no request was retried: ${JSON.stringify(c.stats)}`);
    assert.equal(got.length, want.length);
    assert.ok(got.every((g, i) => g === want[i]), "the answers differ from claimcheck batch's");
  } finally {
    await srv.kill();
  }
});

test("a server stopped with SIGTERM mid-run (a rolling restart) and started again: complete", async () => {
  let srv = await startServe();
  const addr = `127.0.0.1:${srv.port}`;
  try {
    const { lines, want } = input(40_000);
    const c = new Client(srv.url, { maxLines: 2000, retries: 10 });
    let n = 0, stopped = false;
    async function* records() {
      for (let i = 0; i < lines.length; i++) {
        if (i % 500 === 0) await new Promise((r) => setImmediate(r));
        yield [name, new Raw(lines[i])];
      }
    }
    const got = [];
    for await (const r of c.checkStream(records())) {
      got.push(r.raw);
      if (++n === 10_000 && !stopped) {
        stopped = true;
        const old = srv;
        old.kill("SIGTERM").then(async () => {
          srv = await startServeOn(addr);
        });
      }
    }
    c.close();
    assert.equal(got.length, want.length);
    assert.ok(got.every((g, i) => g === want[i]), "the answers differ from claimcheck batch's");
    console.log(`# SIGTERM: ${JSON.stringify(c.stats)}`);
  } finally {
    await srv.kill();
  }
});

function run(args, stdin) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    const out = [], err = [];
    p.stdout.on("data", (d) => out.push(d));
    p.stderr.on("data", (d) => err.push(d));
    p.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    p.stdin.end(stdin);
  });
}

test("the CLI writes the bytes claimcheck batch writes, for every tool's corpus", async () => {
  const srv = await startServe();
  try {
    for (const d of tools) {
      const inBytes = corpusInput(d.id);
      const r = await run([srv.url, d.id], inBytes);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.equals(batch(`${d.id}@${d.version}`, inBytes)), d.id);
    }
    // CRLF, a blank line, a last line without "\n".
    const odd = Buffer.from('{"source":[1],"claim":[1]}\r\n\n  \n{"source":[2],"claim":[2]}');
    const r = await run([srv.url, name], odd);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.equals(batch(name, odd)));
  } finally {
    await srv.kill();
  }
});

test("the CLI exits non-zero with a message when it gives up", async () => {
  const srv = await startServe();
  const url = srv.url;
  await srv.kill();
  const r = await run(["-retries", "1", url, name], Buffer.from('{"source":[],"claim":[]}\n'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^claimcheck-client: gave up after 0 answers: .*ECONNREFUSED/);
  const u = await run([], Buffer.alloc(0));
  assert.equal(u.code, 2);
  const srv2 = await startServe();
  try {
    const nf = await run([srv2.url, "nope@1"], Buffer.from("{}\n"));
    assert.equal(nf.code, 1);
    assert.match(nf.stderr, /404/);
  } finally {
    await srv2.kill();
  }
});
