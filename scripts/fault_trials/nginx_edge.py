"""Trial 8 (issue #28, point 11): the TLS protocols nginx offers (1.3 and 1.2, not 1.1) and
the security headers on what nginx answers itself (a static file, its own 404), a site
page's own headers once each."""

from __future__ import annotations

import asyncio
import socket
import ssl
import warnings
from typing import Any

from live_client import insecure_context

from .harness import Trial
from .servers import Topology


def tls_and_headers(top: Topology) -> dict[str, Any]:
    """Issue #28, point 11: the protocols nginx offers, and the headers on what nginx
    answers itself (a static file, its own 404)."""
    found: dict[str, Any] = {}
    for name, version in (("TLSv1.3", ssl.TLSVersion.TLSv1_3), ("TLSv1.2", ssl.TLSVersion.TLSv1_2),
                          ("TLSv1.1", ssl.TLSVersion.TLSv1_1)):
        context = insecure_context()
        with warnings.catch_warnings():  # TLS 1.1 is deprecated: asked for on purpose
            warnings.simplefilter("ignore", DeprecationWarning)
            context.minimum_version = context.maximum_version = version
        if version < ssl.TLSVersion.TLSv1_2:
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
        try:
            with socket.create_connection(("127.0.0.1", top.port), timeout=5) as raw, \
                    context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                found[name] = tls.version()
        except (ssl.SSLError, OSError) as error:
            found[name] = f"refused ({error})"
    wanted = ("Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
              "X-Content-Type-Options")
    for label, path in (("static_file", "/static/favicon.svg"), ("nginx_404", "/static/nope.css")):
        status, _, headers = top.get(path)
        found[label] = {"status": status,
                        **{h: headers.get(h) for h in wanted}}
    # A page of the site keeps its own headers, once each (nginx adds none beside them).
    status, _, headers = top.get("/accounts/login/")
    found["site_page_header_counts"] = {h: len(headers.get_all(h) or []) for h in wanted}
    return found


async def trial_tls_and_headers(top: Topology) -> Trial:
    trial = Trial("TLS protocols and security headers on nginx's own answers")
    found = await asyncio.to_thread(tls_and_headers, top)
    trial.figures.update(found)
    trial.check(found["TLSv1.3"] == "TLSv1.3", "TLS 1.3 is not offered")
    trial.check(found["TLSv1.2"] == "TLSv1.2", "TLS 1.2 is not offered")
    trial.check(str(found["TLSv1.1"]).startswith("refused"), "TLS 1.1 was accepted")
    for label in ("static_file", "nginx_404"):
        missing = [h for h, v in found[label].items() if h != "status" and not v]
        trial.check(not missing, f"{label}: no {missing}")
    counts = found["site_page_header_counts"]
    trial.check(all(n == 1 for n in counts.values()), f"a site page's headers: {counts}")
    return trial
