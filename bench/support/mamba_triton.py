# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 cute-cpp authors
"""mamba_ssm's Triton kernels (mamba_chunk_scan_combined, selective_state_update) as the state-space
benchmark's reference, where scripts/mamba-ssm-fetch put them (.whl-mamba/site, carried to the lent
machine beside the tree). Benchmarks time them when they are there and say so when they are not."""
import os
import sys
from pathlib import Path

MAMBA_SITE = Path(os.environ.get("CUTE_CPP_MAMBA_DIR", Path(__file__).resolve().parents[2] / ".whl-mamba")) / "site"


class MambaTriton:
    """The two kernels as Mamba-2 layers call them."""

    def __init__(self, chunk_scan, state_update, version):
        self.chunk_scan, self.state_update = chunk_scan, state_update
        self.name = f"mamba_ssm {version} Triton"


def load():
    """(MambaTriton, None) where it imports, else (None, why not)."""
    if not (MAMBA_SITE / "mamba_ssm").is_dir():
        return None, f"not in {MAMBA_SITE} (scripts/mamba-ssm-fetch here, then carry .whl-mamba)"
    sys.path.insert(0, str(MAMBA_SITE))
    try:
        import mamba_ssm
        from mamba_ssm.ops.triton.selective_state_update import selective_state_update
        from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    except Exception as e:  # a broken copy is reported, not fatal: the checks still run
        return None, f"import failed: {type(e).__name__}: {e}"
    return MambaTriton(mamba_chunk_scan_combined, selective_state_update, mamba_ssm.__version__), None
