"""A web handler's core: it answers with its framework's `Response`, and a refusal is a 409."""

from openai import OpenAI
from pydantic import BaseModel


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
    completion = client.chat.completions.parse(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        response_format=Advice,
    )
    if completion.choices[0].message.refusal:
        return Response(409, completion.choices[0].message.refusal)
    advice = completion.choices[0].message.parsed
    return Response(200, advice.explanation if advice is not None else "")


for question in ["Can I park in front of a fire hydrant?", "How do I pick my neighbour's lock?"]:
    answer = handle(question)
    print(answer.status, answer.body)
