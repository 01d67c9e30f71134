"""HTTP 429, a server's rate limit (NetBird's NB_API_RATE_LIMITING_ENABLED): waited out, not counted as retries, told.

The server here is a token bucket per token as v0.77.1's (golang.org/x/time/rate: a refused request takes no token),
answering 429 {"message": "too many requests", "code": 429} without Retry-After; time is the fake clock's."""

from __future__ import annotations

import pytest

from ansible_collections.nms.overlay.plugins.module_utils import _time
from ansible_collections.nms.overlay.plugins.module_utils._client import RATE_LIMIT_PATIENCE, ApiError, Client
from tests.unit.plugins.module_utils.test_client import TOKEN, FakeResponse, FakeSession


class BucketSession(FakeSession):
    """A server with a limit of ``burst`` requests, refilled at ``rpm`` a minute, on the collection's clock."""

    def __init__(self, burst, rpm):
        super().__init__([])
        self.burst, self.rpm = burst, rpm
        self.left, self.then = float(burst), _time.CLOCK.monotonic()
        self.statuses = []

    def request(self, method, url, **kwargs):
        self.calls.append((method, url, kwargs))
        now = _time.CLOCK.monotonic()
        self.left = min(float(self.burst), self.left + (now - self.then) * self.rpm / 60.0)
        self.then = now
        if self.left < 1.0:
            self.statuses.append(429)
            return FakeResponse(status=429, body={'message': 'too many requests', 'code': 429},
                                reason='Too Many Requests')
        self.left -= 1.0
        self.statuses.append(200)
        return FakeResponse(body=[])


def bucket_client(burst, rpm, retries=0):
    notices = []
    session = BucketSession(burst, rpm)
    client = Client('https://nms.test', TOKEN, retries=retries, session=session, notify=notices.append)
    return client, session, notices


def test_a_build_past_netbirds_default_limit_waits_about_one_refill_a_request_and_never_fails():
    client, session, notices = bucket_client(burst=5, rpm=6, retries=0)  # retries=0: a 429 is not a retry
    client.rate_limit.work_left = lambda: '%d of 30 resources left' % (30 - session.statuses.count(200))
    for dummy in range(30):
        assert client.get('/groups') == []
    assert session.statuses.count(200) == 30
    waits = _time.CLOCK.waits
    # the wait doubles from 0.5 s while refused, up to one refill (10 s), and is kept for the next request (about one
    # 429 a request, not one every half second)
    assert waits[:5] == [0.5, 1.0, 2.0, 4.0, 8.0]
    assert set(waits[5:]) == {8.0, 10.0} and waits[-1] == 10.0
    assert session.statuses.count(429) <= 25 + 6
    assert 250 - 10 <= sum(waits) <= 250 + 20  # 25 requests past the burst at 6 a minute: about 250 s
    # told on the first wait, then once a minute of waiting (not on every 429), naming the wait and the work left
    assert 4 <= len(notices) <= 6, notices
    assert notices[0] == (
        'GET https://nms.test:443/api/groups failed with HTTP 429: too many requests; waiting 0.5 s for the server\'s '
        'rate limit to let another request through (it sent no Retry-After), then sending it again (rate limit: 0 s '
        'waited for it so far, at most 600 s for one request; a 429 does not count against retries); '
        '25 of 30 resources left')
    assert all('waiting 10 s for the server\'s rate limit' in notice for notice in notices[1:]), notices
    assert TOKEN not in ''.join(notices)


def test_a_fast_refill_keeps_the_short_wait():
    client, session, dummy = bucket_client(burst=2, rpm=600)  # one every 0.1 s
    for dummy in range(10):
        client.get('/groups')
    assert set(_time.CLOCK.waits) == {0.5}
    assert session.statuses.count(200) == 10


def test_retry_after_is_waited_as_told_and_does_not_count_against_retries():
    limited = FakeResponse(status=429, headers={'Retry-After': '7'}, body={'message': 'slow down'})
    session = FakeSession([limited] * 5 + [FakeResponse(body={'id': 'g1'})])
    client = Client('https://nms.test', TOKEN, retries=1, session=session)
    assert client.put('/groups/g1', {'name': 'x'}) == {'id': 'g1'}
    assert _time.CLOCK.waits == [7.0] * 5
    assert len(session.calls) == 6


def test_a_limit_that_never_lets_a_request_through_fails_after_the_patience_naming_the_wait():
    client, session, notices = bucket_client(burst=1, rpm=6)
    client.get('/groups')
    session.rpm = 1e-9  # the bucket never refills
    with pytest.raises(ApiError) as err:
        client.get('/groups')
    assert err.value.status == 429
    assert str(err.value).startswith('GET https://nms.test:443/api/groups failed with HTTP 429: too many requests '
                                     '(still refused after ')
    assert str(err.value).endswith(' s of waiting for the rate limit, the most one request waits)')
    assert RATE_LIMIT_PATIENCE <= _time.CLOCK.waited < RATE_LIMIT_PATIENCE + 10.0 + 0.01


def test_a_server_asking_for_no_wait_at_all_still_ends():
    limited = FakeResponse(status=429, headers={'Retry-After': '0'}, body={'message': 'busy'})
    session = FakeSession([limited] * 2000)
    client = Client('https://nms.test', TOKEN, retries=3, session=session)
    with pytest.raises(ApiError, match='still refused after'):
        client.get('/groups')
    assert len(session.calls) == RATE_LIMIT_PATIENCE / 0.5 + 1


def test_a_post_answered_429_is_left_to_the_engine_which_reads_back_first():
    client, session, dummy = bucket_client(burst=1, rpm=6)
    client.get('/groups')
    with pytest.raises(ApiError) as err:
        client.post('/groups', {'name': 'a'})
    assert err.value.status == 429 and len(session.calls) == 2
    assert _time.CLOCK.waits == []
