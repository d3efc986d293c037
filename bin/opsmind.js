#!/usr/bin/env node
// The CLI bundled by `npm run build` (src/build/bundle.ts): one file per subcommand loads faster than ~300 modules.
import '../dist/bundle/main.js';
