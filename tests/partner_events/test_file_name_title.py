"""fileName becomes the title (trimmed, whitespace collapsed), else the key's basename."""

from __future__ import annotations

import pytest

from partner_events.contract.validate import ContractConfig
from tests.partner_events.helpers import MISSING, accepted, event


def test_a_valid_file_name_is_trimmed_and_collapsed_into_the_title() -> None:
    record = accepted(event(fileName="  Perda   Nomor\t12\n Tahun 2026.pdf ")).normalized
    assert record is not None
    assert record.title == "Perda Nomor 12 Tahun 2026.pdf"
    assert record.title_from_partner


def test_the_file_name_changes_neither_storage_key_nor_parser_file_name() -> None:
    record = accepted(event(fileName="Judul Lain.docx")).normalized
    assert record is not None
    assert record.storage_key == "documents/a1b2c3d4e5f6/perda-no-12-2026.pdf"
    assert record.parser_file_name == "perda-no-12-2026.pdf"
    assert record.format == "pdf"


@pytest.mark.parametrize("value", [MISSING, None, "", "   \t", 12, ["a.pdf"], {"n": 1}])
def test_an_unusable_file_name_falls_back_to_the_storage_key_basename(value: object) -> None:
    record = accepted(event(fileName=value)).normalized
    assert record is not None
    assert record.title == "perda-no-12-2026.pdf"
    assert not record.title_from_partner


def test_the_configured_field_name_is_read_instead_of_file_name() -> None:
    config = ContractConfig(filename_field="originalName")
    payload = event(fileName="Ignored.pdf", originalName=" Qanun  Aceh ")
    record = accepted(payload, config).normalized
    assert record is not None
    assert record.title == "Qanun Aceh"
    assert record.title_from_partner


def test_with_a_renamed_field_file_name_is_an_unknown_field() -> None:
    config = ContractConfig(filename_field="originalName")
    record = accepted(event(fileName="Ignored.pdf"), config).normalized
    assert record is not None
    assert record.title == "perda-no-12-2026.pdf"
    assert not record.title_from_partner
