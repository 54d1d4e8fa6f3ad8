"""The request log's timestamp and request id, written without datetime and uuid objects each time."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime

from service.observability.logs import new_request_id, timestamp


def reference(created: float) -> str:
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_timestamp_is_what_datetime_writes_rounding_included():
    draw = random.Random(7)
    cases = [0.0, 1.0, 59.9999995, 1_700_000_000.0, 1_700_000_000.9995, 1_700_000_000.0005, 1_700_000_000.9999996]
    cases += [1_700_000_000 + draw.random() for _ in range(20_000)]
    cases += [draw.randrange(0, 4_000_000_000) + k / 1e6 + 5e-7 for k in range(0, 1_000_000, 997)]
    for created in cases:
        assert timestamp(created) == reference(created), created


def test_request_ids_are_uuid4_hex():
    for _ in range(200):
        rid = new_request_id()
        parsed = uuid.UUID(hex=rid)
        assert len(rid) == 32 and parsed.hex == rid
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
    assert len({new_request_id() for _ in range(1000)}) == 1000
