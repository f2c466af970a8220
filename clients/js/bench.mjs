// Benchmark: checkStream over raw lines against a local claimcheck serve,
// next to `claimcheck batch -j 2` on the same lines: lines/s and peak RSS.
//
//   node bench.mjs [LINES] [TOOL]     (CLAIMCHECK_BIN: the binary, else ./.claimcheck)
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync, openSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Raw } from "./src/index.mjs";
import { startServe, bin, corpusLines, cli } from "./test/helpers.mjs";

const child = process.argv[2] === "--child";
const argv = child ? process.argv.slice(4) : process.argv.slice(2);
const N = Number(argv[0] ?? 1_000_000);
const tool = argv[1] ?? "multiset-equality-check";
// The corpus's lines under 4 KiB (its few huge limit cases would dominate), cycled.
const base = corpusLines(tool).filter((l) => l.length < 4096);
if (child) {
  // checkStream in a process of its own, so that its RSS is its own.
  const c = new Client(process.argv[3]);
  const raws = base.map((l) => new Raw(l));
  function* records() {
    for (let i = 0; i < N; i++) yield [tool, raws[i % raws.length]];
  }
  let n = 0;
  const t0 = process.hrtime.bigint();
  for await (const r of c.checkStream(records())) if (r.raw.length > 0) n++;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  c.close();
  if (n !== N) throw new Error(`${n} results for ${N} lines`);
  process.stdout.write(JSON.stringify({ ms, kb: process.resourceUsage().maxRSS }));
  process.exit(0);
}
const dir = mkdtempSync(path.join(tmpdir(), "cc-bench-"));
const file = path.join(dir, "in.jsonl");
{
  const parts = [];
  for (let i = 0; i < N; i++) parts.push(base[i % base.length], Buffer.from("\n"));
  writeFileSync(file, Buffer.concat(parts));
}
const MB = (kb) => (kb / 1024).toFixed(0) + " MB";
const rate = (ms) => Math.round(N / (ms / 1000)).toLocaleString("en-US") + " lines/s";
const hasTime = existsSync("/usr/bin/time");

function timed(cmd, args) {
  const t0 = process.hrtime.bigint();
  const fd = openSync(file, "r");
  const r = hasTime
    ? spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { stdio: [fd, "ignore", "pipe"] })
    : spawnSync(cmd, args, { stdio: [fd, "ignore", "pipe"] });
  closeSync(fd);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const kb = hasTime ? Number(r.stderr.toString().trim().split("\n").pop()) : NaN;
  return { ms, kb };
}

function hwm(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
  } catch {
    return NaN;
  }
}

console.log(`${N.toLocaleString("en-US")} lines of ${tool}, ${base.length} distinct (${(readFileSync(file).length / 2 ** 20).toFixed(1)} MiB), node ${process.version}`);
const b = timed(bin, ["batch", "-j", "2", tool]);
console.log(`claimcheck batch -j 2      ${(b.ms / 1000).toFixed(2)} s  ${rate(b.ms)}  peak RSS ${MB(b.kb)}`);

const srv = await startServe();
try {
  const r = spawnSync(process.execPath, [process.argv[1], "--child", srv.url, String(N), tool], { stdio: ["ignore", "pipe", "inherit"] });
  const cs = JSON.parse(r.stdout.toString());
  console.log(`checkStream (raw lines)    ${(cs.ms / 1000).toFixed(2)} s  ${rate(cs.ms)}  peak RSS ${MB(cs.kb)}  serve ${MB(hwm(srv.proc.pid))}`);
  const t1 = process.hrtime.bigint();
  const p = await new Promise((resolve) => {
    const fd = openSync(file, "r");
    const ch = spawn(hasTime ? "/usr/bin/time" : process.execPath, hasTime ? ["-f", "%M", process.execPath, cli, srv.url, tool] : [cli, srv.url, tool], { stdio: [fd, "ignore", "pipe"] });
    let err = "";
    ch.stderr.on("data", (d) => (err += d));
    ch.on("close", (code) => {
      closeSync(fd);
      resolve({ code, err });
    });
  });
  const ms2 = Number(process.hrtime.bigint() - t1) / 1e6;
  const kb = hasTime ? Number(p.err.trim().split("\n").pop()) : NaN;
  console.log(`claimcheck-client (CLI)    ${(ms2 / 1000).toFixed(2)} s  ${rate(ms2)}  peak RSS ${MB(kb)}  serve ${MB(hwm(srv.proc.pid))}`);
} finally {
  await srv.kill();
  rmSync(dir, { recursive: true, force: true });
}
