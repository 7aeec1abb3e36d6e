# SPDX-License-Identifier: Apache-2.0
"""The pass/fail report the models' GPU check scripts share (check_qwen3.py, check_nemotron.py,
check_tts_codec.py): one line a check, the failures named at the end, records for gpu-check."""
import json
import shutil
from pathlib import Path


class Report:
    def __init__(self):
        self.passed, self.failed, self.records = [], [], []

    def check(self, name, ok, figures):
        print(f"check {name}: {'pass' if ok else 'FAIL'} ({figures})", flush=True)
        (self.passed if ok else self.failed).append(name)

    def guarded(self, name, fn, *args):
        """Runs one check function; an exception is that check's failure, not the end of the run."""
        try:
            fn(self, *args)
        except Exception as e:  # noqa: BLE001 -- any error is reported as the check's failure
            self.check(name, False, f"{type(e).__name__}: {e}")


def finish(report, json_path, work, temporary):
    """The run's end: the records to `json_path` (if given), the count, the failures named and the work
    folder kept, or a temporary one removed when all passed. Returns the exit status."""
    if json_path:
        Path(json_path).write_text(json.dumps(report.records, indent=1) + "\n")
    print(f"{len(report.passed)} passed, {len(report.failed)} failed")
    if report.failed:
        print(f"failed: {', '.join(report.failed)}; work folder kept: {work}")
        return 1
    if temporary:
        shutil.rmtree(work, ignore_errors=True)
    return 0
