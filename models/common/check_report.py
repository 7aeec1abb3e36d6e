# SPDX-License-Identifier: Apache-2.0
"""The pass/fail report the models' GPU check scripts share (check_qwen3.py, check_nemotron.py,
check_tts_codec.py): one line a check, the failures named at the end, records for gpu-check. A check
that this machine cannot run (check_qwen3_tp_gpus.py with fewer than 2 GPUs) is recorded as not run,
never as a pass: the script then exits NOT_RUN_EXIT, which scripts/gpu-check lists as "not run"."""
import json
import shutil
from pathlib import Path

NOT_RUN_EXIT = 3  # nothing failed, but some check could not run here (neither 0, a pass, nor 1, a failure)


class Report:
    def __init__(self):
        self.passed, self.failed, self.records, self.not_run = [], [], [], []

    def check(self, name, ok, figures):
        print(f"check {name}: {'pass' if ok else 'FAIL'} ({figures})", flush=True)
        (self.passed if ok else self.failed).append(name)

    def skip(self, name, why):
        """A check this machine cannot run (`why` says what it lacks): listed, and the run's exit is
        NOT_RUN_EXIT unless something failed."""
        print(f"check {name}: NOT RUN ({why})", flush=True)
        self.not_run.append(name)

    def guarded(self, name, fn, *args):
        """Runs one check function; an exception is that check's failure, not the end of the run."""
        try:
            fn(self, *args)
        except Exception as e:  # noqa: BLE001 -- any error is reported as the check's failure
            self.check(name, False, f"{type(e).__name__}: {e}")


def finish(report, json_path, work, temporary):
    """The run's end: the records to `json_path` (if given), the count, the failures named and the work
    folder kept, or a temporary one removed when all passed. Returns the exit status: 1 if a check
    failed, else NOT_RUN_EXIT if one could not run here, else 0."""
    if json_path:
        Path(json_path).write_text(json.dumps(report.records, indent=1) + "\n")
    print(f"{len(report.passed)} passed, {len(report.failed)} failed"
          + (f", {len(report.not_run)} not run" if report.not_run else ""))
    if report.failed:
        print(f"failed: {', '.join(report.failed)}; work folder kept: {work}")
        return 1
    if temporary:
        shutil.rmtree(work, ignore_errors=True)
    if report.not_run:
        print(f"not run: {', '.join(report.not_run)}")
        return NOT_RUN_EXIT
    return 0
