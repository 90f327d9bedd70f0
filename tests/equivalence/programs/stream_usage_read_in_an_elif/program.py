"""A stream read with one if/elif: the text of the chunks with choices, the usage of the last."""

from openai import OpenAI

client = OpenAI()


def ask(question):
    text = ""
    tokens = 0
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        stream=True,
        stream_options={"include_usage": True},
    )
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        elif chunk.usage is not None:
            tokens = chunk.usage.prompt_tokens + chunk.usage.completion_tokens
    return text, tokens


answer, tokens = ask("Describe a harbour at dawn.")
print(answer)
print("tokens:", tokens)
