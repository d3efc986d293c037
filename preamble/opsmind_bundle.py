"""What a run hands back to the host: its files, read by the trusted worker after every process of the
run is dead, and sent over the worker's protocol pipe. The host never opens anything the sandbox could
write. Only regular files are sent (a symlink, FIFO or device is skipped and named), under caps on depth,
count and bytes; names are relative paths of plain components.
"""
import base64
import os
import stat

MAX_DEPTH = 6
MAX_FILES = 500
CHUNK = 512 * 1024
_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _walk(root):
    """(relative name, size) of the regular files under root, breadth-first, plus what was skipped and why."""
    found, skipped, queue = [], [], [("", 0)]
    while queue and len(found) < MAX_FILES:
        rel, depth = queue.pop(0)
        try:
            entries = sorted(os.scandir(os.path.join(root, rel)), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            name = f"{rel}/{entry.name}" if rel else entry.name
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                if depth + 1 < MAX_DEPTH:
                    queue.append((name, depth + 1))
            elif stat.S_ISREG(info.st_mode):
                found.append((name, info.st_size))
            else:
                skipped.append(f"{name}: {_kind(info.st_mode)}, not a regular file")
    return found[:MAX_FILES], skipped


def _kind(mode):
    for test, word in ((stat.S_ISLNK, "a symlink"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return word
    return "not a file"


def send_files(root, send, max_bytes, max_file_bytes=None, file_caps=None):
    """Send every regular file under `root` as {"op": "file", "name", "data", "more"} chunks, at most
    `max_bytes` in all, `max_file_bytes` per file (`file_caps` for named ones). Returns the skipped files
    with reasons."""
    files, skipped = _walk(root)
    budget = max_bytes
    for name, size in files:
        cap = (file_caps or {}).get(name, max_file_bytes or max_bytes)
        if size > cap:
            skipped.append(f"{name}: {size} bytes, over the {cap}-byte limit for one file")
            continue
        if size > budget:
            skipped.append(f"{name}: {size} bytes, over the {max_bytes}-byte budget of a run's files")
            continue
        try:
            fd = os.open(os.path.join(root, name), _FLAGS)
        except OSError as error:
            skipped.append(f"{name}: {error.strerror}")
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                skipped.append(f"{name}: {_kind(info.st_mode)}, not a regular file")
                continue
            budget -= _send_one(fd, name, min(info.st_size, cap, budget), send)
        finally:
            os.close(fd)
    return skipped


def _send_one(fd, name, size, send):
    sent = 0
    while True:
        piece = os.read(fd, min(CHUNK, size - sent)) if sent < size else b""
        sent += len(piece)
        more = bool(piece) and sent < size
        send({"op": "file", "name": name, "data": base64.b64encode(piece).decode("ascii"), "more": more})
        if not more:
            return sent
