/**
 * The host's view of processes, for tests that check which identity a
 * sandboxed program really has: inside a user namespace a program can look
 * like uid 65534 while the host sees uid 0, so only /proc on the host tells.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Host pids (not this one) whose NUL-separated /proc/<pid>/<file> holds `item` whole. */
function pidsWhere(file: 'cmdline' | 'environ', item: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/${file}`, 'utf8').split('\0').includes(item))
        found.push(Number(entry));
    } catch {
      continue; // exited while we looked
    }
  }
  return found;
}

/** Host pids whose argv holds `arg` as one whole argument. */
export function pidsWithArg(arg: string): number[] {
  return pidsWhere('cmdline', arg);
}

/** Pids of live processes whose environment holds `KEY=value` (so only this test's processes). */
export function pidsWithEnv(key: string, value: string): number[] {
  return pidsWhere('environ', `${key}=${value}`);
}

/** The real, effective, saved and filesystem uids of a host process; null when it is gone. */
export function uidsOf(pid: number): number[] | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Uid:'));
    return line ? line.slice(4).trim().split(/\s+/).map(Number) : null;
  } catch {
    return null;
  }
}

/**
 * Waits for `during` (a sandbox run) while polling the host for processes
 * that have `arg` in their argv; returns its result and the uids of every
 * such process seen (one entry per pid).
 */
export async function watchUids<T>(
  arg: string,
  during: Promise<T>,
): Promise<{ result: T; uids: number[][] }> {
  const seen = new Map<number, number[]>();
  let settled = false;
  const finished = during.finally(() => {
    settled = true;
  });
  while (!settled) {
    for (const pid of pidsWithArg(arg)) {
      const uids = uidsOf(pid);
      if (uids && !seen.has(pid)) seen.set(pid, uids);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { result: await finished, uids: [...seen.values()] };
}
