"""``cache.clear()`` deletes the cache's own keys, never the rest of its Redis database.

Celery's queues live in the same Redis database as the cache (``REDIS_URL``), and test processes
running side by side (``make test-fast``) share it with a key prefix each: Django's ``clear``
(FLUSHDB) would drop queued tasks and the other process's keys."""

import pytest
import redis
from django.core.cache import cache

pytestmark = pytest.mark.redis


def test_clear_deletes_the_prefixed_keys_and_nothing_else(redis_url, settings):
    other = redis.Redis.from_url(redis_url)
    foreign = "annuminas-test-foreign-key"
    other.set(foreign, "a queued task", ex=60)
    try:
        cache.set("sheet", "cached page", 60)
        assert cache.get("sheet") == "cached page"
        assert cache.clear() is True
        assert cache.get("sheet") is None
        assert other.get(foreign) == b"a queued task"
        prefix = settings.CACHES["default"]["KEY_PREFIX"]
        assert list(other.scan_iter(match=f"{prefix}:*")) == []
    finally:
        other.delete(foreign)
