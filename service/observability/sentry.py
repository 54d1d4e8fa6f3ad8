"""Optional error reporting: only when SENTRY_DSN is set.

sentry_sdk is imported only then, and is an optional extra
(``pip install "melee[sentry]"``). Unhandled errors are logged with
``log.exception`` by the API's error handler, which Sentry's logging
integration reports; no request bodies, headers or user data are sent
(``send_default_pii=False``).
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def init(dsn: str | None, release: str) -> bool:
    if not dsn:
        return False
    try:
        import sentry_sdk
    except ImportError:
        log.warning(
            'SENTRY_DSN is set but sentry_sdk is not installed (pip install "melee[sentry]"): errors are not reported'
        )
        return False
    integrations = []
    try:
        from sentry_sdk.integrations.flask import FlaskIntegration

        integrations.append(FlaskIntegration())
    except Exception:  # the flask integration needs the flask extra; logging alone still works
        pass
    sentry_sdk.init(dsn=dsn, release=release, send_default_pii=False, integrations=integrations)
    log.info("error reporting to Sentry is on")
    return True
