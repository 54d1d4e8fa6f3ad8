"""require_api_key: the one decision on API keys for what creates (combats, simulations)."""

from __future__ import annotations

import pytest

from service.usecases.access import AccessDenied, require_api_key


@pytest.mark.parametrize("offered", [None, "", "anything"])
def test_without_api_keys_anyone_creates(offered):
    require_api_key((), offered)


@pytest.mark.parametrize("offered", [None, "", "k-12", "k-1234", "K-123", "clé"])
def test_with_api_keys_another_or_no_key_is_401(offered):
    with pytest.raises(AccessDenied) as denied:
        require_api_key(("k-123", "k-456"), offered)
    assert denied.value.status == 401
    assert denied.value.detail == "creating a combat on this deployment needs an API key (X-API-Key header)"


@pytest.mark.parametrize("offered", ["k-123", "k-456", "clé"])
def test_any_of_the_api_keys_creates(offered):
    require_api_key(("k-123", "k-456", "clé"), offered)
