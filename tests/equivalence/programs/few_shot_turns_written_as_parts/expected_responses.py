"""A translator primed with an example exchange, every turn written as content parts (as the
playground exports them): the assistant's example is one text part."""

from openai import OpenAI

client = OpenAI()


def translate(text):
    response = client.responses.create(
        model="gpt-4o-mini",
        input=[
            {"role": "system", "content": [{"type": "input_text", "text": "Translate to French. Answer with the translation only."}]},
            {"role": "user", "content": [{"type": "input_text", "text": "Good morning"}]},
            {"role": "assistant", "content": "Bonjour"},
            {"role": "user", "content": [{"type": "input_text", "text": text}]},
        ],
    )
    return response.output_text


print(translate("Good night"))
