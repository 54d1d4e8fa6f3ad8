# syntax=docker/dockerfile:1
# docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) -t melee .
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# Build: a virtualenv with Melee and its dependencies at the versions pinned
# in constraints/runtime.txt (pip-compile; all wheels, nothing to compile),
# then pip and setuptools removed from it.
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY constraints/runtime.txt ./constraints/runtime.txt
COPY service ./service
RUN python -m venv /opt/melee \
 && /opt/melee/bin/pip install --constraint constraints/runtime.txt . \
 && /opt/melee/bin/python -m pip uninstall --yes pip setuptools

# Runtime: the virtualenv and the gunicorn settings (the same image runs the
# simulation workers: python -m service.jobs.worker), no compiler, no pip,
# a non-root user, nothing writable but /tmp (docs/operations.md).
FROM ${PYTHON_IMAGE}
ARG GIT_COMMIT=""
RUN python -m pip uninstall --yes --quiet pip setuptools wheel 2>/dev/null; \
    useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin melee
ENV PATH=/opt/melee/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PORT=8000 PROMETHEUS_MULTIPROC_DIR=/tmp/melee-metrics GIT_COMMIT=$GIT_COMMIT
WORKDIR /app
COPY --from=build /opt/melee /opt/melee
COPY deploy/gunicorn.conf.py /app/deploy/gunicorn.conf.py
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)"
# exec form: gunicorn is PID 1 and receives SIGTERM directly.
STOPSIGNAL SIGTERM
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"]
