"""An agent class built with its tools and the functions behind them, as tutorials write it."""

import json

from openai import OpenAI


def add(a, b):
    return a + b


class Agent:
    def __init__(self, system, tools, functions):
        self.client = OpenAI()
        self.system = system
        self.messages = [{"role": "system", "content": system}]
        self.tools = tools
        self.functions = functions

    def reset(self):
        self.messages = [{"role": "system", "content": self.system}]

    def run(self, prompt):
        self.messages.append({"role": "user", "content": prompt})
        while True:
            response = self.client.chat.completions.create(model="gpt-4o-mini", messages=self.messages, tools=self.tools)
            message = response.choices[0].message
            self.messages.append(message)
            if not message.tool_calls:
                return message.content
            for tool_call in message.tool_calls:
                arguments = json.loads(tool_call.function.arguments)
                result = self.functions[tool_call.function.name](**arguments)
                print(f"{tool_call.function.name}({arguments}) = {result}")
                self.messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": str(result)})


agent = Agent(
    "You are a careful calculator.",
    [
        {
            "type": "function",
            "function": {
                "name": "add",
                "description": "Add two numbers",
                "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
            },
        }
    ],
    {"add": add},
)
print(agent.run("What is 2 + 40?"))
agent.reset()
print(agent.run("Say done."))
