"""Fixtures: a loopback mock model server per test, scripted over its control API."""
import json
import os
import subprocess
import urllib.request

import pytest


class MockServer:
    def __init__(self, path):
        self.process = subprocess.Popen(
            [path, "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        line = self.process.stdout.readline()
        if not line.startswith("PORT="):
            self.process.kill()
            raise RuntimeError("mock server did not start: %r" % line)
        self.port = int(line.strip().split("=", 1)[1])
        self.url = "http://127.0.0.1:%d" % self.port
        self.base_url = self.url + "/v1"

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            payload = response.read()
        return json.loads(payload) if payload else None

    def enqueue(self, *specs):
        self._call("POST", "/_mock/enqueue", list(specs))

    def requests(self):
        return self._call("GET", "/_mock/requests")

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def mock_server():
    path = os.environ.get("HERMES_MOCK_SERVER")
    if not path:
        pytest.skip("HERMES_MOCK_SERVER is not set (run through ctest)")
    server = MockServer(path)
    yield server
    server.close()
