"""Functions that guard their reads of the answer against a completion without one."""

from typing import Optional

from openai import OpenAI

client = OpenAI()


def first(q: str) -> str:
    response = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    return response.choices[0].message.content if response.choices else ""


def second(q: str) -> str:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    if completion and completion.choices:
        return completion.choices[0].message.content or ""
    return ""


def third(q: str) -> Optional[str]:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    if not completion.choices:
        # nothing came back
        return None
    return completion.choices[0].message.content


def fourth(q: str) -> str:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    if completion.choices:
        text = completion.choices[0].message.content or ""
        print("got", len(text))
    else:
        text = "none"
    return text


def fifth(q: str) -> str:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    if not completion.choices:
        raise RuntimeError("no answer")
    else:
        print("answered")
    return completion.choices[0].message.content or ""


def sixth(q: str, verbose: bool) -> str:
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": q}])
    if not completion.choices:
        return ""
    elif verbose:
        print("answered:", completion.choices[0].message.content)
    return completion.choices[0].message.content or ""


def main() -> None:
    print(first("Name a sea."), second("Name a lake."), third("Name a river."), sep=" | ")
    print(fourth("Name a bay."), fifth("Name a strait."), sixth("Name a gulf.", True), sep=" | ")


if __name__ == "__main__":
    main()
