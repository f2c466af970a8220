// Test helpers: a real claimcheck serve on 127.0.0.1 (port 0), claimcheck
// batch, the public corpus, and small fake servers.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import http from "node:http";

export const repo = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));
export const bin = process.env.CLAIMCHECK_BIN || path.join(repo, "clients", "js", ".claimcheck");
export const cli = fileURLToPath(new URL("../bin/claimcheck-client.mjs", import.meta.url));
export const long = process.env.CLAIMCHECK_LONG === "1";

/** startServe runs `claimcheck serve -addr ADDR args...` and waits for its address. */
export function startServe(args = [], addr = "127.0.0.1:0") {
  const proc = spawn(bin, ["serve", "-addr", addr, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`serve did not print its address in 20 s: ${err}`));
    }, 20_000);
    proc.stderr.setEncoding("utf8");
    proc.stderr.on("data", (d) => {
      err += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(err);
      if (m && /memory bound/.test(err)) {
        clearTimeout(timer);
        proc.stderr.removeAllListeners("data");
        proc.stderr.resume();
        resolve({
          proc,
          url: m[1],
          port: Number(m[2]),
          kill(sig = "SIGKILL") {
            if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
            return new Promise((r) => {
              proc.once("exit", r);
              proc.kill(sig);
            });
          },
        });
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

/** startServeOn retries binding the same address a few times (a port just freed). */
export async function startServeOn(addr, args = []) {
  let last;
  for (let i = 0; i < 50; i++) {
    try {
      return await startServe(args, addr);
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw last;
}

/** batch runs `claimcheck batch tool` on input (a Buffer) and returns its stdout. */
export function batch(tool, input) {
  const r = spawnSync(bin, ["batch", tool], { input, maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return r.stdout;
}

/** tools: the served tools, from the descriptors. */
export const tools = readdirSync(path.join(repo, "schema", "descriptors"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(path.join(repo, "schema", "descriptors", f), "utf8")));

/** corpus(id): the conformance cases of a tool, {name, tool, input (a string), output}. */
export function corpus(id) {
  return readFileSync(path.join(repo, "testdata", "conformance", `${id}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** corpusLines(id): the corpus inputs (Buffers: input_base64 ones are not UTF-8) that are one line each. */
export function corpusLines(id) {
  return corpus(id)
    .map((c) => (c.input_base64 !== undefined ? Buffer.from(c.input_base64, "base64") : Buffer.from(c.input, "utf8")))
    .filter((b) => b.indexOf(10) < 0);
}

/** corpusInput(id): every corpus input and "\n", as claimcheck batch reads them. */
export function corpusInput(id) {
  const parts = [];
  for (const c of corpus(id)) parts.push(c.input_base64 !== undefined ? Buffer.from(c.input_base64, "base64") : Buffer.from(c.input, "utf8"), Buffer.from("\n"));
  return Buffer.concat(parts);
}

/** lines splits a buffer of JSON Lines into strings, without the newlines. */
export function splitLines(buf) {
  const s = buf.toString("utf8");
  const l = s.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

/** fakeServer starts a node:http server on 127.0.0.1:0 with handler. */
export function fakeServer(handler) {
  const srv = http.createServer(handler);
  return new Promise((resolve) => {
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      resolve({
        srv,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            srv.closeAllConnections();
            srv.close(r);
          }),
      });
    });
  });
}

/** readLines collects a request body's lines. */
export function readLines(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    req.on("data", (c) => parts.push(c));
    req.on("end", () => resolve(splitLines(Buffer.concat(parts))));
    req.on("error", reject);
  });
}

/** echo answers a line as a fake tool would: an output document naming it. */
export function echo(line) {
  return JSON.stringify({ valid: true, echo: line });
}
