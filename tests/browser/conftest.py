"""Browser tests: the web application served by uvicorn on 127.0.0.1, driven by Debian's
Chromium through Playwright (never a downloaded browser), on SQLite and on a throwaway
PostgreSQL cluster (the one tests/python starts). Without Chromium these tests fail, unless
EFFBENCH_NO_BROWSER=1."""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from pathlib import Path

import pytest

PY_TESTS = Path(__file__).resolve().parents[1] / "python"
sys.path.insert(0, str(PY_TESTS))
warnings.filterwarnings("ignore", category=DeprecationWarning)

from web_helpers import LiveServer  # noqa: E402

CHROMIUM = Path(os.environ.get("EFFBENCH_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def _python_conftest():
    """tests/python/conftest.py under another module name: its PostgreSQL cluster class."""
    spec = importlib.util.spec_from_file_location("effbench_python_conftest",
                                                  PY_TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PY_CONFTEST = _python_conftest()
samples = PY_CONFTEST.samples
postgres = PY_CONFTEST.postgres


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory):
    if os.environ.get("EFFBENCH_NO_BROWSER") == "1":
        pytest.skip("EFFBENCH_NO_BROWSER=1: browser tests are skipped")
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set "
                    "EFFBENCH_CHROMIUM; EFFBENCH_NO_BROWSER=1 skips the browser tests)")
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    context = pw.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
        headless=True, args=CHROMIUM_ARGS, accept_downloads=True,
        viewport={"width": 1300, "height": 1000})
    yield context
    context.close()
    pw.stop()


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    page.set_default_timeout(20_000)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems
    yield page
    page.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request, tmp_path):
    """A fresh store on each backend, two upload tokens and the app serving it."""
    from effbench.store.db import Store
    from effbench.web import create_app
    from effbench.web.tokens import create_token
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    else:
        url = request.getfixturevalue("postgres").new_database()
    store = Store(url)
    tokens = {"alice": create_token(store, "alice"), "admin": create_token(store, "admin",
                                                                           admin=True)}
    server = LiveServer(create_app(store=store))
    server.store, server.tokens, server.db_url = store, tokens, url
    yield server
    server.stop()
    store.close()
