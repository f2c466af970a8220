// The old example's command line, kept for the links to it: it now runs
// the @claimcheck/client CLI (bin/claimcheck-client.mjs), which streams with
// node:http (fetch kept the whole streamed body in memory), retries a cut or
// failed request from its first unanswered line, and exits 1 when it gives
// up instead of 0 on a truncated stream.
//
//   node batch.mjs http://127.0.0.1:8080 multiset-equality-check 1.0.0 < in.jsonl > out.jsonl
//
// is `claimcheck-client http://127.0.0.1:8080 multiset-equality-check@1.0.0`.
import { main } from "./bin/claimcheck-client.mjs";

const [base, tool, version, ...rest] = process.argv.slice(2);
if (base === undefined || tool === undefined || rest.length > 0) {
  process.stderr.write("usage: node batch.mjs URL TOOL_ID [VERSION] < in.jsonl > out.jsonl\n");
  process.exitCode = 2;
} else {
  process.exitCode = await main([base, version === undefined ? tool : `${tool}@${version}`]);
}
