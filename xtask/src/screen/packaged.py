"""A packaged detector on the cases of a screen set, run as its README runs it:
`packaged.py toolwall` (toolwall-guard's rules), `packaged.py prismguard` (prismguard's
check as a bare install runs it: its rules, its ONNX model off) or `packaged.py
nanoguard` (metatronnanoguard's transformer, on the CPU). Reads JSON lines of {"result": text} on
stdin and writes {"score": s, "seconds": t} per line; the caller applies the package's
default threshold."""

import json
import sys
import time

if sys.argv[1] == "toolwall":
    from toolwall.detect import CompositeDetector

    detector = CompositeDetector(use_judge=False)

    def score(text):
        return detector.score(text)[0]

elif sys.argv[1] == "prismguard":
    from prismguard.runtime.factory import create_checker_from_env

    checker = create_checker_from_env()

    def score(text):
        # A verdict, not a score: "block" counts; "gray" is let through, as it does.
        return 1.0 if checker.check(text).decision == "block" else 0.0

elif sys.argv[1] == "nanoguard":
    import warnings

    # torch asks for NumPy, which the detector never uses.
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    from nanoguard import NanoGuard

    guard = NanoGuard(device="cpu")

    def score(text):
        return guard.scan(text).injection_score

else:
    sys.exit(f"unknown detector {sys.argv[1]!r}")

for line in sys.stdin:
    text = json.loads(line)["result"]
    start = time.perf_counter()
    s = score(text)
    print(json.dumps({"score": s, "seconds": time.perf_counter() - start}), flush=True)
