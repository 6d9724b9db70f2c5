"""The only way WeasyPrint may load anything while it turns the HTML report into a PDF.

The HTML report is self-contained (inline CSS, inline SVG), so WeasyPrint needs nothing from
outside it. :class:`ReportFetcher` serves exactly the resources the report registered (by URL,
usually none) and refuses everything else: no network, no ``file://``, no ``data:`` URL the report
did not create. Refusals are recorded in :attr:`ReportFetcher.refused` and WeasyPrint then renders
without the resource.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

__all__ = ["RefusedURL", "ReportFetcher", "make_fetcher"]

_LOG = logging.getLogger(__name__)


class RefusedURL(ValueError):
    """A URL that the report did not create was requested."""


class _Base:
    """Fetcher logic independent of the WeasyPrint version."""

    _fail_on_errors = False

    def __init__(self, resources: Mapping[str, tuple[bytes, str]] | None = None) -> None:
        self.resources: dict[str, tuple[bytes, str]] = dict(resources or {})
        self.refused: list[str] = []
        self.served: list[str] = []

    def lookup(self, url: str) -> tuple[bytes, str]:
        if url in self.resources:
            self.served.append(url)
            return self.resources[url]
        self.refused.append(url)
        _LOG.warning("refused to fetch %s: the report loads only what it created", url[:80])
        raise RefusedURL(f"refused to fetch {url[:80]!r}: the report loads only what it created.")


def make_fetcher(resources: Mapping[str, tuple[bytes, str]] | None = None) -> Any:
    """A URL fetcher for ``weasyprint.HTML(url_fetcher=...)`` serving only ``resources``.

    ``resources`` maps a URL (as it appears in the HTML) to ``(body, mime_type)``.
    """
    try:  # WeasyPrint >= 68: fetchers are URLFetcher instances returning URLFetcherResponse
        from weasyprint.urls import URLFetcher, URLFetcherResponse
    except ImportError:  # older WeasyPrint: a callable returning a dict
        URLFetcher = URLFetcherResponse = None  # noqa: N806

    if URLFetcher is None:

        class _Legacy(_Base):
            def __call__(self, url: str) -> dict[str, Any]:
                body, mime = self.lookup(url)
                return {"string": body, "mime_type": mime, "redirected_url": url}

        return _Legacy(resources)

    class _Fetcher(_Base, URLFetcher):
        def __init__(self, res: Mapping[str, tuple[bytes, str]] | None) -> None:
            URLFetcher.__init__(self, allowed_protocols=())
            _Base.__init__(self, res)

        def fetch(self, url: str, headers: Any = None) -> Any:
            body, mime = self.lookup(url)
            return URLFetcherResponse(url, body, {"Content-Type": mime})

        def open(self, url: Any, data: Any = None, timeout: Any = None) -> Any:  # never the network
            return self.fetch(getattr(url, "full_url", url))

        def __call__(self, url: str) -> Any:
            return self.fetch(url)

    return _Fetcher(resources)


ReportFetcher = make_fetcher  # public alias: ``ReportFetcher(resources)`` builds one
