"""`coach bench judge`: the LLM judge path on a whole readiness check, against a local endpoint that is slow.

A 10-question readiness check is drawn from the real bank with a seeded RNG and answered plausibly (MCQs at
random, short answers with the first sentences of their model answer); it is graded as the app grades it
(offline grader, then the judge review) with the judge talking HTTP to the local chat-completions server on
127.0.0.1, which delays every reply by `--delay` seconds. The judge calls must overlap: the judge step should
take about as long as the slowest single call (ratio <= ~1.3), not the sum of them. `grade_wall_s` is the whole
grading, offline grader included (its first run encodes the rubrics, so it is slow when cold); the ratio is of
the judge step alone. Registered on the `bench` group by `register(bench_app)`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from coach.content.bank import Bank
    from coach.grading.offline.grader import EmbeddingGrader
    from coach.providers.base import ChatMessage, ChatModel, ChatReply

TARGET_RATIO = 1.3


class TimedChatModel:
    """A ChatModel wrapper that records how long each call took, client side (HTTP included)."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.durations: list[float] = []
        self._lock = threading.Lock()

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, json_mode: bool = True
    ) -> ChatReply:
        t0 = time.perf_counter()
        try:
            return self.inner.complete(messages, temperature=temperature, json_mode=json_mode)
        finally:
            with self._lock:
                self.durations.append(time.perf_counter() - t0)


def _keyword_judge_reply(body: dict[str, Any]) -> str:
    """The server's reply: the keyword judge reading the real prompt (so every verdict quotes the answer)."""
    from coach.grading.judge.fakes import KeywordFakeJudge
    from coach.providers.base import ChatMessage

    return KeywordFakeJudge().complete([ChatMessage(m["role"], m["content"]) for m in body["messages"]]).text


def bench_judge(
    bank: Bank,
    grader: EmbeddingGrader,
    *,
    module: str,
    seed: int = 7,
    delay_s: float = 1.0,
    max_concurrency: int = 4,
) -> dict[str, Any]:
    from coach.evals.sample_check import answered_check
    from coach.grading.attempt import grade_attempt
    from coach.grading.combine import combine, grade_with_judge
    from coach.grading.judge.llm import LLMJudge
    from coach.grading.score import Flag, Score
    from coach.grading.target import GradingTarget
    from coach.providers.local_server import ChatServer
    from coach.providers.openai_chat import OpenAIChatModel

    attempt = answered_check(bank, module, seed)
    seen: dict[str, Any] = {}
    with ChatServer(default="slow", slow_s=delay_s, reply=_keyword_judge_reply, model="bench-judge") as server:
        model = TimedChatModel(OpenAIChatModel(None, server.url, "bench-judge", timeout_s=delay_s * 5 + 10))
        judge = LLMJudge(model, max_concurrency=max_concurrency)

        def review(rows: Sequence[tuple[str, GradingTarget, Score]]) -> list[Score]:
            t0 = time.perf_counter()
            scores = grade_with_judge(rows, judge)
            seen["judge_wall_s"] = time.perf_counter() - t0
            seen["rows"] = rows
            return scores

        t0 = time.perf_counter()
        card = grade_attempt(attempt, bank, grader, review)
        grade_wall = time.perf_counter() - t0
        max_in_flight, served = server.max_in_flight, len(server.requests)
    rows = seen.get("rows", ())
    outcomes = [judge.cache.get(judge.cache_key(a, t)) for a, t, _ in rows]
    shorts = [r for r in card.results if r.item.type == "short"]
    judged = [r for r in shorts if r.score.source == "combined" and Flag.JUDGE_UNSCORED not in r.score.flags]
    # order kept: each short answer's grade is its own offline grade combined with the judge's verdict on it
    order_kept = len(outcomes) == len(shorts) and all(
        o is not None and t.key == r.item.key and r.score == combine(raw, o, answer=a)
        for (a, t, raw), o, r in zip(rows, outcomes, shorts, strict=False)
    )
    slowest = max(model.durations, default=0.0)
    judge_wall = float(seen.get("judge_wall_s", 0.0))
    return {
        "module": module,
        "seed": seed,
        "questions": len(card.results),
        "short_answers": len(shorts),
        "judged": len(judged),
        "judge_calls": served,
        "max_in_flight": max_in_flight,
        "max_concurrency": max_concurrency,
        "delay_s": delay_s,
        "grade_wall_s": round(grade_wall, 3),
        "judge_wall_s": round(judge_wall, 3),
        "slowest_call_s": round(slowest, 3),
        "ratio": round(judge_wall / slowest, 3) if slowest else None,
        "target_ratio": TARGET_RATIO,
        "order_kept": order_kept,
    }


def bench_judge_command(
    as_json: bool = typer.Option(False, "--json", help="Print JSON"),
    delay: float = typer.Option(1.0, help="Seconds the local endpoint waits before each reply"),
    seed: int = typer.Option(7, help="Seed of the readiness check and its answers"),
    module: str | None = typer.Option(None, help="Module id (default: the first on the learning path)"),
    concurrency: int | None = typer.Option(None, help="Judge calls in flight (default: COACH_LLM_MAX_CONCURRENCY)"),
) -> None:
    """Wall time of the judge step on a readiness check, its slowest single call, and their ratio."""
    from coach.cli_grading import _print
    from coach.config import get_settings
    from coach.content.loader import load_bank
    from coach.grading.offline.grader import EmbeddingGrader
    from coach.providers.registry import default_embedder

    settings = get_settings()
    bank = load_bank(settings.content_dir)
    module_id = module or bank.path.modules[0]
    if module_id not in bank.modules:
        typer.echo(f"error: no module '{module_id}' (modules: {', '.join(bank.modules)})", err=True)
        raise typer.Exit(2)
    grader = EmbeddingGrader(default_embedder())
    result = bench_judge(
        bank,
        grader,
        module=module_id,
        seed=seed,
        delay_s=delay,
        max_concurrency=concurrency or settings.llm_max_concurrency,
    )
    _print(result, as_json)


def register(bench_app: typer.Typer) -> None:
    bench_app.command("judge")(bench_judge_command)
