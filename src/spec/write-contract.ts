/**
 * Build step (`npm run build`): writes preamble/opsmind_contract.json from the
 * code (contract.ts), atomically, and only when it changed so a build leaves an
 * up-to-date checkout untouched.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { contractJson, contractPath } from './contract.js';

function current(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

const path = contractPath();
const text = contractJson();
if (current(path) !== text) {
  writeFileSync(`${path}.${process.pid}.tmp`, text);
  renameSync(`${path}.${process.pid}.tmp`, path);
  console.error(`wrote ${path}`);
}
