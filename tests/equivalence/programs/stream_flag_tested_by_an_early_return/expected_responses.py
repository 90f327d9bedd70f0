"""A helper that streams or not on a flag, and returns early when it does not."""

from openai import OpenAI

client = OpenAI()


def ask(question, stream=False):
    response = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        stream=stream,
    )
    if not stream:
        return response.output_text or ""
    text = ""
    for event in response:
        if event.type == "response.output_text.delta":
            piece = event.delta
            text += piece
    return text


print(ask("Name a river."))
print(ask("Name a mountain.", stream=True))
