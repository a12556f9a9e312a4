import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rules(*ids): the rulebook rule IDs this test checks")
