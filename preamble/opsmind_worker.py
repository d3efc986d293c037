"""The sandbox worker: load the dataset once, then run each program in a fresh forked child.

    python3 -I opsmind_worker.py --data FILE --workroot DIR [--source-path PATH] [--limits JSON]
        [--own-pid-namespace] [--profile-name NAME] [--oneshot]

Protocol: JSON lines. The worker reads requests on stdin and answers on
stdout; nothing else is ever written there (the runs' children never hold
either pipe).

    ← {"op": "ready", "load_ms": 812.4, "rows": 1000000, "columns": 10}
    ← {"op": "data_error", "message": "..."}                  (then exits 65)
    → {"op": "run", "id": "r1", "name": "x.py", "code": "...", "timeout_s": 30, "limits": {...},
       "output_bytes": 1048576, "max_bundle_bytes": 268435456}
    ← {"op": "file", "name": "render_spec.json", "data": "<base64>", "more": false}   (0 or more)
    ← {"op": "done", "id": "r1", "exit_code": 0, "signal": null, "timed_out": false, "duration_ms": 4.1,
       "stdout": "...", "stdout_dropped": 0, "stderr": "...", "stderr_dropped": 0, "skipped": []}

The dataset is loaded under the run's memory and CPU limits, so a file that
expands beyond them is reported in words, not as a dead sandbox.

A fork of an interpreter with pandas loaded costs 10-20 ms, so the worker
keeps one child forked ahead of time ("spare"), waiting on a pipe for its
request; a run then costs only the program itself. The child starts a new
session, writes stdout/stderr into pipes the worker reads (bounded), applies
its own limits, and has a copy-on-write view of `df`: what one run does to
`df` no other run sees. When the run ends the worker kills every other
process in the sandbox's pid namespace (`--own-pid-namespace`; without one,
the run's session), then sends the run's files, then wipes the work root
(the run dir, /tmp and /dev/shm), so nothing of one run reaches the next.
`--oneshot` serves one request without warming up (a cold run).
"""
import argparse
import ctypes
import gc
import json
import os
import select
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opsmind_bundle  # noqa: E402
import opsmind_limits  # noqa: E402
import opsmind_preamble  # noqa: E402
import opsmind_run  # noqa: E402
import opsmind_wipe  # noqa: E402

PR_SET_DUMPABLE = 4
SCRATCH = (".tmp", ".shm")
CHILD_FAILED = 70


def not_dumpable():
    """Other processes of the same uid (a run's child) cannot open /proc/<worker>/fd or ptrace the worker."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def send(channel, message):
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def close_fds_except(keep):
    """Close every descriptor above 2 but `keep` (the worker's protocol pipes among them)."""
    try:
        fds = [int(fd) for fd in os.listdir("/proc/self/fd")]
    except OSError:
        fds = range(3, 1024)
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def redirect_output(out_fd, err_fd):
    """stdout and stderr into the worker's pipes, stdin from /dev/null."""
    null = os.open(os.devnull, os.O_RDONLY)
    for source, target in ((null, 0), (out_fd, 1), (err_fd, 2)):
        os.dup2(source, target)
        os.close(source)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)


def warm_up(loaded, data_path, source):
    """Run a throwaway program end to end in a scratch dir, so the copy-on-write faults and first-use
    costs of the run path (namespace, compile, exec, spec writing) happen before the request, not after."""
    import tempfile
    scratch = tempfile.mkdtemp(prefix="opsmind-warm-")
    saved = sys.stdout
    try:
        sys.stdout = open(os.devnull, "w")
        recorder = opsmind_preamble.Recorder(scratch, source, loaded[2])
        namespace = opsmind_preamble.make_namespace(recorder, loaded[0], data_path, loaded[1])
        opsmind_run.run_program("print(df.shape)", "warm-up.py", namespace, recorder)
        recorder.finish()
    except Exception:  # noqa: BLE001 - warming up is best effort
        pass
    finally:
        sys.stdout = saved
        shutil.rmtree(scratch, ignore_errors=True)


def read_request(request_fd):
    chunks = []
    with os.fdopen(request_fd, "rb") as pipe:
        for chunk in iter(lambda: pipe.read(1 << 16), b""):
            chunks.append(chunk)
    return json.loads(b"".join(chunks)) if chunks else None


