#!/usr/bin/env python3
# plait's pkcs7 plugin, secret_decrypt (and resolve_reference, see bolt_plugin.json): the text of an
# ENC[PKCS7,<base64 DER>] value, decrypted with the key pair. The ciphertext is never quoted in an error.
import base64
import binascii
import os
import re
import sys

# the task runs from _installdir/pkcs7/tasks/, its shared file is in _installdir/pkcs7/files/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "files"))
import pkcs7_common as P  # noqa: E402

FORMAT = re.compile(r"\AENC\[PKCS7,([A-Za-z0-9+/=\s]+)\]\s*\Z")


def decrypt(p):
    public = P.key_path(p, "public_key", "keys/public_key.pkcs7.pem")
    private = P.key_path(p, "private_key", "keys/private_key.pkcs7.pem")
    value = p.get("encrypted_value")
    m = FORMAT.match(value) if isinstance(value, str) else None
    if m is None:
        raise P.TaskError("Could not parse as an encrypted value: it is not ENC[PKCS7,<base64>]", "pkcs7/parse-error")
    try:
        der = base64.b64decode("".join(m.group(1).split()), validate=True)
    except (binascii.Error, ValueError):
        raise P.TaskError("Could not parse as an encrypted value: its base64 is damaged", "pkcs7/parse-error")
    for path in (public, private):
        if not os.path.isfile(path):
            raise P.TaskError("pkcs7: no key at %s (make a key pair with `plait secret createkeys`)" % path, "pkcs7/key-error")
    clear = P.openssl(["cms", "-decrypt", "-binary", "-inform", "DER", "-inkey", private, "-recip", public], der)
    try:
        return clear.decode("utf-8")
    except UnicodeDecodeError:
        raise P.TaskError("pkcs7: the decrypted value is not UTF-8 text", "pkcs7/decrypt-error")


P.main(decrypt)
