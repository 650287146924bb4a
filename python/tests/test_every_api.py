"""python/examples/every_api.py, which uses every public name of the package (and which
`mypy --strict` checks against the stubs), runs to its end."""

from __future__ import annotations

import runpy

from conftest import REPO


def test_every_public_name_works_as_its_stub_says() -> None:
    module = runpy.run_path(str(REPO / "python" / "examples" / "every_api.py"))
    module["main"]()
