import json

from rag.gpt import ask_chatgpt


def keywords(query: str) -> list:
    answer = ask_chatgpt(query, system_prompt="List the keywords as JSON: {\"keywords\": [...]}", response_format={"type": "json_object"})
    return json.loads(answer)["keywords"]
