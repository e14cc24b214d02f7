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
    # COACH_CROSS_ENCODER: read answers with the trained cross-encoder. Off until a shipped adapter passes the
    # dev-set gate (coach eval devsets): the current one, trained for 120 CPU steps, does not (see the data card).
    cross_encoder: bool = Field(default=False)
    llm_timeout_s: float = 30.0
    llm_max_concurrency: int = 4
    llm_max_retries: int = 3
    database_url: str = "sqlite:///coach.db"
    max_answer_chars: int = 4000
    state_dir: Path = Field(default=PROJECT_ROOT / ".coach", description="Working files (attempts in progress)")

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
