#!/usr/bin/env python3
# plait's pkcs7 plugin, secret_encrypt: PKCS#7 enveloped data (AES-256-CBC, binary) for the
# certificate in `public_key`, DER encoded, base64 in ENC[PKCS7,...], as Bolt's pkcs7 plugin makes it.
import base64
import os
import sys

# the task runs from _installdir/pkcs7/tasks/, its shared file is in _installdir/pkcs7/files/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "files"))
import pkcs7_common as P  # noqa: E402


def encrypt(p):
    public = P.key_path(p, "public_key", "keys/public_key.pkcs7.pem")
    if not os.path.isfile(public):
        raise P.TaskError("pkcs7: no public key at %s (make a key pair with `plait secret createkeys`)" % public, "pkcs7/key-error")
    text = p.get("plaintext_value")
    if not isinstance(text, str):
        raise P.TaskError("pkcs7: plaintext_value must be a string", "pkcs7/input-error")
    der = P.openssl(["cms", "-encrypt", "-binary", "-aes-256-cbc", "-outform", "DER", public], text.encode("utf-8"))
    return P.ENC_PREFIX + base64.b64encode(der).decode("ascii") + P.ENC_SUFFIX


P.main(encrypt)
