"""Browser tests of the web application (a package, so that its conftest does not shadow tests/python/conftest.py as module `conftest`)."""
