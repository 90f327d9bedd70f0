import json
from typing import Any, Callable, Dict

from openai import OpenAI

client = OpenAI()


def run_agent(messages, tools, functions: Dict[str, Callable[..., Any]]) -> str:
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=tools)
    message = response.choices[0].message
    if message.tool_calls:
        messages.append(message)
        for tool_call in message.tool_calls:
            result = functions[tool_call.function.name](**json.loads(tool_call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": str(result)})
        second = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
        return second.choices[0].message.content or ""
    return message.content or ""
