"""toolwall-guard's detector on the cases of a screen set: reads JSON lines of
{"result": text} on stdin, writes {"score": s, "seconds": t} per line, with its default
threshold (0.6) applied by the caller."""

import json
import sys
import time

from toolwall.detect import CompositeDetector

detector = CompositeDetector(use_judge=False)
for line in sys.stdin:
    text = json.loads(line)["result"]
    start = time.perf_counter()
    score, _ = detector.score(text)
    print(json.dumps({"score": score, "seconds": time.perf_counter() - start}), flush=True)
