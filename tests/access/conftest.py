"""The live server of the MCP tests serves these tests too."""

from tests.mcp.conftest import live_url

__all__ = ["live_url"]
