/**
 * Who a sandboxed program is on the host. Started by root, bubblewrap maps
 * the sandbox's uid to host root (no capabilities, but every permission check
 * passes as root), and the weaker levels would run as root outright. So when
 * OpsMind runs as root, every sandbox is started through `setpriv` as a
 * dedicated unprivileged uid/gid that owns no host file, with supplementary
 * groups cleared, no capabilities (not even in the bounding set) and
 * no_new_privs. A non-root user's sandboxes run as that user.
 */

/** The default host uid/gid of sandboxes started by root (overridable with OPSMIND_SANDBOX_UID). */
export const DEFAULT_SANDBOX_UID = 65533;

/** The host identity of a sandbox, and the command prefix that assumes it (empty when no change is needed). */
export interface SandboxIdentity {
  uid: number;
  gid: number;
  /** Whether the host runs as root and the sandbox drops to `uid`. */
  drops: boolean;
  prefix: string[];
}

/** The identity sandboxes get in this process. */
export function sandboxIdentity(): SandboxIdentity {
  const self = process.getuid?.() ?? 0;
  if (self !== 0) return { uid: self, gid: process.getgid?.() ?? self, drops: false, prefix: [] };
  const raw = Number(process.env.OPSMIND_SANDBOX_UID ?? DEFAULT_SANDBOX_UID);
  const uid = Number.isInteger(raw) && raw > 0 ? raw : DEFAULT_SANDBOX_UID;
  const id = String(uid);
  return {
    uid,
    gid: uid,
    drops: true,
    prefix: [
      '/usr/bin/setpriv',
      '--reuid',
      id,
      '--regid',
      id,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    ],
  };
}
