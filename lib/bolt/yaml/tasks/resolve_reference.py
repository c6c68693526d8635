#!/usr/bin/env python3
# plait's yaml reference plugin (a Bolt task): prints {"value": DATA} with the data of the YAML
# file `filepath` (relative to the project directory, `_boltdir`), else an _error object.
import json
import os
import sys


def answer(obj):
    # dates and times (YAML timestamps) are given as their text
    sys.stdout.write(json.dumps(obj, default=str) + "\n")


def error(msg, kind="plait/yaml-error"):
    answer({"_error": {"msg": msg, "kind": kind}})


def main():
    try:
        params = json.load(sys.stdin)
    except ValueError as e:
        return error("yaml: its input is not JSON: %s" % e)
    if not isinstance(params, dict) or not isinstance(params.get("filepath"), str):
        return error("yaml plugin requires a filepath")
    try:
        import yaml
    except ImportError:
        return error("the yaml plugin needs PyYAML for python3 (Debian: apt install python3-yaml)")
    path = os.path.join(params.get("_boltdir") or os.getcwd(), os.path.expanduser(params["filepath"]))
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as e:
        return error("yaml: cannot read %s: %s" % (path, e.strerror or e))
    except yaml.YAMLError as e:
        return error("yaml: %s is not valid YAML: %s" % (path, e))
    return answer({"value": data})


main()
