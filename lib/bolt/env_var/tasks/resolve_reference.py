#!/usr/bin/env python3
# plait's env_var reference plugin (a Bolt task): prints {"value": ...} with the value of the
# environment variable `var`, else `default`, else null when `optional`, else an _error object.
import json
import os
import sys


def answer(obj):
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def error(msg, kind="plait/env_var-error"):
    answer({"_error": {"msg": msg, "kind": kind}})


def main():
    try:
        params = json.load(sys.stdin)
    except ValueError as e:
        return error("env_var: its input is not JSON: %s" % e)
    if not isinstance(params, dict):
        return error("env_var: its input is not a JSON object")
    var = params.get("var")
    if not isinstance(var, str) or var == "":
        return error("env_var plugin requires that the 'var' is specified")
    if var in os.environ:
        return answer({"value": os.environ[var]})
    if params.get("default") is not None:
        return answer({"value": params["default"]})
    if params.get("optional") is True:
        return answer({"value": None})
    return error("env_var plugin requires that the var '%s' be set" % var)


main()
