from openai.types.chat import ChatCompletion

from .llm import complete


def answer(question: str) -> str:
    completion: ChatCompletion = complete(question)
    return (completion.choices[0].message.content or "").strip()
