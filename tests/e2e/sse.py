"""A minimal Server-Sent Events reader over ``requests`` (stream=True), for the end-to-end tests."""

from __future__ import annotations

import json

import requests


class SseReader:
    def __init__(self, url: str, headers: dict | None = None, read_timeout: float = 10):
        self.response = requests.get(url, headers=headers or {}, stream=True, timeout=(5, read_timeout))
        assert self.response.status_code == 200, self.response.text
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        self.lines = self.response.iter_lines(decode_unicode=True)

    def next_event(self) -> dict:
        """The next event (comments and retry lines skipped); raises on the read timeout."""
        fields: dict = {}
        for line in self.lines:
            if line == "":
                if "event" in fields:
                    if "data" in fields:
                        fields["data"] = json.loads(fields["data"])
                    return fields
                fields = {}
                continue
            name, _, value = line.partition(":")
            if name:
                fields[name] = value.strip()
        raise EOFError("the stream ended")

    def close(self) -> None:
        self.response.close()
