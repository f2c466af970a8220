import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, ClaimcheckError, Raw, Result, encode } from "../src/index.mjs";
import { startServe, batch, tools, corpusLines, splitLines } from "./helpers.mjs";

let srv, client;
before(async () => {
  srv = await startServe();
  client = new Client(srv.url);
});
after(async () => {
  client?.close();
  await srv?.kill();
});

test("check: the descriptors' examples, as JS values, by id and by id@version", async () => {
  for (const t of tools) {
    for (const ex of t.examples) {
      for (const name of [t.id, `${t.id}@${t.version}`]) {
        const r = await client.check(name, ex.input);
        assert.ok(r instanceof Result);
        assert.deepEqual(r.document, ex.output, `${name} ${JSON.stringify(ex.input)}`);
        assert.equal(r.valid, ex.output.valid);
        assert.equal(typeof r.raw, "string");
        assert.ok(!r.raw.endsWith("\n"));
        assert.deepEqual(JSON.parse(JSON.stringify(r)), { valid: r.valid, document: r.document, raw: r.raw });
      }
    }
  }
});

test("checkMany: the corpora of every tool interleaved come back in order, the bytes of claimcheck batch", async () => {
  const per = tools.map((t) => {
    const lines = corpusLines(t.id);
    return { t, lines, want: splitLines(batch(`${t.id}@${t.version}`, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])))) };
  });
  const records = [], want = [];
  for (let i = 0; per.some((p) => i < p.lines.length); i++) {
    for (const p of per) {
      if (i < p.lines.length) {
        records.push([i % 2 ? p.t.id : `${p.t.id}@${p.t.version}`, new Raw(p.lines[i])]);
        want.push(p.want[i]);
      }
    }
  }
  const progress = [];
  // Small requests and few of them, so that lanes wait for one another.
  const c = new Client(srv.url, { maxLines: 7, maxInFlight: 2 });
  const got = await c.checkMany(records, { onProgress: (p) => progress.push(p) });
  c.close();
  assert.equal(got.length, records.length);
  assert.deepEqual(got.map((r) => r.raw), want);
  assert.deepEqual(progress.at(-1), { done: records.length, total: records.length });
  for (const r of got) assert.equal(r.valid, r.document.error ? null : r.document.valid);
});

test("raw broken JSON comes back as an error document with valid null", async () => {
  const [a, b, c] = await client.checkMany([
    ["multiset-equality-check", Client.raw('{"source":[1],"claim":')],
    ["multiset-equality-check", new Raw(Buffer.from("nope"))],
    ["multiset-equality-check", Client.raw("")],
  ]);
  for (const r of [a, b, c]) {
    assert.equal(r.valid, null);
    assert.equal(r.document.error.code, "invalid_input");
  }
});

test("a raw text with a newline is refused on the client", () => {
  assert.throws(() => Client.raw('{"source":[],\n"claim":[]}'), TypeError);
  assert.throws(() => new Raw(Buffer.from("{}\n")), TypeError);
  assert.throws(() => new Raw(42), TypeError);
});

test("non-finite numbers are refused, never sent as null", async () => {
  for (const bad of [NaN, Infinity, -Infinity]) {
    assert.throws(() => encode({ source: [1, bad], claim: [1] }), TypeError);
    assert.throws(() => encode({ a: { b: [bad] } }), TypeError);
    await assert.rejects(client.check("multiset-equality-check", { source: [bad], claim: [null] }), TypeError);
  }
  assert.throws(() => encode({ x: new Number(NaN) }), TypeError);
  assert.throws(() => encode({ toJSON: () => NaN }), TypeError);
  assert.throws(() => encode(undefined), TypeError);
  assert.throws(() => encode({ n: 1n }), TypeError);
  assert.equal(encode({ source: [null, 1.5, -0], claim: ["null"] }), '{"source":[null,1.5,0],"claim":["null"]}');
  // The results before the bad record still come, then the TypeError.
  const got = [];
  await assert.rejects(async () => {
    for await (const r of client.checkStream([
      ["multiset-equality-check", { source: [1], claim: [1] }],
      ["multiset-equality-check", { source: [NaN], claim: [1] }],
    ]))
      got.push(r);
  }, TypeError);
  assert.equal(got.length, 1);
  assert.equal(got[0].valid, true);
});

test("lone surrogates are escaped by JSON.stringify, and the server judges them", async () => {
  assert.equal(encode({ s: "\ud800" }), '{"s":"\\ud800"}');
  assert.equal(encode({ s: "a\udfffb" }), '{"s":"a\\udfffb"}');
  const r = await client.check("multiset-equality-check", { source: ["\ud800"], claim: ["\ud800"] });
  assert.ok(r.valid === true || r.valid === null, r.raw);
  assert.ok(!r.raw.includes("\ufffd") || r.valid === null, r.raw);
});

test("an unknown tool is a ClaimcheckError with status 404", async () => {
  await assert.rejects(client.check("no-such-tool", {}), (e) => e instanceof ClaimcheckError && e.status === 404 && e.code === "unknown_tool");
  await assert.rejects(client.check("no-such-tool@1.0.0", {}), (e) => e instanceof ClaimcheckError && e.status === 404 && e.document?.error?.code === "unknown_tool" && e.answered === 0);
  await assert.rejects(client.check("", {}), TypeError);
});

test("a slow async producer (40 records, 50 ms apart) completes, answers arriving as it goes", async () => {
  async function* slow() {
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 50));
      yield ["multiset-equality-check", { source: [i], claim: [i] }];
    }
  }
  const t0 = Date.now();
  let first = null, n = 0;
  for await (const r of client.checkStream(slow())) {
    first ??= Date.now() - t0;
    assert.equal(r.valid, true);
    n++;
  }
  assert.equal(n, 40);
  assert.ok(first < 1500, `the first answer came after ${first} ms`);
});

test("breaking out of checkStream early stops it", async () => {
  let produced = 0;
  function* many() {
    for (let i = 0; i < 1e7; i++) {
      produced++;
      yield ["multiset-equality-check", Client.raw(`{"source":[${i}],"claim":[${i}]}`)];
    }
  }
  let n = 0;
  for await (const r of client.checkStream(many())) {
    assert.equal(r.valid, true);
    if (++n === 10) break;
  }
  assert.ok(produced < 1e6, `${produced} produced`);
});
