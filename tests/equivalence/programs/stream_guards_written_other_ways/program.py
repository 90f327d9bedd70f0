"""Stream loops guarding the text in four common ways: an `or` of two tests before `continue`, a
conditional expression, the delta tested before its content, and `hasattr` of its content."""

from openai import OpenAI

client = OpenAI()


def skip_without_text(question):
    answer = ""
    for chunk in client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True):
        if not chunk.choices or not chunk.choices[0].delta.content:
            continue
        answer += chunk.choices[0].delta.content
    return answer


def pieces(question):
    for chunk in client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True):
        text = chunk.choices[0].delta.content if chunk.choices else None
        if text:
            yield text


def delta_tested_first(question):
    parts = []
    for chunk in client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True):
        delta = chunk.choices[0].delta
        if delta and delta.content:
            parts.append(delta.content)
    return "".join(parts)


def delta_tested_with_hasattr(question):
    answer = ""
    for chunk in client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True):
        delta = chunk.choices[0].delta
        if hasattr(delta, "content") and delta.content:
            answer += delta.content
    return answer


print(skip_without_text("Name a colour."))
print("|".join(pieces("Name a fruit.")) != "", "".join(pieces("Name a tree.")))
print(delta_tested_first("Name a bird."))
print(delta_tested_with_hasattr("Name a river."))
