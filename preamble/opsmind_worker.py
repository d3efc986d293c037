"""The warm worker: load the dataset once, then run each program in a fresh forked child.

    python3 -I opsmind_worker.py --data FILE [--source-path PATH] [--own-pid-namespace]

Protocol: JSON lines. The worker reads requests on stdin and answers on
stdout; nothing else is ever written there.

    ← {"op": "ready", "load_ms": 812.4, "rows": 1000000, "columns": 10}
    ← {"op": "data_error", "message": "..."}                  (then exits 65)
    → {"op": "run", "id": "r1", "workdir": "/work/r1", "script": "/work/r1/.opsmind/program.py",
       "name": "x.py", "timeout_s": 30, "limits": {...}}
    ← {"op": "done", "id": "r1", "exit_code": 0, "signal": null, "timed_out": false,
       "duration_ms": 4.1, "killed": 0}

A fork of an interpreter with pandas loaded costs 10-20 ms, so the worker
keeps one child forked ahead of time ("spare"), waiting on a pipe for its
request; a run then costs only the program itself. Each child starts a new
session, writes stdout/stderr to files in its work dir, applies its own
limits, and has a copy-on-write view of `df`: what one run does to `df` no
other run sees. The child reports its status on a pipe before exiting, so the
teardown of its address space is not on the critical path either. After every
run the worker kills every other process in the sandbox's pid namespace
(`--own-pid-namespace`), so a program that used setsid or a double fork does
not outlive its run; without a pid namespace it kills the run's session.
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

import opsmind_preamble  # noqa: E402
import opsmind_run  # noqa: E402

PR_SET_DUMPABLE = 4
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


def redirect_output(workdir):
    control = os.path.join(workdir, ".opsmind")
    out = os.open(os.path.join(control, "stdout"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(os.path.join(control, "stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    for source, target in ((null, 0), (out, 1), (err, 2)):
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


def spare_child(request_fd, done_fd, loaded, data_path, source):
    """In a pre-forked child: wait for the request, run it, report, and never return."""
    status = CHILD_FAILED
    try:
        warm_up(loaded, data_path, source)
        with os.fdopen(request_fd, "r", encoding="utf-8") as pipe:
            line = pipe.readline()
        if not line:
            os._exit(0)  # the worker is going away
        request = json.loads(line)
        os.setsid()
        close_fds_except({done_fd})
        redirect_output(request["workdir"])
        with open(request["script"], encoding="utf-8") as handle:
            code = handle.read()
        status = opsmind_run.execute(code, request["name"], request["workdir"], loaded, data_path, source, request.get("limits"))
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - a child must never return into the worker loop
        import traceback
        traceback.print_exc()
    finally:
        status = status if isinstance(status, int) else 1
        try:
            os.write(done_fd, (json.dumps({"exit_code": status}) + "\n").encode())
        except OSError:
            pass
        os._exit(status)


class Spare:
    """A child forked ahead of time, blocked reading its request."""

    def __init__(self, loaded, data_path, source):
        request_r, self.request_w = os.pipe()
        self.done_r, done_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.request_w)
            os.close(self.done_r)
            spare_child(request_r, done_w, loaded, data_path, source)
        os.close(request_r)
        os.close(done_w)

    def start(self, request):
        os.write(self.request_w, (json.dumps(request) + "\n").encode())
        os.close(self.request_w)

    def wait(self, timeout_s):
        """(exit code or None, signal name or None, timed_out)."""
        try:
            pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            pidfd = None
        watched = [self.done_r] + ([pidfd] if pidfd is not None else [])
        try:
            ready, _, _ = select.select(watched, [], [], timeout_s)
        finally:
            if pidfd is not None:
                os.close(pidfd)
        if not ready:
            return None, None, True
        message = os.read(self.done_r, 4096) if self.done_r in ready else b""
        if message:
            try:
                return int(json.loads(message.decode().splitlines()[0])["exit_code"]), None, False
            except (ValueError, KeyError, IndexError):
                pass
        _, status = os.waitpid(self.pid, 0)  # died without reporting: a signal, os._exit, a crash
        code = os.waitstatus_to_exitcode(status)
        return (code, None, False) if code >= 0 else (None, signal.Signals(-code).name, False)

    def dispose(self, own_pid_namespace):
        """Kill what the run left and reap the child. Returns how many processes were killed."""
        os.close(self.done_r)
        killed = kill_others() if own_pid_namespace else kill_session(self.pid)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
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


def serve(requests, replies, loaded, data_path, source, own_pid_namespace):
    spare = Spare(loaded, data_path, source)
    for line in requests:
        request = json.loads(line)
        if request.get("op") != "run":
            continue
        started = time.perf_counter()
        spare.start(request)
        exit_code, signal_name, timed_out = spare.wait(float(request.get("timeout_s", 60)))
        send(replies, {"op": "done", "id": request["id"], "exit_code": exit_code, "signal": signal_name,
                       "timed_out": timed_out, "duration_ms": (time.perf_counter() - started) * 1000, "killed": 0})
        spare.dispose(own_pid_namespace)
        spare = Spare(loaded, data_path, source)
    spare.dispose(own_pid_namespace)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--source-path", default=None)
    parser.add_argument("--profile-name", default=None, help="precompute the dataset profile under this source name before forking")
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
    started = time.perf_counter()
    data_path = os.path.abspath(args.data)
    try:
        loaded = opsmind_run.opsmind_data.read_dataset(data_path)
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
    serve(requests, replies, loaded, data_path, source, args.own_pid_namespace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
