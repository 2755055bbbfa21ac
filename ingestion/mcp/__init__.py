"""The MCP server: exact-citation tools over the core's services (``server``), their
thin adapter (``adapter``), amendment instructions read from amending text
(``amendments``) and the bearer-token door (``auth``)."""
