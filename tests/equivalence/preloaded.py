"""A Python process that has imported the ``openai`` SDK and forks one child per program to run.

Why: importing ``openai`` costs about two seconds of CPU, and the bench runs dozens of programs.
Paying it once here and forking keeps the whole bench to seconds, while every program still runs
in a process of its own, as ``python program.py`` would: ``__name__ == "__main__"``, ``sys.argv``,
``sys.path[0]`` is the program's folder, its exit code is its ``SystemExit`` code, or 1 with the
traceback on stderr after an uncaught exception; non-daemon threads are joined and ``atexit``
handlers run before it exits.

This file is run as a script by ``harness.Bench`` (POSIX only: it needs ``os.fork``). Protocol,
one JSON object per line. First a warm-up job ``{"warm_up": {"program", "env"}}`` comes in on
stdin: that program (``warm_up/program.py``) runs here, in this process, and ``{"warm": true}`` or
``{"warm": false, "error": traceback}`` goes out. Then, per program, a job
``{"program", "cwd", "env", "stdout", "stderr"}`` (the last two are file paths) comes in;
``{"pid": n}`` goes out as soon as the child is forked (so the caller can kill it on a timeout),
then ``{"exit_code": n}`` when it has ended (negative: killed by signal n).
"""

import atexit
import contextlib
import json
import os
import runpy
import sys
import threading
import traceback

import openai  # noqa: F401  - the point of this process: imported once, inherited by every child


def _warm_up(program: str, env: dict) -> dict:
    """Run the warm-up program here, so that its caches are inherited by every child."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):  # stdout is the answer pipe
            runpy.run_path(program, run_name="__main__")
    except BaseException:  # noqa: B036 - reported to the harness, which fails loudly
        return {"warm": False, "error": traceback.format_exc()}
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {"warm": True}


def _exit_code(exit: SystemExit) -> int:
    """The process exit status ``sys.exit(code)`` gives, as the interpreter computes it."""
    if exit.code is None:
        return 0
    if isinstance(exit.code, int):
        return exit.code & 0xFF
    print(exit.code, file=sys.stderr)
    return 1


def _redirect(fd: int, path: str, flags: int) -> None:
    target = os.open(path, flags, 0o644)
    os.dup2(target, fd)
    os.close(target)


def _from_program_frames(frames, program: str):
    """The traceback ``frames`` without this file's and runpy's, as ``python program.py`` prints it."""
    frame = frames
    while frame is not None and frame.tb_frame.f_code.co_filename != program:
        frame = frame.tb_next
    return frame or frames


def _run_child(job: dict) -> None:
    """Become the program: never returns."""
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    _redirect(0, os.devnull, os.O_RDONLY)  # fd 0 was the job pipe
    _redirect(1, job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    _redirect(2, job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    program = os.path.abspath(job["program"])
    sys.argv = [program]
    sys.path[0] = os.path.dirname(program)
    code = 0
    try:
        runpy.run_path(program, run_name="__main__")
    except SystemExit as exit:
        code = _exit_code(exit)
    except BaseException as error:  # what the interpreter does with an uncaught exception
        sys.excepthook(type(error), error, _from_program_frames(error.__traceback__, program))
        code = 1
    threading._shutdown()  # join non-daemon threads, as interpreter shutdown does
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _answer(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    warm_up = json.loads(sys.stdin.readline())["warm_up"]
    _answer(_warm_up(warm_up["program"], warm_up["env"]))
    for line in sys.stdin:
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _run_child(job)
        _answer({"pid": pid})
        _, status = os.waitpid(pid, 0)
        _answer({"exit_code": os.waitstatus_to_exitcode(status)})
    # The job pipe is closed: done. Nothing is left to clean up, so skip the interpreter's
    # teardown of thousands of SDK modules (over a second).
    os._exit(0)


if __name__ == "__main__":
    main()