def spare_child(pipes, loaded, data_path, source, workroot, warm):
    """In a pre-forked child: wait for the request, run it, report, and never return."""
    status = CHILD_FAILED
    try:
        if warm:
            warm_up(loaded, data_path, source)
        request = read_request(pipes["request_r"])
        if request is None:
            os._exit(0)  # the worker is going away
        os.setsid()
        redirect_output(pipes["out_w"], pipes["err_w"])
        close_fds_except({pipes["done_w"]})
        workdir = os.path.join(workroot, request["id"])
        os.mkdir(workdir, 0o700)
        status = opsmind_run.execute(request["code"], request["name"], workdir, loaded, data_path, source, request.get("limits"))
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - a child must never return into the worker loop
        import traceback
        traceback.print_exc()
    finally:
        status = status if isinstance(status, int) else 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        try:
            os.write(pipes["done_w"], (json.dumps({"exit_code": status}) + "\n").encode())
        except OSError:
            pass
        os._exit(status)


class Output:
    """The first `limit` bytes of a pipe; the rest is read and counted, never kept."""

    def __init__(self, fd, limit):
        self.fd, self.limit, self.kept, self.dropped = fd, limit, bytearray(), 0
        os.set_blocking(fd, False)

    def pump(self):
        """Read what is there; False at end of file."""
        while True:
            try:
                piece = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not piece:
                return False
            room = max(0, self.limit - len(self.kept))
            self.kept += piece[:room]
            self.dropped += max(0, len(piece) - room)

    def text(self):
        return self.kept.decode("utf-8", errors="replace")


class Spare:
    """A child forked ahead of time, blocked reading its request."""

    def __init__(self, loaded, data_path, source, workroot, warm=True):
        request_r, self.request_w = os.pipe()
        self.done_r, done_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.err_r, err_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            for fd in (self.request_w, self.done_r, self.out_r, self.err_r):
                os.close(fd)
            pipes = {"request_r": request_r, "done_w": done_w, "out_w": out_w, "err_w": err_w}
            spare_child(pipes, loaded, data_path, source, workroot, warm)
        for fd in (request_r, done_w, out_w, err_w):
            os.close(fd)

    def start(self, request, output_bytes):
        self.out = Output(self.out_r, output_bytes)
        self.err = Output(self.err_r, output_bytes)
        payload = json.dumps(request).encode()
        try:
            view = memoryview(payload)
            while view:
                written = os.write(self.request_w, view[:1 << 16])
                view = view[written:]
        except OSError:
            pass  # the child died before reading: wait() reports it
        os.close(self.request_w)

    def wait(self, timeout_s):
        """(exit code or None, signal name or None, timed_out), reading the output meanwhile."""
        try:
            pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            pidfd = None
        deadline = time.monotonic() + timeout_s
        open_outputs = [self.out, self.err]
        message = b""
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None, None, True
                watched = [self.done_r] + ([pidfd] if pidfd is not None else []) + [o.fd for o in open_outputs]
                ready, _, _ = select.select(watched, [], [], left)
                for output in list(open_outputs):
                    if output.fd in ready and not output.pump():
                        open_outputs.remove(output)
                if self.done_r in ready:
                    message = os.read(self.done_r, 4096)
                    break
                if pidfd is not None and pidfd in ready:
                    break
        finally:
            if pidfd is not None:
                os.close(pidfd)
        if message:
            try:
                return int(json.loads(message.decode().splitlines()[0])["exit_code"]), None, False
            except (ValueError, KeyError, IndexError):
                pass
        _, status = os.waitpid(self.pid, 0)  # died without reporting: a signal, os._exit, a crash
        code = os.waitstatus_to_exitcode(status)
        return (code, None, False) if code >= 0 else (None, signal.Signals(-code).name, False)

    def dispose(self, own_pid_namespace):
        """Kill what the run left, reap the child and drain its output. Returns how many processes were killed."""
        killed = kill_others() if own_pid_namespace else kill_session(self.pid)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        for output in (getattr(self, "out", None), getattr(self, "err", None)):
            if output is not None:
                output.pump()
        for fd in (self.done_r, self.out_r, self.err_r):
            os.close(fd)
        return killed


