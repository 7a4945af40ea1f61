"""The CLI tried as a new user would: -q, a closed pipe, -h, where-else --limit,
and --dry-run with the openai extractor but no API key."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import SAMPLE


@pytest.fixture
def sample_index(cli):
    result = cli("-q", "rebuild", SAMPLE / "crossbook.toml")
    assert result.exit_code == 0, result.stderr


def test_quiet_prints_no_unchanged_line_per_book(cli, sample_index):
    again = cli("-q", "ingest", SAMPLE)
    assert again.exit_code == 0, again.stderr
    assert "unchanged, skipped" not in again.stdout
    assert again.stdout.strip() == "3 unchanged books skipped"
    loud = cli("ingest", SAMPLE)
    assert loud.stdout.count("unchanged, skipped") == 3


@pytest.mark.slow  # a subprocess per command
@pytest.mark.parametrize("args", [["where-else", "Shield"], ["where-else", "Shield", "--json"], ["books"],
                                  ["stats", "--json"], ["entities"]])
def test_a_closed_stdout_ends_the_command_quietly_with_exit_0(sample_index, index_dir, tmp_path, args):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write (`| head` that has read enough)
    try:
        done = subprocess.run([sys.executable, "-m", "crossbook.cli.main", "--index", str(index_dir), *args],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(SAMPLE.parent)})
    finally:
        os.close(write_end)
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("args", [["-h"], ["where-else", "-h"], ["ingest", "-h"], ["batch", "-h"]])
def test_dash_h_is_help(cli, args):
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    assert "Usage:" in result.stdout and "--help" in result.stdout


def test_where_else_limit_shows_the_first_mentions_and_the_total(cli, cli_json, sample_index):
    full = cli_json("where-else", "Shield")
    total = sum(len(g["mentions"]) for e in full["entities"] for g in e["books"])
    assert total > 2 and full["total_mentions"] == total and full["limit"] is None
    limited = cli_json("where-else", "Shield", "--limit", "2")
    mentions = [m for e in limited["entities"] for g in e["books"] for m in g["mentions"]]
    first = [m for e in full["entities"] for g in e["books"] for m in g["mentions"]][:2]
    assert mentions == first and limited["total_mentions"] == total and limited["limit"] == 2
    text = cli("where-else", "Shield", "-n", "2")
    assert text.exit_code == 0 and f"2 of {total} mentions shown" in text.stdout
    assert cli("where-else", "Shield", "--limit", "0").exit_code == 2


def test_dry_run_with_the_openai_extractor_needs_no_api_key(cli, index_dir):
    result = cli("ingest", SAMPLE, "--extractor", "openai", "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    estimate = json.loads(result.stdout)
    assert estimate["books"] and not index_dir.exists()
    rebuilt = cli("rebuild", SAMPLE / "crossbook.toml", "--extractor", "openai", "--dry-run", "--json")
    assert rebuilt.exit_code == 0, rebuilt.stderr
    # a real run still says what it needs
    real = cli("ingest", SAMPLE, "--extractor", "openai")
    assert real.exit_code == 1 and "OPENAI_API_KEY" in real.stderr
