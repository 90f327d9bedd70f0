"""What every Chat Completions method requires (``create``, ``parse``, ``stream``): a call
written without it fails in the SDK with ``TypeError`` before sending, where the Responses
method, all of whose parameters are optional, would send the request."""

from typing import Optional

from migrator.analysis import CallSite
from migrator.rule import Block

REQUIRED = ("model", "messages")


def missing_required(site: CallSite) -> Optional[Block]:
    """Why a call written with keywords only cannot move: it gives no ``model`` or ``messages``."""
    if any(arg.keyword is None for arg in site.call.args):
        return None  # positional or ``**`` arguments: whatever they give is checked where they are mapped
    missing = [name for name in REQUIRED if not site.has_argument(name)]
    if not missing:
        return None
    return Block(f"it does not give {' or '.join(f'`{name}`' for name in missing)}, without which the SDK raises `TypeError` before sending")
