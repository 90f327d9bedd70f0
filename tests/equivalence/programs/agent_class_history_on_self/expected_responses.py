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
                "name": "add",
                "description": "Add two numbers",
                "parameters": {
                    "type": "object",
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                    "required": ["a", "b"],
                },
                "strict": False,
            }
        ]

    def add(self, a, b):
        return a + b

    def reset(self):
        self.messages = [{"role": "system", "content": "You are a careful calculator."}]

    def run(self, prompt):
        self.messages.append({"role": "user", "content": prompt})
        while True:
            response = client.responses.create(model=self.model, input=self.messages, tools=self.tools)
            self.messages.extend(response.output)
            if not any(item.type == "function_call" for item in response.output):
                return response.output_text
            for tool_call in [item for item in response.output if item.type == "function_call"]:
                arguments = json.loads(tool_call.arguments)
                result = getattr(self, tool_call.name)(**arguments)
                print(f"{tool_call.name}({arguments}) = {result}")
                self.messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": str(result)})


agent = Agent()
print(agent.run("What is 2 + 40?"))
agent.reset()
print(agent.run("Say done."))
