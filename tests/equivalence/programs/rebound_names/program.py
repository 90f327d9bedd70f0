"""A script that reuses its names: each prompt's answer is parsed into the same name, and the
response is deleted once read."""

import json

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    for city in ["Tokyo", "Lagos"]:
        reply = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": f"Give the country of {city} as JSON."}],
        )
        message = reply.choices[0].message
        text = message.content or "{}"
        reply = json.loads(text)
        print(city, reply["country"])
        del reply
    summary = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Which of the two is larger?"}],
    )
    print(summary.choices[0].message.content)
    summary = summary.choices[0].message.content.upper()
    print(summary)


if __name__ == "__main__":
    main()
