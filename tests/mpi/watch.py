"""Watching a run while it goes (issue 21, "Long runs that show their
progress"): start it with its output in files and read them before it ends,
or run it with stderr on a terminal (a pty) and collect what it drew."""
import os
import select
import subprocess
import time

from effb import BUILD, env, mpiexec


def start(np, program, *args, cwd, stdout, stderr):
    """Start BUILD/program under mpiexec; stdout and stderr go to the given paths."""
    cmd = mpiexec(np) + [str(BUILD / program)] + [str(a) for a in args]
    with open(stdout, "w") as out, open(stderr, "w") as err:
        return subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd, env=env())


def read_while_alive(proc, paths, seen, timeout=240):
    """Poll until seen(texts) holds for the texts of paths, read while proc is
    still running; returns the texts.  Fails when proc ends first (the output
    came only at the end) or after timeout seconds (a hang)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        alive = proc.poll() is None
        texts = [p.read_text() if p.exists() else "" for p in paths]
        if not alive:
            raise AssertionError(f"the run ended (status {proc.returncode}) before its "
                                 f"output showed: {[t[-500:] for t in texts]}")
        if seen(texts):
            return texts
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"no output after {timeout} s")


def on_terminal(program, *args, cwd, stdout, timeout=240):
    """Run BUILD/program as a single process (no launcher: mpiexec would give
    it a pipe for stderr) with stderr on a pty and stdout in a file; returns
    (status, the bytes written to the terminal)."""
    master, slave = os.openpty()
    with open(stdout, "w") as out:
        proc = subprocess.Popen([str(BUILD / program)] + [str(a) for a in args], stdout=out,
                                stderr=slave, stdin=subprocess.DEVNULL, cwd=cwd, env=env())
    os.close(slave)
    drawn = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not select.select([master], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(master)
    return proc.wait(timeout=max(1.0, end - time.monotonic())), drawn
