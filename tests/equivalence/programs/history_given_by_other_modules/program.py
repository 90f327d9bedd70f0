from agents.chat import reply
from agents.weather import ask_weather

print(ask_weather("What is the weather in Lyon?"))
print(reply("Ada", "Say hi."))
