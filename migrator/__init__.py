"""Move Python code from OpenAI Chat Completions to the Responses API."""

__version__ = "0.1.0"
