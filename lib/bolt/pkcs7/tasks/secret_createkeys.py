#!/usr/bin/env python3
# plait's pkcs7 plugin, secret_createkeys: writes an RSA private key (PEM, mode 0600) and a
# self-signed certificate holding its public key, in the files Bolt's pkcs7 plugin uses, and
# answers with their paths. An existing pair is kept unless `force` is true.
import os
import sys

# the task runs from _installdir/pkcs7/tasks/, its shared file is in _installdir/pkcs7/files/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "files"))
import pkcs7_common as P  # noqa: E402


def createkeys(p):
    public = P.key_path(p, "public_key", "keys/public_key.pkcs7.pem")
    private = P.key_path(p, "private_key", "keys/private_key.pkcs7.pem")
    keysize = p.get("keysize", 2048)
    if not isinstance(keysize, int) or isinstance(keysize, bool) or keysize < 1024 or keysize > 16384:
        raise P.TaskError("pkcs7: keysize must be a whole number of bits from 1024 to 16384", "pkcs7/input-error")
    if (os.path.exists(public) or os.path.exists(private)) and p.get("force") is not True:
        raise P.TaskError(
            "Found existing key pair %s. Existing key pairs can be overwritten by setting the 'force' option to true." % [public, private],
            "bolt.plugin/key-error",
        )
    key = P.openssl(["genrsa", "-traditional", str(keysize)])
    for path in (public, private):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = private + ".tmp%d" % os.getpid()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    # the certificate: empty subject, serial 1, fifty years, signed with SHA-512 (as Bolt's plugin makes it)
    cert = P.openssl(["req", "-new", "-x509", "-key", tmp, "-subj", "/", "-set_serial", "1", "-days", str(50 * 365), "-sha512"])
    os.replace(tmp, private)
    os.chmod(private, 0o600)
    with open(public, "wb") as f:
        f.write(cert)
    return [public, private]


P.main(createkeys)
