/** What each isolation level protects against, and what it does not, in words for doctor and the README. */
import type { IsolationInfo } from './isolation.js';

/** The guarantees of a level as detected here. */
export interface Protection {
  protects: string[];
  doesNot: string[];
}

/** The protections in force for `info`. */
export function describeProtection(info: IsolationInfo): Protection {
  const who = info.dropsRoot
    ? `runs as the unprivileged host uid ${info.uid}, not root`
    : `runs as uid ${info.uid} (this user)`;
  const common = [
    'an empty environment (no API keys)',
    'CPU, memory, file size and open-file limits',
    'a bounded output',
  ];
  if (info.level === 'bubblewrap') {
    return {
      protects: [
        who,
        'no network',
        'no host files but the data file (read-only) and /usr',
        'a private /proc with /proc/sys read-only',
        'one capped tmpfs for the work dir, /tmp and /dev/shm',
        'no capabilities, no new privileges',
        info.seccomp
          ? 'a seccomp filter (ptrace, keyctl, io_uring, perf_event_open, mount, bpf, … fail)'
          : 'no seccomp filter on this architecture',
        info.processLimit === 'cgroup'
          ? 'a process limit (pids cgroup)'
          : info.processLimit === 'rlimit'
            ? 'a process limit (RLIMIT_NPROC)'
            : 'NO process limit (root without a writable cgroup)',
        ...common,
      ],
      doesNot: [
        'kernel exploits (it shares the host kernel)',
        'reading the data file, which it is given',
        'CPU or memory pressure within the limits',
      ],
    };
  }
  if (info.level === 'namespaces') {
    return {
      protects: [who, 'no network', 'a private pid namespace', ...common],
      doesNot: [
        'host files: every file that uid may read is readable, and world-writable places are writable',
        'no seccomp filter',
        'no disk cap on the work dir',
      ],
    };
  }
  return {
    protects: [who, ...common],
    doesNot: [
      'network access',
      'host files that uid may read or write',
      'other processes of that uid',
      'no seccomp filter',
      'no disk cap on the work dir',
    ],
  };
}
