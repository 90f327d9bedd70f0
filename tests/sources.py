"""Source texts that tests in more than one file read."""

# Three calls; the second is blocked by what is done with its result four lines below it.
THREE_CALLS = """from openai import OpenAI

client = OpenAI()


def first(q):
    return client.chat.completions.create(model="m", messages=[{"role": "user", "content": q}]).choices[0].message.content


def second(q):
    resp = client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": q}],
    )
    history.append(resp)
    return resp.choices[0].message.content


def third(q):
    return client.chat.completions.create(model="m", messages=[{"role": "user", "content": q}]).choices[0].message.content
"""
