from agents.agent import run_agent

TOOLS = [
    {
        "type": "function",
        "function": {"name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
    }
]


def weather(city: str) -> str:
    return f"sunny in {city}"


def ask_weather(question: str) -> str:
    messages = [{"role": "system", "content": "You report the weather."}]
    messages.append({"role": "user", "content": question})
    return run_agent(messages, TOOLS, {"weather": weather})
