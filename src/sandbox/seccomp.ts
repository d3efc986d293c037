/**
 * A seccomp filter for sandboxed programs, as the classic BPF program that
 * `bwrap --seccomp FD` loads: syscalls an analysis never needs (debugging
 * other processes, kernel keyrings, io_uring, perf, mounts, BPF, module and
 * kexec loading, namespace changes, clock setting) fail with EPERM, and so
 * does every syscall of a foreign ABI (i386 or x32 on x86_64), which would
 * otherwise reach the same kernel entry points under other numbers.
 */

/** What the filter denies, by name; one list for every architecture. */
export const DENIED_SYSCALLS = [
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'pidfd_getfd',
  'kcmp',
  'process_madvise',
  'keyctl',
  'add_key',
  'request_key',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'perf_event_open',
  'bpf',
  'userfaultfd',
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'move_mount',
  'open_tree',
  'mount_setattr',
  'setns',
  'unshare',
  'open_by_handle_at',
  'name_to_handle_at',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'swapon',
  'swapoff',
  'reboot',
  'acct',
  'quotactl',
  'quotactl_fd',
  'lookup_dcookie',
  'syslog',
  'vhangup',
  'settimeofday',
  'clock_settime',
  'adjtimex',
  'clock_adjtime',
] as const;

type Syscall = (typeof DENIED_SYSCALLS)[number];

/** Numbers shared by the generic table (aarch64) and x86_64 for the newer syscalls. */
const GENERIC_NEW = {
  pidfd_getfd: 438,
  process_madvise: 440,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
  quotactl_fd: 443,
} as const;

const X86_64: Record<Syscall, number> = {
  ...GENERIC_NEW,
  ptrace: 101,
  process_vm_readv: 310,
  process_vm_writev: 311,
  kcmp: 312,
  keyctl: 250,
  add_key: 248,
  request_key: 249,
  perf_event_open: 298,
  bpf: 321,
  userfaultfd: 323,
  mount: 165,
  umount2: 166,
  pivot_root: 155,
  chroot: 161,
  setns: 308,
  unshare: 272,
  open_by_handle_at: 304,
  name_to_handle_at: 303,
  kexec_load: 246,
  kexec_file_load: 320,
  init_module: 175,
  finit_module: 313,
  delete_module: 176,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  acct: 163,
  quotactl: 179,
  lookup_dcookie: 212,
  syslog: 103,
  vhangup: 153,
  settimeofday: 164,
  clock_settime: 227,
  adjtimex: 159,
  clock_adjtime: 305,
};

const AARCH64: Record<Syscall, number> = {
  ...GENERIC_NEW,
  ptrace: 117,
  process_vm_readv: 270,
  process_vm_writev: 271,
  kcmp: 272,
  keyctl: 219,
  add_key: 217,
  request_key: 218,
  perf_event_open: 241,
  bpf: 280,
  userfaultfd: 282,
  mount: 40,
  umount2: 39,
  pivot_root: 41,
  chroot: 51,
  setns: 268,
  unshare: 97,
  open_by_handle_at: 265,
  name_to_handle_at: 264,
  kexec_load: 104,
  kexec_file_load: 294,
  init_module: 105,
  finit_module: 273,
  delete_module: 106,
  swapon: 224,
  swapoff: 225,
  reboot: 142,
  acct: 89,
  quotactl: 60,
  lookup_dcookie: 18,
  syslog: 116,
  vhangup: 58,
  settimeofday: 170,
  clock_settime: 112,
  adjtimex: 171,
  clock_adjtime: 266,
};

const ARCHES: Partial<
  Record<NodeJS.Architecture, { audit: number; table: Record<Syscall, number>; x32: boolean }>
> = {
  x64: { audit: 0xc000003e, table: X86_64, x32: true },
  arm64: { audit: 0xc00000b7, table: AARCH64, x32: false },
};

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const X32_BIT = 0x40000000;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** True when this architecture has a filter; elsewhere programs run without one (and doctor says so). */
export function seccompSupported(arch: NodeJS.Architecture = process.arch): boolean {
  return ARCHES[arch] !== undefined;
}

/** The filter as bytes of `struct sock_filter[]` (little-endian), or null on an architecture without a table. */
export function seccompProgram(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const spec = ARCHES[arch];
  if (!spec) return null;
  const numbers = DENIED_SYSCALLS.map((name) => spec.table[name]);
  // Layout: arch check, nr load, [x32 check], one JEQ per denied number, ALLOW, DENY.
  const insns: Insn[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFFSET_ARCH },
    // Foreign ABI: jump over everything to DENY.
    { code: JEQ_K, jt: 0, jf: numbers.length + (spec.x32 ? 3 : 2), k: spec.audit },
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFFSET_NR },
  ];
  if (spec.x32) insns.push({ code: JGE_K, jt: numbers.length + 1, jf: 0, k: X32_BIT });
  numbers.forEach((nr, index) =>
    insns.push({ code: JEQ_K, jt: numbers.length - index, jf: 0, k: nr }),
  );
  insns.push(
    { code: RET_K, jt: 0, jf: 0, k: RET_ALLOW },
    { code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | EPERM },
  );
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(insn.jt, i * 8 + 2);
    out.writeUInt8(insn.jf, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
