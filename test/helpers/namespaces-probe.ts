/**
 * Child process for the namespaces-fallback case of
 * test/sandbox-hardening.test.ts. Run it with OPSMIND_BWRAP=none and a fresh
 * OPSMIND_HOME (isolation detection is memoised per process and cached on
 * disk): it detects isolation, opens a Sandbox, runs the probe program while
 * watching from the host which uids the program's process really has, then
 * a normal program. Prints one line `RESULT <json>`; a refusal to open or to
 * run is reported, not thrown.
 *
 *   node --import tsx test/helpers/namespaces-probe.ts request.json
 */
import { readFileSync } from 'node:fs';
import { detectIsolation } from '../../src/sandbox/isolation.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import type { Limits } from '../../src/sandbox/limits.js';
import { findPython } from '../../src/sandbox/python.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { preambleDir } from '../../src/util/package-root.js';
import { watchUids } from './host-procs.js';

/** What the parent asks for: the probe program and the argument its exec'd child carries. */
export interface ProbeRequest {
  dataPath: string;
  limits: Partial<Limits>;
  code: string;
  marker: string;
  followUp: string;
}

/** What the child reports. */
export interface ProbeReport {
  level: string;
  reason: string;
  /** Set when Sandbox.open or the first run refused: the message (and hint) a person sees. */
  refused: string | null;
  run: { exitCode: number | null; stdout: string; stderr: string; limitHit: string | null } | null;
  /** Host uids (real, effective, saved, fs) of every process that carried the marker. */
  uids: number[][];
  followUp: { exitCode: number | null; stdout: string; stderr: string } | null;
}

function describe(error: unknown): string {
  const hint = (error as { hint?: string }).hint;
  return `${(error as Error).message}${hint ? ` (${hint})` : ''}`;
}

async function main(): Promise<void> {
  const request = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as ProbeRequest;
  const python = await findPython();
  const isolation = await detectIsolation(python.path, preambleDir());
  const report: ProbeReport = {
    level: isolation.level,
    reason: isolation.reason,
    refused: null,
    run: null,
    uids: [],
    followUp: null,
  };
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await Sandbox.open({
      python,
      dataPath: request.dataPath,
      limits: { ...DEFAULT_LIMITS, ...request.limits },
    });
    const watched = await watchUids(
      request.marker,
      sandbox.run({ code: request.code, scriptName: 'probe.py' }),
    );
    report.run = {
      exitCode: watched.result.exitCode,
      stdout: watched.result.stdout,
      stderr: watched.result.stderr,
      limitHit: watched.result.limitHit,
    };
    report.uids = watched.uids;
    const next = await sandbox.run({ code: request.followUp, scriptName: 'next.py' });
    report.followUp = { exitCode: next.exitCode, stdout: next.stdout, stderr: next.stderr };
  } catch (error) {
    report.refused = describe(error);
  } finally {
    sandbox?.close();
  }
  process.stdout.write(`RESULT ${JSON.stringify(report)}\n`);
}

await main();
