import json
from typing import Any, Callable, Dict

from openai import OpenAI


def _responses_tools(tools: Any) -> Any:
    """Chat Completions tools in the Responses shape: a function's definition flat, not strict
    unless it says so (Responses makes functions strict by default), no parameters if it has none."""
    if not isinstance(tools, (list, tuple)):
        return tools  # None, or the SDK's marker for "not given"
    flat = []
    for tool in tools:
        if tool.get("type") != "function" or "function" not in tool:
            raise ValueError(f"a {tool.get('type')!r} tool has no Responses shape the migration knows: convert it by hand")
        function = {"parameters": {"type": "object", "properties": {}}, "strict": False, **tool["function"]}
        flat.append({"type": "function", **function})
    return flat


client = OpenAI()


def run_agent(messages, tools, functions: Dict[str, Callable[..., Any]]) -> str:
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=_responses_tools(tools))
    if any(item.type == "function_call" for item in response.output):
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            result = functions[tool_call.name](**json.loads(tool_call.arguments))
            messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": str(result)})
        second = client.responses.create(model="gpt-4o-mini", input=messages)
        return second.output_text or ""
    return response.output_text or ""
