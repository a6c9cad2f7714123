"""The public client API: an asyncio client of the Kibitz protocol for bots and tools.

``from server.sdk import KibitzClient, KibitzError`` — see docs/CLIENT.md.
"""

from .client import KibitzClient, KibitzError, apply_delta

__all__ = ["KibitzClient", "KibitzError", "apply_delta"]
