"""Resource limits for one program run, applied inside the sandbox just before the program starts.

Limits are applied after the dataset is loaded, so the memory limit is what a
run may allocate on top of the loaded data. Soft and hard limits are set
together (the CPU hard limit a little above the soft one, so SIGXCPU arrives
first); a program without privileges cannot raise them again.
"""
import os
import resource

MB = 1024 * 1024


def address_space_now():
    """The process's current virtual size in bytes (0 when /proc is unavailable)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _set(which, soft, hard=None):
    hard = soft if hard is None else hard
    current_soft, current_hard = resource.getrlimit(which)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(which, (soft, hard))


def apply_limits(limits):
    """Apply a {cpu_seconds, memory_mb, processes, file_size_mb, open_files} dict (missing keys are left alone)."""
    if limits.get("cpu_seconds"):
        seconds = int(limits["cpu_seconds"])
        _set(resource.RLIMIT_CPU, seconds, seconds + 2)
    if limits.get("memory_mb"):
        _set(resource.RLIMIT_AS, address_space_now() + int(limits["memory_mb"]) * MB)
    if limits.get("processes"):
        _set(resource.RLIMIT_NPROC, int(limits["processes"]))
    if limits.get("file_size_mb"):
        _set(resource.RLIMIT_FSIZE, int(limits["file_size_mb"]) * MB)
    if limits.get("open_files"):
        _set(resource.RLIMIT_NOFILE, int(limits["open_files"]))
    _set(resource.RLIMIT_CORE, 0)


def limit_loading(limits):
    """Bound the data load by the run's memory and CPU limits (soft limits only, so they can be lifted after)."""
    if limits.get("memory_mb"):
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        soft = address_space_now() + int(limits["memory_mb"]) * MB
        resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    if limits.get("cpu_seconds"):
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        soft = int(limits["cpu_seconds"])
        resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def end_loading():
    """Lift the soft limits of the load again (each run sets its own, measured from the loaded state)."""
    for which in (resource.RLIMIT_AS, resource.RLIMIT_CPU):
        hard = resource.getrlimit(which)[1]
        resource.setrlimit(which, (hard, hard))
