"""A stream read with one if/elif: the text of the chunks with choices, the usage of the last."""

from openai import OpenAI

client = OpenAI()


def ask(question):
    text = ""
    tokens = 0
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        stream=True,
    )
    for event in stream:
        if event.type == "response.output_text.delta":
            text += event.delta
        elif event.type in ("response.completed", "response.incomplete") and event.response.usage is not None:
            tokens = event.response.usage.input_tokens + event.response.usage.output_tokens
    return text, tokens


answer, tokens = ask("Describe a harbour at dawn.")
print(answer)
print("tokens:", tokens)
