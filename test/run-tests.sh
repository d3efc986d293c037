#!/usr/bin/env bash
# Runs every test with Node's test runner (Node 20 needs the files listed).
# The end-to-end tests spawn the built binary, so build first.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
mapfile -t files < <(find test -name '*.test.ts' -o -name '*.test.tsx' | sort)
exec node --import tsx --test --test-concurrency=2 "$@" "${files[@]}"
