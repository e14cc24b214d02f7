"""The tables, as SQLAlchemy 2 typed ORM classes. Only the store imports these; others get records.

Times are stored as UTC and always read back timezone-aware (SQLite keeps no zone of its own).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

Json = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store: pass a timezone-aware one")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class Candidate(Base):
    __tablename__ = "candidates"
    __table_args__ = (UniqueConstraint("mode", "identity", name="uq_candidates_mode_identity"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(80))
    identity: Mapped[str] = mapped_column(String(255))  # the OIDC subject, or the local browser key
    mode: Mapped[str] = mapped_column(String(8))  # "local" | "oidc"
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AttemptRow(Base):
    __tablename__ = "attempts"
    __table_args__ = (Index("ix_attempts_candidate_module_kind", "candidate_id", "module", "kind", "started_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    candidate_id: Mapped[str] = mapped_column(ForeignKey("candidates.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # "readiness" | "practice"
    module: Mapped[str] = mapped_column(String(80))
    seed: Mapped[int] = mapped_column(Integer)
    reveal: Mapped[str] = mapped_column(String(8))
    difficulty: Mapped[str | None] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16))  # "in_progress" | "submitted" | "graded"
    position: Mapped[int] = mapped_column(Integer, default=0)
    items: Mapped[list[dict[str, Any]]] = mapped_column(Json)  # the rendered items, exactly as shown
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    submitted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    graded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    overall: Mapped[float | None] = mapped_column(Float)
    band: Mapped[str | None] = mapped_column(String(40))
    dimensions: Mapped[list[dict[str, Any]] | None] = mapped_column(Json)


class AnswerRow(Base):
    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("attempt_id", "index", name="uq_answers_attempt_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    attempt_id: Mapped[str] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    item_id: Mapped[str] = mapped_column(String(80))
    item_version: Mapped[int] = mapped_column(Integer)
    variant: Mapped[list[list[str]]] = mapped_column(Json)  # (param, value) pairs of the rendering
    choice: Mapped[int | None] = mapped_column(Integer)  # option index as shown
    choice_text: Mapped[str | None] = mapped_column(Text)  # that option's text, in case the item changes
    text: Mapped[str | None] = mapped_column(Text)
    skipped: Mapped[bool] = mapped_column(Boolean, default=False)
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime())
    grade: Mapped[dict[str, Any] | None] = mapped_column(Json)  # value, evidence, flags, criteria, unscored
    graded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class ShareLink(Base):
    __tablename__ = "share_links"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    attempt_id: Mapped[str] = mapped_column(ForeignKey("attempts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    show_name: Mapped[bool] = mapped_column(Boolean, default=False)


class KvEntry(Base):
    __tablename__ = "kv_cache"

    namespace: Mapped[str] = mapped_column(String(64), primary_key=True)
    key: Mapped[str] = mapped_column(String(512), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ReviewDecisionRow(Base):
    __tablename__ = "review_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    item_id: Mapped[str] = mapped_column(String(80), index=True)
    draft_path: Mapped[str] = mapped_column(Text)
    action: Mapped[str] = mapped_column(String(16))  # "approve" | "edit_approve" | "reject"
    reason: Mapped[str] = mapped_column(Text, default="")
    author: Mapped[str] = mapped_column(String(120))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    resulting_version: Mapped[int | None] = mapped_column(Integer)
