"""The peer of `cargo xtask eval-languages`: bm25s over character bigrams, the plain
dictionary-free baseline for Chinese, Japanese and Korean text, on the same tools and
requests. Reads one JSON object on stdin and prints one JSON line (the Rust side reads it
and scores the hits exactly as it scores its own):

    {"language": "ja", "k": 5, "rounds": 5,
     "docs": [{"id": 3, "text": "..."}, ...], "queries": ["...", ...]}
    -> {"peer": "bm25s 0.3.16", "hits": [[3, 7, ...], ...], "median_us": 812.5}

`docs` are the tools a search may return, each with every text this crate's index reads
(name, keywords, description, examples, parameters) joined as one field. Tokens, made by
hand as the baseline is usually built: NFKC, lowercase; a run of Han, Hiragana, Katakana
or Hangul characters as its overlapping bigrams (one run across scripts, as Lucene's
CJKBigramFilter pairs them), a run of one character as itself; other text as runs of
letters and digits split at camelCase, bm25s's stop words of the catalog's language
dropped, then Snowball-stemmed (PyStemmer) in it, English for a CJK catalog's Latin words.
bm25s's defaults otherwise (Lucene's BM25, k1 1.5, b 0.75). A query is timed on its own,
tokenising included, every query once per round. Needs `python3 -m pip install bm25s
PyStemmer`.
"""

import json
import re
import sys
import time
import unicodedata

import bm25s
import bm25s.stopwords as stopwords
import Stemmer

STEMMERS = {"en": "english", "de": "german", "fr": "french", "es": "spanish",
            "pt": "portuguese", "it": "italian", "nl": "dutch"}
STOP_WORDS = {"en": stopwords.STOPWORDS_EN, "de": stopwords.STOPWORDS_GERMAN,
              "fr": stopwords.STOPWORDS_FRENCH, "es": stopwords.STOPWORDS_SPANISH,
              "pt": stopwords.STOPWORDS_PORTUGUESE, "it": stopwords.STOPWORDS_ITALIAN,
              "nl": stopwords.STOPWORDS_DUTCH}
CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff"
                 r"\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def tokenizer(language):
    latin = language if language in STEMMERS else "en"
    stem = Stemmer.Stemmer(STEMMERS[latin]).stemWord
    stop = set(STOP_WORDS[latin])

    def tokens(text):
        out = []
        text = unicodedata.normalize("NFKC", text)
        at = 0
        for run in CJK.finditer(text):
            out += words(text[at:run.start()])
            chars = run.group()
            out += [chars] if len(chars) == 1 else [a + b for a, b in zip(chars, chars[1:])]
            at = run.end()
        return out + words(text[at:])

    def words(text):
        out = []
        for word in re.findall(r"[^\W_]+", CAMEL.sub(" ", text)):
            word = word.lower()
            if word not in stop:
                out.append(stem(word))
        return out

    return tokens


def median(times):
    """Nearest rank, as the Rust side computes it."""
    times = sorted(times)
    return times[max(1, -(-len(times) // 2)) - 1]


def main():
    job = json.load(sys.stdin)
    tokens = tokenizer(job["language"])
    ids = [d["id"] for d in job["docs"]]
    retriever = bm25s.BM25()
    retriever.index([tokens(d["text"]) for d in job["docs"]], show_progress=False)
    k = min(job["k"], len(ids))
    vocab = retriever.vocab_dict

    def search(query):
        known = [t for t in tokens(query) if t in vocab]
        if not known:
            return []
        docs, scores = retriever.retrieve([known], k=k, show_progress=False)
        return [ids[d] for d, s in zip(docs[0].tolist(), scores[0].tolist()) if s > 0]

    hits = [search(q) for q in job["queries"]]
    times = []
    for _ in range(job["rounds"]):
        for q in job["queries"]:
            start = time.perf_counter()
            search(q)
            times.append((time.perf_counter() - start) * 1e6)
    print(json.dumps({"peer": f"bm25s {bm25s.__version__}", "hits": hits,
                      "median_us": median(times)}))


if __name__ == "__main__":
    main()
