#!/usr/bin/env bash
# Installs claimcheck_client from this checkout into a fresh virtual
# environment and runs its tests against a real `claimcheck serve`.
#
# Needs Debian's python3 (3.11), python3-venv, python3-setuptools,
# python3-wheel and python3-pytest, haproxy for the replica test, and
# runs python3-pyflakes and mypy --strict where they are installed; no
# package index: pip runs with --no-index --no-build-isolation, building
# with the system's setuptools. The claimcheck binary is $CLAIMCHECK_BIN,
# else built here with go build. Extra arguments go to pytest (such as
# -k NAME); CLAIMCHECK_LONG=1 adds the 1,000,000-record test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${CLAIMCHECK_BIN:-}" ]; then
	(cd "$repo" && go build -o "$work/claimcheck" ./cmd/claimcheck)
	export CLAIMCHECK_BIN="$work/claimcheck"
fi

# Lint and types, where Debian's python3-pyflakes and mypy are installed.
if "$python" -m pyflakes --version >/dev/null 2>&1; then
	"$python" -m pyflakes "$here/src" "$here/tests" "$here/bench.py" "$here/claimcheck_batch.py"
else
	echo "SKIPPED: pyflakes (apt-get install python3-pyflakes)"
fi
if "$python" -m mypy --version >/dev/null 2>&1; then
	"$python" -m mypy --strict --no-error-summary --cache-dir "$work/mypy" "$here/src"
else
	echo "SKIPPED: mypy --strict (apt-get install mypy)"
fi

"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-index --no-build-isolation --disable-pip-version-check "$here"

# The tests import the installed package (tests/conftest.py falls back to
# src/ only when none is installed) and run its console script.
cd "$here"
export CLAIMCHECK_CLIENT_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@"
