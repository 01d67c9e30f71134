"""A throw-away test CA and a server certificate for 127.0.0.1/localhost, made with the openssl CLI.

    from tests.emulator.tls import make_test_pki
    pki = make_test_pki(directory)   # {"ca_cert", "ca_key", "server_cert", "server_key"}
    python -m tests.emulator ... --tls-cert pki["server_cert"] --tls-key pki["server_key"]

Stdlib only (subprocess + the ``openssl`` binary), like the rest of the emulator.
"""

from __future__ import annotations

import os
import shutil
import subprocess

SERVER_EXTENSIONS = """\
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
"""
CA_EXTENSIONS = """\
[req]
distinguished_name = dn
x509_extensions = ca_ext
prompt = no
[dn]
CN = {name}
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
"""


class TlsToolError(RuntimeError):
    """openssl is missing or failed."""


def _openssl(*args: str, cwd: str) -> None:
    binary = shutil.which("openssl")
    if binary is None:
        raise TlsToolError("the openssl command is not installed")
    done = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise TlsToolError("openssl %s failed: %s" % (args[0], done.stderr.strip()))


def make_test_pki(directory: str, name: str = "nms-overlay test CA", days: int = 2) -> dict[str, str]:
    """Write a CA and a server certificate (127.0.0.1, localhost) signed by it into ``directory``."""
    os.makedirs(directory, exist_ok=True)
    paths = {key: os.path.join(directory, file) for key, file in (
        ("ca_key", "ca.key"), ("ca_cert", "ca.pem"), ("server_key", "server.key"), ("server_csr", "server.csr"),
        ("server_cert", "server.pem"), ("ca_conf", "ca.cnf"), ("server_ext", "server.ext"))}
    with open(paths["ca_conf"], "w", encoding="utf-8") as handle:
        handle.write(CA_EXTENSIONS.format(name=name))
    with open(paths["server_ext"], "w", encoding="utf-8") as handle:
        handle.write(SERVER_EXTENSIONS)
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", paths["ca_key"], "-out", paths["ca_cert"],
             "-days", str(days), "-config", paths["ca_conf"], cwd=directory)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", paths["server_key"], "-out", paths["server_csr"],
             "-subj", "/CN=127.0.0.1", cwd=directory)
    _openssl("x509", "-req", "-in", paths["server_csr"], "-CA", paths["ca_cert"], "-CAkey", paths["ca_key"],
             "-CAcreateserial", "-out", paths["server_cert"], "-days", str(days), "-extfile", paths["server_ext"],
             cwd=directory)
    return {key: paths[key] for key in ("ca_cert", "ca_key", "server_cert", "server_key")}
