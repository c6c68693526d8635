# The shared part of plait's pkcs7 plugin tasks: reading the task's JSON input, answering with a
# value or an _error object, finding key files relative to the project directory, and running
# openssl with data on stdin (never a secret on a command line, where `ps` would show it).
import json
import os
import subprocess
import sys

ENC_PREFIX = "ENC[PKCS7,"
ENC_SUFFIX = "]"


class TaskError(Exception):
    def __init__(self, msg, kind="pkcs7/error"):
        Exception.__init__(self, msg)
        self.msg = msg
        self.kind = kind


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")


def params():
    try:
        p = json.load(sys.stdin)
    except ValueError as e:
        raise TaskError("pkcs7: its input is not JSON: %s" % e, "pkcs7/input-error")
    if not isinstance(p, dict):
        raise TaskError("pkcs7: its input is not a JSON object", "pkcs7/input-error")
    return p


def string(p, name, default=None):
    v = p.get(name, default)
    if not isinstance(v, str) or v == "":
        raise TaskError("pkcs7: the parameter %s must be a non-empty string" % name, "pkcs7/input-error")
    return v


def key_path(p, name, default):
    """A key file's path: absolute, or relative to the project directory (_boltdir), as Bolt's pkcs7 does."""
    path = os.path.expanduser(string(p, name, default))
    base = p.get("_boltdir") if isinstance(p.get("_boltdir"), str) else os.getcwd()
    return os.path.normpath(os.path.join(base, path))


def openssl(args, data=b""):
    """Runs openssl with data on stdin; its stdout, or a TaskError with its stderr."""
    try:
        done = subprocess.run(["openssl"] + args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    except OSError as e:
        raise TaskError("pkcs7: cannot run openssl: %s" % e, "pkcs7/openssl-error")
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise TaskError("pkcs7: openssl %s failed: %s" % (args[0], why[0] if why else "exit code %d" % done.returncode), "pkcs7/openssl-error")
    return done.stdout


def main(task):
    try:
        answer({"value": task(params())})
    except TaskError as e:
        answer({"_error": {"msg": e.msg, "kind": e.kind, "details": {}}})
