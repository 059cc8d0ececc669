#!/usr/bin/env python3
"""An agent test as a team outside Go would write it (standard library only).

It drives the flight chain of the built-in catalog in one session -- look up
two cities with skyscanner80.flights_auto_complete, then search one way
between the IDs they returned -- and asserts on what was called with
POST /v1/sessions/{id}/expect: one expectation that holds and one that does
not. Then it resets the session with DELETE /v1/sessions/{id}.

The server is the one at $UNDERSTUDY_URL when that is set (a CI job started
it, see ci.sh); otherwise the script starts the toolserver binary given as
its first argument with -addr 127.0.0.1:0 and reads the URL from the first
line the server prints. It exits 0 when every assertion holds.

The calls are ones the built-in recordings hold (New York and Lisbon, the
search of 20 June 2025), so the test passes in replay mode too
(toolserver -mode replay), offline.
"""

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

SESSION = "flight-chain"


def request(base, method, path, body=None):
    """Sends one request; returns (status, parsed JSON body or None)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    return status, (json.loads(raw) if raw else None)


def call(base, api, arguments):
    status, res = request(base, "POST", "/v1/call",
                          {"tool": "skyscanner80", "api": api, "arguments": arguments, "session": SESSION})
    assert status == 200, (api, status, res)
    assert res["status"] == 200, (api, res)
    return res["response"]


def expect(base, expectation):
    status, verdict = request(base, "POST", "/v1/sessions/%s/expect" % SESSION, expectation)
    assert status == 200, (status, verdict)
    return verdict


def test(base):
    # The agent's part: each ID comes from an earlier answer, never made up.
    new_york = call(base, "flights_auto_complete", {"query": "New York"})["data"][0]["id"]
    lisbon = call(base, "flights_auto_complete", {"query": "Lisbon"})["data"][0]["id"]
    flights = call(base, "flights_search_one_way", {"fromId": new_york, "toId": lisbon, "departDate": "2025-06-20"})
    assert flights["data"]["itineraries"], flights

    # The test's part: what it expects the agent to have done. An argument
    # is a plain value or {"values": [...]}, a list of acceptable ones.
    verdict = expect(base, {
        "calls": [
            {"api": "skyscanner80.flights_auto_complete", "arguments": {"query": "new york"}},
            {"api": "skyscanner80.flights_auto_complete", "arguments": {"query": {"values": ["lisbon", "Lisboa"]}}},
            {"api": "skyscanner80.flights_search_one_way",
             "arguments": {"fromId": new_york, "toId": lisbon, "departDate": {"values": ["2025-06-20"]}}},
        ],
        "order": "sequence",
        "no_violations": True,
        "max_calls": 3,
    })
    assert verdict == {"pass": True, "diff": []}, verdict

    # The same trip the other way round did not happen: the verdict says why.
    verdict = expect(base, {
        "calls": [{"api": "skyscanner80.flights_search_one_way",
                   "arguments": {"fromId": {"values": [lisbon]}, "toId": {"values": [new_york]}}}],
        "max_calls": 2,
    })
    assert verdict["pass"] is False, verdict
    diff = "\n".join(verdict["diff"])
    assert "expected call 1 skyscanner80.flights_search_one_way: call #3: fromId is" in diff, diff
    assert "3 calls made, at most 2 expected" in diff, diff

    # The next test case starts from nothing.
    status, body = request(base, "DELETE", "/v1/sessions/" + SESSION)
    assert status == 204, (status, body)
    status, body = request(base, "GET", "/v1/sessions/" + SESSION)
    assert status == 404, (status, body)
    print("flight chain: 2 expectations checked, session reset")


def main():
    base = os.environ.get("UNDERSTUDY_URL")
    if base:
        test(base.rstrip("/"))
        return 0
    if len(sys.argv) != 2:
        print("usage: flight_chain.py TOOLSERVER_BINARY (or set UNDERSTUDY_URL)", file=sys.stderr)
        return 2
    server = subprocess.Popen([sys.argv[1], "-addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:"), "no URL on the first line: %r" % base
        test(base)
    finally:
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=30)
    assert code == 0, "toolserver exited with %d" % code
    return 0


if __name__ == "__main__":
    sys.exit(main())
