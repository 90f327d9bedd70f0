"""A script that reuses its names: each prompt's answer is parsed into the same name, and the
response is deleted once read."""

import json

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    for city in ["Tokyo", "Lagos"]:
        reply = client.responses.create(
            model="gpt-4o-mini",
            input=f"Give the country of {city} as JSON.",
        )
        text = reply.output_text or "{}"
        reply = json.loads(text)
        print(city, reply["country"])
        del reply
    summary = client.responses.create(
        model="gpt-4o-mini",
        input="Which of the two is larger?",
    )
    print(summary.output_text)
    summary = summary.output_text.upper()
    print(summary)


if __name__ == "__main__":
    main()
