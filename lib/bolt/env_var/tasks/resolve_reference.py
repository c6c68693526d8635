#!/usr/bin/env python3
# plait's env_var reference plugin (a Bolt task standing for Bolt's built-in env_var plugin): prints
# {"value": ...} with the value of the environment variable `var` (parsed as JSON when `json` is
# true), else `default` (any data, given as it is), else null when `optional`, else an _error object
# in Bolt's words. A variable's value is never quoted in an error: it may be a secret.
import json
import os
import sys


def answer(obj):
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def error(msg, kind="bolt/validation-error"):
    answer({"_error": {"msg": msg, "kind": kind, "details": {}}})


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
        text = os.environ[var]
        if params.get("json") is not True:
            return answer({"value": text})
        try:
            return answer({"value": json.loads(text)})
        except ValueError as e:
            return error("env_var plugin could not parse the value of the environment variable '%s' as JSON: %s" % (var, e), "bolt/plugin-error")
    if params.get("default") is not None:
        return answer({"value": params["default"]})
    if params.get("optional") is True:
        return answer({"value": None})
    return error("env_var plugin requires that the var '%s' be set" % var)


main()
