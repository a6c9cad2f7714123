"""The public client API: an asyncio client of the Kibitz protocol for bots and tools, and
``kibitz bot``'s runner of an account's games over the Bot API.

``from server.sdk import KibitzClient, KibitzError`` — see docs/CLIENT.md;
``from server.sdk import BotRunner, ApiClient, Terms`` — see docs/BOT_API.md, "kibitz bot".
"""

from .botrunner import BotRunner, RunnerError, Terms
from .client import KibitzClient, KibitzError, apply_delta
from .http import ApiClient, ApiError, Unreachable

__all__ = [
    "ApiClient",
    "ApiError",
    "BotRunner",
    "KibitzClient",
    "KibitzError",
    "RunnerError",
    "Terms",
    "Unreachable",
    "apply_delta",
]
