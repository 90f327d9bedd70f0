"""Move Python code from OpenAI Chat Completions to the Responses API."""

__version__ = "0.1.0"
TOOL_NAME = "responses-migrator"  # the distribution's name, as machine-readable reports name the tool
