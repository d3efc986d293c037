/**
 * Where a run's files land on the host: a host-only directory, written only
 * from what the worker sends. Names are checked (relative, plain components),
 * files are created exclusively and never through a link, and the bytes of a
 * run are capped; what is refused is recorded, never fatal.
 */
import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_NAME = 512;

/** Why a name is not a plain relative path, or null when it is. */
export function badName(name: string): string | null {
  if (name.length === 0 || name.length > MAX_NAME) return 'empty or over-long name';
  if (name.includes('\0') || name.includes('\\')) return 'invalid character in name';
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return 'not a plain relative path';
  return null;
}

/** Collects one run's files under `root` (which must be a fresh host-only directory). */
export class FileSink {
  private current: { name: string; fd: number } | undefined;
  private bytes = 0;
  private readonly refused = new Set<string>();
  /** Files that were refused, with the reason. */
  readonly problems: string[] = [];

  constructor(
    readonly root: string,
    private readonly maxBytes: number,
  ) {}

  /** Appends a chunk to `name`; `more` false closes it. */
  write(name: string, data: Buffer, more: boolean): void {
    if (this.refused.has(name)) return;
    if (this.current && this.current.name !== name) this.finish();
    if (!this.current && !this.open(name)) return;
    if (this.bytes + data.length > this.maxBytes) {
      this.refuse(name, `the run's files exceed ${this.maxBytes} bytes`);
      return;
    }
    this.bytes += data.length;
    if (this.current) writeSync(this.current.fd, data);
    if (!more) this.finish();
  }

  private open(name: string): boolean {
    const bad = badName(name);
    if (bad) {
      this.refuse(name, bad);
      return false;
    }
    try {
      mkdirSync(dirname(join(this.root, name)), { recursive: true, mode: 0o700 });
      const flags =
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
      this.current = { name, fd: openSync(join(this.root, name), flags, 0o600) };
      return true;
    } catch (error) {
      this.refuse(name, (error as NodeJS.ErrnoException).code ?? 'cannot be written');
      return false;
    }
  }

  private refuse(name: string, reason: string): void {
    if (this.current?.name === name) {
      this.finish();
      rmSync(join(this.root, name), { force: true });
    }
    this.refused.add(name);
    this.problems.push(`${name}: ${reason}`);
  }

  private finish(): void {
    if (this.current) closeSync(this.current.fd);
    this.current = undefined;
  }

  /** Closes whatever is open. */
  close(): void {
    this.finish();
  }
}
