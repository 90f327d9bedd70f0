"""A translator primed with an example exchange, every turn written as content parts (as the
playground exports them): the assistant's example is one text part."""

from openai import OpenAI

client = OpenAI()


def translate(text):
    response = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": [{"type": "text", "text": "Translate to French. Answer with the translation only."}]},
            {"role": "user", "content": [{"type": "text", "text": "Good morning"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Bonjour"}]},
            {"role": "user", "content": [{"type": "text", "text": text}]},
        ],
    )
    return response.choices[0].message.content


print(translate("Good night"))
