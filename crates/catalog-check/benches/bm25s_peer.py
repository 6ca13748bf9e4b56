"""The peer of `cargo bench -p catalog-check --bench search`: bm25s on the same tools and
the same requests, timed the same way. Prints one JSON line (the Rust bench reads it).

    python3 bm25s_peer.py TOOLS_JSON QUERIES_JSONL ROUNDS K

Each tool's document is its name (dots and underscores as spaces, so `math.factorial`
reads as two words) + description + every parameter's name and description, nested
properties included: the "name + description + parameter names/descriptions" baseline of
tests/data/bfcl/README.md. English stemmer and stop words. A query is timed on its own,
tokenization included (single query per call, as an agent's search tool is called); every
query once per round, the median, p90 and p99 over all calls. Needs
`python3 -m pip install bm25s PyStemmer`.
"""

import json
import sys
import time

import bm25s
import Stemmer


def words(name):
    return name.replace(".", " ").replace("_", " ")


def schema_text(schema, out):
    """Property names and descriptions anywhere in a JSON Schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                out.append(value)
            elif key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    out.append(words(name))
                    schema_text(sub, out)
            else:
                schema_text(value, out)
    elif isinstance(schema, list):
        for item in schema:
            schema_text(item, out)


def document(tool):
    out = [words(tool["name"]), tool.get("description") or ""]
    schema_text(tool.get("inputSchema", {}), out)
    return " ".join(out)


def percentile(sorted_times, q):
    """Nearest rank, as the Rust bench computes it."""
    n = len(sorted_times)
    rank = max(1, -(-round(q * 1000) * n // 1000))  # ceil(q * n) without float error
    return sorted_times[min(rank, n) - 1]


def main():
    tools_path, queries_path, rounds, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(tools_path, encoding="utf-8") as f:
        tools = json.load(f)["tools"]
    with open(queries_path, encoding="utf-8") as f:
        queries = [json.loads(line) for line in f if line.strip()]
    position = {t["name"]: i for i, t in enumerate(tools)}
    stemmer = Stemmer.Stemmer("english")

    start = time.perf_counter()
    corpus = bm25s.tokenize(
        [document(t) for t in tools], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    index_ms = (time.perf_counter() - start) * 1e3

    def search(text):
        tokens = bm25s.tokenize(
            text, stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )
        docs, _scores = retriever.retrieve(tokens, k=k, show_progress=False, n_threads=0)
        return docs[0]

    recall = 0.0
    for q in queries:
        top = set(int(d) for d in search(q["query"]))
        expected = [position[name] for name in q["expected"]]
        recall += sum(1 for e in expected if e in top) / len(expected)

    for q in queries[: min(len(queries), 100)]:  # warm-up
        search(q["query"])
    times = []
    for _ in range(rounds):
        for q in queries:
            start = time.perf_counter_ns()
            search(q["query"])
            times.append((time.perf_counter_ns() - start) / 1e3)
    times.sort()
    print(
        json.dumps(
            {
                "peer": f"bm25s {bm25s.__version__}",
                "tools": len(tools),
                "queries": len(queries),
                "k": k,
                "recall_at_k": recall / len(queries),
                "index_ms": index_ms,
                "median_us": times[len(times) // 2],
                "p90_us": percentile(times, 0.90),
                "p99_us": percentile(times, 0.99),
            }
        )
    )


if __name__ == "__main__":
    main()
