"""Functions that guard their reads of the answer against a completion without one."""

from typing import Optional

from openai import OpenAI

client = OpenAI()


def first(q: str) -> str:
    response = client.responses.create(model="gpt-4o-mini", input=q)
    return response.output_text


def second(q: str) -> str:
    completion = client.responses.create(model="gpt-4o-mini", input=q)
    if completion:
        return completion.output_text or ""
    return ""


def third(q: str) -> Optional[str]:
    completion = client.responses.create(model="gpt-4o-mini", input=q)
    return completion.output_text


def fourth(q: str) -> str:
    completion = client.responses.create(model="gpt-4o-mini", input=q)
    text = completion.output_text or ""
    print("got", len(text))
    return text


def fifth(q: str) -> str:
    completion = client.responses.create(model="gpt-4o-mini", input=q)
    print("answered")
    return completion.output_text or ""


def sixth(q: str, verbose: bool) -> str:
    completion = client.responses.create(model="gpt-4o-mini", input=q)
    if verbose:
        print("answered:", completion.output_text)
    return completion.output_text or ""


def main() -> None:
    print(first("Name a sea."), second("Name a lake."), third("Name a river."), sep=" | ")
    print(fourth("Name a bay."), fifth("Name a strait."), sixth("Name a gulf.", True), sep=" | ")


if __name__ == "__main__":
    main()
