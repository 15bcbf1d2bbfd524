"""The labels of the data contract (../shared/docs/SCHEMA.md): one source of truth."""

from __future__ import annotations

LAYERS: tuple[str, ...] = ("JING", "ZHU", "SHU", "OTHER")

#: How a layer segment was decided. "default" means nothing decided it.
EVIDENCE: tuple[str, ...] = ("marker", "anchor", "layout", "model", "default")

SPAN_LABELS: tuple[str, ...] = ("ACTOR", "VERB", "OBJECT", "LOCATION", "FACING")

#: The closed list of verb lemmas that evaluations compare (SCHEMA section 4).
VERBS: tuple[str, ...] = tuple(
    "揖 拜 稽首 讓 辭 對 許 告 命 請 降 升 入 出 迎 送 立 適 進 退 反 復 即 就 俟 從 坐 興 "
    "洗 盥 奠 取 執 受 授 實 酌 加 委 獻 酢 酬 祭 啐 嚌 飲 卒 薦 設 徹 袒 襲 挾 搢 射 釋".split()
)

#: Relation labels used in annotation tasks (head: the VERB span; child: a role span).
RELATION_LABELS: tuple[str, ...] = (
    "ARG_ACTOR",
    "ARG_OBJECT",
    "ARG_TARGET",
    "ARG_LOCATION",
    "ARG_FACING",
)
