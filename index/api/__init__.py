"""The public Python API (docs/api.md): :class:`Shelf` opens one index; its methods return
typed results whose ``to_dict()`` is the JSON the CLI prints; errors are
:class:`CrossbookError` subclasses whose ``code`` is the CLI's JSON error code."""

from ..core.config import Settings
from ..core.errors import (
    BadInput,
    BookNotFound,
    CrossbookError,
    EntityNotFound,
    IndexBusy,
    IndexMissing,
    IndexReadOnly,
    SectionNotFound,
    VectorsMissing,
)
from ..core.models import BookInfo, IngestResult
from .results import (
    Deleted,
    EntityDetail,
    EntityList,
    Explanation,
    Passages,
    Rebuilt,
    Reembedded,
    Relationships,
    Result,
    Reviewed,
    Sections,
    WhereElse,
)
from .shelf import Shelf, open_shelf

__all__ = [
    "BadInput", "BookInfo", "BookNotFound", "CrossbookError", "Deleted", "EntityDetail", "EntityList", "EntityNotFound",
    "Explanation",
    "IndexBusy", "IndexMissing", "IndexReadOnly", "IngestResult", "Passages", "Rebuilt", "Reembedded", "Relationships",
    "Result", "Reviewed", "SectionNotFound", "Sections", "Settings", "Shelf", "VectorsMissing", "WhereElse", "open_shelf",
]
