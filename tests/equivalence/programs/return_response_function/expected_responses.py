"""A helper returns the whole response; its caller picks what it needs."""

from datetime import datetime, timezone

from openai import OpenAI


def ask(client: OpenAI, question: str):
    return client.responses.create(
        model="gpt-4o-mini",
        input=question,
    )


def main() -> None:
    client = OpenAI()
    response = ask(client, "Suggest a title for a blog post about sourdough.")
    print("title:", response.output_text)
    print("generated on:", datetime.fromtimestamp(int(response.created_at), tz=timezone.utc).date())


if __name__ == "__main__":
    main()
