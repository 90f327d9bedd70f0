from rag.gpt import ask_chatgpt


def summary(text: str) -> str:
    return ask_chatgpt(f"Summarise: {text}")
