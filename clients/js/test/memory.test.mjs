// Memory stays bounded whatever the number of records; with
// CLAIMCHECK_LONG=1, a 1,000,000-record run is compared byte for byte, tool
// by tool, with claimcheck batch.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, Raw } from "../src/index.mjs";
import { startServe, batch, corpusLines, tools, long } from "./helpers.mjs";

let srv;
before(async () => (srv = await startServe()));
after(async () => srv?.kill());

test("checkStream over 200,000 generated records: RSS grows by less than 150 MB", async () => {
  const ids = tools.map((t) => t.id);
  function* records() {
    for (let i = 0; i < 200_000; i++) {
      const k = i % 3;
      if (ids[k] === "rational-expression-check") yield [ids[k], { expression: `${i} + 1/2`, claimed_value: `${2 * i + 1}/2`, require_canonical: true }];
      else if (ids[k] === "multiset-difference-check") yield [ids[k], { left: [i, "a", "a"], right: ["a", null], claim: { left_only: ["a", i], right_only: [null] } }];
      else yield [ids[k], { source: [i, "a", null, i % 7], claim: [i % 7, null, "a", i] }];
    }
  }
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0, n = 0, valid = 0;
  const c = new Client(srv.url);
  for await (const r of c.checkStream(records())) {
    if (r.valid !== null) valid++;
    if ((++n & 1023) === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  c.close();
  peak = Math.max(peak, process.memoryUsage().rss);
  assert.equal(n, 200_000);
  assert.equal(valid, 200_000);
  const growth = (peak - rss0) / 2 ** 20;
  console.log(`# RSS ${(rss0 / 2 ** 20).toFixed(0)} MB -> peak ${(peak / 2 ** 20).toFixed(0)} MB (+${growth.toFixed(0)} MB) over 200,000 records`);
  assert.ok(growth < 150, `RSS grew by ${growth.toFixed(0)} MB`);
});

test("1,000,000 records, mixed tools, byte for byte against claimcheck batch", { skip: long ? false : "set CLAIMCHECK_LONG=1", timeout: 600_000 }, async () => {
  const per = tools.map((t) => {
    const lines = corpusLines(t.id);
    return { id: `${t.id}@${t.version}`, lines, i: 0, off: 0, want: null };
  });
  const N = 1_000_000;
  // Which tool record j goes to: a fixed, uneven interleaving.
  const pick = (j) => (j % 7 < 3 ? 0 : j % 7 < 5 ? 1 : 2);
  const counts = [0, 0, 0];
  for (let j = 0; j < N; j++) counts[pick(j)]++;
  per.forEach((p, k) => {
    const parts = [];
    for (let j = 0; j < counts[k]; j++) parts.push(p.lines[j % p.lines.length], Buffer.from("\n"));
    p.want = batch(p.id, Buffer.concat(parts));
  });
  function* records() {
    for (let j = 0; j < N; j++) {
      const p = per[pick(j)];
      yield [p.id, new Raw(p.lines[p.i++ % p.lines.length])];
    }
  }
  const c = new Client(srv.url);
  let n = 0, peak = 0;
  for await (const r of c.checkStream(records())) {
    const p = per[pick(n)];
    const b = Buffer.from(r.raw + "\n");
    if (!b.equals(p.want.subarray(p.off, p.off + b.length))) assert.fail(`record ${n} (${p.id}): ${r.raw}`);
    p.off += b.length;
    if ((++n & 4095) === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  c.close();
  assert.equal(n, N);
  per.forEach((p) => assert.equal(p.off, p.want.length, p.id));
  console.log(`# 1,000,000 records: peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`);
});
