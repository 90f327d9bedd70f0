from openai.types.responses import Response

from .llm import complete


def answer(question: str) -> str:
    completion: Response = complete(question)
    return (completion.output_text or "").strip()
