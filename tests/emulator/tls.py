"""A throw-away test CA and a server certificate (by default for 127.0.0.1 and localhost), made in Python.

    from tests.emulator.tls import make_test_pki
    pki = make_test_pki(directory)   # {"ca_cert", "ca_key", "server_cert", "server_key"}
    python -m tests.emulator ... --tls-cert pki["server_cert"] --tls-key pki["server_key"]

Made with the ``cryptography`` package (a dependency of ansible-core, so it is in the test
virtualenv) and no external tool. The emulator itself stays stdlib-only: it only loads the PEM
files given to --tls-cert/--tls-key (ssl.SSLContext.load_cert_chain) and never imports this module.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


class TlsToolError(RuntimeError):
    """The test certificates could not be written."""


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _alt_name(host: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def _write(path: str, data: bytes, private: bool = False) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def make_test_pki(directory: str, name: str = "nms-overlay test CA", days: int = 2,
                  hosts: tuple[str, ...] = ("127.0.0.1", "localhost"), ca_key_usage: bool = True,
                  ca_constraints_critical: bool = True) -> dict[str, str]:
    """Write a CA and a server certificate for ``hosts`` (addresses or DNS names) signed by it into ``directory``.

    ``ca_key_usage=False`` leaves the key usage extension out of the CA, ``ca_constraints_critical=False`` marks its
    basicConstraints not critical: CAs that OpenSSL accepts but Python 3.13's strict checks (VERIFY_X509_STRICT)
    refuse, as many older private CAs are.

    Returns the paths of the PEM files: ``ca_cert``, ``ca_key``, ``server_cert``, ``server_key``.
    """
    paths = {key: os.path.join(directory, file) for key, file in (
        ("ca_key", "ca.key"), ("ca_cert", "ca.pem"), ("server_key", "server.key"), ("server_cert", "server.pem"))}
    start = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)
    end = start + dt.timedelta(days=days)

    ca_key = _key()
    ca_subject = _name(name)
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_builder = (
        x509.CertificateBuilder()
        .subject_name(ca_subject)
        .issuer_name(ca_subject)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0 if ca_key_usage else None),
                       critical=ca_constraints_critical)
    )
    if ca_key_usage:
        ca_builder = ca_builder.add_extension(x509.KeyUsage(
            digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True)
    ca_cert = ca_builder.add_extension(ca_ski, critical=False).sign(ca_key, hashes.SHA256())

    server_key = _key()
    server_cert = (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0]))
        .issuer_name(ca_subject)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(
            digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False),
            critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([_alt_name(host) for host in hosts]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(server_key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    key_pem = {
        "encoding": serialization.Encoding.PEM,
        "format": serialization.PrivateFormat.PKCS8,
        "encryption_algorithm": serialization.NoEncryption(),
    }
    try:
        os.makedirs(directory, exist_ok=True)
        _write(paths["ca_key"], ca_key.private_bytes(**key_pem), private=True)
        _write(paths["ca_cert"], ca_cert.public_bytes(serialization.Encoding.PEM))
        _write(paths["server_key"], server_key.private_bytes(**key_pem), private=True)
        _write(paths["server_cert"], server_cert.public_bytes(serialization.Encoding.PEM))
    except OSError as exc:
        raise TlsToolError("cannot write the test certificates into %s: %s" % (directory, exc)) from exc
    return paths
