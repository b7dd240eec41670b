#!/usr/bin/env python3
"""readme_examples.py BUILD — runs every example of the README's ```console blocks and compares
its output with the README, so the examples cannot drift from the program.

In a console block, a line `$ command` (continued by a trailing backslash) is run by sh from a
scratch folder where build/, data/ and tests/ lead to the build folder and the repository's own;
the lines after it, up to a blank line or the next `$`, are its expected output:
- text after two or more spaces in parentheses is a comment, on commands and output alike;
- a line `...` stands for any number of lines, and a line ending in ` ...` for any line that
  starts with the text before it;
- otherwise a line must match the output line exactly, except the figure after `nps`, `time`,
  `speed`, before `nps`, and an Elo estimate, which depend on the machine (`Elo +...` likewise);
- the expected lines stand in order, consecutive unless `...` separates them; output before the
  first and after the last one is allowed only where `...` says so.
Prints a line per example and `readme: N passed, N failed`.
"""
import os
import re
import subprocess
import sys
import tempfile

COMMENT = re.compile(r"\s{2,}\(.*\)\s*$")
VARYING = re.compile(r"\b(nps|time|speed|Elo) [+-]?[0-9.]+|\b[0-9]+(?= nps\b)")


def examples(readme):
    """Yields (line number, command, expected lines) for each `$` line of the console blocks."""
    in_block, cmd, expected, start = False, None, [], 0
    lines = readme.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            if in_block and cmd:
                yield start, cmd, expected
            in_block, cmd, expected = line.strip() == "```console", None, []
        elif in_block and line.startswith("$ "):
            if cmd:
                yield start, cmd, expected
            start, cmd, expected = i + 1, COMMENT.sub("", line[2:]), []
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + " " + COMMENT.sub("", lines[i].strip())
        elif in_block and cmd is not None:
            if line.strip() == "":
                yield start, cmd, expected
                cmd, expected = None, []
            else:
                expected.append(COMMENT.sub("", line).rstrip())
        i += 1


def line_matches(want, got):
    got = VARYING.sub("#", got.rstrip())
    if want.endswith(" ..."):
        return got.startswith(VARYING.sub("#", want[:-4]))
    return VARYING.sub("#", want) == got


def output_matches(expected, output):
    """True when the output lines fit the expected lines (with `...` as any number of lines)."""
    def fit(e, o):
        if e == len(expected):
            return o == len(output)
        if expected[e] == "...":
            return any(fit(e + 1, k) for k in range(o, len(output) + 1))
        return o < len(output) and line_matches(expected[e], output[o]) and fit(e + 1, o + 1)
    return fit(0, 0)


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(build, os.path.join(scratch, "build"))
        for name in ("data", "tests"):
            os.symlink(os.path.join(root, name), os.path.join(scratch, name))
        env = dict(os.environ, LANG="C.UTF-8", HOME=scratch, XDG_DATA_HOME=scratch)
        for lineno, cmd, expected in examples(readme):
            try:
                run = subprocess.run(cmd, shell=True, cwd=scratch, env=env, timeout=300,
                                     stdin=subprocess.DEVNULL, capture_output=True, text=True)
                output = run.stdout.rstrip("\n").split("\n") if run.stdout.strip() else []
                ok = run.returncode == 0 and output_matches(expected, output)
            except subprocess.TimeoutExpired:
                run, output, ok = None, ["(timed out)"], False
            if ok:
                passed += 1
                print(f"ok   README.md:{lineno}: {cmd}")
                continue
            failed += 1
            print(f"FAIL README.md:{lineno}: {cmd}")
            print("  expected:\n    " + "\n    ".join(expected or ["(no output)"]))
            print("  got (exit %s):\n    " % (run.returncode if run else "-") +
                  "\n    ".join(output[:40] or ["(no output)"]))
            if run and run.stderr.strip():
                print("  stderr:\n    " + "\n    ".join(run.stderr.strip().split("\n")[:10]))
    print(f"readme: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
