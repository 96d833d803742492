"""Run by check_pip_install.py with the venv's interpreter: the installed package works."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # For conftest.MockServer.
from conftest import MockServer  # noqa: E402

import hermes  # noqa: E402

venv = Path(sys.argv[1]).resolve()
package = Path(hermes.__file__).resolve().parent
assert venv in package.parents, "hermes was imported from %s, not the venv" % package
for name in ("py.typed", "_native.pyi", "__init__.py"):
    assert (package / name).is_file(), "%s is not installed" % name

server = MockServer(os.environ["HERMES_MOCK_SERVER"])
try:
    server.enqueue({"chat_text": "Installed and working.", "stream": True})
    agent = hermes.Agent(model="mock-model", base_url=server.base_url, api_key="sk-test",
                         home=str(Path.cwd() / "home"))
    answer = agent.chat("Are you there?")
    assert answer == "Installed and working.", answer
finally:
    server.close()
print("hermes %s from %s: ok" % (hermes.__version__, package))
