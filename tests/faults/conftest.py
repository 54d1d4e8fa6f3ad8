import pytest

from ..redis_server import OwnRedis


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of the test's own, to stop or freeze (never the shared one)."""
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()
