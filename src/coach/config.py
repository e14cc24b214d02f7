"""Settings read once from the environment (prefix COACH_, plus the usual OPENAI_* names)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="COACH_", extra="ignore")

    content_dir: Path = Field(default=PROJECT_ROOT, description="Folder holding questions/, rubrics/, concepts/")
    llm_api_key: str | None = Field(default=None, validation_alias=AliasChoices("COACH_LLM_API_KEY", "OPENAI_API_KEY"))
    llm_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("COACH_LLM_BASE_URL", "OPENAI_BASE_URL")
    )
    llm_model: str = Field(default="gpt-4o-mini", validation_alias=AliasChoices("COACH_LLM_MODEL", "OPENAI_MODEL"))
    # "auto": judge on when a key or base URL is set; "off": never; "fake": the scripted fake judge (demos, tests).
    llm_mode: str = Field(default="auto", pattern="^(auto|off|fake)$")
    # COACH_CROSS_ENCODER: the trained cross-encoder reads every criterion of every answer. Off: it passes the
    # dev-set gate, but a check takes about 1.7 s with it and vague answers earn more partial credit (README).
    cross_encoder: bool = Field(default=False)
    # COACH_CONTRADICTION_CHECK: otherwise it reads only the spans that state an attached misconception, to tell
    # a statement of it from its opposite (grading/offline/contradiction.py)
    contradiction_check: bool = Field(default=True)
    # COACH_CROSS_ENCODER_ADAPTER: an adapter folder `coach train cross-encoder` wrote (default: the shipped one)
    cross_encoder_adapter: Path | None = None
    llm_timeout_s: float = 30.0
    llm_max_concurrency: int = 4
    llm_max_retries: int = 3
    # None: a SQLite file under state_dir (created and migrated on first use); else e.g. postgresql+psycopg://...
    database_url: str | None = None
    max_answer_chars: int = 4000
    state_dir: Path = Field(default=PROJECT_ROOT / ".coach", description="Working files and the default database")
    readiness_limit: int = Field(default=3, ge=1, description="Readiness checks per module per candidate per window")
    readiness_window_hours: float = Field(default=24.0, gt=0)
    ready_threshold: float = Field(default=0.8, gt=0, le=1, description="Overall score that marks a module ready")
    # Authors: OIDC identities (comma-separated in the environment), or a token in local mode.
    author_emails: str = ""
    author_subjects: str = ""
    author_token: str | None = None

    @property
    def db_url(self) -> str:
        """The database to use: COACH_DATABASE_URL, or the SQLite file `state_dir/coach.db`."""
        return self.database_url or f"sqlite:///{(self.state_dir / 'coach.db').resolve()}"

    @property
    def author_email_list(self) -> list[str]:
        return [e for e in self.author_emails.split(",") if e.strip()]

    @property
    def author_subject_list(self) -> list[str]:
        return [s for s in self.author_subjects.split(",") if s.strip()]

    @property
    def judge_enabled(self) -> bool:
        if self.llm_mode == "off":
            return False
        if self.llm_mode == "fake":
            return True
        return bool(self.llm_api_key or self.llm_base_url)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
