"""Stream loops guarding the text in four common ways: an `or` of two tests before `continue`, a
conditional expression, the delta tested before its content, and `hasattr` of its content."""

from openai import OpenAI

client = OpenAI()


def skip_without_text(question):
    answer = ""
    for event in client.responses.create(model="gpt-4o-mini", input=question, stream=True):
        if event.type == "response.output_text.delta":
            if not event.delta:
                continue
            answer += event.delta
    return answer


def pieces(question):
    for event in client.responses.create(model="gpt-4o-mini", input=question, stream=True):
        if event.type == "response.output_text.delta":
            text = event.delta
            if text:
                yield text


def delta_tested_first(question):
    parts = []
    for event in client.responses.create(model="gpt-4o-mini", input=question, stream=True):
        if event.type == "response.output_text.delta":
            parts.append(event.delta)
    return "".join(parts)


def delta_tested_with_hasattr(question):
    answer = ""
    for event in client.responses.create(model="gpt-4o-mini", input=question, stream=True):
        if event.type == "response.output_text.delta":
            answer += event.delta
    return answer


print(skip_without_text("Name a colour."))
print("|".join(pieces("Name a fruit.")) != "", "".join(pieces("Name a tree.")))
print(delta_tested_first("Name a bird."))
print(delta_tested_with_hasattr("Name a river."))
