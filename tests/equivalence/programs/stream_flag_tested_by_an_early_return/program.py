"""A helper that streams or not on a flag, and returns early when it does not."""

from openai import OpenAI

client = OpenAI()


def ask(question, stream=False):
    response = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        stream=stream,
    )
    if not stream:
        return response.choices[0].message.content or ""
    text = ""
    for chunk in response:
        piece = chunk.choices[0].delta.content or ""
        text += piece
    return text


print(ask("Name a river."))
print(ask("Name a mountain.", stream=True))
