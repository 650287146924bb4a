"""The examples of the README's Python section, docs/python.md and the modules' docstrings run
as doctests."""

from __future__ import annotations

import doctest

import pytest

import iago
import iago.datasets
import iago.encodings
import iago.env

from conftest import REPO


@pytest.mark.parametrize("path", ["README.md", "docs/python.md"])
def test_the_documents_examples_run(path: str) -> None:
    result = doctest.testfile(str(REPO / path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("module", [iago, iago.datasets, iago.encodings, iago.env])
def test_the_modules_examples_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
