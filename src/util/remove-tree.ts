/**
 * Deleting a directory tree that may have been built to break deletion:
 * thousands of levels deep (a recursive delete overflows the stack; a path
 * outgrows PATH_MAX), unreadable directories, links. The walk keeps its own
 * stack, never follows a link, moves a directory up to the top before its
 * path grows long, and skips what it cannot delete. It never throws.
 */
import { chmodSync, lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const LONG_PATH = 1024;

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    try {
      chmodSync(dir, 0o700);
      return readdirSync(dir);
    } catch {
      return [];
    }
  }
}

/** Removes `root` and everything under it as far as possible; returns true when it is gone. */
export function removeTree(root: string): boolean {
  let moved = 0;
  const stack = [root];
  const stuck = new Set<string>();
  while (stack.length > 0) {
    const dir = stack[stack.length - 1] ?? root;
    let descended = false;
    for (const name of entries(dir)) {
      const path = join(dir, name);
      if (stuck.has(path)) continue;
      let isDir = false;
      try {
        isDir = lstatSync(path).isDirectory();
        if (!isDir) {
          unlinkSync(path);
          continue;
        }
        rmdirSync(path);
        continue;
      } catch {
        if (!isDir) {
          stuck.add(path);
          continue;
        }
      }
      if (path.length > LONG_PATH && dir !== root) {
        try {
          renameSync(path, join(root, `.flat-${(moved += 1)}`));
        } catch {
          stuck.add(path);
        }
        continue;
      }
      stack.push(path);
      descended = true;
      break;
    }
    if (descended) continue;
    stack.pop();
    try {
      rmdirSync(dir);
    } catch {
      stuck.add(dir);
    }
  }
  try {
    lstatSync(root);
    return false;
  } catch {
    return true;
  }
}
