"""Every index kept its own 87 MB copy of the local embedder's ONNX graph. It is
built once per user in the platform's cache directory (cli/paths.py; index/ is handed the
directory in Settings) and shared by every index; two processes building it at once both
get a whole graph (each writes a temporary file and renames it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from crossbook.cli.paths import user_cache_dir
from tests.conftest import SAMPLE

# slow: subprocesses that load the local model (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_the_cache_directory_follows_the_platform(tmp_path):
    home = {"HOME": str(tmp_path)}
    assert user_cache_dir(home, "linux") == tmp_path / ".cache" / "crossbook"
    assert user_cache_dir({**home, "XDG_CACHE_HOME": "/var/cache/me"}, "linux") == Path("/var/cache/me/crossbook")
    assert user_cache_dir({**home, "XDG_CACHE_HOME": "relative"}, "linux") == tmp_path / ".cache" / "crossbook"
    assert user_cache_dir(home, "darwin") == tmp_path / "Library" / "Caches" / "crossbook"
    assert user_cache_dir({**home, "LOCALAPPDATA": "C:/Users/me/AppData/Local"}, "win32") == \
        Path("C:/Users/me/AppData/Local") / "crossbook" / "Cache"


def test_two_indexes_share_one_graph_in_the_users_cache(cli, tmp_path, monkeypatch):
    cache = tmp_path / "cache"   # XDG_CACHE_HOME (tests/conftest.py)
    for name in ("one", "two"):
        result = cli("--index", tmp_path / name, "--embedder", "local", "-q", "ingest", SAMPLE / "grimoire.md")
        assert result.exit_code == 0, result.stderr
    graphs = sorted(p.name for p in cache.rglob("*.onnx"))
    assert len(graphs) == 1 and (cache / "crossbook" / "models" / graphs[0]).is_file()
    assert not list((tmp_path / "one").rglob("*.onnx")) and not list((tmp_path / "two").rglob("*.onnx"))
    search = cli("--index", tmp_path / "two", "--embedder", "local", "search", "frost", "-k", "1", "--json")
    assert search.exit_code == 0, search.stderr


BUILD = """
import sys
from pathlib import Path
from crossbook.vectors import minilm
path = minilm.graph_path(minilm.model_dir(), Path(sys.argv[1]))
print(path)
"""


def test_two_processes_building_the_graph_at_once_both_get_a_whole_one(tmp_path):
    cache = tmp_path / "models"
    builders = [subprocess.Popen([sys.executable, "-c", BUILD, str(cache)], cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [b.communicate(timeout=300) for b in builders]
    assert [b.returncode for b in builders] == [0, 0], [err for _, err in outputs]
    paths = {out.strip() for out, _ in outputs}
    assert len(paths) == 1
    assert sorted(p.suffix for p in cache.iterdir()) == [".json", ".onnx"]  # no temporary file left
    from crossbook.vectors import minilm

    vectors = minilm.load(cache).encode(["Frost Lance costs 3 Ember."], 1)
    assert vectors.shape == (1, 384)
