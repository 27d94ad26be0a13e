"""Debian's nginx in front of a test server, run from the configuration that
docs/deploy.md documents (``deploy/nginx/tabletop.conf``) with only its host name,
ports and certificate paths replaced: an unprivileged process in a temporary
directory, on loopback ports, with a certificate authority made for the test."""

from __future__ import annotations

import datetime
import ipaddress
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from server_support import free_port

NGINX = Path("/usr/sbin/nginx")
CONFIG = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "tabletop.conf"
HOST = "127.0.0.1"
USER = "nobody"  # nginx's workers would take this user anyway when started as root

# What Debian's /etc/nginx/nginx.conf sets around the sites it includes; the paths
# point into the test's directory instead of /var.
MAIN_CONFIG = """\
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers on;
    gzip on;
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/tabletop.conf;
}}
"""


def require_nginx() -> None:
    """``make test`` installs nginx (the Makefile's ``nginx`` target): fail, not skip."""
    if not NGINX.exists():
        pytest.fail(
            f"{NGINX} is missing: the deployment test needs Debian's nginx "
            "(`make nginx`, or apt-get install nginx)",
            pytrace=False,
        )


def _replace(text: str, old: str, new: str, count: int) -> str:
    """``text`` with ``old`` replaced by ``new``, which must occur exactly ``count``
    times: a changed configuration fails here instead of being run half-replaced."""
    found = text.count(old)
    if found != count:
        raise AssertionError(f"{CONFIG}: expected {old!r} {count} times, found it {found}")
    return text.replace(old, new)


def site_config(https: int, http: int, upstream: int, cert: Path, key: Path) -> str:
    """The documented site with the test's address, ports and certificate."""
    text = CONFIG.read_text()
    live = "/etc/letsencrypt/live/games.example.org"
    text = _replace(text, f"{live}/fullchain.pem", str(cert), 1)
    text = _replace(text, f"{live}/privkey.pem", str(key), 1)
    text = _replace(text, "server_name games.example.org;", f"server_name {HOST};", 2)
    text = _replace(text, "listen 80;", f"listen {HOST}:{http};", 1)
    text = _replace(text, "listen 443 ssl http2;", f"listen {HOST}:{https} ssl http2;", 1)
    return _replace(text, "server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};", 1)


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A certificate authority and a certificate for ``HOST`` signed by it: the
    paths of the authority's certificate (for the clients), the server's
    certificate and its key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tabletop test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(key_cert_sign=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_usage(digital_signature=True), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(HOST))]), False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    paths = folder / "ca.pem", folder / "cert.pem", folder / "key.pem"
    paths[0].write_bytes(ca.public_bytes(pem))
    paths[1].write_bytes(leaf.public_bytes(pem))
    paths[2].write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


def _usage(digital_signature: bool = False, key_cert_sign: bool = False) -> object:
    from cryptography import x509

    return x509.KeyUsage(
        digital_signature=digital_signature,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=key_cert_sign,
        crl_sign=key_cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


class Nginx:
    """``start()`` runs nginx in front of the server at ``upstream`` (a port);
    ``https``/``http`` are its ports, ``tls`` a client context trusting its certificate."""

    def __init__(self, upstream: int) -> None:
        require_nginx()
        self.upstream = upstream
        self.https, self.http = free_port(), free_port()
        # mkdtemp: under /tmp, where the unprivileged user may enter (pytest's
        # folders are the caller's alone)
        self.dir = Path(tempfile.mkdtemp(prefix="tt-nginx-"))
        self.dir.chmod(0o755)
        self.ca, cert, key = make_certificates(self.dir)
        self.tls = ssl.create_default_context(cafile=str(self.ca))
        site = site_config(self.https, self.http, upstream, cert, key)
        (self.dir / "tabletop.conf").write_text(site)
        (self.dir / "nginx.conf").write_text(MAIN_CONFIG.format(dir=self.dir))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.https}"

    @property
    def ws_url(self) -> str:
        return f"wss://{HOST}:{self.https}"

    def _command(self) -> list[str]:
        top = f"daemon off; pid {self.dir}/nginx.pid; error_log {self.dir}/error.log info;"
        return [str(NGINX), "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), "-g", top]

    def start(self) -> Nginx:
        options: dict[str, object] = {}
        if os.geteuid() == 0:  # a root master would keep root: run it all as nobody
            user = pwd.getpwnam(USER)
            shutil.chown(self.dir, USER)
            options = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        test = subprocess.run(
            [*self._command(), "-t"], capture_output=True, text=True, cwd=self.dir, **options
        )
        if test.returncode:
            raise RuntimeError(f"nginx -t refused the configuration:\n{test.stderr}")
        log = (self.dir / "nginx.out").open("wb")
        self.proc = subprocess.Popen(
            self._command(), stdout=log, stderr=subprocess.STDOUT, cwd=self.dir, **options
        )
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited:\n{self.log()}")
            try:
                socket.create_connection((HOST, self.https), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start:\n{self.log()}")

    def log(self) -> str:
        return "".join(
            path.read_text(errors="replace")
            for path in (self.dir / "nginx.out", self.dir / "error.log")
            if path.exists()
        )

    def access_log(self) -> str:
        path = self.dir / "access.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)  # fast shutdown: streams are open
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
