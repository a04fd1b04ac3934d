"""A scripted policy for the protocol tests.

Usage: scripted.py SCRIPT LOG. SCRIPT holds one answer per instant message,
in order: a JSON list of decisions, or a directive: EXIT (exit with status
3), HANG (never answer), RAW text (write text as the answer), ERR text
(write text to standard error; the next line answers). Lines after
the script's end answer with no decisions. Every message received is
appended to LOG.
"""
import json
import sys
import time

script = [l.rstrip("\n") for l in open(sys.argv[1])]
log = open(sys.argv[2], "w")


def answer(decisions):
    sys.stdout.write(json.dumps({"type": "decisions", "decisions": decisions}, separators=(",", ":")) + "\n")
    sys.stdout.flush()


init = sys.stdin.readline()
log.write(init)
log.flush()
hello = {"type": "ready", "version": 1, "name": "scripted", "events": ["overhead"]}
first = script.pop(0) if script and script[0].startswith("READY ") else None
if first is not None:
    sys.stdout.write(first[len("READY "):] + "\n")
else:
    sys.stdout.write(json.dumps(hello) + "\n")
sys.stdout.flush()
i = 0
for line in sys.stdin:
    log.write(line)
    log.flush()
    msg = json.loads(line)
    if msg["type"] == "end":
        break
    cmd = script[i] if i < len(script) else "[]"
    i += 1
    while cmd.startswith("ERR "):
        sys.stderr.write(cmd[4:] + "\n")
        sys.stderr.flush()
        cmd = script[i] if i < len(script) else "[]"
        i += 1
    if cmd == "EXIT":
        sys.stderr.write("policy gives up\n")
        sys.exit(3)
    if cmd == "HANG":
        sys.stderr.write("thinking hard\n")
        sys.stderr.flush()
        time.sleep(3600)
    if cmd.startswith("RAW "):
        sys.stdout.write(cmd[4:] + "\n")
        sys.stdout.flush()
        continue
    answer(json.loads(cmd))
