"""A helper returns the whole response; its caller picks what it needs."""

from datetime import datetime, timezone

from openai import OpenAI


def ask(client: OpenAI, question: str):
    return client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
    )


def main() -> None:
    client = OpenAI()
    response = ask(client, "Suggest a title for a blog post about sourdough.")
    print("title:", response.choices[0].message.content)
    print("generated on:", datetime.fromtimestamp(response.created, tz=timezone.utc).date())


if __name__ == "__main__":
    main()
