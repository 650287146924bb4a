"""Shared fixtures: the repository's paths and the FFO #40-#49 problems."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
FFO_40_49 = REPO / "src" / "cli" / "ffo40-49.obf"
WTHOR_DIR = REPO / "tests" / "data" / "wthor"


def iago_binary() -> Optional[Path]:
    """The release binary `cargo xtask test` builds (or `IAGO_BIN`)."""
    named = os.environ.get("IAGO_BIN")
    candidates = [Path(named)] if named else []
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    candidates.append(target / "release" / "iago")
    return next((p for p in candidates if p.is_file()), None)


@pytest.fixture(scope="session")
def binary() -> Path:
    path = iago_binary()
    if path is None:
        pytest.fail("the iago binary is not built: run `cargo build --release` (or set IAGO_BIN)")
    return path
