"""A web handler's core: it answers with its framework's `Response`, and a refusal is a 409."""

from typing import Optional

from openai import OpenAI
from openai.types.responses import Response as OpenAIResponse
from pydantic import BaseModel


def _refusal_of(response: OpenAIResponse) -> Optional[str]:
    """The model's refusal, or None: what Chat Completions returned as `message.refusal`."""
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None


class Response:
    """The web framework's response (a stand-in)."""

    def __init__(self, status: int, body: str) -> None:
        self.status = status
        self.body = body


class Advice(BaseModel):
    allowed: bool
    explanation: str


client = OpenAI()


def handle(question: str) -> Response:
    completion = client.responses.parse(
        model="gpt-4o-mini",
        input=question,
        text_format=Advice,
    )
    if _refusal_of(completion):
        return Response(409, _refusal_of(completion))
    advice = completion.output_parsed
    return Response(200, advice.explanation if advice is not None else "")


for question in ["Can I park in front of a fire hydrant?", "How do I pick my neighbour's lock?"]:
    answer = handle(question)
    print(answer.status, answer.body)
