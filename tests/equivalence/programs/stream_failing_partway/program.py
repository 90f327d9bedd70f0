"""Stream answers to a terminal and join others whole; the service fails partway through some
of them, which the program reports with the text it had."""

import openai
from openai import OpenAI

QUESTIONS = ["Tell me a story.", "Tell me another.", "And a third."]


def answer(client: OpenAI, question: str) -> str:
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True
    )
    return "".join(chunk.choices[0].delta.content or "" for chunk in stream)


def main() -> None:
    client = OpenAI()
    for question in QUESTIONS:
        text = ""
        try:
            stream = client.chat.completions.create(
                model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True
            )
            for chunk in stream:
                if chunk.choices and chunk.choices[0].delta.content:
                    text += chunk.choices[0].delta.content
        except openai.APIError as error:
            print(f"failed after {text!r}: {error.message}")
            continue
        print(f"answer: {text}")
    for question in QUESTIONS[:2]:
        try:
            print("joined:", answer(client, question))
        except openai.APIError as error:
            print("joined answer failed:", error.message)


if __name__ == "__main__":
    main()
