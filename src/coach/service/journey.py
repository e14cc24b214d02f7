"""The candidate's journey as the pages call it: who they are, starting, answering, grading, resuming.

Every answer is written to the store before anything is graded; every call is scoped to the candidate, so
another candidate's attempt id opens nothing (AttemptNotFound, with no data). On a database outage each call
raises StoreUnavailable with a plain message; an answer that could not be written comes back to the page as a
PendingAnswer to keep and pass to `flush_pending` later.
"""

from __future__ import annotations

import random
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from coach.analytics.store_source import StoreResponseSource
from coach.config import Settings
from coach.content.bank import Bank
from coach.content.schema import Difficulty
from coach.errors import AttemptNotFound, SessionError
from coach.grading.attempt import JudgeReview, Progress, grade_attempt, target_for
from coach.grading.combine import screen_offline
from coach.grading.mcq import grade_mcq
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Flag, Score
from coach.grading.target import GradingTarget
from coach.service import convert, share
from coach.service.identity import IdentityMode, clean_display_name, is_local_key, oidc_identity
from coach.service.misconceptions import MisconceptionEntry, misconception_profile
from coach.service.progress import JourneyProgress, journey_progress
from coach.service.views import (
    AttemptSummary,
    GradedAttempt,
    PendingAnswer,
    RetakesLeft,
    SharedResult,
)
from coach.session import runner
from coach.session.assembly import assemble_practice, assemble_readiness
from coach.session.runner import Attempt, AttemptKind, AttemptState, Reveal
from coach.store import attempts as store_attempts
from coach.store import candidates as store_candidates
from coach.store.cache import KvCache
from coach.store.db import Database, open_database
from coach.store.decisions import DecisionStore
from coach.store.models import utcnow
from coach.store.records import AttemptRecord, CandidateRecord
from coach.store.records import ShareRecord as ShareLinkInfo

Candidate = CandidateRecord
GraderSource = EmbeddingGrader | Callable[[], EmbeddingGrader]


@dataclass(frozen=True)
class Policy:
    readiness_limit: int = 3
    readiness_window: timedelta = timedelta(hours=24)
    ready_threshold: float = 0.8
    max_answer_chars: int = 4000

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        return cls(
            readiness_limit=settings.readiness_limit,
            readiness_window=timedelta(hours=settings.readiness_window_hours),
            ready_threshold=settings.ready_threshold,
            max_answer_chars=settings.max_answer_chars,
        )

    @property
    def start_limit(self) -> store_attempts.StartLimit:
        return store_attempts.StartLimit(self.readiness_limit, self.readiness_window)


