#!/usr/bin/env node
// The CLI bundled by `npm run build` (src/build/bundle.ts) into one CommonJS file, run with V8's
// code cache (src/cli/code-cache.ts): a run starts from the bytecode its subcommand's last run compiled.
import { fileURLToPath } from 'node:url';
import { runBundle } from '../dist/src/cli/code-cache.js';

runBundle(fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url)));
