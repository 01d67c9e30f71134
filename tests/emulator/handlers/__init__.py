"""Resource handlers; importing this package fills the route table."""

from . import account, agent_network, groups, identity, instance, network, networks, peers, policies, reverse_proxy, users  # noqa: F401  (registers routes)
from .base import ROUTER, Ctx

__all__ = ["ROUTER", "Ctx"]
