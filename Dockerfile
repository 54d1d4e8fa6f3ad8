# syntax=docker/dockerfile:1
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service ./service
RUN python -m venv /opt/melee && /opt/melee/bin/pip install --no-cache-dir .

FROM python:3.11-slim
ENV PATH=/opt/melee/bin:$PATH PYTHONUNBUFFERED=1 PORT=8000
RUN useradd --system --uid 10001 --home-dir /app melee
WORKDIR /app
COPY --from=build /opt/melee /opt/melee
COPY deploy/gunicorn.conf.py /app/deploy/gunicorn.conf.py
USER melee
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)"
# exec form: gunicorn is PID 1 and receives SIGTERM directly.
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"]
