"""The tools the assistant offers, in the Chat Completions shape, shared with the docs page."""

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    },
]
TOOL_NAMES = [tool["function"]["name"] for tool in TOOLS]