def kill_others():
    """SIGKILL every process of the namespace except pid 1 (the reaper) and this worker. Returns how many."""
    me, killed = os.getpid(), 0
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in (1, me):
            try:
                os.kill(int(entry), signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
    return killed


def kill_session(pid):
    """Without a pid namespace of our own: kill the run's session (its process group)."""
    try:
        os.killpg(pid, signal.SIGKILL)
        return 1
    except (ProcessLookupError, PermissionError):
        return 0


def run_one(spare, request, replies, workroot, own_pid_namespace):
    """Run one request on the spare, send its files and its done line, and wipe the work root."""
    started = time.perf_counter()
    spare.start(request, int(request.get("output_bytes", 1 << 20)))
    exit_code, signal_name, timed_out = spare.wait(float(request.get("timeout_s", 60)))
    killed = spare.dispose(own_pid_namespace)
    duration = (time.perf_counter() - started) * 1000
    workdir = os.path.join(workroot, request["id"])
    skipped = []
    if os.path.isdir(workdir) and not os.path.islink(workdir):
        skipped = opsmind_bundle.send_files(workdir, lambda m: send(replies, m), int(request.get("max_bundle_bytes", 256 << 20)),
                                            request.get("max_file_bytes"), request.get("file_caps"))
    send(replies, {"op": "done", "id": request["id"], "exit_code": exit_code, "signal": signal_name,
                   "timed_out": timed_out, "duration_ms": duration, "killed": killed,
                   "stdout": spare.out.text(), "stdout_dropped": spare.out.dropped,
                   "stderr": spare.err.text(), "stderr_dropped": spare.err.dropped, "skipped": skipped})
    # After the reply, off the critical path; the next request waits in the pipe until this is done.
    opsmind_wipe.wipe_contents(workroot, keep=SCRATCH)
    reset_scratch(workroot)


def reset_scratch(workroot):
    """/tmp and /dev/shm of the next run: empty, private directories again, whatever the last run made of them."""
    for name in SCRATCH:
        path = os.path.join(workroot, name)
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            os.unlink(path)
        if not os.path.lexists(path):
            os.mkdir(path, 0o700)
        os.chmod(path, 0o700)


def serve(requests, replies, loaded, data_path, source, args):
    warm = not args.oneshot
    spare = Spare(loaded, data_path, source, args.workroot, warm)
    for line in requests:
        request = json.loads(line)
        if request.get("op") != "run":
            continue
        run_one(spare, request, replies, args.workroot, args.own_pid_namespace)
        if args.oneshot:
            return
        spare = Spare(loaded, data_path, source, args.workroot, warm)
    spare.dispose(args.own_pid_namespace)


def load(data_path, limits, numbers=None):
    """(df, info, warnings) loaded under the run's memory and CPU limits, or a DataLoadError in words.
    `numbers` is how the host read the file's numbers ({"decimal", "thousands"}), so df agrees with it."""
    opsmind_limits.limit_loading(limits)
    try:
        return opsmind_run.opsmind_data.read_dataset(data_path, numbers)
    except MemoryError:
        raise opsmind_run.opsmind_data.DataLoadError(
            f"the data file expands beyond the {limits.get('memory_mb')} MB memory limit while loading "
            "(raise it with --memory-mb)") from None
    finally:
        opsmind_limits.end_loading()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--source-path", default=None)
    parser.add_argument("--profile-name", default=None, help="precompute the dataset profile under this source name before forking")
    parser.add_argument("--workroot", required=True, help="the directory the runs' work dirs are made in")
    parser.add_argument("--limits", default="{}", help="memory_mb and cpu_seconds bound the data load too")
    parser.add_argument("--numbers", default=None, help='how the host read numbers: {"decimal": ",", "thousands": "."}')
    parser.add_argument("--oneshot", action="store_true", help="serve one request, without warming up")
    parser.add_argument("--own-pid-namespace", action="store_true",
                        help="the worker runs in a pid namespace of its own: kill all other processes after each run")
    args = parser.parse_args()
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)  # stray prints must never corrupt the protocol
    sys.stdout = sys.stderr
    not_dumpable()
    reset_scratch(args.workroot)
    started = time.perf_counter()
    data_path = os.path.abspath(args.data)
    try:
        loaded = load(data_path, json.loads(args.limits), json.loads(args.numbers) if args.numbers else None)
    except opsmind_run.opsmind_data.DataLoadError as error:
        send(replies, {"op": "data_error", "message": str(error)})
        return opsmind_run.DATA_ERROR_EXIT
    source = opsmind_run.source_info(data_path, loaded[0], loaded[1], args.source_path)
    if args.profile_name:
        import opsmind_profile
        opsmind_profile.precompute(loaded[0], loaded[1], args.profile_name)
    gc.collect()
    gc.freeze()  # keep the loaded objects' pages shared with the children
    send(replies, {"op": "ready", "load_ms": (time.perf_counter() - started) * 1000, "rows": source["rows"], "columns": source["columns"]})
    serve(requests, replies, loaded, data_path, source, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
