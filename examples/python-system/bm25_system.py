#!/usr/bin/env python3
"""A small BM25 memory, written with Python's standard library only, that recollect evaluates
over its subprocess protocol (recollect-system/1): JSON-RPC 2.0, one message per line, requests
on standard input, replies on standard output. See "Evaluate your own memory system" in the
README for the protocol, and experiment.yaml beside this file for how it is run.

It keeps every memory of a scope, drops the ones a later memory corrects or that have expired,
ranks the rest by Okapi BM25 against the question, and returns the best that fit the budget.
"""
import json
import math
import re
import sys

PROTOCOL = "recollect-system/1"
STOPWORDS = set(
    "a about after again all am an and any are as at be been before being but by can could did do "
    "does doing dont for from had has have having he her here hers him his how i if in into is it "
    "its just me my myself no nor not of off on once only or other our ours out over own same she "
    "should so some such than that the their theirs them then there these they this those through "
    "to too under until up very was we were what when where which while who whom why will with "
    "would you your yours yourself".split()
)


def words(text):
    """Lower-cased words without stopwords; a possessive 's goes with its word."""
    text = text.lower().replace("\u2019", "'")
    found = re.findall(r"[^\W_]+(?:'[^\W_]+)*", text)
    out = []
    for word in found:
        if word.endswith("'s"):
            word = word[:-2]
        word = word.replace("'", "")
        if word and word not in STOPWORDS:
            out.append(word)
    return out


class Scope:
    def __init__(self, k1, b):
        self.k1, self.b = k1, b
        self.memories = {}  # id -> memory, in write order
        self.terms = {}  # id -> {word: count}
        self.corrected = set()

    def write(self, memories):
        for memory in memories:
            self.memories[memory["id"]] = memory
            counts = {}
            for word in words(memory["text"]):
                counts[word] = counts.get(word, 0) + 1
            self.terms[memory["id"]] = counts
            if memory["supersedes"] is not None:
                self.corrected.add(memory["supersedes"])

    def current(self, now):
        return [
            m for m in self.memories.values()
            if m["id"] not in self.corrected and (m["expiresAt"] is None or m["expiresAt"] > now)
        ]

    def retrieve(self, query, now, budget):
        docs = self.current(now)
        if not docs:
            return []
        lengths = {m["id"]: sum(self.terms[m["id"]].values()) for m in docs}
        average = sum(lengths.values()) / len(docs)
        scores = {m["id"]: 0.0 for m in docs}
        for word in set(words(query)):
            having = [m["id"] for m in docs if word in self.terms[m["id"]]]
            if not having:
                continue
            idf = math.log(1 + (len(docs) - len(having) + 0.5) / (len(having) + 0.5))
            for doc in having:
                tf = self.terms[doc][word]
                norm = self.k1 * (1 - self.b + self.b * lengths[doc] / average) if average else 0
                scores[doc] += idf * tf * (self.k1 + 1) / (tf + norm)
        # Best first; ties go to the newer memory, then by id, so the order never depends on chance.
        ranked = sorted(docs, key=lambda m: (-scores[m["id"]], -m["createdAt"], m["id"]))
        chosen, used = [], 0
        for memory in ranked:
            if scores[memory["id"]] <= 0:
                break
            if budget is not None and used + memory["tokens"] > budget:
                continue
            chosen.append(memory["id"])
            used += memory["tokens"]
        return chosen


def main():
    scopes = {}
    options = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        method, params = request["method"], request["params"]
        result = None
        try:
            if method == "initialize":
                if params["protocol"] != PROTOCOL:
                    raise ValueError("this system speaks " + PROTOCOL)
                options = params["options"]
                result = {"protocol": PROTOCOL, "name": "python-bm25"}
            elif method == "open":
                scopes[params["scope"]] = Scope(float(options.get("k1", 1.5)), float(options.get("b", 0.75)))
            elif method == "write":
                scopes[params["scope"]].write(params["memories"])
            elif method == "retrieve":
                ids = scopes[params["scope"]].retrieve(params["query"], params["now"], params["budget"])
                result = {"ids": ids}
            elif method == "close":
                scopes.pop(params["scope"], None)
            elif method == "shutdown":
                reply(request["id"], None)
                return
            else:
                raise ValueError("unknown method " + method)
        except Exception as error:  # a reply, never a crash: the harness names the failed call
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32000, "message": str(error)}}) + "\n")
            sys.stdout.flush()
            continue
        reply(request["id"], result)


def reply(request_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
