"""Initial schema: candidates, attempts, answers, share links, key-value cache, review decisions.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "candidates",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("display_name", sa.String(80), nullable=False),
        sa.Column("identity", sa.String(255), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        _when("created_at"),
        sa.UniqueConstraint("mode", "identity", name="uq_candidates_mode_identity"),
    )
    op.create_table(
        "attempts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("candidate_id", sa.String(32), sa.ForeignKey("candidates.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("module", sa.String(80), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("reveal", sa.String(8), nullable=False),
        sa.Column("difficulty", sa.String(16), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("items", JSON, nullable=False),
        _when("started_at"),
        _when("submitted_at", nullable=True),
        _when("graded_at", nullable=True),
        sa.Column("overall", sa.Float(), nullable=True),
        sa.Column("band", sa.String(40), nullable=True),
        sa.Column("dimensions", JSON, nullable=True),
    )
    op.create_index("ix_attempts_candidate_module_kind", "attempts", ["candidate_id", "module", "kind", "started_at"])
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("attempt_id", sa.String(32), sa.ForeignKey("attempts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(80), nullable=False),
        sa.Column("item_version", sa.Integer(), nullable=False),
        sa.Column("variant", JSON, nullable=False),
        sa.Column("choice", sa.Integer(), nullable=True),
        sa.Column("choice_text", sa.Text(), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("skipped", sa.Boolean(), nullable=False),
        _when("answered_at"),
        sa.Column("grade", JSON, nullable=True),
        _when("graded_at", nullable=True),
        sa.UniqueConstraint("attempt_id", "index", name="uq_answers_attempt_index"),
    )
    op.create_table(
        "share_links",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("attempt_id", sa.String(32), sa.ForeignKey("attempts.id", ondelete="CASCADE"), nullable=False),
        _when("created_at"),
        _when("revoked_at", nullable=True),
        sa.Column("show_name", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_share_links_attempt_id", "share_links", ["attempt_id"])
    op.create_table(
        "kv_cache",
        sa.Column("namespace", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(512), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        _when("created_at"),
    )
    op.create_table(
        "review_decisions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("item_id", sa.String(80), nullable=False),
        sa.Column("draft_path", sa.Text(), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("author", sa.String(120), nullable=False),
        _when("at"),
        sa.Column("resulting_version", sa.Integer(), nullable=True),
    )
    op.create_index("ix_review_decisions_item_id", "review_decisions", ["item_id"])


def downgrade() -> None:
    for table in ("review_decisions", "kv_cache", "share_links", "answers", "attempts", "candidates"):
        op.drop_table(table)
