"""Deleting a directory tree a hostile program built: any depth, any path length, no recursion.

Everything is done relative to directory descriptors opened with O_NOFOLLOW,
so a symlink is removed, never followed. Directories deeper than MAX_OPEN
are renamed up to the top before they are entered, so neither the number of
open descriptors nor the length of a path grows with the depth. What cannot
be removed is skipped, never retried forever.
"""
import os

MAX_OPEN = 32
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _next_subdir(fd, stuck):
    """Unlink every non-directory entry of `fd`; remove empty subdirectories; return the name of one left."""
    with os.scandir(fd) as entries:
        names = [(e.name, _is_dir(e)) for e in entries]
    for name, is_dir in names:
        if name in stuck:
            continue
        try:
            if not is_dir:
                os.unlink(name, dir_fd=fd)
                continue
            os.rmdir(name, dir_fd=fd)
        except OSError:
            if not is_dir:
                stuck.add(name)
                continue
            return name
    return None


def _open_subdir(name, fd):
    """Open a subdirectory without following links; one that denies entry is made enterable (we own it)."""
    for attempt in range(2):
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=fd)
        except PermissionError:
            if attempt == 0:
                try:
                    os.chmod(name, 0o700, dir_fd=fd)
                except OSError:
                    return None
        except OSError:
            return None
    return None


def _is_dir(entry):
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def wipe_contents(path, keep=()):
    """Delete everything inside `path`; directories named in `keep` at the top are emptied but kept.
    Returns how many top-level entries (besides `keep`) could not be removed."""
    try:
        top = os.open(path, _DIR_FLAGS)
    except OSError:
        return 0
    moved = 0
    stack = [(top, set(keep), None)]
    while stack:
        fd, stuck, own_name = stack[-1]
        name = _next_subdir(fd, stuck)
        if name is None:
            stack.pop()
            os.close(fd)
            if stack:
                parent_fd, parent_stuck, _ = stack[-1]
                try:
                    if not (parent_fd == top and own_name in keep):
                        os.rmdir(own_name, dir_fd=parent_fd)
                except OSError:
                    parent_stuck.add(own_name)
            continue
        if len(stack) >= MAX_OPEN:
            moved += 1
            try:
                os.rename(name, f".wipe-{os.getpid()}-{moved}", src_dir_fd=fd, dst_dir_fd=top)
            except OSError:
                stuck.add(name)
            continue
        child = _open_subdir(name, fd)
        if child is None:
            stuck.add(name)
            continue
        stack.append((child, set(), name))
    for name in keep:
        _wipe_kept(path, name)
    try:
        return len([n for n in os.listdir(path) if n not in keep])
    except OSError:
        return 0


def _wipe_kept(path, name):
    """Empty a kept top-level directory (its own contents are not in `keep`)."""
    full = os.path.join(path, name)
    if os.path.isdir(full) and not os.path.islink(full):
        wipe_contents(full)
