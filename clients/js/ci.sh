#!/usr/bin/env bash
# CI for clients/js (@claimcheck/client): node --test against a real
# claimcheck serve. CLAIMCHECK_BIN names the claimcheck binary; without it
# the binary is built from the repository root into clients/js/.claimcheck.
# CLAIMCHECK_LONG=1 adds the 1,000,000-record comparison with claimcheck
# batch. Needs Node >= 20; no npm install (the package has no dependencies);
# the haproxy and nginx tests are skipped when those are not installed
# (with CI set they fail instead).
set -euo pipefail
cd "$(dirname "$0")"
node -e 'const [a] = process.versions.node.split(".").map(Number); if (a < 20) { console.error(`node ${process.version}: want >= 20`); process.exit(1); }'
if [ -z "${CLAIMCHECK_BIN:-}" ]; then
	(cd ../.. && go build -o clients/js/.claimcheck ./cmd/claimcheck)
	CLAIMCHECK_BIN="$PWD/.claimcheck"
fi
export CLAIMCHECK_BIN
# The package must stay dependency-free.
node -e 'const p = require("./package.json"); for (const k of ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"]) if (p[k] && Object.keys(p[k]).length) { console.error(`package.json has ${k}`); process.exit(1); }'
node --test --test-concurrency=2 test/*.test.mjs