class Journey:
    """The service facade. `grader` may be a zero-argument factory, called once when grading first needs it."""

    def __init__(self, db: Database, bank: Bank, grader: GraderSource, judge: JudgeReview | None = None,
                 policy: Policy | None = None) -> None:
        self.db = db
        self.bank = bank
        self.judge = judge
        self.policy = policy or Policy()
        self._grader_source = grader
        self._grader: EmbeddingGrader | None = grader if isinstance(grader, EmbeddingGrader) else None
        self._grading = threading.Lock()  # one grader per process: its caches are not thread-safe

    @classmethod
    def from_settings(cls, settings: Settings, bank: Bank, grader: GraderSource,
                      judge: JudgeReview | None = None) -> Journey:
        return cls(open_database(settings.db_url), bank, grader, judge, Policy.from_settings(settings))

    # -- shared stores for the other layers ----------------------------------------------------------------
    def cache(self, namespace: str) -> KvCache:
        """A database-backed `get(key) -> str | None` / `put(key, value)` cache (LLM feedback, judge outcomes)."""
        return KvCache(self.db, namespace)

    def decision_log(self) -> DecisionStore:
        """The authoring studio's review log (`record_decision(...)`, `list_decisions(item_id=None)`)."""
        return DecisionStore(self.db)

    def use_bank(self, bank: Bank) -> None:
        """The content changed (an author published or stamped an item): new attempts and grades use this bank;
        an attempt in progress keeps the items it was given. The grader and the database stay as they are."""
        self.bank = bank

    def responses(self, module: str | None = None) -> StoreResponseSource:
        """Every candidate's graded answers, for the item analysis (`responses(item_id=None)`)."""
        return StoreResponseSource(self.db, module)

    # -- identity ---------------------------------------------------------------------------------------------
    def local_candidate(self, key: str, display_name: str | None = None) -> Candidate:
        """The candidate this browser key names, created on first use (see identity.new_local_key)."""
        if not is_local_key(key):
            raise ValueError("not a local browser key minted by coach.service.identity.new_local_key")
        return store_candidates.get_or_create(self.db, IdentityMode.LOCAL, key, clean_display_name(display_name))

    def oidc_candidate(self, subject: str, name: str | None = None, issuer: str | None = None) -> Candidate:
        """The candidate of a signed-in OIDC account (`st.user` sub / iss / name)."""
        return store_candidates.get_or_create(
            self.db, IdentityMode.OIDC, oidc_identity(subject, issuer), clean_display_name(name)
        )

    def rename(self, candidate: Candidate, display_name: str) -> Candidate:
        return store_candidates.rename(self.db, candidate.id, clean_display_name(display_name))

    # -- starting ---------------------------------------------------------------------------------------------
    def retakes_left(self, candidate: Candidate, module: str, now: datetime | None = None) -> RetakesLeft:
        now = now or utcnow()
        limit = self.policy.start_limit
        starts = store_attempts.recent_starts(self.db, candidate.id, module, AttemptKind.READINESS,
                                              now - limit.window)
        return RetakesLeft(
            module=module,
            limit=limit.limit,
            used=len(starts),
            remaining=max(0, limit.limit - len(starts)),
            next_open_at=limit.next_open_at(starts),
            window_hours=limit.window.total_seconds() / 3600,
        )

    def start_readiness(self, candidate: Candidate, module: str, seed: int | None = None,
                        now: datetime | None = None) -> Attempt:
        """Draw and store a new readiness check; RetakeLimitReached (remaining=0, next_open_at) when none is left."""
        seed = _seed(seed)
        items = assemble_readiness(self.bank, module, random.Random(seed))
        attempt = runner.start(AttemptKind.READINESS, module, items, seed, Reveal.END)
        if now is not None:
            attempt = attempt.model_copy(update={"started": now})
        record = convert.attempt_record(attempt, candidate.id)
        stored = store_attempts.insert_attempt(self.db, record, self.policy.start_limit, now=now)
        return convert.to_attempt(stored)

    def start_practice(self, candidate: Candidate, module: str, count: int = 10,
                       difficulty: Difficulty | None = None, reveal: Reveal = Reveal.EACH,
                       seed: int | None = None) -> Attempt:
        """Draw and store a practice test (no limit)."""
        seed = _seed(seed)
        items = assemble_practice(self.bank, module, difficulty, count, random.Random(seed))
        attempt = runner.start(AttemptKind.PRACTICE, module, items, seed, reveal,
                               difficulty.value if difficulty else None)
        return convert.to_attempt(store_attempts.insert_attempt(self.db, convert.attempt_record(attempt, candidate.id)))

    # -- opening and resuming ---------------------------------------------------------------------------------
    def _record(self, candidate: Candidate, attempt_id: str) -> AttemptRecord:
        record = store_attempts.load_attempt(self.db, candidate.id, attempt_id)
        if record is None:
            raise AttemptNotFound("No such attempt for you. It may belong to someone else, or the link is wrong.")
        return record

    def open_attempt(self, candidate: Candidate, attempt_id: str) -> Attempt:
        """This candidate's attempt by id (e.g. from `?attempt=`); AttemptNotFound for anyone else's."""
        return convert.to_attempt(self._record(candidate, attempt_id))

    def current_open_attempt(self, candidate: Candidate, module: str | None, kind: AttemptKind) -> Attempt | None:
        """The attempt to resume (not yet graded), at the question the candidate was on; None if there is none."""
        found = store_attempts.find_open(self.db, candidate.id, module, kind.value)
        return None if found is None else convert.to_attempt(found)

    def abandon(self, candidate: Candidate, attempt_id: str) -> None:
        """Close an unfinished attempt ungraded. A readiness start stays counted against the limit."""
        store_attempts.abandon(self.db, candidate.id, attempt_id)

    # -- answering --------------------------------------------------------------------------------------------
    def record_answer(self, candidate: Candidate, attempt_id: str, *, choice: int | None = None,
                      text: str | None = None, skip: bool = False, index: int | None = None,
                      advance: bool | None = None) -> Attempt:
        """Validate and WRITE the answer to the current question, then return the updated attempt.

        `advance` (default: yes unless the attempt reveals each answer) moves on to the next question; after the
        last one the attempt is submitted. `index`, when given, names the question the answer is for: a retry of
        an answer already stored returns the attempt unchanged. Bad input raises AnswerError and writes nothing;
        control characters (a NUL cannot even be stored by PostgreSQL) are dropped, tabs and newlines kept.
        """
        attempt = self.open_attempt(candidate, attempt_id)
        if index is not None and index != attempt.position:
            if index < attempt.position and attempt.answer_for(index) is not None:
                return attempt  # already written (a retry after a lost reply)
            raise SessionError(f"question {index + 1} is not the current question ({attempt.position + 1})")
        updated = runner.record(attempt, choice=choice, text=without_controls(text), skip=skip,
                                max_chars=self.policy.max_answer_chars)
        if advance if advance is not None else attempt.reveal == Reveal.END:
            updated = runner.advance(updated)
        answer = updated.answer_for(attempt.position)
        assert answer is not None
        stored = store_attempts.save_answer(self.db, candidate.id, attempt_id, convert.answer_record(updated, answer),
                                            updated.position, updated.state.value)
        return convert.to_attempt(stored)

    def advance(self, candidate: Candidate, attempt_id: str) -> Attempt:
        """Move past an answered question (the reveal-each flow); submits after the last one."""
        moved = runner.advance(self.open_attempt(candidate, attempt_id))
        return convert.to_attempt(
            store_attempts.set_position(self.db, candidate.id, attempt_id, moved.position, moved.state.value)
        )

    @staticmethod
    def pending(attempt: Attempt, *, choice: int | None = None, text: str | None = None, skip: bool = False,
                advance: bool | None = None) -> PendingAnswer:
        """What to keep in the page's session when `record_answer` raised StoreUnavailable."""
        return PendingAnswer(attempt_id=attempt.id, index=attempt.position, choice=choice, text=text, skip=skip,
                             advance=advance)

    def flush_pending(self, candidate: Candidate, pending: PendingAnswer) -> Attempt:
        """Write a kept answer now that the database is back (StoreUnavailable again if it is not)."""
        return self.record_answer(candidate, pending.attempt_id, choice=pending.choice, text=pending.text,
                                  skip=pending.skip, index=pending.index, advance=pending.advance)

    # -- grading ----------------------------------------------------------------------------------------------
    def grader(self) -> EmbeddingGrader:
        if self._grader is None:
            source = self._grader_source
            self._grader = source if isinstance(source, EmbeddingGrader) else source()
        return self._grader

    def submit_and_grade(self, candidate: Candidate, attempt_id: str,
                         progress: Progress | None = None) -> GradedAttempt:
        """Grade a submitted attempt offline (plus the judge when on), write every grade, mark it graded.

        A graded attempt returns its stored result without grading again.
        """
        record = self._record(candidate, attempt_id)
        stored = convert.stored_card(record)
        if stored is not None:
            return GradedAttempt(attempt=convert.to_attempt(record), card=stored)
        attempt = convert.to_attempt(record)
        if attempt.state == AttemptState.IN_PROGRESS:
            raise SessionError("Answer or skip every question before submitting.")
        with self._grading:
            grader = self.grader()
            grader.prepare(self._short_rows(attempt))  # one batched encoding pass for every short answer
            card = grade_attempt(attempt, self.bank, grader, self.judge, progress)
        grades = {r.index: convert.grade_json(r.score) for r in card.results if r.answer is not None}
        done = store_attempts.save_grades(
            self.db, candidate.id, attempt_id, grades, overall=card.overall, band=card.band,
            dimensions=[d.model_dump(mode="json") for d in card.dimensions],
        )
        return GradedAttempt(attempt=convert.to_attempt(done), card=card)

    def warm_up(self) -> None:
        """Load the models now (e.g. in a background thread when the server starts): the embedder, and the
        cross-encoder when the grader reads with it."""
        with self._grading:
            grader = self.grader()
            grader.encoder.encode(["warm up"])
            scorer = grader.pair_scorer or getattr(grader, "checker", None)
            if scorer is not None:
                scorer.score_pairs([("warm up", "warm up")])

    def prepare_grading(self, attempt: Attempt, stop: Callable[[], bool] = lambda: False) -> None:
        """Encode what grading this attempt needs so far: every short item's target and the answers given.

        Speed only, never a grade: run it in the background when an attempt starts and after each answer, so
        Submit finds the work done. `stop()` is asked between pieces of work (true when the process is exiting)."""
        # One target (or answer) per hold of the lock, the current question's first: a grade asked for meanwhile
        # waits for one piece of work, not for the whole attempt's.
        order = [*range(attempt.position, len(attempt.items)), *range(attempt.position)]
        for index in order:
            item = attempt.items[index]
            if stop():
                return
            if item.type == "short":
                with self._grading:
                    self.grader().context(target_for(self.bank, item))
        for text, target in self._short_rows(attempt):
            if stop():
                return
            with self._grading:
                grader = self.grader()
                grader.prepare([(text, target)])
                grader.grade(text, target)  # the guard reports are kept too

    def grade_answer(self, candidate: Candidate, attempt_id: str, index: int) -> Score:
        """One recorded answer's offline grade, screened as `submit_and_grade` screens it (the reveal-each view)."""
        attempt = self.open_attempt(candidate, attempt_id)
        item, answer = attempt.items[index], attempt.answer_for(index)
        if item.type == "mcq":
            return grade_mcq(item, None if answer is None or answer.skipped else answer.choice)
        text = "" if answer is None or answer.skipped else (answer.text or "")
        if not text.strip():
            return Score(value=0.0, source="embedding", flags=(Flag.EMPTY,), notes=("Skipped: no answer given.",))
        with self._grading:
            return screen_offline(self.grader().grade(text, target_for(self.bank, item)), text)

    def _short_rows(self, attempt: Attempt) -> list[tuple[str, GradingTarget]]:
        rows: list[tuple[str, GradingTarget]] = []
        for index, item in enumerate(attempt.items):
            answer = attempt.answer_for(index)
            if item.type == "short" and answer is not None and not answer.skipped and (answer.text or "").strip():
                rows.append((answer.text or "", target_for(self.bank, item)))
        return rows

    def result(self, candidate: Candidate, attempt_id: str) -> GradedAttempt | None:
        """A graded attempt's stored result (None while it is not graded)."""
        record = self._record(candidate, attempt_id)
        card = convert.stored_card(record)
        return None if card is None else GradedAttempt(attempt=convert.to_attempt(record), card=card)

    # -- history ----------------------------------------------------------------------------------------------
    def records(self, candidate: Candidate, module: str | None = None) -> list[AttemptRecord]:
        """Every attempt of this candidate but the abandoned ones, oldest first (for progress and profile)."""
        states = [s.value for s in AttemptState]
        return store_attempts.list_attempts(self.db, candidate.id, module=module, states=states)

    def history(self, candidate: Candidate, module: str | None = None) -> list[AttemptSummary]:
        """Every attempt (not abandoned), newest first."""
        return [self._summary(r) for r in reversed(self.records(candidate, module))]

    def progress(self, candidate: Candidate) -> JourneyProgress:
        """Per module: latest and best readiness result, dimension series, ready; and the module to suggest."""
        return journey_progress(self.bank, self.records(candidate), self.policy.ready_threshold)

    def misconceptions(self, candidate: Candidate) -> list[MisconceptionEntry]:
        """The misconception profile (see coach.service.misconceptions for the fading rule)."""
        return misconception_profile(self.bank, self.records(candidate))

    # -- sharing ----------------------------------------------------------------------------------------------
    def create_share(self, candidate: Candidate, attempt_id: str, show_name: bool = False) -> ShareLinkInfo:
        """A `?result=<token>` link to one of this candidate's graded results."""
        return share.create_share(self.db, candidate, attempt_id, show_name)

    def revoke_share(self, candidate: Candidate, token: str) -> bool:
        """Revoke one of this candidate's links; False if they own no such link. Revoking twice is harmless."""
        return share.revoke_share(self.db, candidate, token)

    def shares(self, candidate: Candidate, attempt_id: str) -> list[ShareLinkInfo]:
        """This candidate's links to one attempt, oldest first, revoked ones included."""
        return share.shares_for(self.db, candidate, attempt_id)

    def open_share(self, token: str) -> SharedResult | None:
        """The public view behind a token (no login needed); None if unknown, revoked or malformed."""
        return share.open_share(self.db, self.bank, token)

    def _summary(self, r: AttemptRecord) -> AttemptSummary:
        module = self.bank.modules.get(r.module)
        return AttemptSummary(
            id=r.id, kind=r.kind, module=r.module, module_title=module.title if module else r.module, state=r.state,
            started_at=r.started_at, submitted_at=r.submitted_at, graded_at=r.graded_at,
            answered=len(r.answers), questions=len(r.items), overall=r.overall, band=r.band,
            dimensions=convert.dimension_values(r),
        )


def without_controls(text: str | None) -> str | None:
    """The text without control or unassigned characters other than tab and newline (e.g. from pasted binary)."""
    if text is None:
        return None
    return "".join(ch for ch in text if ch in "\t\n" or unicodedata.category(ch) not in {"Cc", "Cn", "Cs"})


def _seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(2**31)
