"""The refiner seam: the OpenAI refiner is a ``Refiner``, what the door and the derivation
hold in 'refine' mode. Its client is made, never called: no request leaves."""

from __future__ import annotations

from crossbook.core.config import Settings
from crossbook.relations.ontology import DEFAULT_PACKS, load_ontology
from crossbook.relations.openai_refiner import get_refiner
from crossbook.relations.refiner import Refiner


def test_the_openai_refiner_is_a_refiner(tmp_path):
    settings = Settings(index_dir=tmp_path, model="scripted-model", base_url="http://127.0.0.1:9/v1", api_key="test-key")
    refiner = get_refiner(settings, load_ontology(DEFAULT_PACKS))
    assert isinstance(refiner, Refiner)
    assert refiner.label == "scripted-model@http://127.0.0.1:9/v1"


def test_an_object_that_only_refines_is_not_one():
    class Bare:
        def refine(self, chunk_text, candidates):
            return candidates

    assert not isinstance(Bare(), Refiner)
