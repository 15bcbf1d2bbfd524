"""The offset contract every output record keeps (SCHEMA): shared by the robustness and property tests."""

from __future__ import annotations


def check_offsets(record: dict) -> None:
    """Every segment, sentence, clause, span, removal and tuple lies inside ``text``, and an item
    that carries its ``text`` carries exactly ``text[start:end]``."""
    text = record["text"]
    for key in ("segments", "sentences", "clauses", "spans", "removed"):
        for item in record[key]:
            assert 0 <= item["start"] <= item["end"] <= len(text), (key, item)
            if "text" in item:
                assert text[item["start"]:item["end"]] == item["text"], (key, item)
    for act in record["actions"]:
        assert 0 <= act["start"] < act["end"] <= len(text), act
