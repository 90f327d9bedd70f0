"""A small agent class: its conversation lives on `self.messages`, the model calls a tool until it
can answer, and `reset` starts a new conversation."""

import json

from openai import OpenAI

client = OpenAI()


class Agent:
    def __init__(self, model="gpt-4o-mini"):
        self.model = model
        self.messages = [{"role": "system", "content": "You are a careful calculator."}]
        self.tools = [
            {
                "type": "function",
                "function": {
                    "name": "add",
                    "description": "Add two numbers",
                    "parameters": {
                        "type": "object",
                        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                        "required": ["a", "b"],
                    },
                },
            }
        ]

    def add(self, a, b):
        return a + b

    def reset(self):
        self.messages = [{"role": "system", "content": "You are a careful calculator."}]

    def run(self, prompt):
        self.messages.append({"role": "user", "content": prompt})
        while True:
            response = client.chat.completions.create(model=self.model, messages=self.messages, tools=self.tools)
            message = response.choices[0].message
            self.messages.append(message)
            if not message.tool_calls:
                return message.content
            for tool_call in message.tool_calls:
                arguments = json.loads(tool_call.function.arguments)
                result = getattr(self, tool_call.function.name)(**arguments)
                print(f"{tool_call.function.name}({arguments}) = {result}")
                self.messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": str(result)})


agent = Agent()
print(agent.run("What is 2 + 40?"))
agent.reset()
print(agent.run("Say done."))
