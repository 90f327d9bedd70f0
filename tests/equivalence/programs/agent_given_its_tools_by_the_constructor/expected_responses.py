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
            response = self.client.responses.create(model="gpt-4o-mini", input=self.messages, tools=self.tools)
            self.messages.extend(response.output)
            if not any(item.type == "function_call" for item in response.output):
                return response.output_text
            for tool_call in [item for item in response.output if item.type == "function_call"]:
                arguments = json.loads(tool_call.arguments)
                result = self.functions[tool_call.name](**arguments)
                print(f"{tool_call.name}({arguments}) = {result}")
                self.messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": str(result)})


agent = Agent(
    "You are a careful calculator.",
    [
        {
            "type": "function",
            "name": "add",
            "description": "Add two numbers",
            "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
            "strict": False,
        }
    ],
    {"add": add},
)
print(agent.run("What is 2 + 40?"))
agent.reset()
print(agent.run("Say done."))
