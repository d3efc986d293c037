/** Wall time and peak resident memory of a command's whole process tree (polled from /proc). */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

function children(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(entry));
      map.set(ppid, list);
    } catch {
      continue;
    }
  }
  return map;
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Sum of VmRSS over `root` and all its descendants, in KiB. */
export function treeRssKb(root: number): number {
  const tree = children();
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() ?? 0;
    total += rssKb(pid);
    stack.push(...(tree.get(pid) ?? []));
  }
  return total;
}

/** Runs a command to completion; returns its exit code, wall seconds and peak tree RSS (MiB), polling every 20 ms. */
export function measure(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{
  code: number | null;
  seconds: number;
  peakMb: number;
  stdout: string;
  stderr: string;
}> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, treeRssKb(child.pid));
    }, 20);
    child.once('close', (code) => {
      clearInterval(timer);
      resolve({
        code,
        seconds: (performance.now() - started) / 1000,
        peakMb: peak / 1024,
        stdout,
        stderr,
      });
    });
  });
}
