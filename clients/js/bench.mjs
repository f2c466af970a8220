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

const N = Number(process.argv[2] ?? 1_000_000);
const tool = process.argv[3] ?? "multiset-equality-check";
const base = corpusLines(tool);
const lines = Array.from({ length: N }, (_, i) => base[i % base.length]);
const dir = mkdtempSync(path.join(tmpdir(), "cc-bench-"));
const file = path.join(dir, "in.jsonl");
writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])));
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

console.log(`${N.toLocaleString("en-US")} lines of ${tool} (${(readFileSync(file).length / 2 ** 20).toFixed(1)} MiB), node ${process.version}`);
const b = timed(bin, ["batch", "-j", "2", tool]);
console.log(`claimcheck batch -j 2      ${(b.ms / 1000).toFixed(2)} s  ${rate(b.ms)}  peak RSS ${MB(b.kb)}`);

const srv = await startServe();
try {
  const c = new Client(srv.url);
  const rss0 = process.memoryUsage().rss;
  let n = 0;
  const t0 = process.hrtime.bigint();
  function* records() {
    for (const l of lines) yield [tool, new Raw(l)];
  }
  for await (const r of c.checkStream(records())) if (r.raw.length > 0) n++;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  c.close();
  if (n !== N) throw new Error(`${n} results for ${N} lines`);
  const self = process.resourceUsage().maxRSS;
  console.log(`checkStream (raw lines)    ${(ms / 1000).toFixed(2)} s  ${rate(ms)}  peak RSS ${MB(self)} (the lines themselves, held by the bench, ${MB(rss0 / 1024)} before)  serve ${MB(hwm(srv.proc.pid))}`);
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
