"""Model configs and hardware figures, copied from domain-facts.md (§1 and §3) with their source keys."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ModelConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    layers: int
    hidden: int
    q_heads: int
    kv_heads: int | None  # None for MLA: no per-head KV cache
    head_dim: int
    ffn: int  # dense FFN width, or per-expert width for MoE
    vocab: int
    params_b: float  # computed total parameters, billions (domain-facts §1 notes)
    active_params_b: float | None = None
    experts: int | None = None
    top_k: int | None = None
    kv_lora_rank: int | None = None
    rope_dim: int | None = None
    source: str


MODELS: dict[str, ModelConfig] = {
    m.id: m
    for m in [
        ModelConfig(
            id="llama-3.1-8b",
            name="Llama 3.1 8B",
            layers=32,
            hidden=4096,
            q_heads=32,
            kv_heads=8,
            head_dim=128,
            ffn=14336,
            vocab=128256,
            params_b=8.03,
            source="[LM], [MT]",
        ),
        ModelConfig(
            id="llama-3.1-70b",
            name="Llama 3.1 70B",
            layers=80,
            hidden=8192,
            q_heads=64,
            kv_heads=8,
            head_dim=128,
            ffn=28672,
            vocab=128256,
            params_b=70.55,
            source="[LM]",
        ),
        ModelConfig(
            id="llama-3.3-70b",
            name="Llama 3.3 70B",
            layers=80,
            hidden=8192,
            q_heads=64,
            kv_heads=8,
            head_dim=128,
            ffn=28672,
            vocab=128256,
            params_b=70.55,
            source="[LM], [MT]",
        ),
        ModelConfig(
            id="llama-3.1-405b",
            name="Llama 3.1 405B",
            layers=126,
            hidden=16384,
            q_heads=128,
            kv_heads=8,
            head_dim=128,
            ffn=53248,
            vocab=128256,
            params_b=405.85,
            source="[LM], [MT]",
        ),
        ModelConfig(
            id="mixtral-8x7b",
            name="Mixtral 8x7B",
            layers=32,
            hidden=4096,
            q_heads=32,
            kv_heads=8,
            head_dim=128,
            ffn=14336,
            vocab=32000,
            params_b=46.70,
            active_params_b=12.88,
            experts=8,
            top_k=2,
            source="[MIX], [MT]",
        ),
        ModelConfig(
            id="qwen3-235b-a22b",
            name="Qwen3-235B-A22B",
            layers=94,
            hidden=4096,
            q_heads=64,
            kv_heads=4,
            head_dim=128,
            ffn=1536,
            vocab=151936,
            params_b=235.1,
            active_params_b=22.2,
            experts=128,
            top_k=8,
            source="[MT]",
        ),
        ModelConfig(
            id="deepseek-v3",
            name="DeepSeek-V3",
            layers=61,
            hidden=7168,
            q_heads=128,
            kv_heads=None,
            head_dim=128,
            ffn=2048,
            vocab=129280,
            params_b=671.0,
            active_params_b=37.6,
            experts=256,
            top_k=8,
            kv_lora_rank=512,
            rope_dim=64,
            source="[DSC]",
        ),
    ]
}


class Hardware(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    hbm_gb: float | None = None
    hbm_tb_s: float | None = None
    source: str


HARDWARE: dict[str, Hardware] = {
    h.id: h
    for h in [
        Hardware(id="h100", name="H100 SXM", hbm_gb=80, hbm_tb_s=3.35, source="[HW-H100]"),
        Hardware(id="h200", name="H200 SXM", hbm_gb=141, hbm_tb_s=4.8, source="[MLC-H200], [ML-E]"),
        Hardware(id="b200", name="B200", hbm_gb=180, hbm_tb_s=8.0, source="[MLC-B200], [ML-E]"),
        Hardware(id="gb200", name="GB200 (NVL72)", hbm_gb=186, source="[MLC-GB200]"),
    ]
}


class Link(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    gb_s: float  # per direction, GB/s (10^9 B/s)
    source: str


LINKS: dict[str, Link] = {
    link.id: link
    for link in [
        Link(id="nvlink4", name="NVLink 4 (H100/H200)", gb_s=450, source="[NET]"),
        Link(id="nvlink5", name="NVLink 5 (Blackwell)", gb_s=900, source="[NVL], [NET]"),
        Link(id="pcie5", name="PCIe Gen5 x16", gb_s=63, source="[NET]"),
        Link(id="ib-400g", name="one 400 Gb/s NIC", gb_s=50, source="[NET], [DEP]"),
        Link(id="ib-8x400g", name="8 × 400 Gb/s NICs", gb_s=400, source="[NET]"),
        Link(id="mooncake-8x400g", name="Mooncake Transfer Engine on 8 × 400 Gb/s", gb_s=190, source="[MC]"),
    ]
}

# Other sourced constants that items quote.
NVL72_GPUS = 72  # [NET], [NVL]
HGX_GPUS = 8  # [NET]
NVLINK5_LINKS = 18  # [NVL]
NVLINK5_LINK_GB_S = 100  # per link, bidirectional [NVL]

DTYPE_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int4": 0.5}


def model(model_id: str) -> ModelConfig:
    try:
        return MODELS[model_id]
    except KeyError:
        raise KeyError(f"unknown model {model_id!r}; known: {', '.join(MODELS)}") from None


def hardware(hw_id: str) -> Hardware:
    try:
        return HARDWARE[hw_id]
    except KeyError:
        raise KeyError(f"unknown hardware {hw_id!r}; known: {', '.join(HARDWARE)}") from None


def link(link_id: str) -> Link:
    try:
        return LINKS[link_id]
    except KeyError:
        raise KeyError(f"unknown link {link_id!r}; known: {', '.join(LINKS)}") from None
