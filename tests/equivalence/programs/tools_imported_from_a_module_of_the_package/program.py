from assistant.chat import ask
from assistant.tools import TOOL_NAMES

print("tools:", ", ".join(TOOL_NAMES))
print(ask("What is the weather in Lyon?"))
